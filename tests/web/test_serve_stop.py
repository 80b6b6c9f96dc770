"""`mafiatab serve` as an operator runs it (a real process), stopped as systemd and
docker stop it (SIGTERM): the open event streams end, a write already under way finishes
and is kept, the process exits with status 0 without needing the grace period's
cut-off; and with `--log-format json` every request is one JSON line carrying the id
the response's `X-Request-ID` returned (or the one a proxy sent)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import func, select

from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.storage.models import WebSession
from tests.web.test_overlay_push import Listener

PASSWORD = "org-password-1"


def _until(check: Callable[[], bool], what: str, seconds: float = 120) -> None:
    """Wait for a state (the bound only ends a hung test)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _open_streams(base: str) -> float:
    r = httpx.get(base + "/metrics", timeout=30)
    for family in text_string_to_metric_families(r.text):
        for sample in family.samples:
            if sample.name == "mafiatab_event_streams_open":
                return float(sample.value)
    raise AssertionError("no mafiatab_event_streams_open")


def _sessions(db: str) -> int:
    engine = make_engine(db)
    try:
        with engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(WebSession)).scalar_one())
    finally:
        engine.dispose()


def test_sigterm_ends_streams_finishes_the_write_and_exits_0(tmp_path: Path) -> None:
    db = str(tmp_path / "hall.sqlite")
    engine = make_engine(db)
    upgrade(engine)
    svc = Services(engine)
    svc.accounts.add_account("org", PASSWORD, actor="org")
    tid = svc.tournaments.new_tournament("Кубок", "fsm", actor="org")
    engine.dispose()
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "stderr.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAFIATAB_")}
    with open(log, "wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "mafiatab", "serve", "--db", db, "--port", str(port),
             "--secret-file", str(tmp_path / "secret"), "--log-format", "json"],
            stdout=subprocess.DEVNULL, stderr=err, env=env)
    try:
        def up() -> bool:
            assert proc.poll() is None, log.read_text()
            try:
                return httpx.get(base + "/healthz", timeout=5).status_code == 200
            except httpx.HTTPError:
                return False

        _until(up, "the server did not start")
        client = httpx.Client(base_url=base, timeout=30)
        first = client.get("/api/session")
        csrf = first.json()["csrf"]
        assert len(first.headers["x-request-id"]) == 32  # made by the server
        cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())

        stream = Listener(f"{base}/t/{tid}/standings/events")
        assert stream.status == 200
        _until(lambda: _open_streams(base) == 1, "the stream is not open")

        # a sign-in (it writes a session) whose body is half sent when the stop comes
        body = json.dumps({"user": "org", "password": PASSWORD}).encode()
        head = (f"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                f"X-CSRF-Token: {csrf}\r\nCookie: {cookie}\r\nX-Request-ID: write-1\r\n"
                "Connection: close\r\n\r\n").encode()
        writer = socket.create_connection(("127.0.0.1", port))
        writer.sendall(head + body[:10])
        # a request sent after ours was answered: the server has read our head
        assert client.get("/healthz").status_code == 200
        sessions = _sessions(db)

        proc.send_signal(signal.SIGTERM)
        while stream.next(timeout=120)[0] != "closed":  # the stream ends
            pass
        assert proc.poll() is None  # still finishing the write
        writer.sendall(body[10:])
        answer = b""
        while chunk := writer.recv(65536):
            answer += chunk
        writer.close()
        status_line = answer.split(b"\r\n", 1)[0]
        assert status_line == b"HTTP/1.1 200 OK", answer[:300]
        assert b'"user":"org"' in answer
        assert b"x-request-id: write-1" in answer.lower()
        assert proc.wait(120) == 0
        client.close()
        stream.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
    assert _sessions(db) == sessions + 1  # the write was kept

    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert not any("timeout graceful shutdown exceeded" in line["message"] for line in lines)
    requests = [line for line in lines if line["logger"] == "mafiatab.requests"]
    login = [r for r in requests if r["route"] == "/api/login"]
    assert [(r["id"], r["method"], r["status"]) for r in login] == [("write-1", "POST", 200)]
    assert {r["id"] for r in requests if r["route"] == "/api/session"} == {
        first.headers["x-request-id"]}
    streams = [r for r in requests if r["route"] == "/t/{tid}/standings/events"]
    assert len(streams) == 1 and streams[0]["stream"] is True
    assert all({"time", "level", "ms", "path", "client"} <= set(r) for r in requests)
