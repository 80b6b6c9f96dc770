"""The paper protocol's columns that nothing scores, and a protocol kept in step with its log.

FIIM 9.5 has the judge write fouls, nominations and the votes during the game; 9.10 the
explanations on the back; 8.9.1 a protest in its own box. Format 1 holds them as the
game's `fouls`, `days`, `explanations` and `protest` (docs/format.md). Nothing scores
them, but they must agree with what does: the day-one leavers with `day1_vote_left`
(FSM 8.3.6), the votes with the players at the table, a fourth foul with a removal.

A game with a log gets these columns, and the facts that score, from the log
(design.md point 4). `reconcile` is the one place that puts a protocol in step with its
log before it is stored: what the protocol leaves blank is filled from the log, what it
writes otherwise is refused (`log_contradicts`), so no protocol is ever stored, submitted
or confirmed saying something its log does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from mafiatab.domain.gamelog import Replayed, protocol_from_log, replay
from mafiatab.domain.gamelog_engine import GameReplay
from mafiatab.domain.gamelog_events import LOG_FORMAT, Lift, Speech, Vote, parse_events
from mafiatab.domain.problems import Problem, Word
from mafiatab.domain.protocol import (
    ROLE_COUNTS,
    SEATS,
    VOTE_KINDS,
    Day,
    Game,
    Nomination,
    VoteRound,
)
from mafiatab.domain.words import VOTE_KIND
from mafiatab.rules.profile import RuleProfile

#: FIIM 9.5: the judge records fouls, nominations and votes on the protocol
PAPER: Final = "FIIM 9.5"
#: the most fouls a player collects: the fourth removes him from the table (FIIM 7.1)
MAX_FOULS: Final = 4
#: the note on the penalties a log implies (`protocol_from_log` writes it)
FROM_LOG: Final = "from the log"
_ROLE_LIST: Final = sorted(r for r, n in ROLE_COUNTS.items() for _ in range(n))


def _problem(game: Game, code: str, seat: int | None, field: str, clause: str,
             **params: Any) -> Problem:
    return Problem(code, game.id, seat, field, clause, params)


def paper_clause(profile: RuleProfile) -> str:
    """The clause of the paper columns in the tournament's own rules: the profile's
    (FIIM 9.5; the course of the game where a federation numbers none), never the other
    federation's."""
    return profile.paper_clause or PAPER


def check_paper(game: Game, profile: RuleProfile) -> list[Problem]:
    """Every problem of the paper columns: seats outside 1-10, a fifth foul, a fourth
    foul without the removal the rules make of it, nominations and votes that cannot be,
    day one's leavers against `day1_vote_left`."""
    out: list[Problem] = []
    paper = paper_clause(profile)

    def seat_ok(value: int, field: str, seat: int | None = None) -> bool:
        if value in SEATS:
            return True
        out.append(_problem(game, "seat_number", seat, field, "scoring.md 1", value=value))
        return False

    for seat, n in game.fouls.items():
        if not seat_ok(seat, "fouls"):
            continue
        if not 0 <= n <= MAX_FOULS:
            out.append(_problem(game, "fouls_count", seat, "fouls", paper, value=n))
        elif n == MAX_FOULS and profile.removal_by_fouls_penalised.value:
            removed = any(p.kind in ("disqualification", "team_loss")
                          for p in (game.scores[seat].penalties if seat in game.scores else []))
            if not removed:
                out.append(_problem(game, "fouls_no_removal", seat, "fouls",
                                    profile.removal_by_fouls_penalised.clause))
    for seat in game.explanations:
        seat_ok(seat, "explanations")
    if game.protest is not None and game.protest.by is not None:
        seat_ok(game.protest.by, "protest.by")
    out.extend(_check_days(game, profile, seat_ok))
    return out


def _check_days(game: Game, profile: RuleProfile, seat_ok: Any) -> list[Problem]:
    out: list[Problem] = []
    paper = paper_clause(profile)
    seen_days: set[int] = set()
    gone = 0  # players who left by a vote before the day (an upper bound of the table)
    for day in sorted(game.days, key=lambda d: d.day):
        where = f"days.{day.day}"
        if day.day < 1:
            out.append(_problem(game, "positive_int", None, where, "format 1"))
            continue
        if day.day in seen_days:
            out.append(_problem(game, "day_twice", None, where, paper, value=day.day))
        seen_days.add(day.day)
        # night kills before the day: at least the first killed's, from day 2 on
        at_table = 10 - gone - (1 if day.day >= 2 and game.first_killed is not None else 0)
        nominees: list[int] = []
        nominators: set[int] = set()
        for n in day.nominations:
            if not seat_ok(n.seat, where + ".nominations"):
                continue
            if n.by is not None and seat_ok(n.by, where + ".nominations"):
                if n.by in nominators:
                    out.append(_problem(game, "nominates_twice", n.by, where + ".nominations",
                                        paper, day=day.day))
                nominators.add(n.by)
            if n.seat in nominees:
                out.append(_problem(game, "nominated_twice", n.seat, where + ".nominations",
                                    paper, day=day.day))
            nominees.append(n.seat)
        for k, vote in enumerate(day.votes):
            out.extend(_check_vote(game, vote, f"{where}.votes.{k + 1}", at_table, nominees,
                                   seat_ok, paper))
        for seat in day.left:
            seat_ok(seat, where + ".left")
        if day.day == 1 and day.left and len(day.left) != game.day1_vote_left:
            clause = profile.no_best_move_day1_leavers
            out.append(_problem(
                game, "day1_left_mismatch", None, "day1_vote_left",
                clause.clause if clause.value is not None else paper,
                left=len(day.left), count=game.day1_vote_left))
        gone += len(day.left)
    return out


