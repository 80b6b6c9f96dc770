"""Accounts, passwords, sign-in codes and sessions: the pieces that decide who
someone is, kept apart from what they may do in a tournament (`services.access`).

Why it is built this way:

* **Accounts are global; tournaments only grant roles.** Nothing here lets a tournament's
  staff set the password of an account that exists; only the owner changes it
  (`Accounts.change_password`), or the server's operator from the command line.
* **Passwords are argon2id** (argon2-cffi, the reference binding) with OWASP's
  parameters: 19 MiB and about a fifth of a second each, and at most `HASH_SLOTS` run at
  once in a process (a semaphore; the web app waits for a slot on its event loop first,
  see `web.security.HashGate`) and `HASH_SLOTS` at once over all the processes of a server
  (`share_hash_slots`: advisory locks on PostgreSQL, file locks beside SQLite), in threads
  of a lower priority (`HASH_NICE`); an attempt that finds no free slot within `HASH_WAIT` seconds
  is refused as busy (`Busy`), so a sign-in flood costs bounded memory and never starves
  the judges' requests of worker threads.
* **A sign-in code** is `LLLL-SSSS`, eight characters a judge types from his blank
  protocol, from an alphabet without look-alike characters: the first group finds the row
  (an indexed read, no write lock per guess), the rest is the secret, kept as HMAC-SHA256
  under a random salt of the row and compared in constant time. A blind guess opens an
  account with odds of (codes issued) / 31⁸ (under 10⁻¹⁰ per guess for a hundred codes):
  enough for something that is rate-limited per address and per code, revocable, and dies
  with the tournament. Codes of the older 12-character form still open their accounts.
* **A session** is a random token in the (signed) cookie and its SHA-256 in
  `web_sessions`; a leaked cookie dies with the row (sign-out, password change, revoked
  code, "sign out everywhere", idle timeout).
* **Names** are NFKC-normalized and trimmed; the account key is that text case-folded,
  so "HeadJudge " and "headjudge" are one account.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import hmac
import os
import secrets
import threading
import time
import unicodedata
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar, Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Engine, delete, func, select, update
from sqlalchemy.orm import Session

from mafiatab.services.errors import PermissionDenied, ServiceError
from mafiatab.services.hash_slots import Held, SharedSlots
from mafiatab.services.store import Store, record_audit
from mafiatab.storage import models as db
from mafiatab.storage.models import SignInCode, WebSession, WebSettings
from mafiatab.texts.service import ACCOUNT

MIN_PASSWORD: Final = 10
MAX_PASSWORD: Final = 256
MAX_NAME: Final = 100
#: argon2 hashes that may run at once (each takes 64 MiB and a core)
HASH_SLOTS: Final = 2
#: how long a sign-in waits for a free hashing slot before it is refused as busy (seconds;
#: the web app waits on its event loop, holding no thread, so the wait may be long)
HASH_WAIT: Final = 15.0
#: a session unused this long is over (a tournament day has long pauses between rounds)
IDLE: Final = dt.timedelta(hours=12)
#: and no session lives longer than this, used or not
MAX_AGE: Final = dt.timedelta(days=14)
#: `seen_at` is written at most this often per session (a write takes SQLite's lock)
TOUCH_EVERY: Final = dt.timedelta(minutes=5)

#: the code alphabet: no 0/O, 1/I/L, so that a code read aloud or typed on a phone works
ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LOOKUP_LEN: Final = 4
SECRET_LEN: Final = 4
#: the secret's length in codes made before they were short enough to type (still valid)
OLD_SECRET_LEN: Final = 8

class AccountError(ServiceError):
    """A refusal about accounts, codes or sessions, in Russian or English."""

    status: int = 422
    texts: ClassVar[Mapping[str, tuple[str, str]]] = ACCOUNT


class Denied(AccountError, PermissionDenied):
    """An account-level refusal that is a matter of rights (403)."""

    status = 403


class Busy(AccountError):
    """No hashing slot was free in time (the caller answers 503 with Retry-After)."""

    status = 503

    def __init__(self) -> None:
        super().__init__("busy")


#: OWASP's argon2id parameters (Password Storage Cheat Sheet: 19 MiB, 2 passes, 1 lane):
#: a fifth of a second and one core per check on a small laptop, so two at once leave the
#: other work of the server its share; older hashes (64 MiB) still verify by their own
#: parameters, which every argon2 hash carries
_HASHER: Final = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
_SLOTS: Final = threading.BoundedSemaphore(HASH_SLOTS)
_DUMMY_HASH: Final = _HASHER.hash("not a password of anybody")


def normalize_name(name: str) -> str:
    """An account name as shown: NFKC (so full-width and composed letters are one text),
    trimmed, inner runs of spaces made one. Refused when empty, too long or with control
    characters."""
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    if not text or len(text) > MAX_NAME or any(unicodedata.category(c).startswith("C") for c in text):
        raise AccountError("bad_name", n=MAX_NAME)
    return text


def account_key(name: str) -> str:
    """The account's identity: the normalized name case-folded (what `users.name` holds)."""
    return normalize_name(name).casefold()


