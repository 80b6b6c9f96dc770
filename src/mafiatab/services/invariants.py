"""The tournament-wide invariants (`domain.invariants`) over the stored record.

`gather` reads what the pure check needs from the database, in the caller's transaction:
the games' protocols, each table's seating (its newest seating revision, the seating page's
and the check-in desk's), the replacements on record (the desk's and the protocol form's,
from the audit log: who, when, why), the withdrawals and the stage order. Every write path
of a protocol asks `game_problems` before it commits (`services.protocols` at check,
submit and confirm), the head judge's pages show `TournamentCheck.problems`, and a test
calls `TournamentCheck.problems(tournament)` after every step.

Which revision speaks for a game: the one being written for the game a step writes; for
the others, the confirmed revision (`confirmed=True`, what the standings count) or the
newest one, where a draft still being typed counts with the players seated at its table
(a judge's unfinished typing at one table never refuses another table's step).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, cast

import msgspec
from sqlalchemy import Select, bindparam, case, exists, func, select
from sqlalchemy.orm import Session

from mafiatab.domain import protocol as model
from mafiatab.domain.invariants import (
    Game,
    Replacement,
    Withdrawal,
    check_tournament,
    problems_of_game,
    removed_from_tournament,
    seated_players,
)
from mafiatab.domain.problems import Problem
from mafiatab.services.rights import Act, TournamentRef, require
from mafiatab.services.store import Store, aware, profile_of, tournament_row
from mafiatab.services.tournaments import decode_game
from mafiatab.storage import models as db
from mafiatab.storage.models import DRAFT, RETURNED

#: the reason of a seating revision (`services.seating_web.SEATING_REASON`)
SEATING_REASON: Final = "seating"
#: the audit actions that put a player in another's seat after the seating
REPLACE_ACTIONS: Final = ("replace_no_show", "replace_player")


class _Seat(msgspec.Struct, frozen=True):
    seat: int
    player: str = ""


class _Penalty(msgspec.Struct, frozen=True):
    kind: str = ""
    rule: str | None = None


class _Scores(msgspec.Struct, frozen=True):
    penalties: list[_Penalty] = []


class _Played(msgspec.Struct, frozen=True):
    """The fields of a stored protocol the check reads (the rest is skipped unread)."""

    id: str
    stage: str
    round: int
    table: int
    seats: list[_Seat] = []
    scores: dict[int, _Scores] = {}
    log: list[Any] | None = None


_PLAYED: Final = msgspec.json.Decoder(_Played)


def _read(text: str) -> Game:
    try:
        return _PLAYED.decode(text)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return decode_game(text)  # the careful reader says what is wrong elsewhere


@dataclass(slots=True)
class Record:
    """What the check reads of one stored tournament."""

    games: dict[str, Game]
    states: dict[str, str]
    stages: list[str]
    seating: dict[str, list[str]]
    replacements: list[Replacement]
    withdrawals: list[Withdrawal]
    names: Mapping[str, str] = field(default_factory=dict)


def _seats(game: Game) -> list[str]:
    return [s.player for s in sorted(game.seats, key=lambda x: x.seat)]


_REPLACED: Final = (select(db.AuditEntry.user_name, db.AuditEntry.at, db.AuditEntry.detail)
                   .where(db.AuditEntry.tournament_id == bindparam("tid"),
                          db.AuditEntry.action.in_(REPLACE_ACTIONS))
                   .order_by(db.AuditEntry.id))


def _replacements(s: Session, tid: int) -> list[Replacement]:
    out: list[Replacement] = []
    for user, at, d in s.execute(_REPLACED, {"tid": tid}):
        before = d.get("before", d.get("absent"))
        after = d.get("after", d.get("reserve"))
        if isinstance(d.get("game"), str) and isinstance(d.get("seat"), int) and (
                isinstance(before, str) and isinstance(after, str)):
            out.append(Replacement(d["game"], d["seat"], before, after, user,
                                   aware(at).isoformat(), str(d.get("reason") or "")))
    return out


class _Names(Mapping[str, str]):
    """The tournament's player ids and nicknames, read (in the caller's transaction) the
    first time a problem names a player: most checks find none, and a tournament has
    hundreds of players."""

    def __init__(self, s: Session, tid: int) -> None:
        self._s, self._tid = s, tid
        self._names: dict[str, str] | None = None

    def _read(self) -> dict[str, str]:
        if self._names is None:
            self._names = {code: nick for code, nick in self._s.execute(
                _NAMES, {"tid": self._tid})}
        return self._names

    def __getitem__(self, key: str) -> str:
        return self._read()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())


# the check's queries, built once (a statement built anew costs more than its run)
_REV: Final = db.ProtocolRevision
_EVENT: Final = db.GameLogEvent
_STAGES: Final = (select(db.Stage.code).where(db.Stage.tournament_id == bindparam("tid"))
                  .order_by(db.Stage.position))
_WITHDRAWN: Final = select(func.count(db.Participant.id)).where(
    db.Participant.tournament_id == bindparam("tid"), db.Participant.withdrawn.is_(True))
_NAMES: Final = (select(db.Participant.code, db.Player.nickname)
                 .join(db.Player, db.Player.id == db.Participant.player_id)
                 .where(db.Participant.tournament_id == bindparam("tid")))
#: a game whose stored log (its rows) may disqualify somebody
_LOG_DISQUALIFIES: Final = exists().where(_EVENT.game_id == db.Game.id,
                                          _EVENT.event.contains("disqualif"))


_Heads = Select[int, str, str, str, int | None, int | None]


def _heads(confirmed: bool, focused: bool) -> _Heads:
    number = db.Game.confirmed_revision if confirmed else db.Game.head_revision
    where = db.Game.tournament_id == bindparam("tid")
    if focused:
        here = (select(db.Game.id).join(db.GameTable, db.GameTable.id == db.Game.table_id)
                .join(db.Round, db.Round.id == db.GameTable.round_id)
                .join(db.Stage, db.Stage.id == db.Round.stage_id)
                .where(db.Game.tournament_id == bindparam("tid"),
                       db.Stage.code == bindparam("stage"),
                       db.Round.number == bindparam("round")))
        where = where & (db.Game.id.in_(here) | (db.Game.code == bindparam("code"))
                         | _REV.protocol.contains("disqualif")
                         | (_REV.log_length.is_not(None) & _LOG_DISQUALIFIES))
    # columns, not whole rows: a revision's audit columns are of no use here
    return (select(db.Game.id, db.Game.code, _REV.state, _REV.protocol, _REV.log_length,
                   _REV.log_head)
            .join(_REV, (_REV.game_id == db.Game.id) & (_REV.number == number))
            .where(where).order_by(db.Game.position))


_HEADS: Final = {(c, f): _heads(c, f) for c in (False, True) for f in (False, True)}
#: the events of stored logs the check reads (a disqualification); the others' rows only
#: as links of their paths, and only of the games with such an event on any path
_LOG_ROWS: Final = select(
    _EVENT.game_id, _EVENT.id, _EVENT.parent_id,
    case((_EVENT.event.contains("disqualif"), _EVENT.event), else_=None)).where(
    _EVENT.game_id.in_(select(_EVENT.game_id).where(
        _EVENT.game_id.in_(bindparam("games", expanding=True)),
        _EVENT.event.contains("disqualif"))))
_NEWEST_SEATING: Final = (select(_REV.game_id, func.max(_REV.number).label("n"))
                          .where(_REV.reason == SEATING_REASON).group_by(_REV.game_id)
                          .subquery())
_SEATING: Final = (select(db.Game.code, _REV.protocol)
                   .join(_NEWEST_SEATING, _NEWEST_SEATING.c.game_id == db.Game.id)
                   .join(_REV, (_REV.game_id == _NEWEST_SEATING.c.game_id)
                         & (_REV.number == _NEWEST_SEATING.c.n))
                   .where(db.Game.tournament_id == bindparam("tid"),
                          db.Game.id.in_(bindparam("games", expanding=True))))


def _stored_logs(s: Session, linked: Mapping[int, tuple[int | None, int]]
                 ) -> dict[int, list[Any]]:
    """For each game whose log is stored as rows (game id: its revision's log head and
    length), the events of that log the check reads, in order: what `removed_from_tournament`
    looks at (a disqualification) and nothing else; one query for all the games."""
    if not linked:
        return {}
    rows: dict[int, dict[int, tuple[int | None, str | None]]] = {}
    for gid, rid, parent, text in s.execute(_LOG_ROWS, {"games": list(linked)}):
        rows.setdefault(gid, {})[rid] = (parent, text)
    out: dict[int, list[Any]] = {}
    for gid, (head, length) in linked.items():
        nodes = rows.get(gid)
        if nodes is None:  # nothing of its log is read by the check
            out[gid] = []
            continue
        events: list[Any] = []
        at, seen = head, 0
        while at is not None and seen < length:
            parent, text = nodes[at]
            if text is not None:
                events.append(json.loads(text))
            at, seen = parent, seen + 1
        if seen != length:
            raise ValueError(f"the stored log of game {gid} is broken at row {head}")
        events.reverse()
        out[gid] = events
    return out


def gather(s: Session, tid: int, *, confirmed: bool = False,
           focus: Game | None = None) -> Record:
    """The tournament's record as the check reads it (see the module). `focus`: only
    what the problems of that one game depend on — the games of its round, and those
    whose protocol may remove a player (a disqualification, or a log kept apart); the
    whole record when a player has withdrawn (his earlier games say when he stopped).

    A game's log stored as rows of its own (a draft's, `services.revision_log`) comes
    with the events the check reads only (its disqualifications): the record is the
    check's, not the protocol's."""
    stages = list(s.scalars(_STAGES, {"tid": tid}))
    withdrawn = bool(s.scalar(_WITHDRAWN, {"tid": tid}))
    focused = focus is not None and not withdrawn
    params: dict[str, Any] = {"tid": tid}
    if focused:
        assert focus is not None
        params.update(stage=focus.stage, round=focus.round, code=focus.id)
    heads = s.execute(_HEADS[(confirmed, focused)], params).all()
    ids = [row[0] for row in heads]
    logs = _stored_logs(s, {gid: (head, length) for gid, _c, _st, _t, length, head in heads
                            if length is not None})
    games: dict[str, Game] = {}
    states: dict[str, str] = {}
    started: dict[str, dt.datetime] = {}
    for gid, code, state, text, _length, _head in heads:
        g = _read(text)
        if gid in logs:
            g = msgspec.structs.replace(cast(Any, g), log=logs[gid])  # a struct read
        games[code] = g
        states[code] = state
    # each table's seating: its newest seating revision
    seating: dict[str, list[str]] = {}
    for code, text in s.execute(_SEATING, {"tid": tid, "games": ids}):
        seating[code] = _seats(_read(text))
    replacements = _replacements(s, tid)
    withdrawals: list[Withdrawal] = []
    if withdrawn:
        # when each game was first written by anybody but the seating (it started then)
        for code, at in s.execute(
                select(db.Game.code, func.min(_REV.created_at))
                .join(_REV, _REV.game_id == db.Game.id)
                .where(db.Game.tournament_id == tid,
                       (_REV.reason.is_(None)) | (_REV.reason != SEATING_REASON))
                .group_by(db.Game.code)):
            started[code] = aware(at)
        withdrawals = _withdrawals(s, tid, games, stages, started)
    return Record(games, states, stages, seating, replacements, withdrawals,
                  _Names(s, tid))


def _withdrawals(s: Session, tid: int, games: Mapping[str, Game], stages: list[str],
                 started: Mapping[str, dt.datetime]) -> list[Withdrawal]:
    """Each withdrawn player and the last round he played before withdrawing (a game
    started before his newest withdrawal stays his)."""
    gone = list(s.scalars(select(db.Participant.code).where(
        db.Participant.tournament_id == tid, db.Participant.withdrawn.is_(True))))
    if not gone:
        return []
    when: dict[str, dt.datetime] = {}
    a = db.AuditEntry
    for at, detail in s.execute(select(a.at, a.detail).where(
            a.tournament_id == tid, a.action == "withdraw_player").order_by(a.id)):
        player = detail.get("player")
        if isinstance(player, str):
            when[player] = aware(at)
    order = {code: i for i, code in enumerate(stages)}
    out: list[Withdrawal] = []
    for player in gone:
        cut = when.get(player)
        last: tuple[int, tuple[str, int]] | None = None
        for code, g in games.items():
            at = started.get(code)
            if at is None or (cut is not None and at >= cut):
                continue
            if player in _seats(g):
                key = (order.get(g.stage, len(order)), g.round)
                if last is None or key > (last[0], last[1][1]):
                    last = (key[0], (g.stage, g.round))
        out.append(Withdrawal(player, last[1] if last else None))
    return out


def check_record(record: Record, t: db.Tournament) -> list[Problem]:
    """The pure check over a gathered record, with the tournament's rule profile."""
    profile, _problems = profile_of(t)
    games: list[Game] = []
    for code, g in record.games.items():
        seated = record.seating.get(code)
        if record.states.get(code) in (DRAFT, RETURNED) and seated is not None:
            # a draft still being typed counts with its table's players as seated
            now = seated_players({code: seated}, record.replacements)[code]
            g = _Played(id=g.id, stage=g.stage, round=g.round, table=g.table,
                        seats=[_Seat(i + 1, p) for i, p in enumerate(now)],
                        scores={k: _Scores([_Penalty(p.kind, p.rule) for p in v.penalties])
                                for k, v in g.scores.items()},
                        log=list(g.log) if g.log is not None else None)
        games.append(g)
    return check_tournament(games, profile, stages=record.stages, seating=record.seating,
                            replacements=record.replacements,
                            withdrawals=record.withdrawals, names=record.names)