def _check_vote(game: Game, vote: VoteRound, where: str, at_table: int, nominees: list[int],
                seat_ok: Any, paper: str) -> list[Problem]:
    out: list[Problem] = []
    if vote.kind not in VOTE_KINDS:
        out.append(_problem(game, "bad_choice", None, where, paper, value=vote.kind,
                            choices=[Word(k, *VOTE_KIND[k]) for k in VOTE_KINDS]))
    for seat, n in vote.counts.items():
        if not seat_ok(seat, where):
            continue
        if nominees and seat not in nominees:
            out.append(_problem(game, "vote_not_nominated", seat, where, paper, value=seat))
        if n < 0:
            out.append(_problem(game, "nonneg_int", seat, where, paper))
    total = sum(n for n in vote.counts.values() if n > 0) + (vote.count or 0)
    if total > at_table:
        out.append(_problem(game, "vote_too_many", None, where, paper, count=total,
                            max=at_table))
    return out


# --- the log --------------------------------------------------------------------------


def dealt_roles(game: Game) -> dict[int, str] | None:
    """The seats' roles when the ten are dealt as the rules deal them; else None."""
    roles = {s.seat: s.role for s in game.seats}
    if sorted(roles) != list(SEATS) or sorted(roles.values()) != _ROLE_LIST:
        return None
    return roles


@dataclass(slots=True)
class PaperReplay:
    """A log replayed once for everything a save needs: the paper it records (fouls, days),
    the state it reached (`finish` not applied: a live game goes on) and its problems (the
    malformed events, then the first illegal one; empty when the log is legal)."""

    fouls: dict[int, int]
    days: list[Day]
    state: GameReplay
    problems: list[Problem]

    @property
    def ok(self) -> bool:
        return not any(not p.warning for p in self.problems)

    def replayed(self, finish: bool) -> Replayed:
        """The replay as `gamelog.replay` gives it, settled by `finish` on a copy."""
        state = self.state
        if finish and not self.problems:
            state = state.clone()
            state.finish(state.count)
        return Replayed(state, list(self.problems))


def paper_from_log(log: Sequence[Any], roles: dict[int, str], profile: RuleProfile,
                   game: str | None = None) -> tuple[dict[int, int], list[Day]]:
    """The fouls and the days' nominations, votes and leavers a (legal) log records.

    Votes are counted as the rules count them: who raised no hand is counted for the last
    candidate (FIIM 5.5), so a round's counts add up to the players at the table.
    """
    done = paper_replay(log, roles, profile, game)
    return done.fouls, done.days


def paper_replay(log: Sequence[Any], roles: dict[int, str], profile: RuleProfile,
                 game: str | None = None) -> PaperReplay:
    """`paper_from_log` with the replay's state and problems: one pass over the log."""
    events, problems = parse_events(log, game)
    state = GameReplay(roles, profile, game)
    days: dict[int, Day] = {}
    for i, ev in enumerate(events):
        phase = state.phase
        before_at_table = set(state.at_table)
        # the vote is on the candidates, or, for the day's first vote, the nominees in order
        candidates = list(state.candidates) or list(state.nominations)
        departed = len(state.departures)
        votes_before = len(days[phase.number].votes) if phase.number in days else 0
        illegal = state.apply(ev, i)
        if illegal:
            problems = problems + illegal
            break
        if isinstance(ev, Speech):  # the first speech is what opens the day
            phase = state.phase
        if phase.kind != "day":
            continue
        day = days.setdefault(phase.number, Day(day=phase.number))
        if isinstance(ev, Speech) and ev.nominates is not None:
            day.nominations.append(Nomination(seat=ev.nominates, by=ev.seat))
        elif isinstance(ev, Vote) and candidates:
            counts = dict.fromkeys(candidates, 0)
            given = 0
            for key, value in (ev.votes or ev.counts or {}).items():
                n = len(value) if isinstance(value, list) else int(value)
                counts[int(key)] = counts.get(int(key), 0) + n
                given += n
            counts[candidates[-1]] += len(before_at_table) - given
            kind = "vote" if votes_before == 0 else "revote"
            day.votes.append(VoteRound(kind=kind, counts=counts))
        elif isinstance(ev, Lift):
            count = len(ev.voters) if ev.voters is not None else ev.count
            day.votes.append(VoteRound(kind="lift", count=count))
        for dep in state.departures[departed:]:
            if dep.how in ("voted", "lifted") and dep.phase.kind == "day":
                days.setdefault(dep.phase.number, Day(day=dep.phase.number)).left.append(dep.seat)
    fouls = {seat: n for seat, n in sorted(state.fouls.items()) if n}
    return PaperReplay(fouls, [days[d] for d in sorted(days)], state, problems)


