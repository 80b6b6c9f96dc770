"""The game log: a game recorded as it happens, and the protocol facts it gives.

FIIM 9.5 asks the judge to write fouls, nominations and votes during the game, and FIIM
section 7 changes what happens next in special situations that are easy to miss under
pressure. A log that knows the rules catches them as they happen and writes the protocol
by itself: who left when and how, the first killed, the best move, the result, the
penalties that removals imply (design.md point 4: the protocol is derived from the log
when there is one).

- `gamelog_events`: the typed events, read from the file's dicts;
- `gamelog_engine`: the replay engine (a pure state machine) and the next step;
- this module: replaying a whole log, the facts, and `protocol_from_log`.

An illegal log is refused with the rule it breaks and nothing of it is applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from mafiatab.domain.gamelog_engine import GameReplay
from mafiatab.domain.gamelog_events import (
    LOG_FORMAT,
    AnyEvent,
    field_of,
    parse_events,
)
from mafiatab.domain.gamelog_state import Facts, NextStep, Step
from mafiatab.domain.problems import Problem, Word
from mafiatab.domain.protocol import ROLE_COUNTS, Game, Penalty, SeatScores
from mafiatab.rules.profile import RuleProfile

__all__ = [
    "Facts",
    "GameReplay",
    "NextStep",
    "Replayed",
    "derive_facts",
    "protocol_from_log",
    "replay",
    "replay_events",
]

_ROLE_LIST = sorted(role for role, n in ROLE_COUNTS.items() for _ in range(n))


@dataclass(slots=True)
class Replayed:
    """A log replayed: the state it reached, and its problems (empty when legal)."""

    state: GameReplay
    problems: list[Problem]

    @property
    def ok(self) -> bool:
        return not any(not p.warning for p in self.problems)

    @property
    def ended(self) -> bool:
        return self.state.step is Step.ENDED

    def next_step(self) -> NextStep:
        return self.state.next_step()


def replay_events(events: Sequence[AnyEvent], roles: dict[int, str], profile: RuleProfile,
                  game: str | None = None, finish: bool = True) -> Replayed:
    """Apply typed events in order; stop at the first illegal one (what follows it would be
    judged against a game that did not happen)."""
    state = GameReplay(roles, profile, game)
    for i, event in enumerate(events):
        problems = state.apply(event, i)
        if problems:
            return Replayed(state, problems)
    if finish:
        state.finish(len(events))
    return Replayed(state, [])


def replay(log: Sequence[Any], roles: dict[int, str], profile: RuleProfile,
           game: str | None = None, finish: bool = True) -> Replayed:
    """Read and replay a log as written in the file (a list of dicts).

    `finish`: the log is complete, so a day whose last speech is the last event is
    settled (its only nominee leaves, or night falls); a live game passes False.
    """
    if not isinstance(log, Sequence) or isinstance(log, str | bytes):
        state = GameReplay(roles, profile, game)
        return Replayed(state, [Problem("log_malformed", game, None, "log", LOG_FORMAT,
                                        {"detail": "a list of events was expected"})])
    events, problems = parse_events(log, game)
    done = replay_events(events, roles, profile, game, finish=finish and not problems)
    return Replayed(done.state, problems + done.problems)


def derive_facts(state: GameReplay) -> Facts:
    """What the log says for the protocol."""
    limit = state.p.no_best_move_day1_leavers.value
    return Facts(
        result=state.result,
        first_killed=state.first_killed,
        best_move=list(state.best_move),
        day1_vote_left=state.day1_vote_left,
        departures=list(state.departures),
        penalties=list(state.penalties),
        applied=list(state.applied),
        fouls=dict(state.fouls),
        removed_from_tournament=list(state.removed_from_tournament),
        best_move_allowed=state.first_killed is not None and (
            limit is None or state.day1_vote_left < limit
        ),
        foul_log=list(state.foul_log),
        cancelled_votes=dict(state.cancelled),
        end=state.end_reason,
    )


def protocol_from_log(game: Game, profile: RuleProfile, done: Replayed | None = None
                      ) -> tuple[Game, list[Problem]]:
    """The game with its protocol facts taken from its log, and the log's problems.

    A game without a log comes back as it is. The facts a log gives (result, first
    killed, best move, day-1 leavers, removal penalties) fill the protocol; a fact the
    protocol also writes by hand and that differs from the log is a problem
    (`log_contradicts`), and so is every illegal event. With any error the game comes back
    unchanged: nothing of a refused log is applied. `done`: the log replayed already
    (finished), when the caller has it: then it is not replayed again.
    """
    if game.log is None:
        return game, []
    roles = {s.seat: s.role for s in game.seats}
    if sorted(roles) != list(range(1, 11)) or len(game.seats) != 10 or (
        sorted(roles.values()) != _ROLE_LIST
    ):
        return game, [Problem("log_needs_seats", game.id, None, "log", "scoring.md 1")]
    if done is None:
        done = replay(game.log, roles, profile, game.id)
    if not done.ok:
        return game, done.problems
    if not done.ended:
        step = done.next_step()
        return game, [Problem("log_unfinished", game.id, None, "log", LOG_FORMAT,
                              {"next": Word(step.step.value, step.text("ru"), step.text("en"))})]
    facts = derive_facts(done.state)
    problems = _contradictions(game, facts)
    if problems:
        return game, problems
    return _apply_facts(game, facts), []


def _contradicts(game: Game, name: str, written: object, derived: object) -> Problem:
    return Problem("log_contradicts", game.id, None, name, LOG_FORMAT,
                   {"written": _show(written), "derived": _show(derived)})


def _show(value: object) -> str:
    if value is None:
        return "—"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "—"
    return str(value)


def _contradictions(game: Game, facts: Facts) -> list[Problem]:
    problems: list[Problem] = []
    if game.result != facts.result:
        problems.append(_contradicts(game, "result", game.result, facts.result))
    if not game.broken_table:
        # FSM 7.13 (a broken table at ten) gives the best move by the judge's decision,
        # which the log does not record: such a game keeps its written first killed.
        if game.first_killed is not None and game.first_killed != facts.first_killed:
            problems.append(_contradicts(game, "first_killed", game.first_killed,
                                         facts.first_killed))
        if game.best_move and game.best_move != facts.best_move:
            problems.append(_contradicts(game, "best_move", game.best_move, facts.best_move))
    if game.day1_vote_left and game.day1_vote_left != facts.day1_vote_left:
        problems.append(_contradicts(game, "day1_vote_left", game.day1_vote_left,
                                     facts.day1_vote_left))
    derived = {(pen.seat, pen.kind): pen for pen in facts.penalties}
    for seat, sc in game.scores.items():
        for pen in sc.penalties:
            if pen.kind not in ("disqualification", "team_loss"):
                continue
            found = derived.get((seat, pen.kind))
            if found is None:
                problems.append(Problem("log_contradicts", game.id, seat, "penalties",
                                        LOG_FORMAT, {"written": pen.kind, "derived": "—"}))
            elif (pen.critical is not None and found.critical is not None
                  and pen.critical != found.critical):
                problems.append(Problem(
                    "log_contradicts", game.id, seat, "penalties.critical", LOG_FORMAT,
                    {"written": str(pen.critical).lower(),
                     "derived": str(found.critical).lower()}))
    return problems


def _apply_facts(game: Game, facts: Facts) -> Game:
    scores = dict(game.scores)
    for pen in facts.penalties:
        sc = scores.get(pen.seat, SeatScores())
        if any(have.kind == pen.kind for have in sc.penalties):
            continue
        note = f"from the log, {field_of(pen.index)}"
        added = Penalty(kind=pen.kind, critical=pen.critical, rule=pen.rule, note=note)
        scores[pen.seat] = msgspec.structs.replace(sc, penalties=[*sc.penalties, added])
    if game.broken_table:
        first_killed, best_move = game.first_killed, game.best_move
    else:
        first_killed, best_move = facts.first_killed, facts.best_move
    return msgspec.structs.replace(
        game,
        result=facts.result or game.result,
        first_killed=first_killed,
        best_move=best_move,
        day1_vote_left=facts.day1_vote_left,
        scores=scores,
    )
