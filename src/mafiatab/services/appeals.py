"""Protests and appeals in a stored tournament: the use cases around the core's
rules in `domain.appeals`, each one transaction.

The core answers "may this be filed now?" and "what does this decision do?" from the
moment, the schedule, the game's times and the tournament's earlier cases; this module
reads those from the database, passes them in, and writes what the core decided:

* filing: refused with every reason and its clause (`domain.appeals.Refused`), else a new
  case numbered in the tournament ("A1", "A2", ...);
* the thread: the player who filed, the game's judge, the head judge and the appeals
  commission write; everyone of them (and the organizer) reads;
* the decision (head judge or appeals commission, as the profile says): a changed
  protocol becomes a new *confirmed* revision, authored by the decider, its reason naming
  the case, its `changes` the diff (the storage's trace) while the decision keeps the
  core's lines (`Effect.changes`); the protocol is validated like any other first. A replay
  (FSM 8.10) takes the game out of the standings (its confirmed revision is set to 0, a
  new draft holds the seating) until the replayed game's protocol is confirmed;
* every step, refused filings included, goes to the audit log.

Where the times come from:

* the schedule: `round_times` as the organizer entered it; a round with games but not in
  it counts from its actual start (its first protocol revision, written at seating), on
  the day of its calendar date. The stored schedule should hold the last round: without
  it the latest started round is taken as the last (FSM 8.9.2), which `schedule_warnings`
  says;
* a game's end: as its judge entered it, else the first submitted (or imported) revision:
  a judge submits right after the game;
* a protocol's publication: its first confirmed revision.

`Appeals` is composed over the `Store` and `Access` (roles); it keeps no state.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final

import msgspec
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from mafiatab.domain import appeals as ap
from mafiatab.domain import protocol as model
from mafiatab.domain.problems import ProtocolRefused
from mafiatab.i18n import local_time
from mafiatab.rules.profile import RuleProfile
from mafiatab.services.access import STAFF, Access, grant_in
from mafiatab.services.accounts import (
    AccountError,
    Denied,
    account_key,
    add_code_in,
    code_account_in,
    hash_password,
)
from mafiatab.services.errors import ConflictError, ServiceError
from mafiatab.services.invariants import change_problems
from mafiatab.services.revision_log import whole
from mafiatab.services.rights import AccountRef, Act, TournamentRef, require
from mafiatab.services.store import (
    StaleRevision,
    Store,
    account_players,
    advance_head,
    check_rules,
    game_context,
    game_row,
    numbered,
    record_audit,
    require_role,
    revision_row,
    roles_in,
    tournament_row,
    user_row,
)
from mafiatab.services.tournament_file import profile_for
from mafiatab.services.tournaments import (
    NotFound,
    PermissionDenied,
    decode_game,
    diff_dicts,
    encode_game,
    record_conflict,
)
from mafiatab.storage import models as db
from mafiatab.storage.models import (
    APPEALS_COMMISSION,
    CONFIRMED,
    DRAFT,
    HEAD_JUDGE,
    JUDGE,
    ORGANIZER,
    PLAYER,
    SUBMITTED,
)


class DecidedMeanwhile(ConflictError):
    """Two decisions of one case at the same moment (two processes, or PostgreSQL's
    concurrent transactions): the one written first stands, the other is refused (409)
    naming who decided."""

    def __init__(self, *, case: str, game: str, author: str, at: dt.datetime) -> None:
        ServiceError.__init__(self, "decided_meanwhile", case=case, author=author)
        self.game, self.author, self.at = game, author, at
        self.base = self.head = 0
        self.yours: dict[str, Any] | None = None
        self.audit_id: int | None = None


#: who decides (FIIM 8.9.2, FSM 8.8.3): the account's role -> the core's role
DECIDERS: Final = {HEAD_JUDGE: ap.Role.HEAD_JUDGE, APPEALS_COMMISSION: ap.Role.APPEALS_COMMISSION}
#: who reads every case of the tournament
READ_ALL: Final = frozenset({ORGANIZER, HEAD_JUDGE, APPEALS_COMMISSION})
#: who may give a player a sign-in or enter the schedule
MANAGE: Final = STAFF
#: who reads the schedule the deadlines count from: those whom a deadline concerns
INVOLVED: Final = frozenset({ORGANIZER, HEAD_JUDGE, APPEALS_COMMISSION, JUDGE, PLAYER})


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _aware(value: dt.datetime) -> dt.datetime:
    """SQLite gives back naive datetimes, and people type them: both are UTC here."""
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


def _moment(text: str) -> dt.datetime | str:
    """A stored moment back (as the text it was, when it is not one)."""
    try:
        return _aware(dt.datetime.fromisoformat(text))
    except ValueError:
        return text


def case_id(number: int) -> str:
    return f"A{number}"


def case_number(ref: str) -> int:
    """"A3" or "3" -> 3; anything else is no case."""
    text = ref[1:] if ref[:1] in ("A", "a") else ref
    if not (text.isdecimal() and len(text) <= 9):
        raise NotFound("no_game", game=ref)
    return int(text)


@dataclass(frozen=True, slots=True)
class CaseView:
    """A case as the pages and the API show it, with what its decision did."""

    number: int
    case: ap.Case
    #: the protocol revision the decision made (None: none)
    revision: int | None
    #: what the decision changed, as data (`ChangeLine.message` puts it in words)
    changes: list[ap.ChangeLine]
    #: the decision's warnings as stored (`Refusal.as_dict`)
    warnings: list[dict[str, Any]]
    #: when the decision is due (FSM 8.9.2: before the last round), if the rules say
    decide_by: dt.datetime | None

    @property
    def id(self) -> str:
        return self.case.id

    def change_words(self, lang: str) -> list[str]:
        """What the decision changed, in the reader's words («место 10: штраф −0,4 снят»)."""
        return [line.message(lang) for line in self.changes]

    def warning_refusals(self) -> list[ap.Refusal]:
        """The stored warnings back as refusals, so that each reader gets them in his
        language and on the tournament's clock (never as stored: English, UTC)."""
        out: list[ap.Refusal] = []
        for w in self.warnings:
            if w.get("code") not in ap.MESSAGES:
                continue
            params: dict[str, Any] = {}
            for key, value in (w.get("params") or {}).items():
                if key == "deadline" and isinstance(value, str):
                    value = _moment(value)
                params[key] = value
            out.append(ap.Refusal(w["code"], w.get("clause"), params, warning=True))
        return out

    def verdict(self) -> str | None:
        """How the case ended (None: not decided): "accepted", "rejected", "replay"."""
        decision = self.case.decision
        if self.case.status is not ap.Status.DECIDED or decision is None:
            return None
        return decision.outcome.value


