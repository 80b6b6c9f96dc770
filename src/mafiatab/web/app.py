"""The web app: FastAPI with server-rendered Jinja2 pages (htmx served from /static) and a
JSON API under /api. Both call the process's `Services` (built once here) and nothing
below them.

`create_app(db_url)` is what `mafiatab serve`, `mafiatab demo`, the tests and the
benchmark start; it checks the database schema (the storage's migrations) and makes the
web app's own tables.
"""

from __future__ import annotations

import datetime as dt
import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import Engine
from starlette.exceptions import HTTPException
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mafiatab.domain import appeals as ap
from mafiatab.domain.problems import Refused
from mafiatab.i18n import local_time
from mafiatab.services.accounts import HASH_SLOTS, share_hash_slots
from mafiatab.services.appeals import refusals_json
from mafiatab.services.facade import Services
from mafiatab.storage.engine import check_schema, make_engine
from mafiatab.web.public_cache import SECURITY_HEADERS, PublicCache, PublicFast
from mafiatab.web.refusals import Missing, Throttled, Unreadable, WebRefused, problem_body
from mafiatab.web.rendering import HERE, render
from mafiatab.web.security import (
    LANGS,
    SESSION_COOKIE,
    BodyLimit,
    HashGate,
    NeedLogin,
    SecureCookies,
    SignInGate,
    SignInLimits,
    install_guard,
    principal,
    rate_storage,
)

#: how long the session cookie lives in the browser (seconds)
SESSION_MAX_AGE: Final = 14 * 24 * 3600


