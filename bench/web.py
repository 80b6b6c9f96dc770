"""Web benchmark (issue 4, item 8): 50 judges submit protocols while 500 viewers poll the
standings, all on loopback (127.0.0.1) against one uvicorn process.

    .venv/bin/python bench/web.py                       # SQLite
    .venv/bin/python bench/web.py --db postgresql+psycopg://postgres@127.0.0.1:5432/mafiatab_bench

A PostgreSQL database named here is dropped and made anew (never point it at real data).
The tournament is `sample_tournament` with 500 players: round 1 played and confirmed, round
2 seated at 50 tables, one judge each. Every judge signs in, reads his protocol, saves the
sample's real protocol as a draft and submits it; every viewer asks for the standings
fragment (what the page polls) `--polls` times, `--interval` seconds apart. Bounded in
requests (judges × 4 + viewers × polls) and in time (`--limit` seconds, then it stops).
Prints, per kind of request: count, errors, requests per second, p50 and p99 latency.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from mafiatab.formats.tournament_json import game_to_dict
from mafiatab.sample import sample_tournament
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import DEMO_PASSWORD, Demo, populate


@dataclass
class Stats:
    times: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)

    def add(self, kind: str, seconds: float, ok: bool) -> None:
        self.times.setdefault(kind, []).append(seconds)
        if not ok:
            self.errors[kind] = self.errors.get(kind, 0) + 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _fresh_postgres(url: str) -> None:
    """Drop and create the benchmark's database (its name is the URL's last part)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    u = make_url(url)
    admin = create_engine(u.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'DROP DATABASE IF EXISTS "{u.database}" WITH (FORCE)'))
        c.execute(text(f'CREATE DATABASE "{u.database}"'))
    admin.dispose()


def build(db: str | None, folder: Path) -> tuple[str, Demo, dict[str, dict[str, object]]]:
    sample = sample_tournament("fsm", 500, 2, seed=7, name="Bench cup")
    if db is None:
        url = str(folder / "bench.sqlite")
    else:
        _fresh_postgres(db)
        url = db
    engine = make_engine(url)
    demo = populate(engine, sample, folder / "bench.sqlite")
    engine.dispose()
    protocols = {f"qual-r2-t{g.table}": game_to_dict(g) for g in sample.games if g.round == 2}
    return url, demo, protocols


def start_server(url: str, port: int) -> subprocess.Popen[bytes]:
    code = ("import uvicorn, sys; from mafiatab.web.app import create_app; "
            f"uvicorn.run(create_app({url!r}, secret='bench'), host='127.0.0.1', port={port}, "
            "log_level='error', backlog=2048)")
    return subprocess.Popen([sys.executable, "-c", code])


async def timed(stats: Stats, kind: str, call: object) -> httpx.Response | None:
    t0 = time.perf_counter()
    try:
        r: httpx.Response = await call  # type: ignore[misc]
    except httpx.HTTPError:
        stats.add(kind, time.perf_counter() - t0, False)
        return None
    stats.add(kind, time.perf_counter() - t0, r.status_code < 400)  # 304: not modified
    return r


async def judge(base: str, tid: int, name: str, game: str, protocol: dict[str, object],
                stats: Stats) -> None:
    await asyncio.sleep(random.uniform(0, 10))  # judges finish their games over ten seconds
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:
        r = await c.get("/api/session")
        csrf = r.json()["csrf"]
        h = {"X-CSRF-Token": csrf}
        r2 = await timed(stats, "judge: sign in", c.post(
            "/api/login", json={"user": name, "password": DEMO_PASSWORD}, headers=h))
        if r2 is None or r2.status_code != 200:
            return
        h = {"X-CSRF-Token": r2.json()["csrf"]}
        head = await timed(stats, "judge: read protocol", c.get(f"/api/t/{tid}/games/{game}"))
        if head is None or head.status_code != 200:
            return
        base_rev = head.json()["revision"]
        saved = await timed(stats, "judge: save draft", c.put(
            f"/api/t/{tid}/games/{game}/draft",
            content=json.dumps({"base_revision": base_rev, "protocol": protocol}, default=float),
            headers={**h, "content-type": "application/json"}))
        if saved is None or saved.status_code != 200:
            return
        await timed(stats, "judge: submit", c.post(
            f"/api/t/{tid}/games/{game}/submit",
            json={"base_revision": saved.json()["revision"]}, headers=h))


