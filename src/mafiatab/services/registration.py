"""A tournament's registration: sign-ups on its public page (or through the API of an
external form), a cap, a waiting list, and the organizer's decisions. The accepted become
the tournament's players.

Why it is built this way:

* **One call per use case, one transaction each** (`sign_up`, `withdraw`, `accept`,
  `decline`, `promote`, `configure`), with the access check and the audit entry inside.
  The organizer's calls ask `services.rights` (the tournament's staff); the public ones
  are bounded and rate-limited per address instead, since nobody signs in to sign up.
* **A sign-up waits for the organizer.** Accepted while there is room, it becomes a player
  of the tournament at once (a participant, as the roster makes them); accepted when the
  cap is reached, it joins the end of the waiting list (`queued`, a number that only
  grows: the list is served in the order it was filled).
* **The waiting list moves up by itself.** When an accepted registration is withdrawn,
  the first on the waiting list takes the place in the same transaction (his participant
  is made there); `promote` does the same by hand, after the organizer raised the cap.
* **A withdrawal keeps the history.** A player who withdraws keeps his participant,
  marked withdrawn (the roster's meaning: his games stay, no seating seats him again);
  signing up again and being accepted brings him back under the same id.
* **Keys, not accounts.** The registrant gets a random key with his registration number;
  only its SHA-256 is stored. With it he withdraws himself; the staff need none.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Final

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, Storage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from mafiatab.domain import protocol as model
from mafiatab.services.errors import ServiceError
from mafiatab.services.rights import Act, TournamentRef, allowed, require
from mafiatab.services.roster import insert_participants
from mafiatab.services.store import Store, record_audit, tournament_row
from mafiatab.storage import models as db
from mafiatab.texts.register import REGISTRATION

MAX_NICK: Final = 100
MAX_CLUB: Final = 100
#: the most places a tournament may cap its registration at
MAX_CAP: Final = 1000
#: the longest key accepted back (a made key is 16 characters)
MAX_KEY: Final = 64
#: public sign-ups per address (a moving window): a club signing up its members from one
#: hall's network fits, a script filling the list does not
SIGN_UP_LIMIT: Final = "20/10minutes"
#: the audit log's name for a sign-up or a withdrawal made with a key
PUBLIC: Final = "registration"
#: the states that hold a place or a claim to one
LIVE: Final = ("applied", "accepted", "waiting")


class RegistrationError(ServiceError):
    """A refusal of the registration's (400); its words are the catalogue's section."""

    texts: ClassVar[Mapping[str, tuple[str, str]]] = REGISTRATION


class RegistrationNotFound(RegistrationError):
    status = 404


class RegistrationState(RegistrationError):
    status = 409


class TooManySignUps(RegistrationError):
    """The address signed up too often (429); `retry` seconds until the next one."""

    status = 429

    def __init__(self, seconds: int) -> None:
        self.retry = seconds
        super().__init__("too_many", seconds=seconds)


@dataclass(frozen=True, slots=True)
class SignedUp:
    """A sign-up's answer: its number, its state and the key that withdraws it."""

    id: int
    state: str
    key: str


@dataclass(frozen=True, slots=True)
class Line:
    """One registration as the page and the API list it."""

    id: int
    nickname: str
    club: str | None
    state: str
    queued: int | None
    code: str | None
    person: int | None


@dataclass(slots=True)
class Board:
    """A tournament's registration: its settings and every registration by state (the
    waiting list in its order)."""

    tournament: int
    name: str
    open: bool
    cap: int | None
    starts_on: dt.date | None
    accepted: list[Line] = field(default_factory=list)
    waiting: list[Line] = field(default_factory=list)
    applied: list[Line] = field(default_factory=list)
    others: list[Line] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class CalendarLine:
    """A coming tournament on the front page: its date and its registration's state."""

    tournament: int
    name: str
    rules: str
    starts_on: dt.date | None
    open: bool
    cap: int | None
    accepted: int
    waiting: int


