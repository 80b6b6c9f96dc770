"""Several server processes on one PostgreSQL database: real
`mafiatab serve` processes on loopback (ports 8711-8714), each with its own memory, that
share only the database. A confirmation made through one reaches a viewer of the other
within a second (the standings JSON and the pushed event); a seating started on one
process that then dies is taken back, finished and published by another; the sign-in
limit counts once for both; `--workers 2` serves, and is refused on SQLite."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from mafiatab.formats.tournament_json import game_to_dict
from mafiatab.sample import sample_tournament
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import Demo, populate
from tests.storage.conftest import pg_base_url
from tests.web.test_overlay_push import Listener, Staff

PORTS = (8711, 8712, 8713, 8714)


@dataclass
class Cluster:
    url: str
    demo: Demo
    sample: Any
    folder: Path
    procs: dict[int, subprocess.Popen[bytes]]

    def base(self, port: int) -> str:
        return f"http://127.0.0.1:{port}"

    def start(self, port: int, *extra: str) -> subprocess.Popen[bytes]:
        env = {**os.environ, "MAFIATAB_SECRET": "workers-test", "MAFIATAB_JOBS_STALE": "2"}
        proc = subprocess.Popen(
            [sys.executable, "-m", "mafiatab", "serve", "--db", self.url, "--port", str(port),
             "--secret-file", str(self.folder / "secret"), *extra],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.procs[port] = proc
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert proc.poll() is None, (proc.stderr.read() if proc.stderr else b"").decode()
            try:
                if httpx.get(self.base(port) + "/api/session", timeout=1).status_code == 200:
                    return proc
            except httpx.HTTPError:
                time.sleep(0.2)
        raise AssertionError(f"the server on {port} did not start")

    def stop(self, port: int, sig: int = signal.SIGTERM) -> None:
        proc = self.procs.pop(port)
        proc.send_signal(sig)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Two servers (8711, 8712) on a fresh PostgreSQL schema with the demo tournament
    (the schema is first on the servers' search path and dropped afterwards)."""
    import psycopg
    from sqlalchemy.engine import make_url

    folder = tmp_path_factory.mktemp("workers")
    schema = f"mt_workers_{uuid.uuid4().hex[:12]}"
    admin = make_url(pg_base_url()).set(drivername="postgresql").render_as_string(
        hide_password=False)
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
    except psycopg.OperationalError as e:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"PostgreSQL at {pg_base_url()} is unreachable: {e}")
        pytest.skip(f"PostgreSQL at {pg_base_url()} is unreachable: {e}")
    url = make_url(pg_base_url()).update_query_dict(
        {"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    sample = sample_tournament("fsm", 20, 3, seed=2026, final_round=True, name="Workers cup")
    engine = make_engine(url)
    demo = populate(engine, sample, folder / "unused.sqlite")
    engine.dispose()
    c = Cluster(url, demo, sample, folder, {})
    try:
        c.start(PORTS[0])
        c.start(PORTS[1])
        yield c
    finally:
        for port in list(c.procs):
            c.stop(port)
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def _open_game(c: Cluster, table: int) -> Any:
    last = max(g.round for g in c.sample.games if g.stage == "qual")
    return next(g for g in c.sample.games
                if g.stage == "qual" and g.round == last and g.table == table)


def test_a_confirmation_on_one_reaches_a_viewer_of_the_other_within_a_second(
        cluster: Cluster) -> None:
    a, b = cluster.base(PORTS[0]), cluster.base(PORTS[1])
    tid, code = cluster.demo.tournament, cluster.demo.open_games[0]
    judge, head = Staff(a, "judge1"), Staff(a, "headjudge")
    viewer = httpx.Client(base_url=b, timeout=30)
    before = viewer.get(f"/api/t/{tid}/standings").json()["confirmed_games"]
    stream = Listener(f"{b}/t/{tid}/standings/events")
    try:
        assert stream.status == 200
        assert stream.next()[0] == "update"  # the table as it is now
        rev = judge.call("GET", f"/api/t/{tid}/games/{code}")["revision"]
        saved = judge.call("PUT", f"/api/t/{tid}/games/{code}/draft",
                           content=json.dumps({"base_revision": rev,
                                               "protocol": game_to_dict(_open_game(cluster, 1))},
                                              default=float),
                           headers={"content-type": "application/json"})
        done = judge.call("POST", f"/api/t/{tid}/games/{code}/submit",
                          json={"base_revision": saved["revision"]})
        while not stream.events.empty():
            stream.next()  # a submission changes nothing the public sees
        head.call("POST", f"/api/t/{tid}/games/{code}/confirm",
                  json={"base_revision": done["revision"]})
        confirmed = time.perf_counter()
        event, data, at = stream.next(timeout=10)
        assert event == "update" and "<table" in data
        assert at - confirmed < 1.0, at - confirmed
        while True:
            now = viewer.get(f"/api/t/{tid}/standings").json()["confirmed_games"]
            if now == before + 1 or time.perf_counter() - confirmed > 5:
                break
            time.sleep(0.02)
        assert now == before + 1
        assert time.perf_counter() - confirmed < 1.0
    finally:
        stream.close()
        viewer.close()


def _status(staff: Staff, tid: int) -> dict[str, Any]:
    return staff.call("GET", f"/api/t/{tid}/seating/status")


def test_a_seating_started_on_a_dying_process_is_finished_and_published_by_another(
        cluster: Cluster) -> None:
    tid = cluster.demo.tournament
    cluster.start(PORTS[2])
    c, b, a = (Staff(cluster.base(p), "organizer") for p in (PORTS[2], PORTS[1], PORTS[0]))
    started = c.call("POST", f"/api/t/{tid}/seating/generate",
                     json={"games": 10, "first_round": 20, "seed": 4, "time_limit": 4,
                           "separate_clubs": False, "iterations": 10_000_000})
    job = started["job"]
    deadline = time.monotonic() + 60
    while (st := _status(b, tid))["state"] == "waiting" and time.monotonic() < deadline:
        time.sleep(0.05)
    first_worker = st["worker"]
    cluster.stop(PORTS[2], signal.SIGKILL)  # mid-search, or just after: nothing is lost
    deadline = time.monotonic() + 120
    while (st := _status(b, tid))["state"] in ("waiting", "running") and (
            time.monotonic() < deadline):
        time.sleep(0.2)
    assert st["job"] == job and st["state"] == "done", st
    if st["worker"] == first_worker:  # it finished before the kill: say so in the log
        print("the dying process finished the search before it was killed")
    published = b.call("POST", f"/api/t/{tid}/seating/publish", json={"round": 1})
    assert published["stage_round"] == 20 and len(published["games"]) == 2
    games = a.c.get(f"/api/t/{tid}/games").json()  # the third process sees them
    seated = {g["game"]: g for g in games if g["round"] == 20}
    assert set(seated) == set(published["games"])
    assert all(g["state"] == "draft" for g in seated.values())
    assert _status(a, tid)["published"] == [1]


def test_a_seating_run_elsewhere_can_be_cancelled_from_either(cluster: Cluster) -> None:
    tid = cluster.demo.tournament
    a, b = (Staff(cluster.base(p), "organizer") for p in PORTS[:2])
    a.call("POST", f"/api/t/{tid}/seating/generate",
           json={"games": 10, "first_round": 40, "seed": 8, "time_limit": 60,
                 "separate_clubs": False, "iterations": 10_000_000})
    deadline = time.monotonic() + 60
    while (st := _status(b, tid))["state"] != "running" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert b.call("POST", f"/api/t/{tid}/seating/cancel")["cancel_requested"]
    deadline = time.monotonic() + 30
    while (st := _status(a, tid))["state"] != "cancelled" and time.monotonic() < deadline:
        time.sleep(0.1)
    assert st["state"] == "cancelled"


def test_the_sign_in_limit_counts_once_for_both_processes(cluster: Cluster) -> None:
    """Wrong passwords for one account, alternately on each process: the account's limit
    (10 a minute) is reached after 10 in all, not 10 on each."""
    clients = [httpx.Client(base_url=cluster.base(p), timeout=30) for p in PORTS[:2]]
    try:
        heads = [{"X-CSRF-Token": c.get("/api/session").json()["csrf"]} for c in clients]
        answers = []
        for n in range(12):
            i = n % 2
            r = clients[i].post("/api/login", json={"user": "judge2", "password": f"wrong{n}"},
                                headers=heads[i])
            answers.append(r.status_code)
        assert answers[:10] == [401] * 10 and answers[10:] == [429, 429], answers
    finally:
        for c in clients:
            c.close()


def test_workers_2_serve_on_postgresql_and_are_refused_on_sqlite(cluster: Cluster,
                                                                  tmp_path: Path) -> None:
    proc = cluster.start(PORTS[3], "--workers", "2")
    children = [p for p in Path("/proc").iterdir() if p.name.isdigit()
                and _ppid(p) == proc.pid]
    assert len(children) >= 2, children  # uvicorn's two workers (and its helper)
    c = httpx.Client(base_url=cluster.base(PORTS[3]), timeout=30)
    try:
        assert all(c.get("/api/session").status_code == 200 for _ in range(10))
        standings = c.get(f"/api/t/{cluster.demo.tournament}/standings")
        assert standings.status_code == 200 and standings.json()["standings"]
    finally:
        c.close()
        cluster.stop(PORTS[3])
    refused = subprocess.run(
        [sys.executable, "-m", "mafiatab", "serve", "--db", str(tmp_path / "x.sqlite"),
         "--workers", "2", "--port", str(PORTS[3])],
        capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2
    assert "PostgreSQL" in refused.stderr and "SQLite" in refused.stderr


def _ppid(proc: Path) -> int:
    try:
        return int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1
