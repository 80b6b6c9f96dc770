"""What an operator's monitoring reads: `/healthz` (is the database reachable and its
schema at the newest migration) and `/metrics` (Prometheus' text format, made by
`prometheus-client`).

Why a registry per app and not the library's global one: the tests and the benchmark
start several apps in one process, and each must count only its own requests.

What is counted, and why so:

* requests by **route template** (`/t/{tid}/games/{gid}`, never the raw path), method and
  status: a crawler's random paths all count as `unmatched`, so the number of series stays
  bounded whatever is asked;
* their latency (a histogram by route template); an event stream is left out of it, as
  its "latency" is how long a screen stayed open;
* the event streams open now (every response of type `text/event-stream`);
* the seating jobs waiting and running on the whole server (read from the job queue's
  table when scraped: one short grouped count);
* the sign-ins refused with 429 (the sign-in gate's or the limits' own refusal).

Who may read `/metrics`: it is operational data (which pages are used, how busy the
server is), so by default only a scraper on the same machine (loopback address, and no
proxy's forwarding headers: a reverse proxy on the same host would otherwise make every
outside request look local), or anyone who shows the token of MAFIATAB_METRICS_TOKEN as
`Authorization: Bearer <token>`. `/healthz` says only ok or what is wrong, never the
database's address or an error's text, so it needs no sign-in (a load balancer asks it).

With `mafiatab serve --workers N` each process counts its own requests; one scrape reads
the process that answers it (the seating jobs are the server's, from the database).

Every request has an id: the `X-Request-ID` a proxy sent (when it is a short token), else
a new one; the response carries it back in `X-Request-ID`, so a user's report, the
proxy's log and ours meet. With `MAFIATAB_LOG_FORMAT=json` (`serve --log-format json`)
each request is one JSON line on stderr (time, id, method, route template, path without
its query, status, milliseconds, client): a log collector reads it without patterns. The
query is left out, as a link may carry a screen's key.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import logging
import os
import re
import secrets
import time
import uuid
from collections.abc import Iterator
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector
from sqlalchemy import Engine, text
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mafiatab.services.jobs import RUNNING, WAITING, Jobs
from mafiatab.storage.engine import current_revision, head_revision
from mafiatab.web.security import SIGN_IN_PATHS

#: the environment variable whose value, shown as a bearer token, opens /metrics from anywhere
TOKEN_ENV: Final = "MAFIATAB_METRICS_TOKEN"
#: the route label of a request no route matched (bounded: one series, whatever the path)
UNMATCHED: Final = "unmatched"
LOOPBACK: Final = frozenset({"127.0.0.1", "::1", "localhost"})
FORWARDING: Final = (b"forwarded", b"x-forwarded-for", b"x-real-ip")

#: the environment variable of the request log's format (`text`: no request lines; `json`)
LOG_FORMAT_ENV: Final = "MAFIATAB_LOG_FORMAT"
REQUEST_ID: Final = b"x-request-id"
#: an id a proxy sent is kept only if it is a short token (it goes into logs and headers)
_GOOD_ID: Final = re.compile(rb"^[A-Za-z0-9._:-]{1,64}$")
request_log = logging.getLogger("mafiatab.requests")

router = APIRouter(include_in_schema=False)


class _JobsCollector(Collector):
    """The seating jobs waiting and running, counted when scraped."""

    def __init__(self, jobs: Jobs) -> None:
        self.jobs = jobs

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily("mafiatab_seating_jobs", "Seating jobs on the whole server "
                                   "by state (waiting, running)", labels=["state"])
        try:
            counts = self.jobs.counts()
        except Exception:  # a lost database: /healthz says so; the other metrics still show
            return
        for state in (WAITING, RUNNING):
            family.add_metric([state], counts.get(state, 0))
        yield family


class Meters:
    """The app's metrics, in a registry of its own."""

    def __init__(self, jobs: Jobs) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("mafiatab_http_requests", "HTTP requests answered, by route "
                                "template, method and status",
                                ["route", "method", "status"], registry=self.registry)
        self.latency = Histogram("mafiatab_http_request_duration_seconds", "Time to answer "
                                 "a request (event streams left out), by route template",
                                 ["route"], registry=self.registry,
                                 buckets=(.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10))
        self.streams = Gauge("mafiatab_event_streams_open", "Event streams (screens, "
                             "judges' and players' pages) open now", registry=self.registry)
        self.sign_in_refused = Counter("mafiatab_sign_in_refusals", "Sign-ins refused "
                                       "(429) by the sign-in limits", registry=self.registry)
        self.registry.register(_JobsCollector(jobs))

    def render(self) -> bytes:
        return generate_latest(self.registry)


