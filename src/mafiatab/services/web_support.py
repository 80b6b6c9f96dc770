"""What the web app needs beyond `TournamentService` (issue 4), as use cases of its own.

`WebService` extends the storage service rather than going around it: every method here is
one transaction through the same `_write`/`_read` helpers, checks roles the same way and
writes the same audit log. It adds what only a web app needs:

* accounts that can sign in (argon2 password hashes in `users.password_hash`) and
  per-tournament access codes that the organizer hands to a judge at the door;
* which judge sits at which table (`web_assignments`), so that a judge edits only his own
  table's protocol;
* the tournament's publication switches (standings hidden until the end; the storage
  schema already holds `hide_extras_until_end`) and whether it has ended;
* seating: a table's ten players entered (or imported) before the game, stored as the
  game's first *draft* revision with the roles and the result still blank, so the judge's
  form opens on it and nothing else has to know about "seating";
* the round overview (every table's protocol state), lots, stages, and a cached standings
  read for the hundreds of phones that poll it.

Its three small tables (`web_settings`, `web_assignments`, `web_access_codes`) are part of
the storage schema (`storage.models`, Alembic migration 0002), like every other table.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from mafiatab.domain import protocol as model
from mafiatab.domain.lots import draw_lots, record_draws
from mafiatab.domain.problems import Problem
from mafiatab.domain.standings import GameExplanation, Standings, explain_player
from mafiatab.domain.validation import validate_game
from mafiatab.formats.tournament_json import read_tournament
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
from mafiatab.storage import models as db
from mafiatab.storage.engine import check_schema
from mafiatab.storage.models import (
    CONFIRMED,
    DRAFT,
    HEAD_JUDGE,
    JUDGE,
    ORGANIZER,
    RETURNED,
    ROLES,
    SUBMITTED,
    AccessCode,
    Assignment,
    WebSettings,
)

STAFF: Final = frozenset({ORGANIZER, HEAD_JUDGE})
#: the key under which the web form keeps what FIIM section 9 records but nothing scores:
#: fouls, nominations and votes per day, written explanations, a protest note
SHEET: Final = "sheet"

MIN_PASSWORD: Final = 6
#: how long a tournament's stamp read from the database serves the public polls (seconds)
STAMP_MAX_AGE: Final = 1.0
#: audit actions that change nothing the public sees (standings read confirmed revisions)
PRIVATE_ACTIONS: Final = ("save", "submit", "conflict", "sign_in_code", "set_password",
                          "create_code", "grant_role", "assign_judge")
#: parts of a game's points that are main points (the rest are extras, hidden from the
#: public while the tournament hides extras): scoring.md sections 2 and 5
MAIN_PARTS: Final = frozenset({"win", "compensation"})

_HASHER = PasswordHasher()


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


def _digest(code: str) -> str:
    return hashlib.sha256(code.strip().upper().encode("utf-8")).hexdigest()


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

    def ensure_schema(self) -> None:
        """Refuse to run on a database whose schema is not the newest migration (the web
        tables come with the others through `mafiatab db upgrade`)."""
        check_schema(self._writer)

    # --- accounts ---
    def set_password(self, user: str, password: str, *, actor: str) -> None:
        """Give an account a password (argon2id); made when missing."""
        if len(password) < MIN_PASSWORD:
            raise ValueError(f"a password has at least {MIN_PASSWORD} characters")
        with self._write() as s:
            u = self._user(s, user)
            u.password_hash = _HASHER.hash(password)
            self._audit(s, actor, None, "set_password", {"user": user})

    def check_password(self, user: str, password: str) -> bool:
        """Whether the password is the account's (constant work also for unknown names)."""
        with self._read() as s:
            stored = s.scalar(select(db.User.password_hash).where(db.User.name == user))
        try:
            if stored is None:
                _HASHER.verify(_DUMMY_HASH, password + "x")
                return False
            return _HASHER.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    def create_code(self, tournament: int, user: str, role: str, *, actor: str) -> str:
        """A new sign-in code for `user` with `role` in the tournament; the code is shown
        once (only its digest is stored). Head judges may hand out judge codes only."""
        if role not in ROLES:
            raise ServiceError("bad_role", role=role, choices=", ".join(ROLES))
        code = "-".join(secrets.token_hex(2).upper() for _ in range(3))
        with self._write() as s:
            t = self._tournament(s, tournament)
            self._require_staff(s, t, actor, role)
            self._grant(s, t.id, user, role)
            s.add(AccessCode(tournament_id=t.id, digest=_digest(code), user_name=user, role=role))
            self._audit(s, actor, t.id, "create_code", {"user": user, "role": role})
        return code

    def sign_in_with_code(self, code: str) -> tuple[str, int] | None:
        """The account and tournament a code opens, or None."""
        with self._write() as s:
            row = s.scalar(select(AccessCode).where(AccessCode.digest == _digest(code)))
            if row is None:
                return None
            self._audit(s, row.user_name, row.tournament_id, "sign_in_code", {})
            return row.user_name, row.tournament_id

    def grant(self, tournament: int, user: str, role: str, *, actor: str,
              password: str | None = None) -> None:
        """Give a role (organizers: any; head judges: judge and viewer), and optionally
        set the account's password in the same step."""
        if role not in ROLES:
            raise ServiceError("bad_role", role=role, choices=", ".join(ROLES))
        with self._write() as s:
            t = self._tournament(s, tournament)
            self._require_staff(s, t, actor, role)
            u = self._grant(s, t.id, user, role)
            if password:
                u.password_hash = _HASHER.hash(password)
            self._audit(s, actor, t.id, "grant_role", {"user": user, "role": role})

    def _require_staff(self, s: Session, t: db.Tournament, actor: str, role: str) -> None:
        mine = self._roles(s, t.id, actor)
        if ORGANIZER in mine or (HEAD_JUDGE in mine and role in (JUDGE, db.VIEWER)):
            return
        raise PermissionDenied("not_allowed", user=actor, action="manage",
                               tournament=t.name, roles=sorted(STAFF))

    def _grant(self, s: Session, tid: int, user: str, role: str) -> db.User:
        u = self._user(s, user)
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


_DUMMY_HASH: Final = _HASHER.hash("not a password of anybody")

__all__ = [
    "Assignment",
    "AccessCode",
    "GameStatus",
    "JUDGE_EDITABLE",
    "SHEET",
    "STAFF",
    "Visibility",
    "WebService",
    "WebSettings",
    "seating_game_id",
]
