"""Use case: the judge's live screen records a game's log as it happens.

The screen sends *operations*: an event of the log (docs/gamelog.md), or the undo of the
last one. A phone in a hall loses its connection, so the screen queues operations and
sends them later, maybe twice (a reply lost on the way); the server must apply each once
and in order. Every operation carries a client-made `id` and a sequence number `seq`
(1, 2, 3… per game, undos included). What the server remembers of them is kept beside the
log in the protocol itself (`game.other["live"]`: the ids of the log's last events, the ids
of the last `seq`, and the ids of the applied operations that are no longer in the log: the
undos and the events they took back), so that the log and its bookkeeping change in one
revision and nothing else has to know about the live screen. Every revision is a whole
protocol, so what it keeps beyond the log is bounded: the ids of the log's events are not
kept twice, and of the others only the newest `WINDOW` (a batch is at most that long, so
a retried batch is always recognised); bench/live_storage.py measures the bytes:

* an operation whose id was applied already is a duplicate: skipped, not an error;
* the first new one must carry `seq` = the last applied + 1, and the rest follow it
  without a gap, or the batch is out of order (refused whole: the screen re-reads and
  renumbers its queue);
* every new event is replayed by the game-log engine on top of the stored log; the first
  illegal one refuses the whole batch with the engine's problem (its rule), and nothing of
  the batch is stored;
* an accepted batch is stored as one new draft revision through `Protocols.save_draft`, based on
  the revision the screen names: a save in between (the protocol form, another device) is
  a `ConflictError`, as for any other edit.

Each event keeps its wall-clock time (`at`, UTC, "2026-03-07T11:30:05Z"): the tap's time
as the screen sends it (a queued tap keeps the moment it was made), unless that is in the
future or more than `MAX_AGE` old, then the server's; never earlier than the event before.
The pages show it on the tournament's clock, and a game with a video links each event to
its moment (domain/clock.py).

The facts the log gives are written into the protocol with each save: while the game
goes on, who was killed first and the best move so far (the result stays empty); when it
has ended, everything `protocol_from_log` derives (result, first killed, best move,
day-1 leavers, removal penalties). The judge then completes the protocol form as usual.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec

from mafiatab.domain import protocol as model
from mafiatab.domain.clock import instant_text, parse_instant
from mafiatab.domain.gamelog import Replayed, protocol_from_log, replay
from mafiatab.domain.gamelog_events import LOG_FORMAT, field_of
from mafiatab.domain.gamelog_state import Step
from mafiatab.domain.paper import PaperReplay, paper_replay
from mafiatab.domain.problems import Problem, ProtocolRefused, Refused
from mafiatab.rules.profile import RuleProfile
from mafiatab.services import protocols, revision_log
from mafiatab.services.clock import utcnow
from mafiatab.services.games import Games
from mafiatab.services.invariants import TournamentCheck
from mafiatab.services.tournaments import NotFound, PermissionDenied, RevisionInfo, StateError

#: the key of the live screen's bookkeeping in a protocol (format 1 keeps unknown keys)
LIVE_KEY: Final = revision_log.LIVE_KEY
#: the note on the penalties the log implies (`protocol_from_log` writes it)
FROM_LOG: Final = "from the log"
_ROLE_LIST: Final = sorted(r for r, n in model.ROLE_COUNTS.items() for _ in range(n))
#: how many ids of applied operations no longer in the log a protocol keeps (the newest);
#: a batch is at most this long (web/live.py), so a retried batch is always recognised
WINDOW: Final = 500
#: the oldest tap time taken from the screen (a phone offline for a whole evening)
MAX_AGE: Final = dt.timedelta(hours=12)
#: how far ahead of the server a screen's clock may be and still be believed
MAX_AHEAD: Final = dt.timedelta(minutes=2)


@dataclass(frozen=True, slots=True)
class Op:
    """One operation of the screen: an event of the log, or the undo of event `undo`."""

    id: str
    seq: int
    event: dict[str, Any] | None = None
    undo: str | None = None
    #: when the judge tapped (ISO, the screen's clock); None: when it arrives
    at: str | None = None


class OutOfOrder(StateError):
    """The batch does not continue the stored sequence (a gap, or an older numbering)."""

    def __init__(self, game: str, expected: int, got: int) -> None:
        self.expected = expected
        self.got = got
        super().__init__("out_of_order", game=game, expected=expected, got=got)


class LiveRefused(Refused):
    """An operation of the batch breaks a rule; nothing of the batch was stored."""

    def __init__(self, op: Op, problems: list[Problem]) -> None:
        self.op = op
        super().__init__(problems)


@dataclass(slots=True)
class LiveGame:
    """A game as the live screen sees it: the stored revision, its log and its replay."""

    revision: RevisionInfo
    game: model.Game
    profile: RuleProfile
    ids: list[str]
    done: set[str]
    seq: int
    #: None while the roles are not dealt (the seating leaves them blank)
    replayed: Replayed | None
    problems: list[Problem] = field(default_factory=list)
    #: ids of applied operations no longer in the log (undos, undone events), oldest first
    gone: list[str] = field(default_factory=list)
    #: the tournament-wide problems of the game as kept (`services.invariants`): one
    #: player at two tables, a player not seated here, a removed player playing on
    record: list[Problem] = field(default_factory=list)

    @property
    def log(self) -> list[dict[str, Any]]:
        return list(self.game.log or [])

    @property
    def dealt(self) -> bool:
        return self.replayed is not None

    @property
    def ended(self) -> bool:
        return self.replayed is not None and (
            self.replayed.ended or self.replayed.next_step().step is Step.ENDED)


def roles_of(game: model.Game) -> dict[int, str] | None:
    """The seats' roles when the ten are dealt as the rules deal them; else None."""
    roles = {s.seat: s.role for s in game.seats}
    if sorted(roles) != list(range(1, 11)) or sorted(roles.values()) != _ROLE_LIST:
        return None
    return roles


