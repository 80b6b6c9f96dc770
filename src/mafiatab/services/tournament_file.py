"""Use cases on a tournament file: load and check it, compute its standings, record a lot.

The thin layer between the pure core and the CLI / web / storage: it reads bytes, asks the
core, and refuses a file as a whole when anything in it is wrong.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mafiatab.domain.invariants import check_tournament
from mafiatab.domain.problems import Problem, ProtocolRefused
from mafiatab.domain.protocol import Tournament
from mafiatab.domain.standings import Standings, compute_standings
from mafiatab.domain.validation import validate_tournament
from mafiatab.formats.tournament_json import dumps_tournament, read_tournament
from mafiatab.rules import OPTIONS, PROFILES, get_profile
from mafiatab.rules.profile import ExtraLimits, RuleProfile
from mafiatab.services.gamelog import apply_game_logs
from mafiatab.services.gc_pause import gc_paused


@dataclass(slots=True)
class LoadedTournament:
    tournament: Tournament
    profile: RuleProfile
    warnings: list[Problem]


def profile_for(t: Tournament) -> tuple[RuleProfile, list[Problem]]:
    """The tournament's rule profile with its switched readings; problems with options."""
    problems: list[Problem] = []
    options: dict[str, str] = {}
    base = get_profile(t.rules)
    for name, value in t.rule_options.items():
        if name not in OPTIONS or value not in OPTIONS[name]:
            problems.append(Problem("unknown_option", field="rule_options",
                                    params={"value": f"{name}={value}"}))
        elif name == "extra_scale" and base.extra_limits.value is not ExtraLimits.BY_SCALE:
            problems.append(Problem("unknown_option", field="rule_options",
                                    clause=base.extra_limits.clause,
                                    params={"value": f"{name}={value}"}))
        else:
            options[name] = value
    return get_profile(t.rules, options), problems


def load_tournament(data: bytes | str, *, invariants: bool = False) -> LoadedTournament:
    """Read and check a format-1 file; raises `ProtocolRefused` with every problem.

    `invariants`: check the tournament as a whole too (`domain.invariants`: one game a
    round, a removed player plays no more), as `mafiatab check` and every import do; a
    reading of a file for its standings checks each protocol only."""
    with gc_paused():
        return _load(data, invariants)


def _load(data: bytes | str, invariants: bool = False) -> LoadedTournament:
    tournament, problems = read_tournament(data)
    if tournament is None:
        raise ProtocolRefused(problems)
    if tournament.rules not in PROFILES:
        problems.append(Problem("unknown_rules", field="rules",
                                params={"value": tournament.rules,
                                        "choices": ", ".join(sorted(PROFILES))}))
        raise ProtocolRefused(problems)
    profile, option_problems = profile_for(tournament)
    problems.extend(option_problems)
    # a game with a log gets its protocol facts from the log (docs/gamelog.md)
    tournament, log_problems = apply_game_logs(tournament, profile)
    problems.extend(log_problems)
    problems.extend(validate_tournament(tournament, profile))
    if invariants:
        problems.extend(check_tournament(tournament.games, profile,
                                         stages=[st.id for st in tournament.stages],
                                         names={p.id: p.nickname for p in tournament.players}))
    errors = [p for p in problems if not p.warning]
    if errors:
        raise ProtocolRefused(problems)
    return LoadedTournament(tournament, profile, problems)


def load_tournament_file(path: str | Path) -> LoadedTournament:
    return load_tournament(Path(path).read_bytes())


def standings_of(loaded: LoadedTournament, stages: Iterable[str] | None = None) -> Standings:
    with gc_paused():
        return compute_standings(loaded.tournament, loaded.profile, stages)


def standings_from_bytes(data: bytes | str, stages: Iterable[str] | None = None) -> Standings:
    """What `mafiatab standings` does: the file's bytes to ranked rows."""
    with gc_paused():
        loaded = _load(data)
        standings = compute_standings(loaded.tournament, loaded.profile, stages)
        # freed by reference counting while the collector is still paused: its first
        # collection afterwards then walks the few rows kept, not every game read
        del loaded
    return standings


def write_tournament_file(t: Tournament, path: str | Path) -> None:
    """Write atomically: a temporary file in the same folder, flushed, then renamed, so a
    crash leaves either the old file or the new one, never half of one."""
    target = Path(path)
    text = dumps_tournament(t)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        # mkstemp makes the file private (0600); keep the mode of the file replaced, or give
        # a new one the usual mode (0666 less the umask)
        try:
            mode = target.stat().st_mode & 0o777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