async def viewer(c: httpx.AsyncClient, tid: int, polls: int, interval: float, stats: Stats,
                 deadline: float) -> None:
    """One phone: a poll every `interval` seconds (the page's htmx trigger)."""
    await asyncio.sleep(random.uniform(0, interval))
    etag: str | None = None
    for n in range(polls):
        if time.monotonic() > deadline:
            return
        # the first poll opens the phone's connection; later ones reuse it and send the
        # ETag of the table they show, as a browser does
        kind = "viewer: first poll" if n == 0 else "viewer: standings"
        headers = {"If-None-Match": etag} if etag else {}
        r = await timed(stats, kind, c.get(f"/t/{tid}/standings", headers=headers))
        if r is not None and r.status_code == 200:
            etag = r.headers.get("etag")
        await asyncio.sleep(interval)


async def load(base: str, demo: Demo, protocols: dict[str, dict[str, object]], viewers: int,
               polls: int, interval: float, limit: float) -> tuple[Stats, float]:
    stats = Stats()
    deadline = time.monotonic() + limit
    # the viewers share one client with a connection each (a client per viewer would
    # measure httpx's start-up, not the server); they send no cookie that matters
    limits = httpx.Limits(max_connections=viewers, max_keepalive_connections=viewers)
    judges = [(f"judge{g.rsplit('t', 1)[1]}", g) for g in demo.open_games]
    t0 = time.perf_counter()
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as shared:
        tasks = [viewer(shared, demo.tournament, polls, interval, stats, deadline)
                 for _ in range(viewers)]
        tasks += [judge(base, demo.tournament, name, g, protocols[g], stats)
                  for name, g in judges]
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=limit + 30)
    return stats, time.perf_counter() - t0


def report(stats: Stats, elapsed: float, label: str) -> None:
    print(f"\n== {label}: {elapsed:.1f} s")
    print(f"{'request':<24}{'count':>7}{'errors':>8}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}")
    total = 0
    for kind, times in stats.times.items():
        times.sort()
        total += len(times)
        p50 = statistics.median(times) * 1000
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
        print(f"{kind:<24}{len(times):>7}{stats.errors.get(kind, 0):>8}"
              f"{len(times) / elapsed:>9.1f}{p50:>9.1f}{p99:>9.1f}")
    print(f"{'all':<24}{total:>7}{sum(stats.errors.values()):>8}{total / elapsed:>9.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="PostgreSQL URL (dropped and made anew); default SQLite")
    ap.add_argument("--viewers", type=int, default=500)
    ap.add_argument("--polls", type=int, default=6)
    ap.add_argument("--interval", type=float, default=5.0, help="seconds between polls")
    ap.add_argument("--limit", type=float, default=90.0, help="stop after this many seconds")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        url, demo, protocols = build(args.db, Path(tmp))
        print(f"built {len(demo.open_games)} seated tables in {time.perf_counter() - t0:.1f} s "
              f"({'PostgreSQL' if args.db else 'SQLite'})")
        port = _free_port()
        server = start_server(url, port)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                try:
                    if httpx.get(base + "/api/session", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            stats, elapsed = asyncio.run(load(base, demo, protocols, args.viewers, args.polls,
                                              args.interval, args.limit))
            report(stats, elapsed, f"{args.viewers} viewers × {args.polls} polls, "
                   f"{len(demo.open_games)} judges, {'PostgreSQL' if args.db else 'SQLite'}")
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
