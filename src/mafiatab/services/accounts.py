"""Accounts, passwords, sign-in codes and sessions (issue 10): the pieces that decide who
someone is, kept apart from what they may do in a tournament (`web_support`).

Why it is built this way:

* **Accounts are global; tournaments only grant roles.** Nothing here lets a tournament's
  staff set the password of an account that exists; only the owner changes it
  (`WebService.change_password`), or the server's operator from the command line.
* **Passwords are argon2id** (argon2-cffi, the reference binding) with OWASP's
  parameters: 19 MiB and about a fifth of a second each, and at most `HASH_SLOTS` run at
  once (a semaphore; the web app waits for a slot on its event loop first, see
  `web.security.HashGate`); an attempt that finds no free slot within `HASH_WAIT` seconds
  is refused as busy (`Busy`), so a sign-in flood costs bounded memory and never starves
  the judges' requests of worker threads.
* **A sign-in code** is `LLLL-SSSS-SSSS` from an alphabet without look-alike characters:
  the first group finds the row (an indexed read, no write lock per guess), the rest is
  the secret, kept as HMAC-SHA256 under a random salt of the row and compared in constant
  time. About 40 bits of secret are plenty for something that is rate-limited per address
  and per code, revocable, and dies with the tournament.
* **A session** is a random token in the (signed) cookie and its SHA-256 in
  `web_sessions`; a leaked cookie dies with the row (sign-out, password change, revoked
  code, "sign out everywhere", idle timeout).
* **Names** are NFKC-normalized and trimmed; the account key is that text case-folded,
  so "HeadJudge " and "headjudge" are one account.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
import threading
import unicodedata
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar, Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from mafiatab.services.tournaments import PermissionDenied, ServiceError
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
SECRET_LEN: Final = 8

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


class _Slot:
    def __enter__(self) -> None:
        if not _SLOTS.acquire(timeout=HASH_WAIT):
            raise Busy()

    def __exit__(self, *_exc: Any) -> None:
        _SLOTS.release()


#: the threads that hash: always these few, so the memory glibc keeps per thread after an
#: argon2 run (19 MiB is under its largest mmap threshold, so it stays in the thread's
#: arena) is kept by `HASH_SLOTS` threads, not by every worker of the server
_POOL: Final = ThreadPoolExecutor(max_workers=HASH_SLOTS, thread_name_prefix="argon2")


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
    return f"{lookup}-{secret[:4]}-{secret[4:]}", lookup, secret


def parse_code(text: str) -> tuple[str, str] | None:
    """(lookup, secret) of a typed code, or None when it cannot be one. Case, spaces and
    dashes do not matter; O and I typed for 0 and 1 are not in the alphabet anyway."""
    if len(text) > 64:
        return None
    raw = "".join(c for c in unicodedata.normalize("NFKC", text).upper() if c not in " -\t")
    if len(raw) != LOOKUP_LEN + SECRET_LEN or any(c not in ALPHABET for c in raw):
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


__all__ = [
    "ALPHABET",
    "AccountError",
    "Busy",
    "Denied",
    "HASH_SLOTS",
    "IDLE",
    "MAX_AGE",
    "MIN_PASSWORD",
    "account_key",
    "check_new_password",
    "code_digest",
    "code_matches",
    "hash_password",
    "new_code",
    "new_salt",
    "new_token",
    "normalize_name",
    "parse_code",
    "session_alive",
    "token_digest",
    "verify_password",
]
