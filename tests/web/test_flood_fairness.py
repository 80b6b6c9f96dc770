"""A sign-in flood from one address cannot lock out a judge at another: a real
`mafiatab serve` process on SQLite, a flood of wrong-password sign-ins from 127.0.0.2
(Linux routes all of 127.0.0.0/8 to the loopback) meets 429s, while a judge signing in
from 127.0.0.1 during it gets in, never 429 nor 503. The flood also claims to be
127.0.0.1 in X-Forwarded-For, and the server runs with FORWARDED_ALLOW_IPS=*: `serve`
without `--trust-proxy` believes no proxy header, so the judge's address stays clean.
`bench/web.py --flood` measures the same on 50 judges; this pins the property."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from mafiatab.sample import sample_tournament
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import DEMO_PASSWORD, populate

FLOOD, JUDGE = "127.0.0.2", "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    url = str(tmp_path / "flood.sqlite")
    engine = make_engine(url)
    populate(engine, sample_tournament("fsm", 10, 2, seed=2026, name="Flood"),
             tmp_path / "flood.sqlite")
    engine.dispose()
    port = free_port()
    env = {**os.environ, "FORWARDED_ALLOW_IPS": "*"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mafiatab", "serve", "--db", url, "--port", str(port),
         "--secret-file", str(tmp_path / "secret")],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (proc.stderr.read() if proc.stderr else b"").decode()
            assert time.monotonic() < deadline, "the server did not start"
            try:
                if httpx.get(base + "/api/session", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


async def flooder(base: str, stop: asyncio.Event, counts: dict[int, int]) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=FLOOD)
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as c:
        csrf = (await c.get("/api/session")).json()["csrf"]
        n = 0
        while not stop.is_set():
            n += 1
            r = await c.post("/api/login", headers={"X-CSRF-Token": csrf,
                                                    "X-Forwarded-For": JUDGE},
                             json={"user": "judge1" if n % 2 else f"nobody{n}",
                                   "password": f"guess-{n:06d}-x"})
            counts[r.status_code] = counts.get(r.status_code, 0) + 1


async def flood_and_judge(base: str) -> tuple[dict[int, int], list[int]]:
    stop, counts = asyncio.Event(), {}
    flood = [asyncio.create_task(flooder(base, stop, counts)) for _ in range(8)]
    try:
        # a loaded machine hashes the flood's guesses slowly: the limit is reached later,
        # not never (the cap only stops a server that no longer answers)
        deadline = time.monotonic() + 600
        while counts.get(429, 0) < 20:  # the flood is over its limit, and goes on
            assert time.monotonic() < deadline, counts
            await asyncio.sleep(0.05)
        transport = httpx.AsyncHTTPTransport(local_address=JUDGE)
        async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as c:
            csrf = (await c.get("/api/session")).json()["csrf"]
            r = await c.post("/api/login", json={"user": "judge1", "password": DEMO_PASSWORD},
                             headers={"X-CSRF-Token": csrf})
            me = await c.get("/api/session")
        answers = [r.status_code, me.status_code]
        assert me.json().get("user") == "judge1", me.text
        await asyncio.sleep(0.3)  # the flood still running while the judge was in
        assert not stop.is_set() and all(not f.done() for f in flood)
    finally:
        stop.set()
        await asyncio.gather(*flood, return_exceptions=True)
    return counts, answers


def test_a_flood_from_another_address_gets_429_and_the_judge_gets_in(server: str) -> None:
    counts, answers = asyncio.run(flood_and_judge(server))
    assert answers == [200, 200]
    assert counts.get(429, 0) >= 20
    assert not any(s >= 500 and s != 503 for s in counts), counts
