"""What a global administrator does to other accounts, and the upkeep of password hashes.

* **A password reset by an administrator.** The right is a global one, never a role
  inside a tournament: a head judge of one tournament must not take over an account that
  also works elsewhere. Who may reset whose password is the rights model's
  (`services.rights`): the administrator right (`users.admin`) any other account with a
  password; the organizer right (the one that creates tournaments) only the accounts
  with no global right that work in tournaments he organizes and no other. The reset is
  written to the audit log (no tournament), and every session of the account ends, so
  whoever held a stolen or shared session is out.
* **The two global rights** are given and taken by an administrator (audited), or by the
  server's operator from the command line (`mafiatab db grant-admin`).
* **Rehash at sign-in.** argon2 hashes carry their parameters; when today's differ (the
  server moved from 64 MiB to OWASP's 19 MiB, or will move again), the sign-in that has
  just proved the password stores a new hash. The write is conditional on the old hash,
  so two sign-ins at once never overwrite a password changed meanwhile.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from sqlalchemy import delete, select, update

from mafiatab.services.accounts import (
    MAX_PASSWORD,
    MIN_PASSWORD,
    AccountError,
    Denied,
    account_key,
    hash_password,
    needs_rehash,
)
from mafiatab.services.rights import AccountRef, Act, Known, allowed, require
from mafiatab.services.store import Store, record_audit
from mafiatab.storage import models as db
from mafiatab.storage.models import WebSession
from mafiatab.texts.refusals import ADMIN


class AdminRefused(AccountError):
    """A reset that cannot be done (422); its words are the catalogue's `admin` section."""

    texts: ClassVar[Mapping[str, tuple[str, str]]] = ADMIN


def _key(user: str) -> str:
    """The account key of a typed name, or the text as typed when it is no name (the
    rights are asked first; the name's refusal comes after, to those who may)."""
    try:
        return account_key(user)
    except AccountError:
        return user


class AccountAdmin:
    """Resets by a global administrator; the rehash after a good sign-in."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def is_admin(self, user: str) -> bool:
        """Whether the account may reset passwords: the organizer or the administrator
        right, with a password (the page at /admin/accounts)."""
        with self.store.read() as s:
            u = s.scalar(select(db.User).where(db.User.name == user))
            return (u is not None and bool(u.organizer or u.admin)
                    and u.password_hash is not None)

    def is_administrator(self, user: str) -> bool:
        """Whether the account holds the global administrator right (with a password)."""
        with self.store.read() as s:
            u = s.scalar(select(db.User).where(db.User.name == user))
            return u is not None and bool(u.admin) and u.password_hash is not None

    def is_password_account(self, user: str) -> bool:
        """Whether the account signs in with a password (then no code is made for it)."""
        with self.store.read() as s:
            u = s.scalar(select(db.User).where(db.User.name == user))
            return u is not None and (u.password_hash is not None or bool(u.organizer))

    def accounts(self, *, actor: str) -> list[tuple[str, bool, bool]]:
        """The accounts with a password the actor may reset (name, organizer, admin), by
        name: code accounts have no password, and of the others only those the rights
        model lets him reach (`services.rights`: the administrator every other one)."""
        self._require_admin(actor)
        with self.store.read() as s:
            rows = list(s.scalars(select(db.User)
                                  .where(db.User.password_hash.is_not(None),
                                         db.User.code_tournament_id.is_(None),
                                         db.User.name != actor)
                                  .order_by(db.User.name)))
            known = Known()
            known.load(s, [actor, *(u.name for u in rows)])
            return [(u.name, bool(u.organizer), bool(u.admin)) for u in rows
                    if allowed(s, actor, Act.RESET_PASSWORD, AccountRef(u.name), known=known)]

    def reset_password(self, user: str, password: str, *, actor: str) -> int:
        """Give another account a new password; its sessions end. Returns how many
        sessions ended. Asks the rights model (never one's own account, only an account
        the actor holds every right of) before the hash is made, and again in the write;
        refused for code accounts (they sign in with a code only)."""
        key = _key(user)
        with self.store.read() as s:  # who may comes first: anyone else learns nothing
            require(s, actor, Act.RESET_PASSWORD, AccountRef(key))
        key = account_key(user)
        digest = hash_password(password)  # checks the length first; outside the lock
        with self.store.write() as s:
            require(s, actor, Act.RESET_PASSWORD, AccountRef(key))
            u = s.scalar(select(db.User).where(db.User.name == key))
            if u is None:
                raise AccountError("no_account", user=key)
            if u.code_tournament_id is not None:
                raise AdminRefused("reset_code_account", user=key)
            u.password_hash = digest
            gone = s.execute(delete(WebSession).where(WebSession.user_id == u.id))
            ended = gone.rowcount  # type: ignore[attr-defined]
            record_audit(s, actor, None, "reset_password",
                         {"user": key, "sessions_ended": int(ended or 0)})
            return int(ended or 0)

    def set_rights(self, user: str, *, actor: str, organizer: bool | None = None,
                   admin: bool | None = None, operator: bool = False) -> tuple[bool, bool]:
        """Give or take the global rights of an account with a password (None: as it is).
        An administrator's act (never on his own rights: someone else must keep them), or
        the server operator's (`operator`: the command line, which holds the database
        itself). Audited; returns (organizer, admin)."""
        key = _key(user)
        with self.store.write() as s:
            if not operator:
                require(s, actor, Act.SET_RIGHTS, AccountRef(key))
            key = account_key(user)
            u = s.scalar(select(db.User).where(db.User.name == key))
            if u is None:
                raise AccountError("no_account", user=key)
            if u.code_tournament_id is not None or u.password_hash is None:
                raise AdminRefused("rights_code_account", user=key)
            before = {"organizer": bool(u.organizer), "admin": bool(u.admin)}
            if organizer is not None:
                u.organizer = organizer
            if admin is not None:
                u.admin = admin
            after = {"organizer": bool(u.organizer), "admin": bool(u.admin)}
            record_audit(s, actor, None, "set_rights", {
                "user": key, "before": before, "after": after, "operator": operator})
            return after["organizer"], after["admin"]

    def rehash_if_needed(self, user: str, password: str) -> bool:
        """After a sign-in that proved `password`: store a hash with today's parameters
        when the stored one has others. Returns whether it did."""
        with self.store.read() as s:
            stored = s.scalar(select(db.User.password_hash).where(db.User.name == user))
        if stored is None or not needs_rehash(stored):
            return False
        if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            return False  # an old password outside today's bounds: its owner changes it
        digest = hash_password(password)
        with self.store.write() as s:
            result = s.execute(update(db.User)
                               .where(db.User.name == user, db.User.password_hash == stored)
                               .values(password_hash=digest)
                               .execution_options(synchronize_session=False))
            done = result.rowcount  # type: ignore[attr-defined]
            if done:
                record_audit(s, user, None, "rehash_password", {"user": user})
            return bool(done)

    def _require_admin(self, actor: str) -> None:
        if not self.is_admin(actor):
            raise Denied("not_organizer", user=actor)


__all__ = ["AccountAdmin", "AdminRefused"]