def route_of(scope: Scope) -> str:
    """The template of the route that answered (`/t/{tid}`), or `unmatched`. A sign-in
    the gate refused never reached the router: its path (one of a fixed few) is its label."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str) and path:
        return path
    if scope.get("path") in SIGN_IN_PATHS:
        return str(scope["path"])
    return UNMATCHED


class Watch:
    """ASGI middleware, the app's outermost: counts and times every request, also the
    ones the sign-in gate refuses before anything else runs."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope["app"].state
        meters: Meters = state.meters
        start = time.perf_counter()
        status = 500
        stream = False
        sent = dict(scope.get("headers") or []).get(REQUEST_ID, b"")
        rid = sent if _GOOD_ID.match(sent) else uuid.uuid4().hex.encode()
        scope.setdefault("state", {})["request_id"] = rid.decode()

        async def watched(message: Message) -> None:
            nonlocal status, stream
            if message["type"] == "http.response.start":
                status = int(message["status"])
                headers = list(message.get("headers") or [])
                kind = dict(headers).get(b"content-type", b"")
                if kind.startswith(b"text/event-stream"):
                    stream = True
                    meters.streams.inc()
                message = {**message, "headers": [*headers, (REQUEST_ID, rid)]}
            await send(message)

        try:
            await self.app(scope, receive, watched)
        finally:
            if stream:
                meters.streams.dec()
            route = route_of(scope)
            meters.requests.labels(route, _method(scope), str(status)).inc()
            if not stream:
                meters.latency.labels(route).observe(time.perf_counter() - start)
            if status == 429 and scope.get("path") in SIGN_IN_PATHS:
                meters.sign_in_refused.inc()
            if state.log_json:
                client = scope.get("client")
                request_log.info("request", extra={"fields": {
                    "id": rid.decode(), "method": _method(scope), "route": route,
                    "path": str(scope.get("path", ""))[:200], "status": status,
                    "ms": round((time.perf_counter() - start) * 1000, 1),
                    "client": client[0] if client else None, "stream": stream}})


def _method(scope: Scope) -> str:
    method = str(scope.get("method", "GET"))
    return method if method in {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"} \
        else "other"


def install(app: Any, engine: Engine) -> None:
    """The routes and the meters; the app adds `Watch` as its outermost middleware."""
    app.state.meters = Meters(app.state.services.seating.jobs)
    app.state.log_json = os.environ.get(LOG_FORMAT_ENV, "").strip() == "json"
    app.state.watch_engine = engine
    app.include_router(router)


class JsonLines(logging.Formatter):
    """Every log record as one JSON line: time (UTC), level, logger, message, and a
    request's fields (`extra={"fields": ...}`)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname.lower(), "logger": record.name,
            "message": record.getMessage()}
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def log_config(log_format: str) -> dict[str, Any]:
    """uvicorn's `log_config`: its own, or (json) every logger's records as JSON lines on
    stderr, the requests' lines among them."""
    if log_format != "json":
        from uvicorn.config import LOGGING_CONFIG

        return LOGGING_CONFIG
    handler = {"class": "logging.StreamHandler", "formatter": "json",
               "stream": "ext://sys.stderr"}
    return {
        "version": 1, "disable_existing_loggers": False,
        "formatters": {"json": {"()": f"{__name__}.JsonLines"}},
        "handlers": {"json": handler},
        "loggers": {
            "uvicorn": {"handlers": ["json"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
            "mafiatab": {"handlers": ["json"], "level": "INFO", "propagate": False},
        },
    }


# --- the routes -------------------------------------------------------------------------


@functools.cache
def _head() -> str:
    """The newest migration this program ships (read from its scripts once: it cannot
    change while the process runs, and reading them is most of a health check's time)."""
    return head_revision()


def health(engine: Engine) -> tuple[int, dict[str, str]]:
    """200 and `ok`, or 503 and what is wrong: the database unreachable, or its schema
    behind (or ahead of) the newest migration this program knows. No address, no error
    text: the answer is public."""
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        current = current_revision(engine)
    except Exception:
        return 503, {"status": "unavailable", "reason": "database_unreachable"}
    head = _head()
    if current != head:
        return 503, {"status": "unavailable", "reason": "schema_not_current",
                     "schema": current or "none", "expected": head}
    return 200, {"status": "ok", "database": "ok", "schema": head}


@router.get("/healthz")
async def healthz(request: Request) -> Response:
    status, body = await run_in_threadpool(health, request.app.state.watch_engine)
    return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


def may_scrape(scope: Scope) -> bool:
    """The token of MAFIATAB_METRICS_TOKEN, or a loopback address without a proxy's
    forwarding headers (see the module's text)."""
    headers = dict(scope.get("headers") or [])
    token = os.environ.get(TOKEN_ENV, "")
    shown = headers.get(b"authorization", b"").decode("latin-1")
    if token and secrets.compare_digest(shown.encode(), f"Bearer {token}".encode()):
        return True
    client = scope.get("client")
    host = client[0] if client else ""
    return host in LOOPBACK and not any(h in headers for h in FORWARDING)


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    if not may_scrape(request.scope):
        return PlainTextResponse(
            "Метрики — только с этого компьютера или с токеном MAFIATAB_METRICS_TOKEN. / "
            "Metrics: from this machine only, or with the MAFIATAB_METRICS_TOKEN token.",
            status_code=403)
    meters: Meters = request.app.state.meters
    body = await run_in_threadpool(meters.render)
    return Response(body, media_type=CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"})