_FILING = msgspec.json.Decoder(ap.Filing)
_DECISION = msgspec.json.Decoder(ap.Decision)


def _to_json(record: msgspec.Struct) -> dict[str, Any]:
    """A core record as a JSON column value (Decimal points as strings: exact)."""
    out: dict[str, Any] = msgspec.to_builtins(record)
    return out


def _from_json(value: dict[str, Any], decoder: msgspec.json.Decoder[Any]) -> Any:
    return decoder.decode(msgspec.json.encode(value))


class Appeals:
    """Protests, appeals, players' accounts, the schedule and the games' times (one
    transaction each, over the `Store`)."""

    def __init__(self, store: Store, access: Access,
                 clock: Callable[[], dt.datetime] = _utcnow) -> None:
        self.store = store
        self.access = access
        #: the time filings and decisions are measured by (tests move it)
        self.clock = clock

    def _now(self, now: dt.datetime | None) -> dt.datetime:
        return _aware(now) if now is not None else self.clock()

    # --- players' accounts ------------------------------------------------------------
    def _participant(self, s: Session, tid: int, code: str) -> None:
        found = s.scalar(select(db.Participant.id).where(db.Participant.tournament_id == tid,
                                                         db.Participant.code == code))
        if found is None:
            raise NotFound("no_game", game=code)

    def link_player(self, tournament: int, player: str, user: str, *, actor: str,
                    password: str | None = None) -> None:
        """Link a tournament's player to an account (made when missing; the player role
        granted). A `password` is for a *new* account only: an account that exists keeps
        its own. Staff only; a new link replaces the old."""
        key = account_key(user)
        digest = hash_password(password) if password else None
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require(s, actor, Act.GRANT_ROLE, AccountRef(key, t.id, PLAYER))
            exists = s.scalar(select(db.User.id).where(db.User.name == key)) is not None
            if exists and digest is not None:
                raise AccountError("account_exists", user=key)
            u = self._link(s, t.id, player, key)
            if digest is not None:
                u.password_hash = digest
            record_audit(s, actor, t.id, "link_player", {"player": player, "user": key})

    def _link(self, s: Session, tid: int, player: str, user: str) -> db.User:
        self._participant(s, tid, player)
        u = grant_in(s, tid, user, PLAYER)
        s.flush()
        for row in s.scalars(select(db.PlayerUser).where(
                db.PlayerUser.tournament_id == tid,
                (db.PlayerUser.player_code == player) | (db.PlayerUser.user_id == u.id))):
            s.delete(row)
        s.flush()
        s.add(db.PlayerUser(tournament_id=tid, player_code=player, user_id=u.id))
        return u

    def player_code(self, tournament: int, player: str, *, actor: str,
                    user: str | None = None) -> tuple[str, str]:
        """A sign-in code for a player's own page (shown once): (account, code). The
        account is `user` or "<tournament>-<player>", a code account of this tournament
        (never an account that exists otherwise), linked to the player."""
        with self.store.read() as s:  # the staff's, asked before the names are looked at
            require(s, actor, Act.MANAGE, TournamentRef(tournament_row(s, tournament).id))
        if not player.strip():
            raise ServiceError("bad_input", field="player")
        key = account_key(user or f"{tournament}-{player}")
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require(s, actor, Act.ISSUE_CODE, AccountRef(key, t.id, PLAYER))
            self._participant(s, t.id, player)
            code_account_in(s, t.id, key, key)
            self._link(s, t.id, player, key)
            code = add_code_in(s, t.id, key, PLAYER, actor=actor, ttl=None)
        return key, code

    def players_of(self, tournament: int, user: str) -> set[str]:
        """The player codes the account signs in as (one, or none)."""
        with self.store.read() as s:
            return account_players(s, tournament, user)

    def linked_players(self, tournament: int, *, actor: str) -> dict[str, str]:
        """player code -> account name: which account is which player is the staff's to
        read (the rights model's `MANAGE`), not public."""
        with self.store.read() as s:
            require(s, actor, Act.MANAGE, TournamentRef(tournament_row(s, tournament).id))
            rows = s.execute(select(db.PlayerUser.player_code, db.User.name)
                             .join(db.User, db.User.id == db.PlayerUser.user_id)
                             .where(db.PlayerUser.tournament_id == tournament))
            return {p: u for p, u in rows}

    # --- the schedule and the games' times -------------------------------------------------
    def set_schedule(self, tournament: int, schedule: ap.Schedule | None, *,
                     actor: str) -> None:
        """Store the rounds' days and start times (rounds not listed keep theirs) and when
        the tables were closed. Staff only (asked first); `schedule` None: what was sent
        was no schedule (refused after the asker is checked)."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, MANAGE, "manage")
            if schedule is None:
                raise ServiceError("bad_input", field="schedule")
            stages = {code: sid for code, sid in s.execute(
                select(db.Stage.code, db.Stage.id).where(db.Stage.tournament_id == t.id))}
            for r in schedule.rounds:
                if r.stage not in stages:
                    raise NotFound("no_game", game=f"{r.stage}/{r.round}")
                rid = numbered(s, db.Round, "stage_id", stages[r.stage], r.round)
                row = s.get(db.RoundTime, rid)
                if row is None:
                    s.add(db.RoundTime(round_id=rid, day=r.day, starts_at=_aware(r.starts)))
                else:
                    row.day, row.starts_at = r.day, _aware(r.starts)
            settings = s.get(db.AppealSettings, t.id)
            if settings is None:
                settings = db.AppealSettings(tournament_id=t.id)
                s.add(settings)
            closed = schedule.tables_closed_at
            settings.tables_closed_at = _aware(closed) if closed is not None else None
            record_audit(s, actor, t.id, "set_schedule", {
                "rounds": [[r.stage, r.round, r.day, _aware(r.starts).isoformat()]
                           for r in schedule.rounds],
                "tables_closed_at": closed.isoformat() if closed else None})

    def _schedule(self, s: Session, tid: int) -> tuple[ap.Schedule, bool]:
        """The schedule (stored, and actual starts for rounds missing from it), and
        whether anything was stored."""
        stored = s.execute(
            select(db.Stage.code, db.Round.number, db.RoundTime.day, db.RoundTime.starts_at)
            .join(db.Round, db.Round.id == db.RoundTime.round_id)
            .join(db.Stage, db.Stage.id == db.Round.stage_id)
            .where(db.Stage.tournament_id == tid)).all()
        rounds = [ap.RoundTime(stage=st, round=n, day=d, starts=_aware(at))
                  for st, n, d, at in stored]
        known = {(r.stage, r.round) for r in rounds}
        actual = s.execute(
            select(db.Stage.code, db.Round.number, func.min(db.ProtocolRevision.created_at))
            .join(db.Round, db.Round.stage_id == db.Stage.id)
            .join(db.GameTable, db.GameTable.round_id == db.Round.id)
            .join(db.Game, db.Game.table_id == db.GameTable.id)
            .join(db.ProtocolRevision, db.ProtocolRevision.game_id == db.Game.id)
            .where(db.Stage.tournament_id == tid)
            .group_by(db.Stage.code, db.Round.number)).all()
        days = {r.starts.date(): r.day for r in rounds}
        derived = sorted((_aware(at), st, n) for st, n, at in actual
                         if (st, n) not in known and at is not None)
        for at, st, n in derived:
            day = days.get(at.date())
            if day is None:
                day = 1 + sum(1 for d in days if d < at.date())
                days[at.date()] = day
            rounds.append(ap.RoundTime(stage=st, round=n, day=day, starts=at))
        settings = s.get(db.AppealSettings, tid)
        closed = settings.tables_closed_at if settings is not None else None
        return (ap.Schedule(rounds=rounds,
                            tables_closed_at=_aware(closed) if closed is not None else None,
                            last_round_known=bool(stored)),
                bool(stored))

    @staticmethod
    def _involved(s: Session, t: db.Tournament, actor: str | None) -> str:
        """The actor, when a deadline concerns him (staff, the commission, a judge, a
        player); else `PermissionDenied`."""
        if actor is None or not (roles_in(s, t.id, actor) & INVOLVED
                                 or account_players(s, t.id, actor)):
            raise PermissionDenied("not_allowed", user=actor or "-", action="read",
                                   tournament=t.name, roles=sorted(INVOLVED))
        return actor

    def schedule(self, tournament: int, *, actor: str | None) -> ap.Schedule:
        """The rounds' days and starts the deadlines count from (for those involved)."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            self._involved(s, t, actor)
            return self._schedule(s, t.id)[0]

    def schedule_warnings(self, tournament: int, *, actor: str | None) -> list[str]:
        """Codes of what the head judge should know about the schedule."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            self._involved(s, t, actor)
            _sched, stored = self._schedule(s, t.id)
        return [] if stored else ["schedule_missing"]

    def set_game_end(self, tournament: int, game: str, ended: dt.datetime | None, *,
                     actor: str) -> None:
        """When the game ended (its judge or staff): FIIM 8.9.1 counts from it. `ended`
        None: no moment was sent (refused after the asker is checked)."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            roles = roles_in(s, t.id, actor)
            if not roles & (STAFF | {JUDGE}):  # an outsider learns nothing of the game
                raise PermissionDenied("not_allowed", user=actor, action="manage",
                                       tournament=t.name, roles=sorted(STAFF | {JUDGE}))
            row = game_row(s, t.id, game)
            if not roles & STAFF and not self._judges(s, t.id, row) & {actor}:
                raise PermissionDenied("not_allowed", user=actor, action="manage",
                                       tournament=t.name, roles=sorted(STAFF | {JUDGE}))
            if ended is None:
                raise ServiceError("bad_input", field="ended")
            times = s.get(db.GameTime, row.id)
            if times is None:
                s.add(db.GameTime(game_id=row.id, ended_at=_aware(ended)))
            else:
                times.ended_at = _aware(ended)
            record_audit(s, actor, t.id, "game_end", {"game": game, "ended": _aware(ended).isoformat()})

    def _times(self, s: Session, row: db.Game) -> ap.GameTimes:
        stored = s.get(db.GameTime, row.id)
        ended = stored.ended_at if stored is not None else None
        rev = db.ProtocolRevision
        if ended is None:
            ended = s.scalar(select(func.min(rev.created_at)).where(
                rev.game_id == row.id, rev.state.in_((SUBMITTED, CONFIRMED))))
        published = s.scalar(select(func.min(rev.created_at)).where(
            rev.game_id == row.id, rev.state == CONFIRMED))
        return ap.GameTimes(ended=_aware(ended) if ended is not None else None,
                            published=_aware(published) if published is not None else None)

    def game_times(self, tournament: int, game: str) -> ap.GameTimes:
        with self.store.read() as s:
            return self._times(s, game_row(s, tournament, game))

    # --- reading cases ---------------------------------------------------------------------
    def _profile(self, t: db.Tournament) -> RuleProfile:
        probe = model.Tournament(name=t.name, rules=t.rules, players=[], stages=[],
                                 rule_options=dict(t.rule_options))
        return profile_for(probe)[0]

    @staticmethod
    def _judges(s: Session, tid: int, row: db.Game) -> set[str]:
        """The game's judge: the table's assignment, and the judge its protocol names."""
        out = set(s.scalars(select(db.Assignment.user_name).where(
            db.Assignment.tournament_id == tid, db.Assignment.game_code == row.code)))
        head = s.scalar(select(db.ProtocolRevision.protocol).where(
            db.ProtocolRevision.game_id == row.id,
            db.ProtocolRevision.number == (row.confirmed_revision or row.head_revision)))
        if head is not None:
            judge = decode_game(head).judge
            if judge:
                out.add(judge)
        return out

    def _load_case(self, s: Session, row: db.AppealCase) -> ap.Case:
        messages = [ap.Message(author=m.author, role=ap.Role(m.role), at=_aware(m.at), text=m.text)
                    for m in s.scalars(select(db.AppealMessage)
                                       .where(db.AppealMessage.case_id == row.id)
                                       .order_by(db.AppealMessage.id))]
        dec = s.scalar(select(db.AppealDecision).where(db.AppealDecision.case_id == row.id))
        decision = _from_json(dec.decision, _DECISION) if dec is not None else None
        return ap.Case(id=case_id(row.number), filing=_from_json(row.filing, _FILING),
                       filed_at=_aware(row.filed_at), status=ap.Status(row.status),
                       messages=messages, decision=decision, clause=row.clause)

    def _view(self, s: Session, row: db.AppealCase, schedule: ap.Schedule,
              profile: RuleProfile) -> CaseView:
        dec = s.scalar(select(db.AppealDecision).where(db.AppealDecision.case_id == row.id))
        case = self._load_case(s, row)
        return CaseView(number=row.number, case=case,
                        revision=dec.revision if dec is not None else None,
                        changes=[ap.ChangeLine.stored(c) for c in dec.changes]
                        if dec is not None else [],
                        warnings=list(dec.warnings) if dec is not None else [],
                        decide_by=ap.decide_by(case, profile, schedule))

    def _earlier(self, s: Session, tid: int) -> list[ap.Case]:
        rows = s.scalars(select(db.AppealCase).where(db.AppealCase.tournament_id == tid)
                         .order_by(db.AppealCase.number))
        return [self._load_case(s, r) for r in rows]

    def _case_row(self, s: Session, tid: int, ref: str | int) -> db.AppealCase:
        number = ref if isinstance(ref, int) else case_number(ref)
        row = s.scalar(select(db.AppealCase).where(db.AppealCase.tournament_id == tid,
                                                   db.AppealCase.number == number))
        if row is None:
            raise NotFound("no_game", game=case_id(number))
        return row

    def _may_read(self, s: Session, tid: int, row: db.AppealCase, actor: str) -> bool:
        if roles_in(s, tid, actor) & READ_ALL:
            return True
        if row.player_code in account_players(s, tid, actor):
            return True
        return actor in self._judges(s, tid, game_row(s, tid, row.game_code))

    def cases(self, tournament: int, *, actor: str | None,
              open_only: bool = False) -> list[CaseView]:
        """The cases the account may read: all for the head judge, the commission and the
        organizer; a judge's games' cases; a player's own. Open ones first. Anyone no
        deadline concerns (a viewer, an outsider) is refused."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            reader = self._involved(s, t, actor)
            schedule, _ = self._schedule(s, t.id)
            profile = self._profile(t)
            query = select(db.AppealCase).where(db.AppealCase.tournament_id == t.id)
            if open_only:
                query = query.where(db.AppealCase.status == ap.Status.OPEN.value)
            rows = [r for r in s.scalars(query.order_by(db.AppealCase.number))
                    if self._may_read(s, t.id, r, reader)]
            views = [self._view(s, r, schedule, profile) for r in rows]
        views.sort(key=lambda v: (v.case.status is not ap.Status.OPEN, v.number))
        return views

    def case(self, tournament: int, ref: str | int, *, actor: str) -> CaseView:
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            row = self._case_row(s, t.id, ref)
            if not self._may_read(s, t.id, row, actor):
                raise PermissionDenied("not_allowed", user=actor, action="read",
                                       tournament=t.name, roles=sorted(READ_ALL | {PLAYER, JUDGE}))
            schedule, _ = self._schedule(s, t.id)
            return self._view(s, row, schedule, self._profile(t))

    def filer(self, tournament: int, game: str, *, actor: str | None) -> set[str]:
        """The players the account files for on the game (its own player; none for
        staff, who file for any player); `PermissionDenied` for anyone else, `NotFound`
        for a game that does not exist. What the filing form asks first."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            mine = account_players(s, t.id, actor) if actor is not None else set()
            if actor is None or not (mine or roles_in(s, t.id, actor) & STAFF):
                raise PermissionDenied("not_allowed", user=actor or "-", action="file",
                                       tournament=t.name, roles=sorted(STAFF | {PLAYER}))
            game_row(s, t.id, game)
            return mine

    def filing_deadline(self, tournament: int, game: str, kind: ap.Kind, *, actor: str
                        ) -> tuple[ap.Deadline | None, list[ap.Refusal]]:
        """The earliest deadline of a filing on the game, and why it cannot be known: for
        those with a role in the tournament (it tells whether the game is published)."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            require(s, actor, Act.SEE, TournamentRef(t.id))
            row = game_row(s, t.id, game)
            g = self._filed_game(s, row)
            schedule, _ = self._schedule(s, t.id)
            found, missing = ap.deadlines(kind, g, self._profile(t), schedule, self._times(s, row))
        return (found[0] if found else None), missing

    # --- filing, the thread, withdrawing ---------------------------------------------------
    def _filed_game(self, s: Session, row: db.Game) -> model.Game:
        """What a case is about: the published (confirmed) protocol, else the newest (a
        protest may come before the protocol is confirmed: FIIM 8.9.1's ten minutes)."""
        number = row.confirmed_revision or row.head_revision
        return decode_game(whole(s, revision_row(s, row.id, number)))

    def file(self, tournament: int, filing: ap.Filing, *, actor: str,
             now: dt.datetime | None = None) -> CaseView:
        """File a protest or an appeal. The player files his own (`filing.player` is his
        code); staff may file for a player. Refused with every reason and clause."""
        moment = self._now(now)
        for attempt in range(3):
            try:
                return self._file(tournament, filing, actor, moment)
            except IntegrityError:  # two filings took the same number at once
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _file(self, tournament: int, filing: ap.Filing, actor: str,
              moment: dt.datetime) -> CaseView:
        refused: ap.Refused | None = None
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            roles = roles_in(s, t.id, actor)
            if filing.player not in account_players(s, t.id, actor) and not roles & STAFF:
                raise PermissionDenied("not_allowed", user=actor, action="file",
                                       tournament=t.name, roles=[PLAYER])
            row = game_row(s, t.id, filing.game)
            g = self._filed_game(s, row)
            schedule, _ = self._schedule(s, t.id)
            earlier = self._earlier(s, t.id)
            number = (s.scalar(select(func.max(db.AppealCase.number))
                               .where(db.AppealCase.tournament_id == t.id)) or 0) + 1
            try:
                case = ap.file_case(filing, g, self._profile(t), schedule, self._times(s, row),
                                    earlier, moment, case_id(number))
            except ap.Refused as e:
                refused = e
                record_audit(s, actor, t.id, "appeal_refused", {
                    "filing": _to_json(filing),
                    "refusals": [r.as_dict("en") for r in e.refusals]})
            else:
                crow = db.AppealCase(
                    tournament_id=t.id, number=number, game_code=filing.game,
                    player_code=filing.player, kind=filing.kind.value,
                    subject=filing.subject.value, status=case.status.value,
                    filing=_to_json(filing), clause=case.clause, filed_at=moment, filed_by=actor)
                s.add(crow)
                s.flush()
                record_audit(s, actor, t.id, "appeal_file", {
                    "case": case.id, "game": filing.game, "player": filing.player,
                    "kind": filing.kind.value, "subject": filing.subject.value,
                    "clause": case.clause})
                return self._view(s, crow, schedule, self._profile(t))
        assert refused is not None
        raise refused  # after the audit entry is committed

    def _thread_role(self, s: Session, tid: int, row: db.AppealCase, actor: str
                     ) -> tuple[ap.Role, str] | None:
        """How the account writes in this case's thread: (role, author) or None."""
        if row.player_code in account_players(s, tid, actor):
            return ap.Role.PLAYER, row.player_code
        roles = roles_in(s, tid, actor)
        for account_role, role in DECIDERS.items():
            if account_role in roles:
                return role, actor
        if actor in self._judges(s, tid, game_row(s, tid, row.game_code)):
            return ap.Role.JUDGE, actor
        return None

    def may_write(self, tournament: int, ref: str | int, actor: str) -> bool:
        with self.store.read() as s:
            row = self._case_row(s, tournament, ref)
            return self._thread_role(s, tournament, row, actor) is not None

    def may_decide(self, tournament: int, actor: str) -> bool:
        return bool(self.access.roles_of(tournament, actor) & set(DECIDERS))

    def require_may_decide(self, tournament: int, actor: str) -> None:
        """Refused unless `actor` decides cases here (the head judge, the appeals
        commission): what the decision form asks when what was sent could not be read,
        so that a refusal for the role comes before one for the content."""
        with self.store.read() as s:
            require_role(s, tournament_row(s, tournament), actor, DECIDERS, "decide")

    def add_message(self, tournament: int, ref: str | int, text: str, *, actor: str,
                    now: dt.datetime | None = None) -> CaseView:
        """One more message in the case's thread (FSM 8.9.3)."""
        moment = self._now(now)
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            row = self._case_row(s, t.id, ref)
            who = self._thread_role(s, t.id, row, actor)
            if who is None:
                raise PermissionDenied("not_allowed", user=actor, action="write",
                                       tournament=t.name, roles=[PLAYER, JUDGE, HEAD_JUDGE])
            role, author = who
            if not text.strip():
                raise ServiceError("bad_input", field="text")
            message = ap.Message(author=author, role=role, at=moment, text=text.strip())
            ap.add_message(self._load_case(s, row), message)  # raises Refused
            s.add(db.AppealMessage(case_id=row.id, author=author, role=role.value, at=moment,
                                   text=message.text))
            record_audit(s, actor, t.id, "appeal_message",
                        {"case": case_id(row.number), "role": role.value})
            s.flush()
            schedule, _ = self._schedule(s, t.id)
            return self._view(s, row, schedule, self._profile(t))

    def withdraw(self, tournament: int, ref: str | int, *, actor: str,
                 now: dt.datetime | None = None, confirmed: bool = True) -> CaseView:
        """The player takes his case back (it still counts in FSM 8.9.6's limits);
        `confirmed` False (the form's "yes" missing) is refused after the asker is
        checked."""
        moment = self._now(now)
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            row = self._case_row(s, t.id, ref)
            if row.player_code not in account_players(s, t.id, actor):
                raise PermissionDenied("not_allowed", user=actor, action="withdraw",
                                       tournament=t.name, roles=[PLAYER])
            if not confirmed:
                raise ServiceError("bad_input", field="confirm")
            case = ap.withdraw(self._load_case(s, row), moment)
            note = case.messages[-1]
            s.add(db.AppealMessage(case_id=row.id, author=note.author, role=note.role.value,
                                   at=moment, text=note.text))
            row.status = case.status.value
            record_audit(s, actor, t.id, "appeal_withdraw", {"case": case.id})
            s.flush()
            schedule, _ = self._schedule(s, t.id)
            return self._view(s, row, schedule, self._profile(t))

    # --- deciding -------------------------------------------------------------------------
    def decide(self, tournament: int, ref: str | int, *, actor: str, outcome: ap.Outcome,
               reason: str, change: ap.Change | None = None, committee_agreed: bool = False,
               non_game_advantage: bool = False, now: dt.datetime | None = None
               ) -> tuple[CaseView, ap.Effect]:
        """Decide a case (head judge or appeals commission). A changed protocol becomes a
        new confirmed revision; a replay takes the game out of the standings. Refused
        with every reason (`Refused`), or as any protocol (`ProtocolRefused`)."""
        moment = self._now(now)
        try:
            return self._decide(tournament, ref, actor, outcome, reason, change,
                                committee_agreed, non_game_advantage, moment)
        except StaleRevision as stale:  # a judge saved the game in the same instant: say so
            code = self.case(tournament, ref, actor=actor).case.filing.game
            raise record_conflict(self.store, tournament, code, 0, actor, None, "decide") from stale
        except IntegrityError as lost:  # another decision of the case was written first
            view = self.case(tournament, ref, actor=actor)
            first = view.case.decision
            if first is None:
                raise
            raise DecidedMeanwhile(case=view.case.id, game=view.case.filing.game,
                                   author=first.by, at=first.at) from lost

    def _decide(self, tournament: int, ref: str | int, actor: str, outcome: ap.Outcome,
                reason: str, change: ap.Change | None, committee_agreed: bool,
                non_game_advantage: bool, moment: dt.datetime) -> tuple[CaseView, ap.Effect]:
        with self.store.write() as s:
            t, players, stages = game_context(s, tournament)
            roles = roles_in(s, t.id, actor)
            mine = [role for account_role, role in DECIDERS.items() if account_role in roles]
            if not mine:
                raise PermissionDenied("not_allowed", user=actor, action="decide",
                                       tournament=t.name, roles=sorted(DECIDERS))
            row = self._case_row(s, t.id, ref)
            first = s.scalar(select(db.AppealDecision).where(db.AppealDecision.case_id == row.id))
            if first is not None:
                # decided since the decider opened it: the same answer on every backend
                # (SQLite's writes take turns; PostgreSQL's meet at the unique row), the
                # conflict that names who decided, not the core's "case closed"
                raise DecidedMeanwhile(case=case_id(row.number), game=row.game_code,
                                       author=first.decided_by, at=_aware(first.decided_at))
            if t.confirmer_must_differ and row.filed_by == actor:
                # four eyes: whoever files a case, for himself or "for" a player, never
                # decides it, as nobody confirms his own protocol
                raise Denied("four_eyes", case=case_id(row.number), user=actor)
            if t.confirmer_must_differ and _issued_code(s, t.id, row.filed_by, actor):
                # ... nor one filed through a sign-in code he issued (he could be the one
                # who typed it)
                raise Denied("four_eyes_code", case=case_id(row.number), user=actor,
                             filer=row.filed_by)
            case = self._load_case(s, row)
            grow = game_row(s, t.id, row.game_code)
            game = self._filed_game(s, grow)
            profile = self._profile(t)
            schedule, _ = self._schedule(s, t.id)
            decision = ap.Decision(by=actor, role=mine[0], at=moment, outcome=outcome,
                                   reason=reason.strip(), change=change,
                                   committee_agreed=committee_agreed,
                                   non_game_advantage=non_game_advantage)
            closed, effect = ap.decide(case, decision, game, profile, schedule)
            label = f"{case.id} ({case.clause})"
            revision: int | None = None
            if effect.replay:
                revision = self._replay(s, grow, game, actor, f"{label}: {decision.reason}")
            elif effect.game is not None and effect.changes:
                check_rules(t, effect.game, players, stages)
                # the record as a whole holds after the decision, as after any confirmation
                broken = [p for p in change_problems(s, t, effect.game) if not p.warning]
                if broken:
                    raise ProtocolRefused(broken)
                revision = self._corrected(s, grow, game, effect.game, actor,
                                           f"{label}: {decision.reason}")
            warnings = [w.as_dict("en") for w in effect.warnings]
            s.add(db.AppealDecision(case_id=row.id, decision=_to_json(decision),
                                    outcome=outcome.value, decided_by=actor, decided_at=moment,
                                    revision=revision,
                                    changes=[c.as_dict() for c in effect.changes],
                                    warnings=warnings))
            row.status = closed.status.value
            record_audit(s, actor, t.id, "appeal_decide", {
                "case": case.id, "game": row.game_code, "outcome": outcome.value,
                "revision": revision, "changes": [c.message("en") for c in effect.changes],
                "replay": effect.replay, "warnings": [w["code"] for w in warnings]})
            s.flush()
            return self._view(s, row, schedule, profile), effect

    def _corrected(self, s: Session, row: db.Game, old: model.Game, new: model.Game,
                   actor: str, reason: str) -> int:
        """The decided protocol as a new confirmed revision on top of the newest."""
        author = user_row(s, actor)
        base = row.head_revision
        number = advance_head(s, row, base, confirmed=True)
        text = encode_game(new)
        s.add(db.ProtocolRevision(game_id=row.id, number=number, state=CONFIRMED,
                                  protocol=text, author_id=author.id, reason=reason,
                                  changes=diff_dicts(_dict(encode_game(old)), _dict(text))))
        return number

    def _replay(self, s: Session, row: db.Game, old: model.Game, actor: str, reason: str) -> int:
        """FSM 8.10: the game is out of the standings until its replay is confirmed; its
        seating stays as a new draft (roles, result and scores blank) for the judge."""
        author = user_row(s, actor)
        base = row.head_revision
        result = s.execute(update(db.Game).where(db.Game.id == row.id,
                                                 db.Game.head_revision == base)
                           .values(head_revision=base + 1, confirmed_revision=0)
                           .execution_options(synchronize_session=False))
        if result.rowcount != 1:  # type: ignore[attr-defined]
            raise StaleRevision()
        seating = model.Game(id=old.id, stage=old.stage, round=old.round, table=old.table,
                             date=old.date, judge=old.judge,
                             seats=[model.Seat(seat=x.seat, player=x.player, role="")
                                    for x in old.seats], result="")
        text = encode_game(seating)
        s.add(db.ProtocolRevision(game_id=row.id, number=base + 1, state=DRAFT, protocol=text,
                                  author_id=author.id, reason=f"replay: {reason}",
                                  changes=diff_dicts(_dict(encode_game(old)), _dict(text))))
        return base + 1


def _issued_code(s: Session, tid: int, account: str, actor: str) -> bool:
    """Whether `actor` issued a sign-in code of `account` in the tournament."""
    return s.scalar(select(db.SignInCode.id).where(
        db.SignInCode.tournament_id == tid, db.SignInCode.user_name == account,
        db.SignInCode.created_by == actor).limit(1)) is not None


def _dict(text: str) -> dict[str, Any]:
    """A stored protocol's JSON with its points as Decimal (the JSON column keeps them
    exact), for the revision's diff."""
    out: dict[str, Any] = json.loads(text, parse_float=Decimal)
    return out


def filing_of(data: dict[str, Any]) -> ap.Filing:
    """A filing from JSON (the API, the form); raises `msgspec.ValidationError`."""
    out: ap.Filing = msgspec.convert(data, ap.Filing, strict=False)
    return out


def change_of(data: dict[str, Any] | None) -> ap.Change | None:
    if not data:
        return None
    out: ap.Change = msgspec.convert(data, ap.Change, strict=False)
    return out


def schedule_of(data: dict[str, Any]) -> ap.Schedule:
    out: ap.Schedule = msgspec.convert(data, ap.Schedule, strict=False)
    return out


def refusals_json(refusals: Sequence[ap.Refusal], lang: str,
                  zone: dt.tzinfo | None = None) -> list[dict[str, Any]]:
    """The refusals as the API gives them; moments on the tournament's clock (`zone`),
    the zone in words («07.03.2026 18:00 (Москва, UTC+3)»)."""
    here = zone if zone is not None else dt.UTC
    return [r.as_dict(lang, here, lambda v: local_time(v, here, lang)) for r in refusals]


__all__ = [
    "Appeals",
    "CaseView",
    "DECIDERS",
    "case_id",
    "case_number",
    "change_of",
    "filing_of",
    "refusals_json",
    "schedule_of",
]