def game_problems(s: Session, t: db.Tournament, game: model.Game) -> list[Problem]:
    """The tournament-wide problems a step on `game` answers for, with `game` as the step
    would store it (in the caller's transaction): only those that name this game."""
    record = gather(s, t.id, focus=game)
    record.games[game.id] = game
    record.states[game.id] = "written"
    return problems_of_game(check_record(record, t), game.id)


def removed_players(s: Session, t: db.Tournament) -> dict[str, str]:
    """The players removed from the tournament by any game's newest protocol (in the
    caller's transaction), each with the clause that removed him («FIIM 7.3»): the
    check-in desk seats them no more."""
    profile, _problems = profile_of(t)
    clause = profile.removal_from_tournament.clause
    out: dict[str, str] = {}
    for g in gather(s, t.id).games.values():
        for seat in removed_from_tournament(g, profile):
            out.update((x.player, clause) for x in g.seats if x.seat == seat and x.player)
    return out


def change_problems(s: Session, t: db.Tournament, game: model.Game) -> list[Problem]:
    """The problems a rewrite of a stored game answers for (a decision on an appeal or a
    protest, in the caller's transaction): those that name the game as it would be
    stored, and those it would make in any other game (a removal from the tournament,
    FIIM 7.3, of a player who has played a later round names that later game). The whole
    record is read: a decision is rare, and its reach is not one round."""
    record = gather(s, t.id)
    before = {_key(p) for p in check_record(record, t)}
    record.games[game.id] = game
    record.states[game.id] = "written"
    return [p for p in check_record(record, t)
            if p.game == game.id or _key(p) not in before]