def profile_of(games: Games, tournament: int) -> RuleProfile:
    t, _players, _stages = games.tournaments.context(tournament)
    return protocols.profile_of(t)[0]


def _meta(game: model.Game) -> tuple[list[str], list[str], int]:
    """The ids of the log's events, the ids of the applied operations not in the log
    (oldest first), and the last `seq`."""
    raw = game.other.get(LIVE_KEY) or {}
    n = len(game.log or [])
    ids = [str(x) for x in raw.get("ids") or []][:n]
    # a log written elsewhere (a file, the API's draft) has no ids: name its events
    ids += [f"log-{i}" for i in range(len(ids), n)]
    in_log = set(ids)
    # an older protocol kept every id here, the log's too: those are the log's to say
    gone = [str(x) for x in raw.get("done") or [] if str(x) not in in_log]
    return ids, gone, int(raw.get("seq") or 0)


def _stored_meta(ids: list[str], gone: list[str], seq: int) -> dict[str, Any]:
    """The bookkeeping a revision keeps besides the log: its ids, and the newest
    `WINDOW` ids of operations no longer in it."""
    in_log = set(ids)
    return {"ids": ids, "done": [x for x in gone if x not in in_log][-WINDOW:], "seq": seq}


def tap_time(op: Op, now: dt.datetime, after: dt.datetime | None) -> str:
    """The wall-clock time an event keeps: the screen's, when believable, else `now`;
    never before the event before it (`after`)."""
    sent = parse_instant(op.at) if op.at is not None else None
    if sent is None and op.event is not None:
        sent = parse_instant(op.event.get("at"))
    moment = sent if sent is not None and now - MAX_AGE <= sent <= now + MAX_AHEAD else now
    if after is not None and moment < after:
        moment = after
    return instant_text(moment)


def load(games: Games, tournament: int, code: str) -> LiveGame:
    """The newest revision of the game, replayed."""
    info = games.head(tournament, code)
    game = info.game_struct()
    profile = profile_of(games, tournament)
    ids, gone, seq = _meta(game)
    roles = roles_of(game)
    done_replay = (replay(game.log or [], roles, profile, code, finish=False)
                   if roles is not None else None)
    record = TournamentCheck(games.store).of_protocol(tournament, game)
    return LiveGame(info, game, profile, ids, set(ids) | set(gone), seq, done_replay,
                    list(done_replay.problems) if done_replay else [], gone,
                    [p for p in record if not p.warning])