def check_new_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise AccountError("password_short", n=MIN_PASSWORD)
    if len(password) > MAX_PASSWORD:
        raise AccountError("password_long", n=MAX_PASSWORD)


#: the server's slots shared by its processes (`share_hash_slots`); None: this process's only
_SHARED: list[SharedSlots] = []


def share_hash_slots(engine: Engine) -> None:
    """From now on a hash in this process also takes one of the `HASH_SLOTS` slots that all
    the processes of the server on this database share (services.hash_slots), so that
    `serve --workers N` still runs at most `HASH_SLOTS` hashes at once. The web app calls
    it when it starts; the newest database named wins (one server serves one)."""
    _SHARED[:] = [SharedSlots(engine, HASH_SLOTS)]


class _Slot:
    held: Held | None = None

    def __enter__(self) -> None:
        deadline = time.monotonic() + HASH_WAIT
        if not _SLOTS.acquire(timeout=HASH_WAIT):
            raise Busy()
        shared = _SHARED[0] if _SHARED else None
        if shared is not None:
            try:
                self.held = shared.take(max(0.0, deadline - time.monotonic()))
            except BaseException:
                _SLOTS.release()
                raise
            if self.held is None:
                _SLOTS.release()
                raise Busy()

    def __exit__(self, *_exc: Any) -> None:
        try:
            if self.held is not None:
                self.held.release()
        finally:
            _SLOTS.release()


#: the argon2 threads' niceness: a hash yields the cores to the judges' requests (and the
#: rest of the server) whenever they want them, and takes what is left
HASH_NICE: Final = 10


def _lower_priority() -> None:
    """Run this (hashing) thread at a lower priority; Linux applies `setpriority` to the
    one thread named by its id. Elsewhere, or when refused, it runs as it is."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_NICE)


#: the threads that hash: always these few, so the memory glibc keeps per thread after an
#: argon2 run (19 MiB is under its largest mmap threshold, so it stays in the thread's
#: arena) is kept by `HASH_SLOTS` threads, not by every worker of the server
_POOL: Final = ThreadPoolExecutor(max_workers=HASH_SLOTS, thread_name_prefix="argon2",
                                  initializer=_lower_priority)


def hash_password(password: str) -> str:
    """argon2id of a new password (checked for length first)."""
    check_new_password(password)
    with _Slot():
        return _POOL.submit(_HASHER.hash, password).result()


def _verify(stored: str | None, password: str) -> bool:
    try:
        if stored is None:
            _HASHER.verify(_DUMMY_HASH, password + "x")
            return False
        return _HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether a stored hash was made with other argon2 parameters than today's (an older,
    heavier or lighter setting): the sign-in that proves the password hashes it anew."""
    try:
        return _HASHER.check_needs_rehash(stored)
    except (InvalidHashError, ValueError):
        return True


