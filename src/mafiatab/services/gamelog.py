"""Use case: the games of a tournament that carry a log get their protocol facts from it.

One call for the loader (`services.tournament_file`) and the web app: every game's log is
replayed (`domain.gamelog.protocol_from_log`); a tournament with any illegal or
contradicting log comes back unchanged with every problem, so that nothing of a refused
file is stored.
"""

from __future__ import annotations

import msgspec

from mafiatab.domain.gamelog import protocol_from_log
from mafiatab.domain.problems import Problem
from mafiatab.domain.protocol import Tournament
from mafiatab.rules.profile import RuleProfile


def apply_game_logs(tournament: Tournament, profile: RuleProfile
                    ) -> tuple[Tournament, list[Problem]]:
    """The tournament with each logged game's facts from its log, and the logs' problems."""
    if not any(g.log is not None for g in tournament.games):
        return tournament, []
    games = []
    problems: list[Problem] = []
    for game in tournament.games:
        derived, found = protocol_from_log(game, profile)
        games.append(derived)
        problems.extend(found)
    if any(not p.warning for p in problems):
        return tournament, problems
    return msgspec.structs.replace(tournament, games=games), problems
