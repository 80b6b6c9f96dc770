"""Who is asking, and may they: the session, CSRF tokens, sign-in limits, role checks.

* The cookie is Starlette's signed session (itsdangerous): HttpOnly, SameSite=Lax, and
  Secure exactly when the request came over HTTPS (`--https` with a certificate, or a
  trusted proxy's X-Forwarded-Proto: `SecureCookies`). A hall without HTTPS still works:
  phones on `http://192.168.x.x:8000` keep their session. It holds the language, the CSRF
  token and a random session token; the account behind the token is looked up in
  `web_sessions` on every request, so signing out, a password change, a
  revoked code, a removed role or "sign out everywhere" take effect at once.
* Every request that writes (POST, PUT, PATCH, DELETE) must carry the session's CSRF
  token, in the `X-CSRF-Token` header (htmx and API clients) or the `csrf` form field
  (plain forms). A token is made with the session and replaced at sign-in.
* Sign-in attempts are rate-limited (`limits`, moving windows): per address for every
  attempt, per account for wrong passwords (per address, and a budget for all addresses
  that stops only the addresses that got it wrong: a flood never locks the owner out),
  per code for wrong secrets. Over a limit:
  429 with Retry-After and a sentence in Russian and English, before any hashing is done.
  The counts live where every server process sees them (`rate_storage`): in memory for
  one process on SQLite, in the database on PostgreSQL (so `--workers N` gives an
  attacker the limit once, not N times), or in Redis when MAFIATAB_LIMITS names one. A
  refused address is remembered by each process until its window frees, so a flood's
  further attempts are refused by `SignInGate` before the body is read, the session is
  looked up or the counts are touched.
* Roles come from the service (`roles_of`), checked on every call; the web layer adds no
  roles of its own.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import math
import os
import re
import secrets
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import quote

from fastapi import HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, MovingWindowSupport, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, ConfigDict
from sqlalchemy import Engine
from starlette.datastructures import FormData
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mafiatab.services.facade import Services
from mafiatab.services.web_support import STAFF
from mafiatab.web.refusals import (
    BadInput,
    Forbidden,
    SignInFailed,
    Throttled,
    Unprocessable,
    problem_body,
)

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_HEADER: Final = "X-CSRF-Token"
CSRF_FIELD: Final = "csrf"
LANGS: Final = ("ru", "en")
SESSION_COOKIE: Final = "mafiatab_session"
#: the largest request body the app reads (a format-1 tournament file fits many times)
MAX_BODY: Final = 4 * 1024 * 1024


class Body(BaseModel):
    """Every JSON request body: unknown keys are refused (422), never ignored or a 500."""

    model_config = ConfigDict(extra="forbid")


#: the longest free text a body carries (a reason, a message, an appeal)
MAX_TEXT: Final = 5000


class NeedLogin(SignInFailed):
    """Raised by a check when nobody is signed in (pages redirect, the API says 401)."""

    def __init__(self) -> None:
        super().__init__("login_required")


class TooMany(Throttled):
    """A sign-in limit is reached (the app answers 429 with Retry-After). `text` is both
    languages' words, for the gate's page that answers before any session is read."""

    def text(self) -> str:
        n = self.retry_after
        return (f"Слишком много попыток входа: подождите {n} с и попробуйте снова. / "
                f"Too many sign-in attempts: wait {n} s and try again.")


@dataclass(frozen=True, slots=True)
class SignInLimits:
    """How many sign-in attempts are let through (the `limits` notation)."""

    #: every attempt (password or code) from one address
    per_address: str = "30/minute"
    #: wrong passwords for one account from one address (so that somebody guessing from
    #: his phone cannot lock a judge out who signs in from hers)
    per_account: str = "10/minute"
    #: wrong passwords for one account from all addresses together: past this budget only
    #: the addresses with fewer than `per_account_slips` wrong passwords for the account
    #: are let through (the owner on her own phone passes; a flood is slowed, not her)
    per_account_all: str = "100/minute"
    #: wrong passwords for one account from one address that still leave it let through
    #: once the account's budget is spent
    per_account_slips: str = "3/hour"
    #: wrong secrets for one code (its first group), from anywhere
    per_code: str = "5/minute"


#: how many refused keys one process remembers (past that the expired ones go first)
MAX_BLOCKED: Final = 10_000
#: the environment variable that picks the limits' storage (see `rate_storage`)
LIMITS_ENV: Final = "MAFIATAB_LIMITS"


def rate_storage(engine: Engine | None, choice: str | None = None) -> Storage:
    """Where the sign-in counts live: `memory` (one process), `database` (every process
    on the database shares them), or a `limits` storage URL such as redis://host:6379
    (needs the `redis` package). The default: memory on SQLite (one process serves it),
    the database on PostgreSQL."""
    choice = (choice if choice is not None else os.environ.get(LIMITS_ENV, "")).strip()
    if not choice:
        postgres = engine is not None and engine.dialect.name == "postgresql"
        choice = "database" if postgres else "memory"
    if choice == "memory":
        return MemoryStorage()
    if choice == "database":
        if engine is None:
            raise ValueError("the database limits storage needs the app's engine")
        from mafiatab.services.rate_limits import DatabaseStorage

        return DatabaseStorage(engine)
    storage = storage_from_string(choice)
    if not isinstance(storage, Storage):
        raise ValueError(f"{choice}: an asynchronous storage; the app needs a synchronous one")
    return storage


class Guard:
    """The sign-in limits of one app (moving windows in `storage`, memory by default).

    Each process also remembers, for a key that was refused, until when its window is
    full (`blocked`): a further attempt on it is refused from that memory, without the
    storage (a database or Redis round trip) and, through `SignInGate`, before its body
    is read. A key refused by another process costs one storage look-up here first."""

    def __init__(self, limits: SignInLimits, storage: Storage | None = None) -> None:
        storage = storage or MemoryStorage()
        if not isinstance(storage, MovingWindowSupport):
            raise ValueError(f"{type(storage).__name__} has no moving windows")
        self._limiter = MovingWindowRateLimiter(storage)
        self.storage = storage
        self._address = parse(limits.per_address)
        self._account = parse(limits.per_account)
        self._account_all = parse(limits.per_account_all)
        self._slips = parse(limits.per_account_slips)
        self._code = parse(limits.per_code)
        self._blocked: dict[tuple[str, ...], float] = {}
        self._blocked_lock = threading.Lock()
        #: how many attempts were refused, for the benchmark and the tests
        self.refused = 0

    def _retry(self, item: RateLimitItem, *keys: str) -> int:
        stats = self._limiter.get_window_stats(item, *keys)
        return max(1, math.ceil(stats.reset_time - time.time()))

    def _refuse(self, item: RateLimitItem, *keys: str,
                remember: tuple[str, ...] | None = None) -> None:
        """Refuse for as long as the window of `item` at `keys` is full; this process
        remembers it under `remember` (by default the same keys)."""
        retry = self._retry(item, *keys)
        with self._blocked_lock:
            if len(self._blocked) >= MAX_BLOCKED:
                now = time.time()
                self._blocked = {k: t for k, t in self._blocked.items() if t > now}
                if len(self._blocked) >= MAX_BLOCKED:
                    self._blocked.clear()
            self._blocked[remember or keys] = time.time() + retry
        self.refused += 1
        raise TooMany(retry)

    def blocked(self, *keys: str) -> int | None:
        """Seconds until the key (e.g. "addr", address) is let through again, when this
        process knows it is refused now; None otherwise (no storage is asked)."""
        with self._blocked_lock:
            until = self._blocked.get(keys)
            if until is None:
                return None
            left = until - time.time()
            if left <= 0:
                del self._blocked[keys]
                return None
        return max(1, math.ceil(left))

    def _known(self, *keys: str) -> None:
        left = self.blocked(*keys)
        if left is not None:
            self.refused += 1
            raise TooMany(left)

    def attempt(self, address: str, *, account: str | None = None,
                code: str | None = None) -> None:
        """Count one attempt from `address`; refuse (`TooMany`) when the address, the
        account or the code has had too many. Called before any hashing.

        The account's own budget (`per_account_all`) never refuses an address that has
        not got this account's password wrong (fewer than `per_account_slips`): a flood
        of guesses from many addresses slows every one of them to a few an hour, and
        the owner, signing in from her own phone, is not locked out by it."""
        self._known("addr", address)
        if account is not None:
            self._known("acct", account, address)
            self._known("slip", account, address)
        if code is not None:
            self._known("code", code)
        if not self._limiter.hit(self._address, "addr", address):
            self._refuse(self._address, "addr", address)
        if account is not None:
            if not self._limiter.test(self._account, "acct", account, address):
                self._refuse(self._account, "acct", account, address)
            if (not self._limiter.test(self._account_all, "acct", account)
                    and not self._limiter.test(self._slips, "slip", account, address)):
                # let in again when the account's budget frees (not in an hour)
                self._refuse(self._account_all, "acct", account,
                             remember=("slip", account, address))
        if code is not None and not self._limiter.test(self._code, "code", code):
            self._refuse(self._code, "code", code)

    def failed(self, address: str, *, account: str | None = None,
               code: str | None = None) -> None:
        if account is not None:
            self._limiter.hit(self._account, "acct", account, address)
            self._limiter.hit(self._account_all, "acct", account)
            self._limiter.hit(self._slips, "slip", account, address)
        if code is not None:
            self._limiter.hit(self._code, "code", code)


#: the requests that are sign-in attempts (their address is limited before anything else)
SIGN_IN_PATHS: Final = frozenset({"/login", "/login/code", "/api/login"})


class SignInGate:
    """ASGI middleware: a sign-in from an address this process knows to be over its
    limit gets 429 at once, before its body is read, its session looked up, its CSRF
    form parsed or the limits' storage asked. A flood then costs the judges' requests
    next to nothing (`bench/web.py --flood`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] == "http" and scope.get("method") == "POST"
                and scope.get("path") in SIGN_IN_PATHS):
            g: Guard | None = getattr(scope["app"].state, "guard", None)
            client = scope.get("client")
            left = g.blocked("addr", client[0] if client else "unknown") if g else None
            if left is not None and g is not None:
                g.refused += 1
                refused = TooMany(left)
                retry = {b"retry-after": str(left).encode()}
                if str(scope.get("path", "")).startswith("/api"):
                    # the API's one refusal shape, in the language the client asks first
                    # (no session is read for a refused sign-in)
                    asked = dict(scope.get("headers") or []).get(b"accept-language", b"")
                    lang = "en" if asked[:2].lower() == b"en" else "ru"
                    body = json.dumps(problem_body(refused, lang, retry_after=left),
                                      ensure_ascii=False)
                    await _plain(send, 429, body, retry, b"application/json")
                else:
                    await _plain(send, 429, refused.text(), retry)
                return
        await self.app(scope, receive, send)


