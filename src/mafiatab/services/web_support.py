"""What the web app needs beyond `TournamentService` (issue 4), as use cases of its own.

`WebService` extends the storage service rather than going around it: every method here is
one transaction through the same `_write`/`_read` helpers, checks roles the same way and
writes the same audit log. It adds what only a web app needs:

* accounts that can sign in (argon2 password hashes, `services.accounts`), sign-in codes
  scoped to one tournament and one role that the organizer hands to a judge or a player
  at the door, and server-side sessions (issue 10);
* which judge sits at which table (`web_assignments`), so that a judge edits only his own
  table's protocol;
* the tournament's publication switches (standings hidden until the end; the storage
  schema already holds `hide_extras_until_end`) and whether it has ended;
* seating: a table's ten players entered (or imported) before the game, stored as the
  game's first *draft* revision with the roles and the result still blank, so the judge's
  form opens on it and nothing else has to know about "seating";
* the round overview (every table's protocol state), lots, stages, and a cached standings
  read for the hundreds of phones that poll it.

Its small tables (`web_settings`, `web_assignments`; `sign_in_codes`, `web_sessions` of
migration 0004) are part of the storage schema (`storage.models`), like every other table.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Engine, delete, func, select, update
from sqlalchemy.orm import Session

from mafiatab.domain import protocol as model
from mafiatab.domain.lots import draw_lots, record_draws
from mafiatab.domain.problems import Problem
from mafiatab.domain.standings import GameExplanation, Standings, explain_player
from mafiatab.domain.validation import validate_game
from mafiatab.formats.tournament_json import read_tournament
from mafiatab.services.accounts import (
    TOUCH_EVERY,
    AccountError,
    Denied,
    account_key,
    aware,
    code_digest,
    code_matches,
    hash_password,
    new_code,
    new_salt,
    new_token,
    normalize_name,
    parse_code,
    session_alive,
    token_digest,
    verify_password,
)
from mafiatab.services.clock import TournamentClock
from mafiatab.services.protocols import JUDGE_EDITABLE, Protocols
from mafiatab.services.store import profile_of
from mafiatab.services.tournament_file import profile_for
from mafiatab.services.tournaments import (
    NotFound,
    PermissionDenied,
    RevisionInfo,
    ServiceError,
    TournamentService,
    decode_game,
)
from mafiatab.services.video import GameVideo
from mafiatab.storage import models as db
from mafiatab.storage.engine import check_schema
from mafiatab.storage.models import (
    CONFIRMED,
    DRAFT,
    HEAD_JUDGE,
    JUDGE,
    ORGANIZER,
    PLAYER,
    RETURNED,
    ROLES,
    SUBMITTED,
    VIEWER,
    Assignment,
    SignInCode,
    WebSession,
    WebSettings,
)

STAFF: Final = frozenset({ORGANIZER, HEAD_JUDGE})
#: the key under which the web form keeps what FIIM section 9 records but nothing scores:
#: fouls, nominations and votes per day, written explanations, a protest note
SHEET: Final = "sheet"

#: the roles a sign-in code can carry: a judge's table, a player's own page, a viewer
CODE_ROLES: Final = (JUDGE, PLAYER, VIEWER)
#: how long a tournament's stamp read from the database serves the public polls (seconds)
STAMP_MAX_AGE: Final = 1.0
#: audit actions that change nothing the public sees (standings read confirmed revisions)
PRIVATE_ACTIONS: Final = ("save", "submit", "conflict", "sign_in_code", "set_password",
                          "create_code", "grant_role", "assign_judge", "revoke_code",
                          "revoke_role", "give_organizer", "sign_out_everywhere")
#: parts of a game's points that are main points (the rest are extras, hidden from the
#: public while the tournament hides extras): scoring.md sections 2 and 5
MAIN_PARTS: Final = frozenset({"win", "compensation"})



def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True, slots=True)
class CodeInfo:
    """A sign-in code as the staff's list shows it (never the code itself)."""

    id: int
    user: str
    role: str
    created_by: str
    created_at: dt.datetime
    expires_at: dt.datetime | None
    revoked: bool
    valid: bool