def _key(p: Problem) -> tuple[str, str | None, int | None, str]:
    """A problem told apart from another of the record, the players' names aside."""
    return (p.code, p.game, p.seat, repr(sorted(p.params.items())))


class TournamentCheck:
    """The tournament-wide invariants of a stored tournament, one read transaction."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def problems(self, tournament: int, *, confirmed: bool = True) -> list[Problem]:
        """Every tournament-wide problem of the record: of the confirmed protocols (what
        the standings count), or with `confirmed=False` of the newest revisions (the head
        judge's view of what is coming)."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            return check_record(gather(s, tournament, confirmed=confirmed), t)


    def of_game(self, tournament: int, code: str, *, actor: str) -> list[Problem]:
        """The problems that name one game, its newest revision as it stands (what its
        confirmation would meet): the head judge's warnings on the game's page. They read
        drafts and unconfirmed revisions, so they are the staff's (the rights model's
        `MANAGE`), not public."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            require(s, actor, Act.MANAGE, TournamentRef(t.id))
            row = s.scalar(select(db.Game.id).where(db.Game.tournament_id == tournament,
                                                    db.Game.code == code))
            if row is None:
                return []
            record = gather(s, tournament)
            if code not in record.games:
                return []
            record.states[code] = "written"
            return problems_of_game(check_record(record, t), code)

    def of_protocol(self, tournament: int, game: model.Game) -> list[Problem]:
        """The problems that name a game with `game` as its protocol (as a step on it
        would meet them; what the record needs of the others only): the live screen's
        warnings, read on each of its refreshes."""
        with self.store.read() as s:
            return game_problems(s, tournament_row(s, tournament), game)

    def removed(self, tournament: int) -> set[str]:
        """The players removed from the tournament (FIIM 7.3, FSM 8.1.1) by any game's
        newest protocol: the seating seats them no more."""
        with self.store.read() as s:
            return set(removed_players(s, tournament_row(s, tournament)))

    def seated(self, tournament: int, code: str) -> list[str] | None:
        """The game's players by seat as seated, replacements on record applied; None
        when its table has no seating on record (a game entered whole)."""
        with self.store.read() as s:
            tournament_row(s, tournament)
            rev = db.ProtocolRevision
            row = s.execute(
                select(rev).join(db.Game, db.Game.id == rev.game_id)
                .where(db.Game.tournament_id == tournament, db.Game.code == code,
                       rev.reason == SEATING_REASON)
                .order_by(rev.number.desc()).limit(1)).scalar_one_or_none()
            if row is None:
                return None
            return seated_players({code: _seats(_read(row.protocol))},
                                  _replacements(s, tournament))[code]


__all__ = ["REPLACE_ACTIONS", "Record", "TournamentCheck", "change_problems", "check_record",
           "game_problems", "gather", "removed_players"]