def install_guard(app: Any, engine: Engine, limits: SignInLimits | None) -> Guard:
    """The app's sign-in limits on the storage `rate_storage` picks. Their gate
    (`SignInGate`) is added by the app as its outermost middleware, so that a refused
    sign-in costs no other middleware's work (the session's cookie, the headers')."""
    g = Guard(limits or SignInLimits(), rate_storage(engine))
    app.state.guard = g
    return g


async def _plain(send: Send, status: int, text: str, headers: dict[bytes, bytes],
                 media: bytes = b"text/plain") -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", media + b"; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()),
                            (b"x-content-type-options", b"nosniff"),
                            (b"x-frame-options", b"DENY"),
                            *headers.items()]})
    await send({"type": "http.response.body", "body": body})


class HashGate:
    """At most `size` password checks at once, waited for on the event loop (a short
    sleep between tries), so that waiting sign-ins hold no worker thread. Not an
    `asyncio.Semaphore`: that binds to one event loop, and the tests run several.

    Fair between addresses: one address has at most `per_address` of the slots at once,
    and a free slot goes to the waiting address let in least recently (one never let in
    first), its oldest waiter first. A flood from a few addresses, however many
    connections it opens, then gets a slot in turn with each judge's phone (each at an
    address of its own), not one per connection: a judge waits for about one round of the
    addresses waiting, not for the flood's queue. An address with `SUSPECT_FAILURES`
    wrong sign-ins within `SUSPECT_SECONDS` (`failed`) waits behind every other: a flood
    of guesses leaves the hashing to those who know their password, and only gets what
    they leave. Who was let in when, and who failed, is remembered for `MAX_SEEN`
    addresses (an address that comes back at once is not new)."""

    MAX_SEEN: Final = 10_000
    SUSPECT_FAILURES: Final = 3
    SUSPECT_SECONDS: Final = 60.0

    def __init__(self, size: int, per_address: int | None = None) -> None:
        self._lock = threading.Lock()
        self._free = size
        self.per_address = per_address if per_address is not None else max(1, size // 2)
        self._running: dict[str, int] = {}
        #: per address, its waiters' tickets in the order they came
        self._waiting: dict[str, deque[int]] = {}
        #: per address, when it was last let in (a count of admissions)
        self._served: dict[str, int] = {}
        self._admitted = 0
        self._tickets = 0
        #: the waiter whose turn it is (address, ticket), None: nobody may go
        self._next: tuple[str, int] | None = None
        self._stale = True
        #: per address, when its last `SUSPECT_FAILURES` wrong sign-ins were
        self._failures: dict[str, deque[float]] = {}

    def _suspect(self, who: str, now: float) -> bool:
        seen = self._failures.get(who)
        return (seen is not None and len(seen) >= self.SUSPECT_FAILURES
                and seen[0] > now - self.SUSPECT_SECONDS)

    def _pick(self) -> tuple[str, int] | None:
        best: tuple[bool, int, int, str] | None = None
        now = time.monotonic()
        for who, queue in self._waiting.items():
            if self._running.get(who, 0) >= self.per_address:
                continue
            rank = (self._suspect(who, now), self._served.get(who, -1), queue[0], who)
            if best is None or rank < best:
                best = rank
        return None if best is None else (best[3], best[2])

    @property
    def in_use(self) -> int:
        """How many checks hold a slot now."""
        with self._lock:
            return sum(self._running.values())

    def failed(self, who: str) -> None:
        """A wrong password or code from `who`: after a few its waiters go last."""
        now = time.monotonic()
        with self._lock:
            seen = self._failures.setdefault(who, deque(maxlen=self.SUSPECT_FAILURES))
            seen.append(now)
            if len(self._failures) > self.MAX_SEEN:
                self._failures = {w: d for w, d in self._failures.items()
                                  if d[-1] > now - self.SUSPECT_SECONDS}
            self._stale = True

    def _join(self, who: str) -> int:
        with self._lock:
            self._tickets += 1
            self._waiting.setdefault(who, deque()).append(self._tickets)
            self._stale = True
            return self._tickets

    def _quit(self, who: str, ticket: int) -> None:
        """A waiter that gave up (timed out or cancelled) leaves the queue."""
        with self._lock:
            queue = self._waiting.get(who)
            if queue is not None and ticket in queue:
                queue.remove(ticket)
                if not queue:
                    del self._waiting[who]
                self._stale = True

    def _take(self, who: str, ticket: int) -> bool:
        with self._lock:
            if self._free <= 0:
                return False
            if self._stale:
                self._next, self._stale = self._pick(), False
            if self._next != (who, ticket):
                return False
            queue = self._waiting[who]
            queue.popleft()
            if not queue:
                del self._waiting[who]
            self._free -= 1
            self._running[who] = self._running.get(who, 0) + 1
            self._admitted += 1
            self._served[who] = self._admitted
            if len(self._served) > self.MAX_SEEN:
                busy = self._waiting.keys() | self._running.keys()
                idle = sorted((n, w) for w, n in self._served.items() if w not in busy)
                for _n, w in idle[:len(self._served) - self.MAX_SEEN // 2]:
                    del self._served[w]
            self._stale = True
            return True

    async def enter(self, wait: float, who: str = "") -> bool:
        deadline = time.monotonic() + wait
        ticket = self._join(who)
        taken = False
        try:
            while not self._take(who, ticket):
                if time.monotonic() >= deadline:
                    return False
                await asyncio.sleep(0.02)
            taken = True
            return True
        finally:
            if not taken:
                self._quit(who, ticket)

    def leave(self, who: str = "") -> None:
        with self._lock:
            self._free += 1
            left = self._running.get(who, 0) - 1
            if left > 0:
                self._running[who] = left
            else:
                self._running.pop(who, None)
            self._stale = True


def guard(request: Request) -> Guard:
    g: Guard = request.app.state.guard
    return g


def address(request: Request) -> str:
    """The asker's address (behind a trusted proxy: the one it forwarded)."""
    return request.client.host if request.client else "unknown"


class SecureCookies:
    """ASGI middleware: the session cookie gets `Secure` exactly on HTTPS requests (the
    scheme uvicorn reports: its own TLS, or a trusted proxy's X-Forwarded-Proto). Over
    plain HTTP on a hall's network the cookie works; a cookie made over HTTPS is never
    sent back over HTTP."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("scheme") != "https":
            await self.app(scope, receive, send)
            return

        async def send_secure(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = []
                for k, v in message.get("headers", []):
                    if (k.lower() == b"set-cookie" and v.startswith(SESSION_COOKIE.encode())
                            and b"secure" not in v.lower()):
                        v = v + b"; secure"
                    headers.append((k, v))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_secure)


class BodyLimit:
    """ASGI middleware: a request body larger than `MAX_BODY` is refused with 413 before
    it is read into memory (by its Content-Length, or as it streams in)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for k, v in scope.get("headers", []):
            if k == b"content-length" and (not v.isdigit() or int(v) > self.limit):
                await _too_large(send)
                return
        seen = 0
        started = False

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _BodyTooLarge()
            return message

        async def tracking(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited, tracking)
        except _BodyTooLarge:
            if not started:
                await _too_large(send)


class _BodyTooLarge(Exception):
    pass


async def _too_large(send: Send) -> None:
    body = (f"Запрос больше {MAX_BODY // (1024 * 1024)} МБ. / "
            f"The request is larger than {MAX_BODY // (1024 * 1024)} MB.").encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


@dataclass(slots=True)
class Principal:
    """The one asking: an account name or None, the language, the CSRF token; his roles
    and whether he is an organizer are read (`rights`) the first time a page asks, so
    that a request that never asks (a judge's save, a live tap) costs no query for them."""

    user: str | None
    lang: str
    csrf: str
    rights: Callable[[], tuple[dict[int, set[str]], bool]] | None = field(
        default=None, repr=False, compare=False)
    known: tuple[dict[int, set[str]], bool] | None = field(default=None, repr=False,
                                                           compare=False)

    def _read(self) -> tuple[dict[int, set[str]], bool]:
        if self.known is None:
            self.known = self.rights() if self.rights is not None else ({}, False)
        return self.known

    @property
    def roles(self) -> dict[int, set[str]]:
        """Every tournament where he has a role, with the roles."""
        return self._read()[0]

    @property
    def organizer(self) -> bool:
        return self._read()[1]

    def has(self, tid: int, allowed: Iterable[str]) -> bool:
        return bool(self.roles.get(tid, set()) & set(allowed))

    def is_staff(self, tid: int) -> bool:
        return self.has(tid, STAFF)


def service(request: Request) -> Services:
    """The process's services (built once in `create_app`)."""
    svc: Services = request.app.state.services
    return svc


def csrf_token(request: Request) -> str:
    token = request.session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(32)
        request.session["csrf"] = token
    return str(token)


def principal(request: Request) -> Principal:
    """The dependency every route takes: who asks and in which language."""
    cached = getattr(request.state, "principal", None)
    if isinstance(cached, Principal):
        return cached
    lang = request.session.get("lang")
    if lang not in LANGS:
        lang = "ru"
    token = request.session.get("sid")
    svc = service(request)
    user = svc.accounts.session_user(token) if isinstance(token, str) else None
    if user is None and token is not None:
        request.session.pop("sid", None)  # ended elsewhere: this cookie is anonymous now
    p = Principal(user=user, lang=str(lang), csrf=csrf_token(request))
    if user is not None:
        def rights(user: str = user) -> tuple[dict[int, set[str]], bool]:
            return svc.access.tournaments_of(user), svc.access.is_organizer(user)

        p.rights = rights
    request.state.principal = p
    return p


async def check_csrf(request: Request) -> None:
    """Router dependency: a write without the session's token is refused (403)."""
    if request.method in SAFE_METHODS:
        return
    expected = request.session.get("csrf")
    sent = request.headers.get(CSRF_HEADER)
    if sent is None and request.headers.get("content-type", "").startswith(
            ("application/x-www-form-urlencoded", "multipart/form-data")):
        form = await read_form(request)
        value = form.get(CSRF_FIELD)
        sent = value if isinstance(value, str) else None
    if not expected or not sent or not hmac.compare_digest(str(expected), sent):
        raise Forbidden("csrf")


#: a form's bounds: fields, the length of one text field, the size of an uploaded file
MAX_FIELDS: Final = 1000
MAX_FIELD: Final = 20_000
MAX_FILE: Final = MAX_BODY


async def read_form(request: Request) -> FormData:
    """The request's form, bounded: at most `MAX_FIELDS` fields and one file, each text
    field at most `MAX_FIELD` characters (422 with the field's name otherwise). Starlette
    keeps the parsed form, so every later `request.form()` gets this one."""
    try:
        form = await request.form(max_files=1, max_fields=MAX_FIELDS, max_part_size=MAX_FILE)
    except HTTPException as e:  # Starlette's own limits (too many fields or files)
        raise BadInput("form_unreadable", detail=str(e.detail)[:200]) from None
    except Exception as e:  # multipart's own refusals (too many parts, a broken body)
        raise Unprocessable("form_unreadable", detail=str(e)[:200]) from None
    for key, value in form.multi_items():
        if isinstance(value, str) and len(value) > MAX_FIELD:
            raise Unprocessable("field_too_long", field=key[:40], limit=MAX_FIELD)
    return form


def sign_in(request: Request, user: str, *, code: str | None = None) -> None:
    """A new server-side session for the account (the old one of this browser ends): a
    new token and a new CSRF token, the language kept."""
    old = request.session.get("sid")
    svc = service(request)
    if isinstance(old, str):
        svc.accounts.end_session(old)
    token = svc.accounts.open_session(user, code=code)
    lang = request.session.get("lang", "ru")
    request.session.clear()
    request.session.update({"sid": token, "lang": lang, "csrf": secrets.token_urlsafe(32)})
    request.state.principal = None


def sign_out(request: Request, *, everywhere: bool = False) -> None:
    """This session ends (with `everywhere`: every session of the account)."""
    token = request.session.get("sid")
    svc = service(request)
    if isinstance(token, str):
        user = svc.accounts.session_user(token)
        svc.accounts.end_session(token)
        if everywhere and user is not None:
            svc.accounts.end_all_sessions(user)
    lang = request.session.get("lang", "ru")
    request.session.clear()
    request.session.update({"lang": lang, "csrf": secrets.token_urlsafe(32)})
    request.state.principal = None


async def password_sign_in(request: Request, user: str, password: str) -> str | None:
    """The account a name and password open, or None. Rate-limited first (429, no work
    done); then it waits for one of the few hashing slots *on the event loop*, so a flood
    of sign-ins holds no worker thread that the judges' saves need (503 after
    `HASH_WAIT` seconds without a slot)."""
    from mafiatab.services.accounts import HASH_WAIT, AccountError, Busy, account_key

    try:
        key = account_key(user)
    except AccountError:
        key = None
    g = guard(request)
    g.attempt(address(request), account=key)
    gate: HashGate = request.app.state.hash_gate
    if not await gate.enter(HASH_WAIT, address(request)):
        raise Busy()
    try:
        ok = await run_in_threadpool(service(request).accounts.check_password, key or "", password)
        if ok and key is not None:  # a hash of older argon2 parameters is made anew
            await run_in_threadpool(service(request).account_admin.rehash_if_needed, key,
                                    password)
    finally:
        gate.leave(address(request))
    if key is not None and ok:
        return key
    g.failed(address(request), account=key)
    gate.failed(address(request))
    return None


async def change_password(request: Request, user: str, old: str, new: str) -> None:
    """The owner's password change, limited like a sign-in (the old password is checked
    with the same hashing): a stolen session cannot guess the password through it."""
    from mafiatab.services.accounts import HASH_WAIT, AccountError, Busy

    g = guard(request)
    g.attempt(address(request), account=user)
    gate: HashGate = request.app.state.hash_gate
    if not await gate.enter(HASH_WAIT, address(request)):
        raise Busy()
    try:
        await run_in_threadpool(service(request).accounts.change_password, user, old, new)
    except AccountError as e:
        if e.code == "wrong_password":
            g.failed(address(request), account=user)
            gate.failed(address(request))
        raise
    finally:
        gate.leave(address(request))


async def code_sign_in(request: Request, code: str) -> tuple[str, int] | None:
    """(account, tournament) a code opens (rate-limited first), or None."""
    from mafiatab.services.accounts import parse_code

    parsed = parse_code(code)
    lookup = parsed[0] if parsed else None
    g = guard(request)
    g.attempt(address(request), code=lookup)
    found = await run_in_threadpool(service(request).accounts.sign_in_with_code, code)
    if found is None:
        g.failed(address(request), code=lookup)
        hashing: HashGate = request.app.state.hash_gate
        hashing.failed(address(request))
    return found


_TRANSLIT: Final = dict(zip(
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p",
     "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"],
    strict=True))


def ascii_slug(name: str) -> str:
    """A file name any browser and any disk take: Russian letters transliterated, every
    other character outside [A-Za-z0-9._-] a dash, no leading dot, at most 100 long."""
    out = []
    for ch in unicodedata.normalize("NFKC", name):
        low = ch.lower()
        if low in _TRANSLIT:
            t = _TRANSLIT[low]
            out.append(t.capitalize() if ch != low else t)
        elif ch.isascii() and (ch.isalnum() or ch in "._-"):
            out.append(ch)
        else:
            out.append("-")
    slug = re.sub(r"-{2,}", "-", "".join(out)).strip("-.")
    return slug[:100] or "download"


def attachment(name: str) -> dict[str, str]:
    """Content-Disposition for a download named `name` (RFC 6266): a safe ASCII `filename`
    for old clients and the UTF-8 name in `filename*`, percent-encoded, so a stage or game
    id in Cyrillic neither breaks the header (it is Latin-1) nor injects into it."""
    clean = "".join(c for c in unicodedata.normalize("NFKC", name)
                    if c.isprintable() and c not in '"\\/;')[:150] or "download"
    return {"Content-Disposition":
            f"attachment; filename=\"{ascii_slug(clean)}\"; filename*=UTF-8''{quote(clean, safe='')}"}


def plain_http_on_lan(request: Request) -> bool:
    """Whether this request came over plain HTTP to an address other than loopback (a
    hall's network): the organizer's page says once what that means."""
    host = (request.url.hostname or "").strip("[]")
    return request.url.scheme == "http" and host not in ("127.0.0.1", "localhost", "::1",
                                                         "testserver")


def require_user(p: Principal) -> str:
    if p.user is None:
        raise NeedLogin()
    return p.user

