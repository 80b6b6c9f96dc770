"""What the public reads of a tournament after a round, served from memory.

Hundreds of phones open the standings page at once when a round ends, and then poll its
table every few seconds. Everything they are shown is the same for every anonymous
reader of one language until the tournament's public stamp changes (services.standings),
so it is rendered once per (what, tournament, stage, language, stamp) and kept:

* **One render per change, whoever asks** (`PublicCache.get`): the first miss of a key
  starts its render in the public pool; every request that misses the same key meanwhile
  waits for that render's future (no thundering herd of identical renders, and no
  waiter holds a thread). Renders of different keys run side by side.
* **The stamp costs no query per request** (`PublicCache.stamp`): read from the database
  at most once per `STAMP_MAX_AGE`; while it is re-read in the public pool, the phones get
  the table of the stamp read last.
* **The page's one personal part is its CSRF token** (in htmx's headers): the anonymous
  page is kept with a placeholder in its place and each phone gets the kept bytes with
  its own token put in (`page_bytes`).
* **The poll and the page are answered before the app's stack** (`PublicFast`, ASGI
  middleware just inside the metrics): an anonymous GET of the table (no signed-in session
  in the cookie) needs no router, no dependency, no session write; a 304 is a header
  check. An anonymous GET of the page, once its render is kept, is the kept bytes with
  the phone's CSRF token; a new phone gets its token and the session cookie the session
  middleware would have set (the same signer, value and flags). Staff and signed-in
  readers, a stage the tournament does not have, a page not rendered yet, anything
  unusual, go on to the app's route, which answers the same bytes the same way.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import secrets
import threading
from base64 import b64decode, b64encode
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

from itsdangerous import BadSignature, TimestampSigner
from starlette.types import ASGIApp, Receive, Scope, Send

from mafiatab.services.facade import Services
from mafiatab.services.standings import Stamp

#: kept renders at most (each a table or a page; a tournament has a few languages and stages)
MAX_KEPT: Final = 256
#: what stands for the reader's CSRF token in a kept page (URL-safe, so never escaped)
PLACEHOLDER: Final = "csrf-" + secrets.token_urlsafe(24)
#: the headers every answer of the app carries (web.app adds them to the others)
SECURITY_HEADERS: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"content-security-policy",
     b"default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
     b"frame-ancestors 'none'"),
)

Rendered = tuple[bytes, str]


def etag_of(body: bytes) -> str:
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


class PublicCache:
    """The process's kept public renders and the stamps they rest on (see the module)."""

    def __init__(self, svc: Services, pool: ThreadPoolExecutor) -> None:
        self.svc = svc
        self.pool = pool
        self._kept: dict[Hashable, Rendered] = {}
        self._pending: dict[Hashable, Future[Rendered]] = {}
        self._refreshing: set[int] = set()
        self._lock = threading.Lock()
        #: renders run so far (the tests count them)
        self.renders = 0

    async def stamp(self, tid: int) -> Stamp:
        """The tournament's public stamp: remembered, or the last one read while a fresh
        one is read in the background, or (never read) read now in the public pool."""
        board = self.svc.standings
        stamp = board.recent_stamp(tid)
        if stamp is not None:
            return stamp
        stale = board.last_stamp(tid)
        loop = asyncio.get_running_loop()
        if stale is None:
            return await loop.run_in_executor(self.pool, board.fresh_stamp, tid)
        with self._lock:
            start = tid not in self._refreshing
            self._refreshing.add(tid)
        if start:
            def done(f: Future[Stamp]) -> None:
                with self._lock:
                    self._refreshing.discard(tid)
                f.exception()  # retrieved: a failed refresh is not logged as lost

            self.pool.submit(board.fresh_stamp, tid).add_done_callback(done)
        return stale

    def kept(self, key: Hashable) -> Rendered | None:
        return self._kept.get(key)

    async def get(self, key: Hashable, render: Callable[[], bytes]) -> Rendered:
        """The render kept under `key`, or made now by `render` in the public pool: once,
        however many ask for the same key meanwhile (they wait for the one render)."""
        hit = self._kept.get(key)
        if hit is not None:
            return hit
        with self._lock:
            future = self._pending.get(key)
            if future is None:
                future = self.pool.submit(self._render, key, render)
                self._pending[key] = future
        return await asyncio.wrap_future(future)

    def _render(self, key: Hashable, render: Callable[[], bytes]) -> Rendered:
        try:
            body = render()
            hit = (body, etag_of(body))
            with self._lock:
                self.renders += 1
                if len(self._kept) >= MAX_KEPT:
                    self._kept.clear()
                self._kept[key] = hit
            return hit
        finally:
            with self._lock:
                self._pending.pop(key, None)


def page_bytes(kept: bytes, csrf: str) -> bytes:
    """A kept anonymous page with the reader's own CSRF token in the placeholder's place."""
    return kept.replace(PLACEHOLDER.encode(), csrf.encode())


def cache_of(app: Any) -> PublicCache:
    cache: PublicCache = app.state.public
    return cache


_TABLE: Final = re.compile(r"/t/([0-9]{1,9})/standings")
_PAGE: Final = re.compile(r"/t/([0-9]{1,9})")


@dataclass(frozen=True)
class RouteLabel:
    """What the metrics read of the route that answered: its template."""

    path: str


