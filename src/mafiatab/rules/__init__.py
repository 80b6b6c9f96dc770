"""The registry of rule profiles by id, and the options a tournament may switch.

A federation lives in its profile module (its numbers, its clauses, its name in each
language) and one `register` line below; everything outside `rules/` that names a
federation or lists the rule sets reads this registry (`registered`, `choices`,
`cite`), so a third federation of the same kind is its module, its registration, its
words and its golden tests (tests/profiles/ shows one)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from mafiatab.rules.fiim2018 import FIIM2018
from mafiatab.rules.fsm import FSM, with_extra_steps_of_0_1
from mafiatab.rules.profile import (
    Distance,
    ExtraLimits,
    Ruled,
    RuleProfile,
    with_compensation_per_team,
    with_four_players_tie_rule,
)

#: every registered profile by its id (`register` adds one)
PROFILES: dict[str, RuleProfile] = {}


def register(profile: RuleProfile) -> RuleProfile:
    """Add a federation's profile to the registry (its id must be new)."""
    if profile.id in PROFILES and PROFILES[profile.id] is not profile:
        raise ValueError(f"a rule profile {profile.id!r} is registered already")
    PROFILES[profile.id] = profile
    return profile


register(FIIM2018)
register(FSM)


def registered() -> list[RuleProfile]:
    """The registered profiles, by id."""
    return [PROFILES[k] for k in sorted(PROFILES)]


def choices(lang: str = "en") -> str:
    """The registered rule sets as a help text lists them: `fiim2018 (FIIM 2018), fsm
    (FSM)`, the titles in the reader's language."""
    return ", ".join(f"{p.id} ({p.title_in(lang)})" for p in registered())


def cite(text: str, lang: str) -> str:
    """A clause or a rule set's name with every registered federation named in the
    reader's language (`FSM 8.4.3` -> `ФСМ 8.4.3`)."""
    for p in sorted(PROFILES.values(), key=lambda p: -len(p.federation)):
        name = p.federation_in(lang)
        if name != p.federation:
            text = text.replace(p.federation, name)
    return text


def federation_prefixes() -> tuple[str, ...]:
    """Every way a registered federation's name starts a clause, in every language."""
    found = {p.federation for p in PROFILES.values()}
    found |= {n for p in PROFILES.values() for n in p.names.values()}
    return tuple(sorted(found, key=lambda n: (-len(n), n)))

#: Readings a tournament can switch: option name -> value -> profile transformer.
OPTIONS: dict[str, dict[str, Callable[[RuleProfile], RuleProfile]]] = {
    "extra_scale": {
        "step_0_2": lambda p: p,
        "step_0_1": with_extra_steps_of_0_1,
    },
    # FIIM 7.6, an optional ("geographic") rule the head judge announces (FIIM 7.11)
    "fiim_7_6": {
        "off": lambda p: p,
        "on": with_four_players_tie_rule,
    },
    # a team marathon's option: Ci over the team's first-night kills and games (docs/teams.md)
    "comp_per_team": {
        "off": lambda p: p,
        "on": with_compensation_per_team,
    },
}


def get_profile(rules: str, options: Mapping[str, str] | None = None) -> RuleProfile:
    """The profile for a tournament's `rules`, with its optional readings applied.

    Raises KeyError for an unknown profile or option (the caller reports it).
    """
    profile = PROFILES[rules]
    for name, value in (options or {}).items():
        profile = OPTIONS[name][value](profile)
    return profile


__all__ = [
    "Distance",
    "ExtraLimits",
    "FIIM2018",
    "FSM",
    "OPTIONS",
    "PROFILES",
    "RuleProfile",
    "Ruled",
    "choices",
    "cite",
    "federation_prefixes",
    "get_profile",
    "register",
    "registered",
]