def _text(value: str, limit: int, code: str) -> str:
    """A name as typed, bounded: normal form, no control characters, 1..limit long."""
    text = unicodedata.normalize("NFC", value).strip()
    if not text:
        raise RegistrationError(code, reason="пусто / empty")
    if len(text) > limit:
        raise RegistrationError(code, reason=f"> {limit}")
    if any(unicodedata.category(c).startswith("C") for c in text):
        raise RegistrationError(code, reason="\\x..")
    return text


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def _line(r: db.Registration) -> Line:
    return Line(r.id, r.nickname, r.club, r.state, r.queued, r.code, r.person_id)


class Registrations:
    """Sign-ups, the waiting list and the organizer's decisions (see the module's text)."""

    def __init__(self, store: Store, storage: Storage | None = None,
                 limit: str = SIGN_UP_LIMIT) -> None:
        self.store = store
        self._limiter = MovingWindowRateLimiter(storage or MemoryStorage())
        self._limit: RateLimitItem = parse(limit)

    # --- reads ------------------------------------------------------------------------

    def board(self, tournament: int) -> Board:
        """The registration of a tournament, as everyone may see it."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            conf = s.get(db.RegistrationSettings, t.id)
            out = Board(t.id, t.name, bool(conf and conf.open), conf.cap if conf else None,
                        conf.starts_on if conf else None)
            rows = s.scalars(select(db.Registration).where(
                db.Registration.tournament_id == t.id).order_by(db.Registration.id))
            for r in rows:
                {"accepted": out.accepted, "waiting": out.waiting,
                 "applied": out.applied}.get(r.state, out.others).append(_line(r))
            out.waiting.sort(key=lambda x: x.queued or 0)
            return out

    def may_decide(self, tournament: int, actor: str | None) -> bool:
        """Whether `actor` may accept and decline (what the page offers him)."""
        if not actor:
            return False
        with self.store.read() as s:
            return allowed(s, actor, Act.MANAGE, TournamentRef(tournament))

    def calendar(self, today: dt.date) -> list[CalendarLine]:
        """The tournaments that start today or later, or have their registration open,
        soonest first (those with no date last)."""
        with self.store.read() as s:
            counts: dict[tuple[int, str], int] = {
                (tid, state): n for tid, state, n in s.execute(
                    select(db.Registration.tournament_id, db.Registration.state,
                           func.count()).where(db.Registration.state.in_(
                               ("accepted", "waiting")))
                    .group_by(db.Registration.tournament_id, db.Registration.state))}
            rows = s.execute(
                select(db.Tournament.id, db.Tournament.name, db.Tournament.rules,
                       db.RegistrationSettings.starts_on, db.RegistrationSettings.open,
                       db.RegistrationSettings.cap)
                .join(db.RegistrationSettings,
                      db.RegistrationSettings.tournament_id == db.Tournament.id))
            out = [CalendarLine(tid, name, rules, starts, bool(is_open), cap,
                                counts.get((tid, "accepted"), 0),
                                counts.get((tid, "waiting"), 0))
                   for tid, name, rules, starts, is_open, cap in rows
                   if (starts is not None and starts >= today) or is_open]
        out.sort(key=lambda c: (c.starts_on is None, c.starts_on or today, c.tournament))
        return out

    # --- the organizer's settings -------------------------------------------------------

    def configure(self, tournament: int, *, open: bool, cap: int | None,
                  starts_on: dt.date | None, actor: str) -> None:
        """Open or close the registration, set its cap and start date (the staff)."""
        if cap is not None and not 1 <= cap <= MAX_CAP:
            raise RegistrationError("bad_cap", n=MAX_CAP)
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require(s, actor, Act.MANAGE, TournamentRef(t.id))
            accepted = self._accepted(s, t.id)
            if cap is not None and cap < accepted:
                # the accepted never exceed the cap: one of them withdraws first
                raise RegistrationState("cap_below", accepted=accepted)
            conf = s.get(db.RegistrationSettings, t.id)
            if conf is None:
                conf = db.RegistrationSettings(tournament_id=t.id)
                s.add(conf)
            conf.open, conf.cap, conf.starts_on, conf.updated_by = open, cap, starts_on, actor
            record_audit(s, actor, t.id, "registration_settings",
                         {"open": open, "cap": cap,
                          "starts_on": starts_on.isoformat() if starts_on else None})

    # --- the registrant's calls -----------------------------------------------------------

    def sign_up(self, tournament: int, *, nickname: str | None = None,
                club: str | None = None, person: int | None = None,
                address: str = "") -> SignedUp:
        """A sign-up: a known person (`person`, his record's number) or a new nickname and
        club. Rate-limited per address; refused when the registration is closed or the
        name is registered already."""
        if not self._limiter.hit(self._limit, "sign_up", address[:100]):
            stats = self._limiter.get_window_stats(self._limit, "sign_up", address[:100])
            raise TooManySignUps(max(1, int(stats.reset_time - dt.datetime.now(dt.UTC)
                                            .timestamp()) + 1))
        nick = _text(nickname, MAX_NICK, "bad_nickname") if nickname else None
        club_text = _text(club, MAX_CLUB, "bad_club") if club and club.strip() else None
        if person is None and nick is None:
            raise RegistrationError("person_or_nickname")
        key = secrets.token_urlsafe(12)
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            conf = s.get(db.RegistrationSettings, t.id)
            if conf is None or not conf.open:
                raise RegistrationState("closed", tournament=t.name)
            if person is not None:
                found = s.get(db.Player, person) if 0 < person < 2**31 else None
                if found is None:
                    raise RegistrationError("no_person", person=person)
                nick, club_text = found.nickname, found.club
            assert nick is not None
            self._refuse_taken(s, t.id, nick)
            row = db.Registration(tournament_id=t.id, person_id=person, nickname=nick,
                                  club=club_text, state="applied", key_hash=_hash(key))
            s.add(row)
            s.flush()
            record_audit(s, PUBLIC, t.id, "sign_up",
                         {"registration": row.id, "nickname": nick, "club": club_text,
                          "person": person})
            return SignedUp(row.id, row.state, key)

    @staticmethod
    def _refuse_taken(s: Session, tid: int, nickname: str) -> None:
        folded = nickname.casefold()
        live = s.scalars(select(db.Registration.nickname).where(
            db.Registration.tournament_id == tid, db.Registration.state.in_(LIVE)))
        playing = s.scalars(
            select(db.Player.nickname)
            .join(db.Participant, db.Participant.player_id == db.Player.id)
            .where(db.Participant.tournament_id == tid, db.Participant.withdrawn.is_(False)))
        if any(n.casefold() == folded for n in [*live, *playing]):
            raise RegistrationState("taken", nickname=nickname)

    def withdraw(self, tournament: int, registration: int, *, key: str | None = None,
                 actor: str | None = None) -> Line:
        """Withdraw a registration: by its key (the registrant) or by the staff. An accepted
        one frees its place, and the first on the waiting list takes it."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            if key is None:  # the staff: who asks is checked before anything is read
                require(s, actor or "", Act.MANAGE, TournamentRef(t.id))
                who = actor or ""
            row = self._row(s, t.id, registration)
            if key is not None:
                if not hmac.compare_digest(_hash(key[:MAX_KEY]), row.key_hash):
                    raise RegistrationError("bad_key")
                who = PUBLIC
            self._expect(row, LIVE)
            was = row.state
            row.state, row.queued = "withdrawn", None
            if was == "accepted" and row.code is not None:
                s.execute(update(db.Participant)
                          .where(db.Participant.tournament_id == t.id,
                                 db.Participant.code == row.code)
                          .values(withdrawn=True))
            moved = self._fill(s, t, who) if was == "accepted" else []
            record_audit(s, who, t.id, "withdraw_registration",
                         {"registration": row.id, "was": was, "moved_up": moved})
            return _line(row)

    # --- the organizer's decisions ------------------------------------------------------------

    def accept(self, tournament: int, registration: int, *, actor: str) -> Line:
        """Accept a sign-up: a player of the tournament while there is room, else the end
        of the waiting list."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require(s, actor, Act.MANAGE, TournamentRef(t.id))
            row = self._row(s, t.id, registration)
            self._expect(row, ("applied",))
            if self._room(s, t.id):
                self._admit(s, t, row)
            else:
                row.state, row.queued = "waiting", self._next_queued(s, t.id)
            row.decided_by = actor
            record_audit(s, actor, t.id, "accept_registration",
                         {"registration": row.id, "state": row.state, "player": row.code})
            return _line(row)

    def decline(self, tournament: int, registration: int, *, actor: str) -> Line:
        """Decline a sign-up (or take one off the waiting list)."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require(s, actor, Act.MANAGE, TournamentRef(t.id))
            row = self._row(s, t.id, registration)
            self._expect(row, ("applied", "waiting"))
            row.state, row.queued, row.decided_by = "declined", None, actor
            record_audit(s, actor, t.id, "decline_registration", {"registration": row.id})
            return _line(row)

    def promote(self, tournament: int, *, actor: str) -> Line:
        """Accept the first on the waiting list into a free place (after the cap was
        raised)."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require(s, actor, Act.MANAGE, TournamentRef(t.id))
            first = self._first_waiting(s, t.id)
            if first is None:
                raise RegistrationState("no_waiting")
            if not self._room(s, t.id):
                conf = s.get(db.RegistrationSettings, t.id)
                raise RegistrationState("full", accepted=self._accepted(s, t.id),
                                        cap=conf.cap if conf else 0)
            self._admit(s, t, first)
            first.decided_by = actor
            record_audit(s, actor, t.id, "promote_registration",
                         {"registration": first.id, "player": first.code})
            return _line(first)

    # --- steps inside the calls' transactions ---------------------------------------------------

    @staticmethod
    def _row(s: Session, tid: int, registration: int) -> db.Registration:
        row = s.get(db.Registration, registration) if 0 < registration < 2**31 else None
        if row is None or row.tournament_id != tid:
            raise RegistrationNotFound("no_registration", registration=registration)
        return row

    @staticmethod
    def _expect(row: db.Registration, states: tuple[str, ...]) -> None:
        if row.state not in states:
            raise RegistrationState("not_now", registration=row.id,
                                    state=row.state)

    @staticmethod
    def _accepted(s: Session, tid: int) -> int:
        return int(s.scalar(select(func.count()).select_from(db.Registration).where(
            db.Registration.tournament_id == tid, db.Registration.state == "accepted")) or 0)

    def _room(self, s: Session, tid: int) -> bool:
        conf = s.get(db.RegistrationSettings, tid)
        cap = conf.cap if conf is not None else None
        return cap is None or self._accepted(s, tid) < cap

    @staticmethod
    def _next_queued(s: Session, tid: int) -> int:
        last = s.scalar(select(func.max(db.Registration.queued)).where(
            db.Registration.tournament_id == tid))
        return int(last or 0) + 1

    @staticmethod
    def _first_waiting(s: Session, tid: int) -> db.Registration | None:
        return s.scalar(select(db.Registration).where(
            db.Registration.tournament_id == tid, db.Registration.state == "waiting")
            .order_by(db.Registration.queued).limit(1))

    def _fill(self, s: Session, t: db.Tournament, who: str) -> list[int]:
        """The waiting list moves up into the free places, first come first served."""
        moved: list[int] = []
        while self._room(s, t.id):
            first = self._first_waiting(s, t.id)
            if first is None:
                break
            self._admit(s, t, first)
            moved.append(first.id)
        return moved

    @staticmethod
    def _admit(s: Session, t: db.Tournament, row: db.Registration) -> None:
        """The registration accepted: its participant made (or a withdrawn one of the same
        nickname brought back)."""
        row.state, row.queued = "accepted", None
        s.flush()
        # compared in Python: SQLite's lower() folds ASCII only
        folded = row.nickname.casefold()
        back = next((p for p, nick in s.execute(
            select(db.Participant, db.Player.nickname)
            .join(db.Player, db.Player.id == db.Participant.player_id)
            .where(db.Participant.tournament_id == t.id, db.Participant.withdrawn.is_(True)))
            .tuples() if nick.casefold() == folded), None)
        if back is not None:
            back.withdrawn = False
            row.code = back.code
            return
        codes = set(s.scalars(select(db.Participant.code).where(
            db.Participant.tournament_id == t.id)))
        code, n = f"r{row.id}", 1
        while code in codes:
            n += 1
            code = f"r{row.id}-{n}"
        row.code = code
        insert_participants(s, t, [model.Player(id=code, nickname=row.nickname,
                                                club=row.club)])


__all__ = ["Board", "CalendarLine", "Line", "RegistrationError", "RegistrationNotFound",
           "RegistrationState", "Registrations", "SignedUp", "TooManySignUps"]
