"""`/healthz` and `/metrics` (web/watch.py) on the real app over a real SQLite file:
requests counted by route template and status, latency, sign-in refusals, seating jobs;
who may scrape; health on a current schema, a schema behind, and a database gone."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample
from sqlalchemy import Engine

from mafiatab.services.facade import Services
from mafiatab.storage.engine import head_revision, make_engine, upgrade
from mafiatab.web.app import create_app
from mafiatab.web.security import SignInLimits
from mafiatab.web.watch import TOKEN_ENV, health

LOCAL = ("127.0.0.1", 40000)


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    e = make_engine(str(tmp_path / "watch.sqlite"))
    upgrade(e)
    yield e
    e.dispose()


def _tournament(engine: Engine) -> int:
    svc = Services(engine)
    svc.accounts.add_account("org", "org-password-1", actor="org")  # the first: an organizer
    return svc.tournaments.new_tournament("Кубок", "fsm", actor="org")


def _samples(c: TestClient, **kw: object) -> list[Sample]:
    r = c.get("/metrics", **kw)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=")
    return [s for fam in text_string_to_metric_families(r.text) for s in fam.samples]


def _value(samples: list[Sample], name: str, **labels: str) -> float:
    return sum(s.value for s in samples
               if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()))


def test_metrics_count_requests_by_route_template_status_and_sign_in_refusals(
        engine: Engine) -> None:
    tid = _tournament(engine)
    app = create_app(engine, secret="s", limits=SignInLimits(per_address="3/minute"))
    c = TestClient(app, client=LOCAL)
    before = _samples(c)
    for _ in range(3):
        assert c.get(f"/t/{tid}").status_code == 200
    assert c.get("/t/99999").status_code == 404
    for n in range(5):  # random paths: one series, not five
        assert c.get(f"/no/such/{n}").status_code == 404
    csrf = {"X-CSRF-Token": c.get("/api/session").json()["csrf"]}
    codes = [c.post("/api/login", json={"user": "nobody", "password": f"wrong-{i:04d}"},
                    headers=csrf).status_code for i in range(6)]
    assert 429 in codes, codes
    after = _samples(c)
    req = "mafiatab_http_requests_total"
    assert _value(after, req, route="/t/{tid}", method="GET", status="200") \
        - _value(before, req, route="/t/{tid}", method="GET", status="200") == 3
    assert _value(after, req, route="/t/{tid}", status="404") == 1
    assert _value(after, req, route="unmatched", status="404") == 5
    assert not any("/no/such" in s.labels.get("route", "") for s in after)
    assert not any(s.labels.get("route", "").startswith(f"/t/{tid}") for s in after)
    assert _value(after, req, route="/api/login", status="429") == codes.count(429)
    assert _value(after, "mafiatab_sign_in_refusals_total") == codes.count(429)
    assert _value(before, "mafiatab_sign_in_refusals_total") == 0
    # the latency histogram: every answered page observed once, in some bucket
    assert _value(after, "mafiatab_http_request_duration_seconds_count", route="/t/{tid}") == 4
    assert _value(after, "mafiatab_http_request_duration_seconds_bucket", route="/t/{tid}",
                  le="+Inf") == 4
    assert _value(after, "mafiatab_http_request_duration_seconds_sum", route="/t/{tid}") > 0
    # the seating jobs, read from the queue's table when scraped
    assert _value(after, "mafiatab_seating_jobs", state="waiting") == 0
    assert {s.labels["state"] for s in after if s.name == "mafiatab_seating_jobs"} == {
        "waiting", "running"}
    assert _value(after, "mafiatab_event_streams_open") == 0


def test_seating_jobs_waiting_are_counted(engine: Engine) -> None:
    from mafiatab.services.jobs import JobLimits, Jobs
    from mafiatab.services.store import Store

    tid = _tournament(engine)
    app = create_app(engine, secret="s")  # no lifespan: no runner takes the job
    Jobs(Store(engine), JobLimits()).submit(tid, "seating", owner="org", params={},
                                            inputs={}, time_limit=5.0)
    c = TestClient(app, client=LOCAL)
    assert _value(_samples(c), "mafiatab_seating_jobs", state="waiting") == 1


def test_metrics_are_refused_to_other_machines_and_proxied_requests(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TOKEN_ENV, raising=False)
    app = create_app(engine, secret="s")
    far = TestClient(app, client=("203.0.113.9", 5000))
    assert far.get("/metrics").status_code == 403
    assert "mafiatab_" not in far.get("/metrics").text
    near = TestClient(app, client=LOCAL)
    assert near.get("/metrics").status_code == 200
    # a reverse proxy on this machine: its requests come from loopback but are not local
    proxied = near.get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"})
    assert proxied.status_code == 403
    assert near.get("/metrics", headers={"Authorization": "Bearer guess"}).status_code == 200
    monkeypatch.setenv(TOKEN_ENV, "t0ken-of-the-scraper")
    assert far.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert far.get("/metrics",
                   headers={"Authorization": "Bearer t0ken-of-the-scraper"}).status_code == 200


def test_healthz_ok_on_a_current_schema(engine: Engine) -> None:
    c = TestClient(create_app(engine, secret="s"), client=("203.0.113.9", 5000))
    r = c.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "database": "ok", "schema": head_revision()}
    assert r.headers["cache-control"] == "no-store"


def test_healthz_503_when_the_schema_is_behind(engine: Engine) -> None:
    from alembic import command

    from mafiatab.storage.engine import _alembic_config, writer  # noqa: PLC2701

    c = TestClient(create_app(engine, secret="s"))
    assert c.get("/healthz").status_code == 200
    with writer(engine).begin() as conn:  # a migration taken back under the running app
        command.downgrade(_alembic_config(conn), "-1")
    r = c.get("/healthz")
    assert r.status_code == 503
    body = r.json()
    assert body["status"] == "unavailable" and body["reason"] == "schema_not_current"
    assert body["expected"] == head_revision() and body["schema"] != head_revision()


def test_healthz_503_without_the_database_and_says_no_address(tmp_path: Path) -> None:
    path = tmp_path / "gone.sqlite"
    e = make_engine(str(path))
    upgrade(e)
    c = TestClient(create_app(e, secret="s"))
    e.dispose()
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    path.mkdir()  # the file is now a folder: SQLite cannot open it
    r = c.get("/healthz")
    assert r.status_code == 503
    assert r.json() == {"status": "unavailable", "reason": "database_unreachable"}
    assert str(tmp_path) not in r.text
    # a server's database with a password, not listening: neither it nor the address shown
    far = make_engine("postgresql+psycopg://mafiatab:s3cret-pw@127.0.0.1:9/test")
    try:
        status, body = health(far)
    finally:
        far.dispose()
    assert status == 503 and body == {"status": "unavailable", "reason": "database_unreachable"}


def _until(check: Callable[[], bool], what: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_open_event_streams_on_a_real_server(engine: Engine) -> None:
    """A real server on loopback: a spectator's standings stream counts as open while it
    reads, and no longer once he leaves; the stream is no latency sample."""
    import socket
    import threading

    import httpx
    import uvicorn

    from tests.web.test_overlay_push import Listener

    tid = _tournament(engine)
    app = create_app(engine, secret="s")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    _until(lambda: server.started, "the app did not start")
    base = f"http://127.0.0.1:{port}"
    scraper = httpx.Client(base_url=base, timeout=30)

    def open_streams() -> float:
        r = scraper.get("/metrics")
        assert r.status_code == 200
        fams = text_string_to_metric_families(r.text)
        return _value([s for f in fams for s in f.samples], "mafiatab_event_streams_open")

    try:
        assert open_streams() == 0
        listener = Listener(f"{base}/t/{tid}/standings/events")
        assert listener.status == 200
        _until(lambda: open_streams() == 1, "the open stream is not counted")
        listener.close()
        _until(lambda: open_streams() == 0, "the closed stream is still counted")
        r = scraper.get("/metrics")
        samples = [s for f in text_string_to_metric_families(r.text) for s in f.samples]
        route = "/t/{tid}/standings/events"
        assert _value(samples, "mafiatab_http_requests_total", route=route, status="200") == 1
        assert _value(samples, "mafiatab_http_request_duration_seconds_count", route=route) == 0
    finally:
        scraper.close()
        server.should_exit = True
        thread.join(10)
