"""What someone may do in a tournament: roles and their grants, the staff, the sign-in
codes staff hand out at the door, the organizer right, and the tournament's publication
switches (what the public may see, whether it has ended).

Accounts are global (`services.accounts`); a tournament only grants roles. Who may give
or take which role, and issue or revoke whose code, is the rights model's
(`services.rights`: organizers any role; head judges judge, viewer and player). A code
account (made by a sign-in code) holds roles only in its own tournament, and only the
roles a code can carry (`grant_in`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Final

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from mafiatab.services.accounts import (
    AccountError,
    Denied,
    account_in,
    account_key,
    add_code_in,
    aware,
    code_account_in,
    code_valid,
    end_code_sessions_in,
    hash_password,
    normalize_name,
    utcnow,
)
from mafiatab.services.errors import ServiceError
from mafiatab.services.rights import AccountRef, Act, TournamentRef, require
from mafiatab.services.store import (
    Store,
    record_audit,
    require_role,
    roles_in,
    tournament_row,
    user_row,
)
from mafiatab.storage import models as db
from mafiatab.storage.models import (
    HEAD_JUDGE,
    JUDGE,
    ORGANIZER,
    PLAYER,
    ROLES,
    VIEWER,
    SignInCode,
    WebSettings,
)

#: the tournament's staff: they set it up, confirm protocols and decide what is public
STAFF: Final = frozenset({ORGANIZER, HEAD_JUDGE})
#: the roles a sign-in code can carry: a judge's table, a player's own page, a viewer
CODE_ROLES: Final = (JUDGE, PLAYER, VIEWER)


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
class Visibility:
    """What the public may see of a tournament now."""

    standings_hidden: bool
    extras_hidden: bool
    finished: bool


def grant_in(s: Session, tid: int, user: str, role: str) -> db.User:
    """A role for an account in the tournament, in the caller's transaction. A code
    account holds roles only in its own tournament, and only the roles a code can carry."""
    u = user_row(s, user)
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


class Access:
    """Roles, grants, codes, the organizer right and the publication switches (one
    transaction each, over the `Store`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # --- the organizer right ---
    def is_organizer(self, user: str) -> bool:
        with self.store.read() as s:
            return bool(s.scalar(select(db.User.organizer).where(db.User.name == user)))

    def require_organizer(self, actor: str) -> None:
        """Only an account with the organizer right creates or imports tournaments."""
        if not self.is_organizer(actor):
            raise Denied("not_organizer", user=actor)

    def give_organizer(self, user: str, *, actor: str) -> None:
        """An administrator gives another account (with a password) the right to create
        tournaments."""
        key = account_key(user)
        with self.store.write() as s:
            require(s, actor, Act.SET_RIGHTS, AccountRef(key))
            u = s.scalar(select(db.User).where(db.User.name == key))
            if u is None:
                raise AccountError("no_account", user=key)
            if u.code_tournament_id is not None or u.password_hash is None:
                raise AccountError("code_account_role", user=key, role=ORGANIZER)
            u.organizer = True
            record_audit(s, actor, None, "give_organizer", {"user": key})

    # --- roles ---
    def roles_of(self, tournament: int, user: str) -> set[str]:
        with self.store.read() as s:
            return roles_in(s, tournament, user)

    def grant_role(self, tournament: int, user: str, role: str, *, actor: str) -> None:
        """Give `user` a role in the tournament (organizers only; the CLI's way)."""
        if role not in ROLES:
            raise ServiceError("bad_role", role=role, choices=", ".join(ROLES))
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require(s, actor, Act.GRANT_ROLE, AccountRef(account_key(user), t.id, role))
            u = user_row(s, user)
            exists = s.scalar(select(db.RoleGrant.id).where(
                db.RoleGrant.user_id == u.id, db.RoleGrant.tournament_id == t.id,
                db.RoleGrant.role == role))
            if exists is None:
                s.add(db.RoleGrant(user_id=u.id, tournament_id=t.id, role=role))
                record_audit(s, actor, t.id, "grant_role", {"user": user, "role": role})

    def grant(self, tournament: int, user: str, role: str, *, actor: str,
              password: str | None = None) -> None:
        """Give a role (organizers: any; head judges: judge and viewer). A `password`
        makes a *new* account with it; an account that exists keeps its password
        (refused rather than silently ignored, so the organizer knows). Who may hand out
        roles here is asked before the name, the role or the password is looked at."""
        self._may_hand_out(tournament, actor)
        if role not in ROLES:
            raise ServiceError("bad_role", role=role, choices=", ".join(ROLES))
        key = account_key(user)
        digest = hash_password(password) if password else None
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require(s, actor, Act.GRANT_ROLE, AccountRef(key, t.id, role))
            exists = s.scalar(select(db.User.id).where(db.User.name == key)) is not None
            if exists and digest is not None:
                raise AccountError("account_exists", user=key)
            u = account_in(s, key, display=normalize_name(user))
            if digest is not None:
                u.password_hash = digest
            grant_in(s, t.id, key, role)
            record_audit(s, actor, t.id, "grant_role", {"user": key, "role": role})

    def revoke_role(self, tournament: int, user: str, role: str, *, actor: str) -> None:
        """Take a role away; the account's next request no longer has it (roles are read
        on every request). A code account's codes for that role die with it."""
        self._may_hand_out(tournament, actor)
        key = account_key(user)
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require(s, actor, Act.REVOKE_ROLE, AccountRef(key, t.id, role))
            u = s.scalar(select(db.User).where(db.User.name == key))
            if u is None:
                raise AccountError("no_account", user=key)
            s.execute(delete(db.RoleGrant).where(db.RoleGrant.user_id == u.id,
                                                 db.RoleGrant.tournament_id == t.id,
                                                 db.RoleGrant.role == role))
            for row in s.scalars(select(SignInCode).where(
                    SignInCode.tournament_id == t.id, SignInCode.user_name == key,
                    SignInCode.role == role, SignInCode.revoked_at.is_(None))):
                end_code_sessions_in(s, row)
            record_audit(s, actor, t.id, "revoke_role", {"user": key, "role": role})

    def _may_hand_out(self, tournament: int, actor: str) -> None:
        """Refused unless `actor` hands out some role in the tournament (its staff: the
        rights model's `MANAGE`); the role and the account are the rights model's next."""
        with self.store.read() as s:
            require(s, actor, Act.MANAGE, TournamentRef(tournament_row(s, tournament).id))

    def staff(self, tournament: int, *, actor: str) -> list[tuple[str, str]]:
        """(user, role) pairs of the tournament: who holds which role is its staff's to
        read (the rights model's `MANAGE`), not public."""
        with self.store.read() as s:
            require(s, actor, Act.MANAGE, TournamentRef(tournament_row(s, tournament).id))
            rows = s.execute(select(db.User.name, db.RoleGrant.role)
                             .join(db.RoleGrant, db.RoleGrant.user_id == db.User.id)
                             .where(db.RoleGrant.tournament_id == tournament)
                             .order_by(db.RoleGrant.role, db.User.name))
            return [(n, r) for n, r in rows]

    def tournaments_of(self, user: str) -> dict[int, set[str]]:
        """Every tournament where the user has a role, with the roles."""
        with self.store.read() as s:
            rows = s.execute(select(db.RoleGrant.tournament_id, db.RoleGrant.role)
                             .join(db.User, db.User.id == db.RoleGrant.user_id)
                             .where(db.User.name == user))
            out: dict[int, set[str]] = {}
            for tid, role in rows:
                out.setdefault(tid, set()).add(role)
            return out

    # --- sign-in codes ---
    def create_code(self, tournament: int, user: str, role: str, *, actor: str,
                    ttl: dt.timedelta | None = None) -> str:
        """A sign-in code for one role in one tournament, shown once. It makes the
        account `user` for this tournament (no password; roles only here), or adds a
        code to such an account; never one for an account that exists otherwise. It
        lives until the tournament ends, or `ttl`, or until revoked. Head judges hand
        out judge and viewer codes only."""
        self._may_hand_out(tournament, actor)
        if role not in CODE_ROLES:
            raise AccountError("code_role", roles=list(CODE_ROLES))
        if ttl is not None and not dt.timedelta(minutes=1) <= ttl <= dt.timedelta(days=30):
            raise AccountError("bad_expiry")
        key = account_key(user)
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require(s, actor, Act.ISSUE_CODE, AccountRef(key, t.id, role))
            code_account_in(s, t.id, key, normalize_name(user))
            grant_in(s, t.id, key, role)
            return add_code_in(s, t.id, key, role, actor=actor, ttl=ttl)

    def codes(self, tournament: int, *, actor: str) -> list[CodeInfo]:
        """The tournament's sign-in codes (never the codes themselves), newest first."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            require(s, actor, Act.MANAGE, TournamentRef(t.id))
            now = utcnow()
            rows = s.scalars(select(SignInCode).where(SignInCode.tournament_id == t.id)
                             .order_by(SignInCode.id.desc()))
            return [CodeInfo(r.id, r.user_name, r.role, r.created_by, aware(r.created_at),
                             None if r.expires_at is None else aware(r.expires_at),
                             r.revoked_at is not None, code_valid(s, r, now))
                    for r in rows]

    def revoke_code(self, tournament: int, code_id: int, *, actor: str) -> None:
        """A code stops opening anything, and every session made with it ends now."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require(s, actor, Act.MANAGE, TournamentRef(t.id))
            # an id past the database's integer is no code's (PostgreSQL refuses the lookup)
            row = s.get(SignInCode, code_id) if 0 < code_id < 2**31 else None
            if row is None or row.tournament_id != t.id:
                raise AccountError("no_code")
            require(s, actor, Act.REVOKE_CODE, AccountRef(row.user_name, t.id, row.role))
            end_code_sessions_in(s, row)
            record_audit(s, actor, t.id, "revoke_code", {"user": row.user_name, "role": row.role})

    # --- publication ---
    def visibility(self, tournament: int) -> Visibility:
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            row = s.get(WebSettings, t.id)
            finished = bool(row and row.finished)
            return Visibility(standings_hidden=bool(row and row.standings_hidden) and not finished,
                              extras_hidden=bool(t.hide_extras_until_end) and not finished,
                              finished=finished)

    def set_visibility(self, tournament: int, *, actor: str, standings_hidden: bool,
                       extras_hidden: bool, finished: bool) -> None:
        """The publication switches (organizer or head judge)."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "manage")
            row = s.get(WebSettings, t.id)
            if row is None:
                row = WebSettings(tournament_id=t.id)
                s.add(row)
            row.standings_hidden = standings_hidden
            row.finished = finished
            t.hide_extras_until_end = extras_hidden
            record_audit(s, actor, t.id, "set_visibility",
                         {"standings_hidden": standings_hidden, "extras_hidden": extras_hidden,
                          "finished": finished})


__all__ = ["CODE_ROLES", "STAFF", "Access", "CodeInfo", "Visibility", "grant_in"]