def verify_password(stored: str | None, password: str) -> bool:
    """Whether the password is the stored hash's; the same work when there is no hash
    (an unknown account or one without a password), so timing tells nothing."""
    if len(password) > MAX_PASSWORD:
        return False
    with _Slot():
        return _POOL.submit(_verify, stored, password).result()


# --- codes ---------------------------------------------------------------------------


def _random(n: int) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(n))


def new_code() -> tuple[str, str, str]:
    """(code as shown, lookup, secret)."""
    lookup, secret = _random(LOOKUP_LEN), _random(SECRET_LEN)
    return f"{lookup}-{secret}", lookup, secret


def parse_code(text: str) -> tuple[str, str] | None:
    """(lookup, secret) of a typed code, or None when it cannot be one. Case, spaces and
    dashes do not matter; O and I typed for 0 and 1 are not in the alphabet anyway."""
    if len(text) > 64:
        return None
    raw = "".join(c for c in unicodedata.normalize("NFKC", text).upper() if c not in " -\t")
    if (len(raw) not in (LOOKUP_LEN + SECRET_LEN, LOOKUP_LEN + OLD_SECRET_LEN)
            or any(c not in ALPHABET for c in raw)):
        return None
    return raw[:LOOKUP_LEN], raw[LOOKUP_LEN:]


def new_salt() -> str:
    return secrets.token_hex(16)


def code_digest(salt: str, secret: str) -> str:
    return hmac.new(bytes.fromhex(salt), secret.encode("ascii"), hashlib.sha256).hexdigest()


def code_matches(salt: str, digest: str, secret: str) -> bool:
    return hmac.compare_digest(code_digest(salt, secret), digest)


# --- sessions ------------------------------------------------------------------------


def new_token() -> tuple[str, str]:
    """(token for the cookie, digest for the database)."""
    token = secrets.token_urlsafe(32)
    return token, token_digest(token)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def session_alive(created: dt.datetime, seen: dt.datetime, now: dt.datetime) -> bool:
    return now - seen < IDLE and now - created < MAX_AGE


