"""The password-hashing slots hold over the processes of a server:
two real server processes on one database (SQLite: file locks beside it; PostgreSQL:
advisory locks), flooded with sign-ins at once, never run more than `HASH_SLOTS` argon2
hashes together. Each process runs the real app; the only thing added is an observer
of argon2-cffi's `PasswordHasher.verify` that writes when each hash began and ended
(CLOCK_MONOTONIC, one clock for the whole machine) to a file of its own. The hashing
threads run at the lower priority `HASH_NICE` (seen in /proc). Ports 8251-8254."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from mafiatab.sample import sample_tournament
from mafiatab.services.accounts import HASH_NICE, HASH_SLOTS
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import populate
from tests.storage.conftest import pg_base_url

PORTS = {"sqlite": (8251, 8252), "postgresql": (8253, 8254)}


OBSERVED = """
import os, sys, time, uvicorn, argon2
verify = argon2.PasswordHasher.verify
log = open(sys.argv[3], "w", buffering=1)
def observed(self, stored, password):
    began = time.monotonic()
    try:
        return verify(self, stored, password)
    finally:
        log.write(f"{began} {time.monotonic()}\\n")
argon2.PasswordHasher.verify = observed
from mafiatab.web.app import create_app
from mafiatab.web.security import SignInLimits
many = "100000/minute"
uvicorn.run(create_app(sys.argv[1], secret="slots", limits=SignInLimits(
    per_address=many, per_account=many, per_code=many)),
    host="127.0.0.1", port=int(sys.argv[2]), log_level="error")
"""


def start(url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    """The app in a process of its own, as `serve` runs it, with sign-in limits high
    enough that the flood reaches the hashing, and its hashes written to `log`."""
    proc = subprocess.Popen([sys.executable, "-c", OBSERVED, url, str(port), str(log)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, (proc.stderr.read() if proc.stderr else b"").decode()
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/session", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    raise AssertionError(f"the server on {port} did not start")


def most_at_once(logs: list[Path]) -> tuple[int, int]:
    """(hashes, the most that ran at once) over every process's log."""
    edges = []
    for log in logs:
        for line in log.read_text().splitlines():
            began, ended = map(float, line.split())
            edges += [(began, 1), (ended, -1)]
    edges.sort()  # at one instant an end (-1) comes before a beginning
    running = peak = 0
    for _at, step in edges:
        running += step
        peak = max(peak, running)
    return len(edges) // 2, peak


def niced(pid: int) -> int:
    """The process's threads at `HASH_NICE` (the hashing threads)."""
    n = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except OSError:
            continue
        # the fields after the name: state is the first (stat(5)'s third), nice the 17th
        if int(stat[stat.rindex(")") + 2:].split()[16]) == HASH_NICE:
            n += 1
    return n


#: wrong passwords the flood sends in all (each one hashed) before it stops
ENOUGH = 24


async def flood(base: str, counts: dict[int, int]) -> None:
    """Wrong passwords until the processes together have answered `ENOUGH` of them: a
    count, not a time, so that a loaded machine only makes the flood longer (the cap is
    there only for a server that stopped answering)."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as c:
        csrf = (await c.get("/api/session")).json()["csrf"]
        cap = time.monotonic() + 600
        n = 0
        while counts.get(401, 0) < ENOUGH and time.monotonic() < cap:
            n += 1
            r = await c.post("/api/login", json={"user": f"nobody{n}",
                                                 "password": f"guess-{n:06d}-x"},
                             headers={"X-CSRF-Token": csrf})
            counts[r.status_code] = counts.get(r.status_code, 0) + 1


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        url = str(tmp_path / "slots.sqlite")
        engine = make_engine(url)
        populate(engine, sample_tournament("fsm", 10, 2, seed=2026, name="Slots"),
                 tmp_path / "slots.sqlite")
        engine.dispose()
        yield url
        return
    import psycopg
    from sqlalchemy.engine import make_url

    schema = f"mt_slots_{uuid.uuid4().hex[:12]}"
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
    engine = make_engine(url)
    populate(engine, sample_tournament("fsm", 10, 2, seed=2026, name="Slots"),
             tmp_path / "unused.sqlite")
    engine.dispose()
    try:
        yield url
    finally:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def test_two_processes_hash_at_most_the_slots_at_once(database: str, tmp_path: Path) -> None:
    backend = "sqlite" if "postgresql" not in database else "postgresql"
    logs = [tmp_path / f"hashes-{port}.log" for port in PORTS[backend]]
    procs = [start(database, port, log) for port, log in zip(PORTS[backend], logs, strict=True)]
    counts: dict[int, int] = {}
    try:
        # six connections on each: each process alone would run its HASH_SLOTS at once,
        # so without the shared slots the two would run twice as many
        async def main() -> None:
            await asyncio.gather(*(flood(f"http://127.0.0.1:{port}", counts)
                                   for port in PORTS[backend] for _ in range(6)))

        asyncio.run(main())
        threads = [niced(p.pid) for p in procs]
    finally:
        for p in procs:
            p.terminate()
            p.wait(20)
    hashes, peak = most_at_once(logs)
    assert counts.get(401, 0) >= 20, counts  # wrong passwords, each one hashed
    assert not [k for k in counts if k >= 500 and k != 503], counts
    assert hashes >= counts.get(401, 0)
    assert all(0 < n <= HASH_SLOTS for n in threads), threads  # hashing at the lower priority
    assert peak == HASH_SLOTS, (peak, hashes, counts)  # both slots used, never more
