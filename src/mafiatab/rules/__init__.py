"""Rule profiles by name: `fiim2018` and `fsm`, and the options a tournament may switch."""

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

PROFILES: dict[str, RuleProfile] = {FIIM2018.id: FIIM2018, FSM.id: FSM}

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
    "get_profile",
]