class SecurityHeaders:
    """ASGI middleware: every answer gets `SECURITY_HEADERS` unless it set its own (a
    plain ASGI wrapper: Starlette's `BaseHTTPMiddleware` costs each request a task and a
    stream of its own)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                present = {k.lower() for k, _v in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api")


def _zone(request: Request) -> dt.tzinfo:
    """The clock of the tournament the address names (an appeal's deadlines are on it)."""
    tid = str(request.path_params.get("tid", ""))
    if tid.isdecimal() and len(tid) < 10:
        zone: dt.tzinfo = request.app.state.services.zones.zone(int(tid))
        return zone
    return dt.UTC


def refusal(request: Request, e: Refused, headers: dict[str, str] | None = None) -> Response:
    """Every refusal, one way: the API's problem shape (`refusals.problem_body`) or the
    error page in words. An appeal's refusals name moments on the tournament's clock."""
    lang = principal(request).lang
    headers = dict(headers or {})
    if isinstance(e, Throttled):
        headers["Retry-After"] = str(e.retry_after)
    elif e.status in (429, 503):
        headers["Retry-After"] = "5"
    if isinstance(e, ap.Refused):
        zone = _zone(request)

        def when(value: dt.datetime) -> str:
            return local_time(value, zone, lang)

        words = "; ".join(r.message(lang, when=when) for r in e.refusals if not r.warning)
        if _is_api(request):
            body = problem_body(e, lang, refusals_json(e.refusals, lang, zone), message=words)
            return JSONResponse(body, status_code=e.status, headers=headers or None)
        return render(request, "error.html", status_code=e.status, message=words,
                      headers=headers or None)
    if _is_api(request):
        extra: dict[str, Any] = {"retry_after": e.retry_after} if isinstance(e, Throttled) else {}
        return JSONResponse(problem_body(e, lang, **extra), status_code=e.status,
                            headers=headers or None)
    return render(request, "error.html", status_code=e.status, message=e.message(lang),
                  headers=headers or None)


def create_app(db: str | Engine | None = None, *, secret: str | None = None,
               limits: SignInLimits | None = None) -> FastAPI:
    """The app on a database (URL, engine, or the default SQLite file). The session
    cookie is Secure on HTTPS requests only (`SecureCookies`); `limits` are the sign-in
    rate limits (the defaults unless a test needs others)."""
    engine = db if isinstance(db, Engine) else make_engine(db)
    check_schema(engine)
    # the public sign-ups are counted where the sign-ins are (shared by the processes)
    svc = Services(engine, limits=rate_storage(engine))

    app = FastAPI(title="mafiatab", version="1", docs_url=None,
                  openapi_url="/api/openapi.json", redoc_url=None,
                  swagger_ui_oauth2_redirect_url=None,
                  description="Sports mafia tournaments: protocols, confirmation, standings. "
                  "Writes need the session cookie and the X-CSRF-Token header "
                  "(GET /api/session gives both).")
    #: the process's one set of services (one store, one standings cache)
    app.state.services = svc
    # the public's standings' own threads: a stamp re-read or a render after a change
    # never waits behind the judges' requests in the shared thread pool
    app.state.public_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="public")
    app.state.public = PublicCache(svc, app.state.public_pool)
    install_guard(app, engine, limits)  # sign-in limits: memory, database or Redis
    # the event loop's gate in front of the hashing threads (see `password_sign_in`)
    app.state.hash_gate = HashGate(HASH_SLOTS)
    share_hash_slots(engine)  # and the server's processes share `HASH_SLOTS` (docs/security.md)
    key = secret or secrets.token_urlsafe(32)
    app.add_middleware(SessionMiddleware, secret_key=key,
                       session_cookie=SESSION_COOKIE, same_site="lax",
                       https_only=False, max_age=SESSION_MAX_AGE)
    app.add_middleware(SecureCookies)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    app.add_middleware(SecurityHeaders)

    @app.exception_handler(OverflowError)
    async def too_big(request: Request, _e: OverflowError) -> Response:
        """A number in the path past the database's integers (10³⁰ as a tournament id)
        names nothing stored: 404, as any id that does not exist."""
        return refusal(request, Missing("not_found"))

    @app.exception_handler(NeedLogin)
    async def need_login(request: Request, e: NeedLogin) -> Response:
        if not _is_api(request) and request.method == "GET":
            return RedirectResponse(f"/login?next={quote(str(request.url.path))}", status_code=303)
        return refusal(request, e)

    @app.exception_handler(Refused)
    async def refused(request: Request, e: Refused) -> Response:
        return refusal(request, e)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, e: HTTPException) -> Response:
        """The framework's own refusals (no such route, a method the route does not take)
        in the family's shape."""
        code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, "http_error")
        answer = WebRefused(code)
        answer.status = e.status_code
        return refusal(request, answer, headers=dict(e.headers or {}))

    @app.exception_handler(RequestValidationError)
    async def unreadable(request: Request, e: RequestValidationError) -> Response:
        return refusal(request, Unreadable(list(e.errors())))

    from mafiatab.web import account_api, front_pages, lots, pages, protocol_pages, seating_pages

    # one router per feature: the front door (accounts, new tournaments), a tournament's
    # pages and its JSON API, seating, the live screen, appeals, the screens
    app.include_router(front_pages.router)
    app.include_router(account_api.router)
    seating_pages.install(app)  # the seating page and its API; its job runner
    from mafiatab.web import setup_pages  # set-up, overview, blanks, accounts

    app.include_router(setup_pages.router)
    app.include_router(setup_pages.api)
    app.include_router(pages.router)
    app.include_router(pages.api)
    app.include_router(protocol_pages.router)  # a game's protocol: page, form, steps
    app.include_router(protocol_pages.api)
    app.include_router(lots.router)  # drawings of lots: the forms and the API
    app.include_router(lots.api)
    from mafiatab.web import live  # the judge's live screen

    app.include_router(live.router)
    from mafiatab.web import offline  # the judge's phone offline: manifest, worker, queue

    app.include_router(offline.router)
    from mafiatab.web import appeals  # protests, appeals, charts, downloads

    appeals.install(app)
    from mafiatab.web import day_pages  # check-in, a player's page, teams

    day_pages.install(app)
    from mafiatab.web import screens  # overlay, hall screen, pushed updates

    screens.install(app)
    from mafiatab.web import people_pages  # people, clubs, the rating

    people_pages.install(app)
    from mafiatab.web import game_time  # events' times, the video, timecodes

    game_time.install(app)
    from mafiatab.web import register_pages  # sign-ups, the waiting list, the awards

    register_pages.install(app)
    from mafiatab.web import watch  # /healthz and /metrics

    watch.install(app, engine)
    app.add_middleware(BodyLimit)  # nothing reads a body past the limit
    # the public's poll of a table, from memory before the rest of the stack
    from mafiatab.web.pages import public_table

    app.add_middleware(PublicFast, secret=key, cookie=SESSION_COOKIE, max_age=SESSION_MAX_AGE,
                       langs=LANGS, table=public_table, same_site="lax")
    # a sign-in from an address over its limit is refused before any other work
    app.add_middleware(SignInGate)
    # outermost: every request counted and timed, also the gate's refusals
    app.add_middleware(watch.Watch)
    return app