def load_for(games: Games, steps: protocols.Protocols, tournament: int, code: str, *,
             actor: str) -> LiveGame:
    """The live screen's read: the game as `load` gives it (the roles in it), for the
    table's judge and staff only (`PermissionDenied` for anyone else)."""
    if not steps.may_edit(tournament, code, actor):
        raise PermissionDenied("not_allowed", user=actor, action="live",
                               tournament=str(tournament), roles=["judge", "head_judge"])
    return load(games, tournament, code)


def _refuse(op: Op, code: str, index: int, detail: str) -> LiveRefused:
    return LiveRefused(op, [Problem("log_malformed", code, None, field_of(index), LOG_FORMAT,
                                    {"detail": detail})])


def apply_ops(games: Games, steps: protocols.Protocols, tournament: int, code: str,
              ops: Sequence[Op], *, actor: str, base_revision: int,
              clock: Callable[[], dt.datetime] = utcnow) -> tuple[LiveGame, int, int]:
    """Apply a batch of the screen's operations; returns the game after it, the number of
    operations applied and the number skipped as already applied. `clock`: the server's
    time, for a tap that brings none.

    One service call, one transaction (`Protocols.save_live`, its access check inside),
    and the log replayed once for the whole batch: the replay that checks the new events
    also gives the protocol's facts, its paper and the state the screen is sent back."""
    del games  # the batch reads and writes through `steps`, in its one transaction
    got: dict[str, Any] = {}

    def build(head: model.Game, profile: RuleProfile) -> model.Game | None:
        game, log, new, replayed = _batch(head, profile, code, ops, clock())
        got.update(game=game, new=new, replayed=replayed, profile=profile, log=log)
        return game if new else None

    info = steps.save_live(tournament, code, build, actor=actor, base_revision=base_revision)
    game: model.Game = info.game_struct() if got["new"] else got["game"]
    ids, gone, seq = _meta(game)
    replayed: PaperReplay | None = got["replayed"]
    state = replayed.replayed(finish=False) if replayed is not None else None
    live = LiveGame(info, game, got["profile"], ids, set(ids) | set(gone), seq, state,
                    list(state.problems) if state else [], gone, list(info.problems))
    return live, len(got["new"]), len(ops) - len(got["new"])


def _batch(head: model.Game, profile: RuleProfile, code: str, ops: Sequence[Op],
           now: dt.datetime) -> tuple[model.Game, list[dict[str, Any]], list[Op],
                                      PaperReplay | None]:
    """The protocol after the batch's new operations, its log, those operations, and the
    one replay of the log (None while the roles are not dealt). Refuses the batch with
    `OutOfOrder` or `LiveRefused`, or `ProtocolRefused` when its facts contradict what the
    protocol writes by hand."""
    ids, gone, seq = _meta(head)
    done = set(ids) | set(gone)
    new = [op for op in ops if op.id not in done]
    game = head
    log = list(head.log or [])
    roles = roles_of(game)
    if not new:
        return game, log, new, (paper_replay(log, roles, profile, code)
                                if roles is not None else None)
    for k, op in enumerate(new):
        if op.seq != seq + 1 + k:
            raise OutOfOrder(code, seq + 1 + k, op.seq)
    ids = list(ids)
    for op in new:
        if op.undo is not None:
            if not ids or ids[-1] != op.undo:
                raise _refuse(op, code, len(log), "only the last event can be undone")
            log.pop()
            ids.pop()
            continue
        event = op.event or {}
        if event.get("type") == "deal" and not log and isinstance(event.get("roles"), list):
            dealt = [str(r) for r in event["roles"]]
            if len(dealt) != 10 or sorted(dealt) != _ROLE_LIST:
                raise LiveRefused(op, [Problem("log_needs_seats", code, None, "log[0]",
                                               "scoring.md 1")])
            game = msgspec.structs.replace(game, seats=[
                msgspec.structs.replace(s, role=dealt[s.seat - 1]) for s in game.seats])
            roles = roles_of(game)
        if roles is None:
            raise LiveRefused(op, [Problem("log_needs_seats", code, None, field_of(len(log)),
                                           "scoring.md 1")])
        previous = parse_instant(log[-1].get("at")) if log else None
        log.append({**event, "at": tap_time(op, now, previous)})
        ids.append(op.id)
    # the one replay of the whole new log: the engine refuses the first illegal event
    replayed = paper_replay(log, roles, profile, code) if roles is not None else None
    if replayed is not None and not replayed.ok:
        index = _index_of(replayed.problems, len(log))
        culprit = _op_of(new, ids, index)
        raise LiveRefused(culprit, [p for p in replayed.problems if not p.warning])
    kept = set(ids)
    previous_ids = _meta(head)[0]
    undone = [i for i in previous_ids if i not in kept and not i.startswith("log-")]
    meta = _stored_meta(ids, [*gone, *undone, *(op.id for op in new)], seq + len(new))
    game = msgspec.structs.replace(game, log=log, other={**game.other, LIVE_KEY: meta})
    game, problems = facts_of(game, profile, replayed)
    if problems:
        raise ProtocolRefused(problems)
    return game, log, new, replayed