def reconcile(game: Game, stored: Game | None, profile: RuleProfile) -> tuple[Game, list[Problem]]:
    """The protocol to store, in step with its log, and what contradicts the log.

    * A protocol sent without a log keeps the stored one (a form, or the API's draft,
      does not carry it), with the live screen's bookkeeping.
    * With a log and the ten roles dealt, the facts the log gives so far fill what the
      protocol leaves blank: result (once the game has ended), first killed, best move,
      day-one leavers, fouls, nominations and votes, the removals' penalties. A fact the
      protocol writes differently is a `log_contradicts` problem, and the protocol comes
      back as it was sent (nothing is half-applied).
    """
    if game.log is None and stored is not None and stored.log is not None:
        other = dict(game.other)
        for key in ("live",):
            if key in stored.other:
                other[key] = stored.other[key]
        game = msgspec.structs.replace(game, log=stored.log, other=other)
    if game.log is None:
        return game, []
    roles = dealt_roles(game)
    if roles is None:
        return game, []
    done = replay(game.log, roles, profile, game.id, finish=True)
    if not done.ok:
        return game, [p for p in done.problems if not p.warning]
    state = done.state
    problems: list[Problem] = []

    def contradicts(field: str, written: object, derived: object,
                    seat: int | None = None) -> None:
        problems.append(Problem("log_contradicts", game.id, seat, field, LOG_FORMAT,
                                {"written": _show(written), "derived": _show(derived)}))

    fouls, days = paper_from_log(game.log, roles, profile, game.id)
    for seat in sorted(set(game.fouls) | set(fouls)):
        if game.fouls and game.fouls.get(seat, 0) != fouls.get(seat, 0):
            contradicts("fouls", game.fouls.get(seat, 0), fouls.get(seat, 0), seat)
    if game.days and _days_key(game.days) != _days_key(days):
        contradicts("days", _days_text(game.days), _days_text(days))
    if not done.ended:
        if game.result:
            contradicts("result", game.result, None)
        if game.first_killed is not None and game.first_killed != state.first_killed:
            contradicts("first_killed", game.first_killed, state.first_killed)
        if game.best_move and game.best_move != list(state.best_move):
            contradicts("best_move", game.best_move, list(state.best_move))
        if game.day1_vote_left and game.day1_vote_left != state.day1_vote_left:
            contradicts("day1_vote_left", game.day1_vote_left, state.day1_vote_left)
    if problems:
        return game, problems
    scores = {seat: msgspec.structs.replace(sc, penalties=[
        p for p in sc.penalties if not (p.note or "").startswith(FROM_LOG)])
        for seat, sc in game.scores.items()}
    filled = msgspec.structs.replace(
        game, fouls=fouls, days=days, scores=scores,
        first_killed=game.first_killed if game.first_killed is not None else state.first_killed,
        best_move=game.best_move or list(state.best_move),
        day1_vote_left=game.day1_vote_left or state.day1_vote_left)
    if not done.ended:
        return filled, []
    if not filled.result:
        filled = msgspec.structs.replace(filled, result=state.result or "")
    derived, log_problems = protocol_from_log(filled, profile)
    if log_problems:
        return game, log_problems
    return derived, []


def _days_key(days: Sequence[Day]) -> list[Any]:
    return [(d.day, sorted(n.seat for n in d.nominations),
             [(v.kind, sorted(v.counts.items()), v.count) for v in d.votes], sorted(d.left))
            for d in sorted(days, key=lambda d: d.day) if d.nominations or d.votes or d.left]


def _days_text(days: Sequence[Day]) -> str:
    parts = []
    for d in days:
        noms = " ".join(f"{n.by or '?'}→{n.seat}" for n in d.nominations)
        parts.append(f"{d.day}: {noms or '—'}")
    return "; ".join(parts) or "—"


def _show(value: object) -> str:
    if value is None:
        return "—"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "—"
    return str(value)


__all__ = ["FROM_LOG", "MAX_FOULS", "PAPER", "PaperReplay", "check_paper", "dealt_roles",
           "paper_from_log", "paper_replay",
           "reconcile"]