def aware(value: dt.datetime) -> dt.datetime:
    """SQLite gives naive datetimes back; everything stored here is UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


# --- inside a transaction (the other services' steps call these) ----------------------


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def account_in(s: Session, key: str, *, display: str | None = None) -> db.User:
    """The account `key`, made when missing (its shown name `display`)."""
    u = s.scalar(select(db.User).where(db.User.name == key))
    if u is None:
        u = db.User(name=key, display_name=display or key)
        s.add(u)
        s.flush()
    return u


def code_account_in(s: Session, tid: int, key: str, display: str) -> db.User:
    """The code account `key` of the tournament, made when missing; refused when the name
    is an account of another kind (with a password, an organizer, another tournament's)."""
    u = s.scalar(select(db.User).where(db.User.name == key))
    if u is None:
        u = db.User(name=key, display_name=display, code_tournament_id=tid)
        s.add(u)
        s.flush()
        return u
    if u.code_tournament_id != tid or u.password_hash is not None or u.organizer:
        raise AccountError("code_for_account", user=key)
    return u


def add_code_in(s: Session, tid: int, key: str, role: str, *, actor: str,
                ttl: dt.timedelta | None) -> str:
    """A sign-in code's row in the caller's transaction; returns the code as shown."""
    shown, lookup, secret = new_code()
    while s.scalar(select(SignInCode.id).where(SignInCode.lookup == lookup)) is not None:
        shown, lookup, secret = new_code()  # four letters find the row: never two alike
    salt = new_salt()
    s.add(SignInCode(tournament_id=tid, lookup=lookup, salt=salt,
                     digest=code_digest(salt, secret), user_name=key, role=role,
                     created_by=actor, expires_at=None if ttl is None else utcnow() + ttl))
    record_audit(s, actor, tid, "create_code", {"user": key, "role": role})
    return shown


def code_valid(s: Session, row: SignInCode, now: dt.datetime) -> bool:
    """A code opens its account while not revoked, not expired, and its tournament runs."""
    if row.revoked_at is not None:
        return False
    if row.expires_at is not None and aware(row.expires_at) <= now:
        return False
    settings = s.get(WebSettings, row.tournament_id)
    return not (settings is not None and settings.finished)


def end_code_sessions_in(s: Session, code: SignInCode) -> None:
    """The code stops opening anything, and every session made with it ends now."""
    code.revoked_at = utcnow()
    s.execute(delete(WebSession).where(WebSession.code_id == code.id))


# --- the use cases --------------------------------------------------------------------


class Accounts:
    """Who someone is: accounts, passwords, sign-ins with a code, sessions (one
    transaction each, over the `Store`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add_account(self, user: str, password: str, *, actor: str) -> bool:
        """The server operator's way in (`serve --add-user`): make the account or set its
        password. The first account of a database gets the organizer right, so someone
        can create the first tournament, and the administrator right. Returns whether the
        account has the organizer right."""
        digest = hash_password(password)
        key = account_key(user)
        with self.store.write() as s:
            first = s.scalar(select(func.count()).select_from(db.User)
                             .where(db.User.organizer.is_(True))) == 0
            u = account_in(s, key, display=normalize_name(user))
            u.password_hash = digest
            u.code_tournament_id = None
            if first:
                u.organizer = True
                u.admin = True
            s.execute(delete(WebSession).where(WebSession.user_id == u.id))
            record_audit(s, actor, None, "set_password", {"user": key, "operator": True})
            return bool(u.organizer)

    def set_password(self, user: str, password: str, *, actor: str) -> None:
        """The operator's reset of a password (the CLI); every session of it ends."""
        self.add_account(user, password, actor=actor)

    def change_password(self, user: str, old: str, new: str) -> None:
        """The owner changes his password (the old one checked); every session of the
        account ends, the caller signs in again."""
        key = account_key(user)
        with self.store.read() as s:
            stored = s.scalar(select(db.User.password_hash).where(db.User.name == key))
        if not verify_password(stored, old):
            raise AccountError("wrong_password")
        digest = hash_password(new)
        with self.store.write() as s:
            u = s.scalar(select(db.User).where(db.User.name == key))
            if u is None:
                raise AccountError("no_account", user=key)
            u.password_hash = digest
            s.execute(delete(WebSession).where(WebSession.user_id == u.id))
            record_audit(s, key, None, "set_password", {"user": key})

    def check_password(self, user: str, password: str) -> bool:
        """Whether the password is the account's (the same work also for unknown names)."""
        try:
            key = account_key(user)
        except AccountError:
            return verify_password(None, password)
        with self.store.read() as s:
            stored = s.scalar(select(db.User.password_hash).where(db.User.name == key))
        return verify_password(stored, password)

    # --- codes ---
    def sign_in_with_code(self, code: str) -> tuple[str, int] | None:
        """The account and tournament a valid code opens, or None. A wrong code is found
        out by one indexed read: no write, so guesses never take the write lock."""
        parsed = parse_code(code)
        if parsed is None:
            return None
        lookup, secret = parsed
        with self.store.read() as s:
            row = s.scalar(select(SignInCode).where(SignInCode.lookup == lookup))
            if row is None or not code_matches(row.salt, row.digest, secret):
                return None
            if not code_valid(s, row, utcnow()):
                return None
            return row.user_name, row.tournament_id

    def code_id(self, code: str) -> int | None:
        parsed = parse_code(code)
        if parsed is None:
            return None
        with self.store.read() as s:
            return s.scalar(select(SignInCode.id).where(SignInCode.lookup == parsed[0]))

    # --- sessions ---
    def open_session(self, user: str, *, code: str | None = None) -> str:
        """A new server-side session for the account (a code's session is tied to the
        code: revoking it ends the session). Returns the token for the cookie."""
        token, digest = new_token()
        cid = self.code_id(code) if code is not None else None
        with self.store.write() as s:
            u = s.scalar(select(db.User).where(db.User.name == user))
            if u is None:
                raise AccountError("no_account", user=user)
            now = utcnow()
            s.add(WebSession(digest=digest, user_id=u.id, code_id=cid, created_at=now,
                             seen_at=now))
            if cid is not None:
                row = s.get(SignInCode, cid)
                record_audit(s, user, row.tournament_id if row else None, "sign_in_code", {})
        return token

    def session_user(self, token: str) -> str | None:
        """The account a session token stands for now, or None (unknown, ended, idle,
        too old, or its code revoked or expired). Writes `seen_at` at most every few
        minutes."""
        digest = token_digest(token)
        now = utcnow()
        with self.store.read() as s:
            found = s.execute(select(WebSession, db.User.name)
                              .join(db.User, db.User.id == WebSession.user_id)
                              .where(WebSession.digest == digest)).first()
            if found is None:
                return None
            row, name = found
            alive = session_alive(aware(row.created_at), aware(row.seen_at), now)
            if alive and row.code_id is not None:
                code = s.get(SignInCode, row.code_id)
                alive = code is not None and code_valid(s, code, now)
            stale = now - aware(row.seen_at) >= TOUCH_EVERY
        if not alive:
            self.end_session(token)
            return None
        if stale:
            with self.store.write() as s:
                s.execute(update(WebSession).where(WebSession.digest == digest)
                          .values(seen_at=now))
        return str(name)

    def alive(self, tokens: Sequence[str]) -> set[str]:
        """The tokens among `tokens` whose sessions still stand (as `session_user` would
        say, without touching `seen_at`): one query for a few hundred, so that every
        open stream's session is checked once a tick together."""
        now = utcnow()
        digests = {token_digest(t): t for t in tokens}
        out: set[str] = set()
        keys = list(digests)
        with self.store.read() as s:
            for start in range(0, len(keys), 500):
                rows = s.execute(select(WebSession.digest, WebSession.created_at,
                                        WebSession.seen_at, WebSession.code_id)
                                 .where(WebSession.digest.in_(keys[start:start + 500])))
                for digest, created, seen, code_id in rows:
                    if not session_alive(aware(created), aware(seen), now):
                        continue
                    if code_id is not None:
                        code = s.get(SignInCode, code_id)
                        if code is None or not code_valid(s, code, now):
                            continue
                    out.add(digests[digest])
        return out

    def end_session(self, token: str) -> None:
        with self.store.write() as s:
            s.execute(delete(WebSession).where(WebSession.digest == token_digest(token)))

    def end_all_sessions(self, user: str) -> int:
        """"Sign out everywhere": every session of the account ends. Returns how many."""
        with self.store.write() as s:
            uid = s.scalar(select(db.User.id).where(db.User.name == user))
            if uid is None:
                return 0
            n = s.execute(delete(WebSession).where(WebSession.user_id == uid)).rowcount  # type: ignore[attr-defined]
            record_audit(s, user, None, "sign_out_everywhere", {"sessions": n})
            return int(n or 0)


__all__ = [
    "ALPHABET",
    "AccountError",
    "Accounts",
    "Busy",
    "Denied",
    "HASH_SLOTS",
    "IDLE",
    "MAX_AGE",
    "MIN_PASSWORD",
    "account_in",
    "account_key",
    "add_code_in",
    "code_account_in",
    "code_valid",
    "end_code_sessions_in",
    "check_new_password",
    "code_digest",
    "code_matches",
    "hash_password",
    "share_hash_slots",
    "new_code",
    "new_salt",
    "new_token",
    "needs_rehash",
    "normalize_name",
    "parse_code",
    "session_alive",
    "token_digest",
    "verify_password",
]