def _index_of(problems: list[Problem], n: int) -> int:
    for p in problems:
        if p.field and p.field.startswith("log[") and p.field.endswith("]"):
            inner = p.field[4:-1]
            if inner.isdigit():
                return int(inner)
    return n - 1


def _op_of(new: Sequence[Op], ids: list[str], index: int) -> Op:
    """The operation that put the event at `index` (an older event: the batch's last)."""
    if 0 <= index < len(ids):
        for op in new:
            if op.id == ids[index]:
                return op
    return new[-1]


def with_facts(game: model.Game, profile: RuleProfile) -> model.Game:
    """The protocol with the facts its log gives so far; a finished game's through
    `protocol_from_log` (a contradiction there leaves the hand-written facts)."""
    return facts_of(game, profile)[0]


def facts_of(game: model.Game, profile: RuleProfile, replayed: PaperReplay | None = None
             ) -> tuple[model.Game, list[Problem]]:
    """`with_facts`, and what in the protocol contradicts its finished log (then the game
    comes back as it was). `replayed`: the log's replay, when the caller has it."""
    roles = roles_of(game)
    if roles is None or not game.log:
        return game, []
    if replayed is None:
        replayed = paper_replay(game.log, roles, profile, game.id)
    done = replayed.replayed(finish=True)
    if not done.ok:
        return game, []
    scores = {seat: msgspec.structs.replace(sc, penalties=[
        p for p in sc.penalties if not (p.note or "").startswith(FROM_LOG)])
        for seat, sc in game.scores.items()}
    state = done.state
    probe = msgspec.structs.replace(
        game, result=state.result or "", first_killed=state.first_killed,
        best_move=list(state.best_move), day1_vote_left=state.day1_vote_left,
        scores=scores, fouls=replayed.fouls, days=replayed.days)
    if not done.ended:
        return probe, []
    derived, problems = protocol_from_log(probe, profile, done)
    return (game, problems) if problems else (derived, [])


def keep_log(games: Games, tournament: int, game: model.Game) -> model.Game:
    """The protocol form knows nothing of the log: a form save keeps the stored one (and
    the live screen's bookkeeping), so that finishing a protocol never drops its log."""
    if game.log is not None:
        return game
    try:
        head = games.head(tournament, game.id).game_struct()
    except NotFound:  # a new game has no stored log to keep
        return game
    if head.log is None:
        return game
    other = dict(game.other)
    if LIVE_KEY in head.other:
        other[LIVE_KEY] = head.other[LIVE_KEY]
    return msgspec.structs.replace(game, log=head.log, other=other)


__all__ = ["LIVE_KEY", "LiveGame", "LiveRefused", "Op", "OutOfOrder", "apply_ops", "facts_of",
           "keep_log",
           "load", "roles_of", "with_facts"]