class PublicFast:
    """ASGI middleware: the anonymous poll of a tournament's table, answered from
    `PublicCache` before the rest of the app (see the module). `secret` and `cookie`: the
    session middleware's, to read the language and whether anyone is signed in; `table`
    renders the public table (`web.pages.public_table`, given by the app so that this
    module needs no route module)."""

    def __init__(self, app: ASGIApp, secret: str, cookie: str, max_age: int,
                 langs: tuple[str, ...],
                 table: Callable[[Services, int, str | None, str], bytes],
                 same_site: str = "lax") -> None:
        self.app = app
        self.table = table
        self.signer = TimestampSigner(secret)
        self.cookie = cookie.encode()
        self.max_age = max_age
        self.langs = langs
        #: the session cookie's attributes as `SessionMiddleware` writes them
        self.cookie_tail = f"; path=/; Max-Age={max_age}; httponly; samesite={same_site}"
        self.routes: dict[str, Any] = {}

    def _session(self, scope: Scope) -> dict[str, Any] | None:
        """The request's session as the session middleware would read it ({} without a
        cookie or with a bad one); None when a cookie header cannot be read here."""
        for k, v in scope.get("headers") or ():
            if k != b"cookie":
                continue
            for part in v.split(b";"):
                name, _, value = part.strip().partition(b"=")
                if name != self.cookie:
                    continue
                try:
                    data = self.signer.unsign(value, max_age=self.max_age)
                    session = json.loads(b64decode(data))
                except (BadSignature, ValueError):
                    return {}
                return session if isinstance(session, dict) else {}
        return {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] == "http" and scope.get("method") == "GET"
                and not scope.get("query_string")):
            path = scope.get("path", "")
            table = _TABLE.fullmatch(path)
            page = None if table is not None else _PAGE.fullmatch(path)
            if table is not None or page is not None:
                session = self._session(scope)
                if session is not None and session.get("sid") is None:
                    lang = session.get("lang")
                    lang = lang if lang in self.langs else self.langs[0]
                    if table is not None:
                        if await self._answer(scope, send, int(table.group(1)), lang):
                            return
                    elif page is not None and await self._page(
                            scope, send, int(page.group(1)), lang, session):
                        return
        await self.app(scope, receive, send)

    def _label(self, scope: Scope, path: str) -> None:
        """The route's template in the scope: the metrics' label, as the router sets it."""
        if path not in self.routes:
            self.routes[path] = next((r for r in scope["app"].routes
                                      if getattr(r, "path", None) == path), None)
        # a route of an included router is not in the app's own list: its template
        # alone is the label (the metrics read only the route's `path`)
        scope["route"] = self.routes[path] or RouteLabel(path)

    async def _page(self, scope: Scope, send: Send, tid: int, lang: str,
                    session: dict[str, Any]) -> bool:
        """The anonymous page from its kept render (`web.pages.tournament_page`'s key),
        with the phone's own CSRF token; False when it is not kept (the route renders)."""
        cache = cache_of(scope["app"])
        try:
            stamp = await cache.stamp(tid)
        except Exception:  # an unknown tournament, a lost database: the app's route says so
            return False
        hit = cache.kept(("page", tid, None, lang, stamp, scope["path"]))
        if hit is None:
            return False
        self._label(scope, "/t/{tid}")
        token = str(session.get("csrf") or "")
        cookie = None
        if not token:  # a new phone: its token, kept in its session cookie
            token = secrets.token_urlsafe(32)
            data = self.signer.sign(b64encode(json.dumps({**session, "csrf": token})
                                              .encode("utf-8")))
            cookie = self.cookie + b"=" + data + self.cookie_tail.encode()
            if scope.get("scheme") == "https":
                cookie += b"; secure"
        body = page_bytes(hit[0], token)
        headers = [(b"content-length", str(len(body)).encode()),
                   (b"content-type", b"text/html; charset=utf-8"), (b"vary", b"Cookie")]
        if cookie is not None:
            headers.append((b"set-cookie", cookie))
        await send({"type": "http.response.start", "status": 200,
                    "headers": [*headers, *SECURITY_HEADERS]})
        await send({"type": "http.response.body", "body": body})
        return True

    async def _answer(self, scope: Scope, send: Send, tid: int, lang: str) -> bool:
        app = scope["app"]
        cache = cache_of(app)
        try:
            stamp = await cache.stamp(tid)
            key = ("table", tid, None, lang, stamp)
            hit = cache.kept(key)
            if hit is None:
                hit = await cache.get(key, lambda: self.table(cache.svc, tid, None, lang))
        except Exception:  # an unknown tournament, a lost database: the app's route says so
            return False
        body, etag = hit
        self._label(scope, "/t/{tid}/standings")
        # the language comes from the cookie: a shared cache must key on it (as the
        # session middleware's answer says when the route reads the session)
        headers = [(b"etag", etag.encode()), (b"cache-control", b"no-cache"),
                   (b"vary", b"Cookie"), *SECURITY_HEADERS]
        sent = None
        for k, v in scope.get("headers") or ():
            if k == b"if-none-match":
                sent = v
        if sent == etag.encode():
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return True
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/html; charset=utf-8"),
            (b"content-length", str(len(body)).encode()), *headers]})
        await send({"type": "http.response.body", "body": body})
        return True


__all__ = ["PLACEHOLDER", "SECURITY_HEADERS", "PublicCache", "PublicFast", "cache_of",
           "etag_of", "page_bytes"]