@dataclass(frozen=True, slots=True)
class GameStatus:
    """One table of one round, as the head judge's overview shows it."""

    code: str
    stage: str
    round: int
    table: int
    state: str
    revision: int
    confirmed_revision: int
    author: str
    judge: str | None


@dataclass(frozen=True, slots=True)
class Visibility:
    """What the public may see of a tournament now."""

    standings_hidden: bool
    extras_hidden: bool
    finished: bool


def seating_game_id(stage: str, rnd: int, table: int) -> str:
    """The id a game entered through seating gets (format-1 ids are free text)."""
    return f"{stage}-r{rnd}-t{table}"


class WebService(TournamentService):
    """The storage service plus the web app's own use cases (see the module's text)."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine)
        self._cache: dict[tuple[int, tuple[str, ...] | None], tuple[tuple[int, int], Standings]] = {}
        self._cache_lock = threading.Lock()
        self._stamps: dict[int, tuple[float, tuple[int, int]]] = {}
        #: called after every committed write through this service (the push hub's wake)
        self.after_write: list[Callable[[], None]] = []
        self.store.on_write(self._forget_stamps)
        #: the protocol steps (save, submit, return, confirm), on the same store
        self.protocols = Protocols(self.store)
        #: the tournaments' time zones (services/clock.py)
        self.zones = TournamentClock(self.store)
        #: games' videos and moments (services/video.py)
        self.videos = GameVideo(self.store)

    def ensure_schema(self) -> None:
        """Refuse to run on a database whose schema is not the newest migration (the web
        tables come with the others through `mafiatab db upgrade`)."""
        check_schema(self._writer)

    # --- accounts (issue 10; the pieces in `services.accounts`) ---
    def add_account(self, user: str, password: str, *, actor: str) -> bool:
        """The server operator's way in (`serve --add-user`): make the account or set its
        password. The first account of a database gets the organizer right, so someone
        can create the first tournament. Returns whether the account has that right."""
        digest = hash_password(password)
        key = account_key(user)
        with self._write() as s:
            first = s.scalar(select(func.count()).select_from(db.User)
                             .where(db.User.organizer.is_(True))) == 0
            u = self._account(s, key, display=normalize_name(user))
            u.password_hash = digest
            u.code_tournament_id = None
            if first:
                u.organizer = True
            s.execute(delete(WebSession).where(WebSession.user_id == u.id))
            self._audit(s, actor, None, "set_password", {"user": key, "operator": True})
            return bool(u.organizer)

    def set_password(self, user: str, password: str, *, actor: str) -> None:
        """The operator's reset of a password (the CLI); every session of it ends."""
        self.add_account(user, password, actor=actor)

    def change_password(self, user: str, old: str, new: str) -> None:
        """The owner changes his password (the old one checked); every session of the
        account ends, the caller signs in again."""
        key = account_key(user)
        with self._read() as s:
            stored = s.scalar(select(db.User.password_hash).where(db.User.name == key))
        if not verify_password(stored, old):
            raise AccountError("wrong_password")
        digest = hash_password(new)
        with self._write() as s:
            u = s.scalar(select(db.User).where(db.User.name == key))
            if u is None:
                raise AccountError("no_account", user=key)
            u.password_hash = digest
            s.execute(delete(WebSession).where(WebSession.user_id == u.id))
            self._audit(s, key, None, "set_password", {"user": key})

    def check_password(self, user: str, password: str) -> bool:
        """Whether the password is the account's (the same work also for unknown names)."""
        try:
            key = account_key(user)
        except AccountError:
            return verify_password(None, password)
        with self._read() as s:
            stored = s.scalar(select(db.User.password_hash).where(db.User.name == key))
        return verify_password(stored, password)

    def is_organizer(self, user: str) -> bool:
        with self._read() as s:
            return bool(s.scalar(select(db.User.organizer).where(db.User.name == user)))

    def give_organizer(self, user: str, *, actor: str) -> None:
        """An organizer gives another account (with a password) the right to create
        tournaments."""
        key = account_key(user)
        with self._write() as s:
            me = s.scalar(select(db.User).where(db.User.name == actor))
            if me is None or not me.organizer:
                raise PermissionDenied("not_allowed", user=actor, action="manage",
                                       tournament="—", roles=[ORGANIZER])
            u = s.scalar(select(db.User).where(db.User.name == key))
            if u is None:
                raise AccountError("no_account", user=key)
            if u.code_tournament_id is not None or u.password_hash is None:
                raise AccountError("code_account_role", user=key, role=ORGANIZER)
            u.organizer = True
            self._audit(s, actor, None, "give_organizer", {"user": key})

    def _require_organizer(self, actor: str) -> None:
        if not self.is_organizer(actor):
            raise Denied("not_organizer", user=actor)

    def new_tournament(self, name: str, rules: str, *, actor: str,
                       stages: Sequence[model.Stage] = ()) -> int:
        """A tournament created from the web: only an account with the organizer right."""
        self._require_organizer(actor)
        return self.create_tournament(name, rules, actor=actor, stages=stages)

    def import_as_organizer(self, data: bytes, *, actor: str) -> int:
        """A tournament imported from the web (format 1): the organizer right again; the
        importer becomes its organizer and head judge."""
        self._require_organizer(actor)
        tid = self.import_file(data, actor=actor)
        with self._write() as s:
            t = self._tournament(s, tid)
            for role in (ORGANIZER, HEAD_JUDGE):
                self._grant(s, t.id, actor, role)
            self._audit(s, actor, t.id, "grant_role", {"user": actor, "role": HEAD_JUDGE})
        return tid

    def _account(self, s: Session, key: str, *, display: str | None = None) -> db.User:
        u = s.scalar(select(db.User).where(db.User.name == key))
        if u is None:
            u = db.User(name=key, display_name=display or key)
            s.add(u)
            s.flush()
        return u

    def create_code(self, tournament: int, user: str, role: str, *, actor: str,
                    ttl: dt.timedelta | None = None) -> str:
        """A sign-in code for one role in one tournament, shown once. It makes the
        account `user` for this tournament (no password; roles only here), or adds a
        code to such an account; never one for an account that exists otherwise. It
        lives until the tournament ends, or `ttl`, or until revoked. Head judges hand
        out judge and viewer codes only."""
        if role not in CODE_ROLES:
            raise AccountError("code_role", roles=list(CODE_ROLES))
        if ttl is not None and not dt.timedelta(minutes=1) <= ttl <= dt.timedelta(days=30):
            raise AccountError("bad_expiry")
        key = account_key(user)
        with self._write() as s:
            t = self._tournament(s, tournament)
            self._require_staff(s, t, actor, role)
            self.code_account_in(s, t.id, key, normalize_name(user))
            self._grant(s, t.id, key, role)
            return self.add_code_in(s, t.id, key, role, actor=actor, ttl=ttl)

    def add_code_in(self, s: Session, tid: int, key: str, role: str, *, actor: str,
                    ttl: dt.timedelta | None) -> str:
        """The code row in the caller's transaction; returns the code as shown."""
        shown, lookup, secret = new_code()
        salt = new_salt()
        s.add(SignInCode(tournament_id=tid, lookup=lookup, salt=salt,
                         digest=code_digest(salt, secret), user_name=key, role=role,
                         created_by=actor, expires_at=None if ttl is None else _utcnow() + ttl))
        self._audit(s, actor, tid, "create_code", {"user": key, "role": role})
        return shown

    def code_account_in(self, s: Session, tid: int, key: str, display: str) -> db.User:
        """The code account `key` of the tournament, made when missing; refused when the
        name is an account of another kind (with a password, an organizer, another
        tournament's)."""
        u = s.scalar(select(db.User).where(db.User.name == key))
        if u is None:
            u = db.User(name=key, display_name=display, code_tournament_id=tid)
            s.add(u)
            s.flush()
            return u
        if u.code_tournament_id != tid or u.password_hash is not None or u.organizer:
            raise AccountError("code_for_account", user=key)
        return u

    def sign_in_with_code(self, code: str) -> tuple[str, int] | None:
        """The account and tournament a valid code opens, or None. A wrong code is found
        out by one indexed read: no write, so guesses never take the write lock."""
        parsed = parse_code(code)
        if parsed is None:
            return None
        lookup, secret = parsed
        with self._read() as s:
            row = s.scalar(select(SignInCode).where(SignInCode.lookup == lookup))
            if row is None or not code_matches(row.salt, row.digest, secret):
                return None
            if not self._code_valid(s, row, _utcnow()):
                return None
            return row.user_name, row.tournament_id

    def code_id(self, code: str) -> int | None:
        parsed = parse_code(code)
        if parsed is None:
            return None
        with self._read() as s:
            return s.scalar(select(SignInCode.id).where(SignInCode.lookup == parsed[0]))

    @staticmethod
    def _code_valid(s: Session, row: SignInCode, now: dt.datetime) -> bool:
        if row.revoked_at is not None:
            return False
        if row.expires_at is not None and aware(row.expires_at) <= now:
            return False
        settings = s.get(WebSettings, row.tournament_id)
        return not (settings is not None and settings.finished)

    def codes(self, tournament: int, *, actor: str) -> list[CodeInfo]:
        """The tournament's sign-in codes (never the codes themselves), newest first."""
        with self._read() as s:
            t = self._tournament(s, tournament)
            self._require(s, t, actor, STAFF, "manage")
            now = _utcnow()
            rows = s.scalars(select(SignInCode).where(SignInCode.tournament_id == t.id)
                             .order_by(SignInCode.id.desc()))
            return [CodeInfo(r.id, r.user_name, r.role, r.created_by, aware(r.created_at),
                             None if r.expires_at is None else aware(r.expires_at),
                             r.revoked_at is not None, self._code_valid(s, r, now))
                    for r in rows]

    def revoke_code(self, tournament: int, code_id: int, *, actor: str) -> None:
        """A code stops opening anything, and every session made with it ends now."""
        with self._write() as s:
            t = self._tournament(s, tournament)
            self._require(s, t, actor, STAFF, "manage")
            row = s.get(SignInCode, code_id)
            if row is None or row.tournament_id != t.id:
                raise AccountError("no_code")
            row.revoked_at = _utcnow()
            s.execute(delete(WebSession).where(WebSession.code_id == row.id))
            self._audit(s, actor, t.id, "revoke_code", {"user": row.user_name, "role": row.role})

    def revoke_role(self, tournament: int, user: str, role: str, *, actor: str) -> None:
        """Take a role away; the account's next request no longer has it (roles are read
        on every request). A code account's codes for that role die with it."""
        key = account_key(user)
        with self._write() as s:
            t = self._tournament(s, tournament)
            self._require_staff(s, t, actor, role)
            u = s.scalar(select(db.User).where(db.User.name == key))
            if u is None:
                raise AccountError("no_account", user=key)
            s.execute(delete(db.RoleGrant).where(db.RoleGrant.user_id == u.id,
                                                 db.RoleGrant.tournament_id == t.id,
                                                 db.RoleGrant.role == role))
            for row in s.scalars(select(SignInCode).where(
                    SignInCode.tournament_id == t.id, SignInCode.user_name == key,
                    SignInCode.role == role, SignInCode.revoked_at.is_(None))):
                row.revoked_at = _utcnow()
                s.execute(delete(WebSession).where(WebSession.code_id == row.id))
            self._audit(s, actor, t.id, "revoke_role", {"user": key, "role": role})

    # --- sessions ---
    def open_session(self, user: str, *, code: str | None = None) -> str:
        """A new server-side session for the account (a code's session is tied to the
        code: revoking it ends the session). Returns the token for the cookie."""
        token, digest = new_token()
        cid = self.code_id(code) if code is not None else None
        with self._write() as s:
            u = s.scalar(select(db.User).where(db.User.name == user))
            if u is None:
                raise AccountError("no_account", user=user)
            now = _utcnow()
            s.add(WebSession(digest=digest, user_id=u.id, code_id=cid, created_at=now,
                             seen_at=now))
            if cid is not None:
                row = s.get(SignInCode, cid)
                self._audit(s, user, row.tournament_id if row else None, "sign_in_code", {})
        return token

    def session_user(self, token: str) -> str | None:
        """The account a session token stands for now, or None (unknown, ended, idle,
        too old, or its code revoked or expired). Writes `seen_at` at most every few
        minutes."""
        digest = token_digest(token)
        now = _utcnow()
        with self._read() as s:
            found = s.execute(select(WebSession, db.User.name)
                              .join(db.User, db.User.id == WebSession.user_id)
                              .where(WebSession.digest == digest)).first()
            if found is None:
                return None
            row, name = found
            alive = session_alive(aware(row.created_at), aware(row.seen_at), now)
            if alive and row.code_id is not None:
                code = s.get(SignInCode, row.code_id)
                alive = code is not None and self._code_valid(s, code, now)
            stale = now - aware(row.seen_at) >= TOUCH_EVERY
        if not alive:
            self.end_session(token)
            return None
        if stale:
            with self._write() as s:
                s.execute(update(WebSession).where(WebSession.digest == digest)
                          .values(seen_at=now))
        return str(name)

    def end_session(self, token: str) -> None:
        with self._write() as s:
            s.execute(delete(WebSession).where(WebSession.digest == token_digest(token)))

    def end_all_sessions(self, user: str) -> int:
        """"Sign out everywhere": every session of the account ends. Returns how many."""
        with self._write() as s:
            uid = s.scalar(select(db.User.id).where(db.User.name == user))
            if uid is None:
                return 0
            n = s.execute(delete(WebSession).where(WebSession.user_id == uid)).rowcount
            self._audit(s, user, None, "sign_out_everywhere", {"sessions": n})
            return int(n or 0)

    def grant(self, tournament: int, user: str, role: str, *, actor: str,
              password: str | None = None) -> None:
        """Give a role (organizers: any; head judges: judge and viewer). A `password`
        makes a *new* account with it; an account that exists keeps its password
        (refused rather than silently ignored, so the organizer knows)."""
        if role not in ROLES:
            raise ServiceError("bad_role", role=role, choices=", ".join(ROLES))
        key = account_key(user)
        digest = hash_password(password) if password else None
        with self._write() as s:
            t = self._tournament(s, tournament)
            self._require_staff(s, t, actor, role)
            exists = s.scalar(select(db.User.id).where(db.User.name == key)) is not None
            if exists and digest is not None:
                raise AccountError("account_exists", user=key)
            u = self._account(s, key, display=normalize_name(user))
            if digest is not None:
                u.password_hash = digest
            self._grant(s, t.id, key, role)
            self._audit(s, actor, t.id, "grant_role", {"user": key, "role": role})

    def _require_staff(self, s: Session, t: db.Tournament, actor: str, role: str) -> None:
        mine = self._roles(s, t.id, actor)
        if ORGANIZER in mine or (HEAD_JUDGE in mine and role in (JUDGE, db.VIEWER)):
            return
        raise PermissionDenied("not_allowed", user=actor, action="manage",
                               tournament=t.name, roles=sorted(STAFF))

    def _grant(self, s: Session, tid: int, user: str, role: str) -> db.User:
        """A role for an account in the tournament. A code account holds roles only in
        its own tournament, and only the roles a code can carry."""
        u = self._user(s, user)
        if u.code_tournament_id is not None:
            if u.code_tournament_id != tid:
                raise AccountError("code_account_elsewhere", user=user)
            if role not in CODE_ROLES:
                raise AccountError("code_account_role", user=user, role=role)
        exists = s.scalar(select(db.RoleGrant.id).where(
            db.RoleGrant.user_id == u.id, db.RoleGrant.tournament_id == tid,
            db.RoleGrant.role == role))
        if exists is None:
            s.add(db.RoleGrant(user_id=u.id, tournament_id=tid, role=role))
        return u

    def staff(self, tournament: int) -> list[tuple[str, str]]:
        """(user, role) pairs of the tournament."""
        with self._read() as s:
            rows = s.execute(select(db.User.name, db.RoleGrant.role)
                             .join(db.RoleGrant, db.RoleGrant.user_id == db.User.id)
                             .where(db.RoleGrant.tournament_id == tournament)
                             .order_by(db.RoleGrant.role, db.User.name))
            return [(n, r) for n, r in rows]

    def tournaments_of(self, user: str) -> dict[int, set[str]]:
        """Every tournament where the user has a role, with the roles."""
        with self._read() as s:
            rows = s.execute(select(db.RoleGrant.tournament_id, db.RoleGrant.role)
                             .join(db.User, db.User.id == db.RoleGrant.user_id)
                             .where(db.User.name == user))
            out: dict[int, set[str]] = {}
            for tid, role in rows:
                out.setdefault(tid, set()).add(role)
            return out

    # --- publication ---
    def visibility(self, tournament: int) -> Visibility:
        with self._read() as s:
            t = self._tournament(s, tournament)
            row = s.get(WebSettings, t.id)
            finished = bool(row and row.finished)
            return Visibility(standings_hidden=bool(row and row.standings_hidden) and not finished,
                              extras_hidden=bool(t.hide_extras_until_end) and not finished,
                              finished=finished)

    def set_visibility(self, tournament: int, *, actor: str, standings_hidden: bool,
                       extras_hidden: bool, finished: bool) -> None:
        """The publication switches (organizer or head judge)."""
        with self._write() as s:
            t = self._tournament(s, tournament)
            self._require(s, t, actor, STAFF, "manage")
            row = s.get(WebSettings, t.id)
            if row is None:
                row = WebSettings(tournament_id=t.id)
                s.add(row)
            row.standings_hidden = standings_hidden
            row.finished = finished
            t.hide_extras_until_end = extras_hidden
            self._audit(s, actor, t.id, "set_visibility",
                        {"standings_hidden": standings_hidden, "extras_hidden": extras_hidden,
                         "finished": finished})

    # --- set-up ---
    def add_stage(self, tournament: int, stage: model.Stage, *, actor: str) -> None:
        with self._write() as s:
            t = self._tournament(s, tournament)
            self._require(s, t, actor, STAFF, "manage")
            codes = set(s.scalars(select(db.Stage.code).where(db.Stage.tournament_id == t.id)))
            if stage.id in codes:
                raise ServiceError("duplicate_player", value=stage.id)
            if stage.kind not in model.STAGE_KINDS:
                raise ServiceError("bad_role", role=stage.kind, choices=", ".join(model.STAGE_KINDS))
            s.add(db.Stage(tournament_id=t.id, code=stage.id, name=stage.name, kind=stage.kind,
                           compensation=stage.compensation, position=len(codes)))
            self._audit(s, actor, t.id, "add_stage", {"stage": stage.id})

    def enter_seating(self, tournament: int, stage: str, rnd: int, table: int,
                      players: Sequence[str], *, actor: str,
                      judge: str | None = None) -> RevisionInfo:
        """A table's seating (ten players by seat) as the game's first draft, with roles
        and result left for the judge; optionally the table's judge."""
        with self._read() as s:
            t = self._tournament(s, tournament)
            self._require(s, t, actor, STAFF, "manage")
        game = model.Game(id=seating_game_id(stage, rnd, table), stage=stage, round=rnd,
                          table=table, seats=[model.Seat(seat=i + 1, player=p, role="")
                                              for i, p in enumerate(players)],
                          result="", judge=judge)
        info = self.save_protocol(tournament, game, actor=actor, base_revision=0,
                                  reason="seating")
        if judge:
            self.assign_judge(tournament, game.id, judge, actor=actor)
        return info

    def import_seating(self, tournament: int, data: bytes, *, actor: str) -> int:
        """Seating from a format-1 file: each of its games' stage, round, table and
        players by seat (roles, results and scores in it are ignored). Returns the count."""
        t, problems = read_tournament(data)
        if t is None:
            from mafiatab.domain.problems import ProtocolRefused

            raise ProtocolRefused(problems)
        for g in t.games:
            players = [s.player for s in sorted(g.seats, key=lambda x: x.seat)]
            self.enter_seating(tournament, g.stage, g.round, g.table, players, actor=actor,
                               judge=g.judge)
        return len(t.games)

    def assign_judge(self, tournament: int, game: str, judge: str, *, actor: str) -> None:
        """Make `judge` the judge of the game's table (and a judge of the tournament)."""
        judge = account_key(judge)
        with self._write() as s:
            t = self._tournament(s, tournament)
            self._require(s, t, actor, STAFF, "manage")
            self._game(s, t.id, game)
            self._grant(s, t.id, judge, JUDGE)
            row = s.scalar(select(Assignment).where(Assignment.tournament_id == t.id,
                                                    Assignment.game_code == game))
            if row is None:
                s.add(Assignment(tournament_id=t.id, game_code=game, user_name=judge))
            else:
                row.user_name = judge
            self._audit(s, actor, t.id, "assign_judge", {"game": game, "judge": judge})

    def judge_of(self, tournament: int, game: str) -> str | None:
        with self._read() as s:
            return s.scalar(select(Assignment.user_name).where(
                Assignment.tournament_id == tournament, Assignment.game_code == game))

    # --- reading ---
    def overview(self, tournament: int) -> list[GameStatus]:
        """Every game with its newest revision's state, in stage, round, table order."""
        rev = db.ProtocolRevision
        with self._read() as s:
            self._tournament(s, tournament)
            judges = {code: name for code, name in s.execute(
                select(Assignment.game_code, Assignment.user_name)
                .where(Assignment.tournament_id == tournament))}
            rows = s.execute(
                select(db.Game.code, db.Stage.code, db.Round.number, db.GameTable.number,
                       rev.state, db.Game.head_revision, db.Game.confirmed_revision,
                       db.User.name)
                .join(db.GameTable, db.GameTable.id == db.Game.table_id)
                .join(db.Round, db.Round.id == db.GameTable.round_id)
                .join(db.Stage, db.Stage.id == db.Round.stage_id)
                .join(rev, (rev.game_id == db.Game.id) & (rev.number == db.Game.head_revision))
                .join(db.User, db.User.id == rev.author_id)
                .where(db.Game.tournament_id == tournament)
                .order_by(db.Stage.position, db.Round.number, db.GameTable.number))
            return [GameStatus(code, stage, rnd, table, state, head, conf, author,
                               judges.get(code))
                    for code, stage, rnd, table, state, head, conf, author in rows]

    def status(self, tournament: int, game: str) -> GameStatus:
        for st in self.overview(tournament):
            if st.code == game:
                return st
        raise NotFound("no_game", game=game)

    def confirmed(self, tournament: int, game: str) -> RevisionInfo | None:
        """The newest confirmed revision of a game, or None."""
        with self._read() as s:
            row = self._game(s, tournament, game)
            if not row.confirmed_revision:
                return None
            return self._info(s, game, self._revision(s, row.id, row.confirmed_revision))

    def context(self, tournament: int) -> tuple[db.Tournament, list[model.Player], list[model.Stage]]:
        """The tournament row, its players and stages (what a form needs to offer)."""
        with self._read() as s:
            t = self._tournament(s, tournament)
            return t, self._players(s, t.id), self._stages(s, t.id)

    def check(self, tournament: int, game: model.Game) -> list[Problem]:
        """Every rule problem of a protocol being typed (what submitting would refuse)."""
        t, players, stages = self.context(tournament)
        profile, problems = profile_of(t)
        return problems + validate_game(game, profile, {p.id for p in players},
                                        {st.id for st in stages})

    def _forget_stamps(self) -> None:
        """After every write through this process the next read of the stamps goes to the
        database, so a confirmation shows on the next poll, not a second later."""
        with self._cache_lock:
            self._stamps.clear()
        for hook in self.after_write:
            hook()

    def recent_stamp(self, tournament: int) -> tuple[int, int] | None:
        """The stamp read from the database less than `STAMP_MAX_AGE` seconds ago, without
        touching the database (None: read it with `fresh_stamp`). Hundreds of phones poll
        the standings; writes by other processes (the CLI, a second server) show within
        that second."""
        with self._cache_lock:
            hit = self._stamps.get(tournament)
        if hit is not None and time.monotonic() - hit[0] < STAMP_MAX_AGE:
            return hit[1]
        return None

    def last_stamp(self, tournament: int) -> tuple[int, int] | None:
        """The stamp last read from the database, however old (None: never read)."""
        with self._cache_lock:
            hit = self._stamps.get(tournament)
        return None if hit is None else hit[1]

    def fresh_stamp(self, tournament: int) -> tuple[int, int]:
        """`recent_stamp`, or the database's stamp, remembered for `STAMP_MAX_AGE`."""
        stamp = self.recent_stamp(tournament)
        if stamp is None:
            stamp = self.stamp(tournament)
            with self._cache_lock:
                self._stamps[tournament] = (time.monotonic(), stamp)
        return stamp

    def stamp(self, tournament: int) -> tuple[int, int]:
        """Changes whenever what the public sees of the tournament may change: its newest
        audit entry other than private work (drafts, submissions, accounts), and its
        number of games (a seated table counts in "games confirmed: n of m")."""
        with self._read() as s:
            last = s.scalar(select(func.max(db.AuditEntry.id))
                            .where(db.AuditEntry.tournament_id == tournament,
                                   db.AuditEntry.action.not_in(PRIVATE_ACTIONS))) or 0
            games = s.scalar(select(func.count()).select_from(db.Game)
                             .where(db.Game.tournament_id == tournament)) or 0
            return last, games

    def cached_standings(self, tournament: int, stages: Iterable[str] | None = None) -> Standings:
        """`standings()`, kept until the tournament's `stamp` changes: every confirmation,
        lot or setting writes an audit entry, so a newer entry means recompute."""
        key = (tournament, tuple(stages) if stages is not None else None)
        stamp = self.stamp(tournament)
        with self._cache_lock:
            hit = self._cache.get(key)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        result = self.standings(tournament, key[1])
        with self._cache_lock:
            self._cache[key] = (stamp, result)
        return result

    def explain(self, tournament: int, player: str,
                stages: Iterable[str] | None = None) -> list[GameExplanation]:
        """Every confirmed game of a player with each part of his points and its clause."""
        t = self.tournament(tournament)
        profile, _ = profile_for(t)
        return explain_player(t, profile, player, stages)

    # --- protocols from the web ---
    def may_edit(self, tournament: int, game: str, user: str) -> bool:
        """Staff edit any protocol; a judge only his own table's, while it is a draft or
        returned, and not after the tournament ended (`Protocols`)."""
        return self.protocols.may_edit(tournament, game, user)

    def save_from_web(self, tournament: int, game: model.Game, *, actor: str,
                      base_revision: int) -> RevisionInfo:
        """`Protocols.save_draft` (the live screen's batches come this way)."""
        return self.protocols.save_draft(tournament, game.id, game, actor=actor,
                                         base_revision=base_revision)

    # --- lots ---
    def record_lot(self, tournament: int, seed: str, *, actor: str) -> list[model.LotDraw]:
        """A recorded draw among the players who need one (FIIM 8.8.5, FSM 8.7.6)."""
        with self._read() as s:
            t = self._tournament(s, tournament)
            self._require(s, t, actor, STAFF, "manage")
        core = self.tournament(tournament)
        draws = draw_lots(self.standings(tournament).rows, seed)
        if not draws:
            return []
        record_draws(core, draws)
        with self._write() as s:
            row = self._tournament(s, tournament)
            row.lots = list(core.lots)
            row.lot_draws = [{"seed": d.seed, "group": list(d.group), "order": list(d.order)}
                             for d in core.lot_draws]
            self._audit(s, actor, row.id, "lots", {"seed": seed,
                                                   "draws": [list(d.order) for d in draws]})
        return draws


def game_states() -> tuple[str, ...]:
    return (DRAFT, SUBMITTED, CONFIRMED, RETURNED)


def protocol_of(info: RevisionInfo) -> model.Game:
    return decode_game(_json_text(info.protocol))


def _json_text(d: dict[str, Any]) -> str:
    from mafiatab.services.tournaments import encode_game_dict

    return encode_game_dict(d)


__all__ = [
    "Assignment",
    "CODE_ROLES",
    "CodeInfo",
    "SignInCode",
    "GameStatus",
    "JUDGE_EDITABLE",
    "SHEET",
    "STAFF",
    "Visibility",
    "WebService",
    "WebSettings",
    "seating_game_id",
]
