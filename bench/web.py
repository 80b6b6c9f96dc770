"""Web benchmark: 50 judges submit protocols while 500 viewers poll the
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

    .venv/bin/python bench/web.py --flood 60            # a sign-in flood

With `--flood N` the viewers stay home, and the run has two parts, each on a database
and a server made anew: the 50 judges alone (sign in, save, submit), then the same while
N connections send wrong sign-ins (passwords of the judges' accounts and of unknown ones,
and made-up codes) as fast as the server answers, for `--flood-seconds`. The flood comes
from a process of its own (as an attacker's machine would; `--flood-in-process` puts it
in the judges' client, whose event loop it then starves). Prints both tables, the
flood's answers by status (429: a limit hit, 503: no hashing slot free), the server's
resident memory (RSS, from /proc) before and at its peak and its CPU time, the flood
client's CPU time (it runs on the same machine, which a real attacker's does not), and
per kind of the judges' requests p50 and p99 with the flood / without. As in a hall,
the attacker has addresses of his own: the flood comes from `FLOOD_ADDRESSES`
(127.0.0.2-127.0.0.9, its connections spread over them; Linux routes all of
127.0.0.0/8 to the loopback), each judge from an address of his own (127.0.1.1, ...), as
phones on a hall's network. `--flood-same-address` shows the worst case: the flood and
every judge from 127.0.0.1 (one address, as behind a NAT: per-address limits cannot tell
them apart, and 50 judges alone already exceed the per-address limit). Every limit is
the app's default unless `--per-address` sets another (`--per-address 100000/minute`:
the flood reaches the password hashing). The server trusts no proxy header (as `serve`
without `--trust-proxy`): the app sees each connection's own address.

    .venv/bin/python bench/web.py --db postgresql+psycopg://postgres@127.0.0.1:5432/mafiatab_bench --workers 2

With `--workers N` (PostgreSQL) the same load runs twice, on a database made anew each
time: against one server process, then against N (`serve --workers N`: uvicorn's
processes on one socket); it prints both tables and, per kind of request, the ratio of
throughput and of p99 (N workers / one), with the machine's load average before each run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import httpx

from mafiatab.formats.tournament_json import game_to_dict
from mafiatab.sample import sample_tournament
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import DEMO_PASSWORD, Demo, populate
from server import fresh_postgres, serving


@dataclass
class Stats:
    times: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    statuses: dict[str, int] = field(default_factory=dict)

    def add(self, kind: str, seconds: float, ok: bool) -> None:
        self.times.setdefault(kind, []).append(seconds)
        if not ok:
            self.errors[kind] = self.errors.get(kind, 0) + 1


def build(db: str | None, folder: Path) -> tuple[str, Demo, dict[str, dict[str, object]]]:
    sample = sample_tournament("fsm", 500, 2, seed=7, name="Bench cup")
    if db is None:
        url = str(folder / "bench.sqlite")
    else:
        fresh_postgres(db)
        url = db
    engine = make_engine(url)
    demo = populate(engine, sample, folder / "bench.sqlite")
    engine.dispose()
    protocols = {f"qual-r2-t{g.table}": game_to_dict(g) for g in sample.games if g.round == 2}
    return url, demo, protocols


def rss_mb(pid: int) -> float:
    """The process's resident memory in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


#: the attacker's own addresses (a hall's attacker is not at the judges' addresses)
FLOOD_ADDRESSES: Final = tuple(f"127.0.0.{i}" for i in range(2, 10))
#: the one address of everybody with `--flood-same-address`
SAME_ADDRESS: Final = "127.0.0.1"


def judge_address(i: int, same: bool) -> str:
    """The address judge number `i` (0, 1, ...) comes from: one of his own, outside
    `FLOOD_ADDRESSES` (127.0.1.1, ...), or with `same` the flood's one address."""
    return SAME_ADDRESS if same else f"127.0.{1 + i // 250}.{1 + i % 250}"


async def flooder(base: str, names: list[str], seconds: float, counts: dict[str, int],
                  source: str) -> None:
    """One connection from `source` sending wrong sign-ins back to back."""
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as c:
        csrf = (await c.get("/api/session")).json()["csrf"]
        end = time.monotonic() + seconds
        n = 0
        while time.monotonic() < end:
            n += 1
            body = ({"code": f"ZZ{n % 97:02d}-2345-6789"} if n % 4 == 0 else
                    {"user": random.choice(names), "password": f"guess-{n:06d}-x"})
            try:
                r = await c.post("/api/login", json=body, headers={"X-CSRF-Token": csrf})
                key = str(r.status_code)
            except httpx.HTTPError as e:
                key = type(e).__name__
            counts[key] = counts.get(key, 0) + 1


async def flooders(base: str, names: list[str], connections: int, seconds: float,
                   sources: list[str]) -> dict[str, int]:
    """`connections` flooders, spread in turn over the addresses `sources`."""
    counts: dict[str, int] = {}
    await asyncio.gather(*(flooder(base, names, seconds, counts, sources[n % len(sources)])
                           for n in range(connections)))
    return counts


def flood_process(base: str, names: list[str], connections: int, seconds: float,
                  sources: list[str]) -> subprocess.Popen[str]:
    """The flood from a process of its own (an attacker's machine is not the judges'
    phones): its counts come back as JSON on stdout."""
    return subprocess.Popen([sys.executable, __file__, "--flooder", base, str(connections),
                             str(seconds), json.dumps(names), json.dumps(sources)],
                            stdout=subprocess.PIPE, text=True)


def children_cpu() -> float:
    """CPU time (user + system) of this process's children that were waited for."""
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user + system, /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    import os

    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def flood(base: str, demo: Demo, protocols: dict[str, dict[str, object]], pid: int,
                connections: int, seconds: float, in_process: bool = False,
                same_address: bool = False
                ) -> tuple[Stats, float, dict[str, int], list[float]]:
    stats, memory = Stats(), [rss_mb(pid)]
    counts: dict[str, int] = {}
    judges = [(f"judge{g.rsplit('t', 1)[1]}", g) for g in demo.open_games]
    names = [n for n, _ in judges] + [f"nobody{i}" for i in range(20)]

    async def watch() -> None:
        end = time.monotonic() + seconds + 15
        while time.monotonic() < end:
            memory.append(rss_mb(pid))
            await asyncio.sleep(0.25)

    t0 = time.perf_counter()
    tasks = [judge(base, demo.tournament, name, g, protocols[g], stats,
                   judge_address(i, same_address))
             for i, (name, g) in enumerate(judges)]
    sources = [SAME_ADDRESS] if same_address else list(FLOOD_ADDRESSES)
    attacker = None
    if connections and in_process:
        tasks.append(flooders(base, names, connections, seconds, sources))
    elif connections:
        attacker = flood_process(base, names, connections, seconds, sources)
    try:
        done = await asyncio.wait_for(asyncio.gather(watch(), *tasks), timeout=seconds + 60)
    finally:
        if attacker is not None:
            out, _ = attacker.communicate(timeout=seconds + 60)
            counts = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
    if connections and in_process:
        counts = done[-1]
    return stats, time.perf_counter() - t0, counts, memory


async def timed(stats: Stats, kind: str, call: object) -> httpx.Response | None:
    t0 = time.perf_counter()
    try:
        r: httpx.Response = await call  # type: ignore[misc]
    except httpx.HTTPError:
        stats.add(kind, time.perf_counter() - t0, False)
        return None
    stats.add(kind, time.perf_counter() - t0, r.status_code < 400)  # 304: not modified
    if r.status_code >= 400:
        key = f"{kind} {r.status_code}"
        stats.statuses[key] = stats.statuses.get(key, 0) + 1
    return r


async def judge(base: str, tid: int, name: str, game: str, protocol: dict[str, object],
                stats: Stats, source: str | None = None) -> None:
    """One judge's table; `source`: the loopback address he comes from (127.0.x.y), so
    that a flood from the attacker's addresses is another address, as in a hall."""
    await asyncio.sleep(random.uniform(0, 10))  # judges finish their games over ten seconds
    transport = httpx.AsyncHTTPTransport(local_address=source) if source else None
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as c:
        r = await c.get("/api/session")
        csrf = r.json()["csrf"]
        h = {"X-CSRF-Token": csrf}
        for _attempt in range(5):  # a busy server (503) says when to try again, as a phone would
            r2 = await timed(stats, "judge: sign in", c.post(
                "/api/login", json={"user": name, "password": DEMO_PASSWORD}, headers=h))
            if r2 is None or r2.status_code not in (429, 503):
                break
            await asyncio.sleep(min(10.0, float(r2.headers.get("Retry-After", "5"))))
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
        # each judge from an address of his own, as phones on a hall's network (from one
        # address the 50 sign-ins would meet the per-address limit, 30 a minute)
        tasks += [judge(base, demo.tournament, name, g, protocols[g], stats,
                        judge_address(i, False))
                  for i, (name, g) in enumerate(judges)]
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
    if stats.statuses:
        print("errors by answer: " + ", ".join(f"{k}: {v}" for k, v in sorted(stats.statuses.items())))


def summary(stats: Stats, elapsed: float) -> dict[str, tuple[float, float]]:
    """Per kind of request: (requests per second, p99 in ms)."""
    out = {}
    for kind, times in stats.times.items():
        ordered = sorted(times)
        out[kind] = (len(ordered) / elapsed,
                     ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000)
    return out


def compare_workers(args: argparse.Namespace) -> None:
    """One worker, then `args.workers`, each on a database made anew (see the module)."""
    import os

    runs: dict[int, dict[str, tuple[float, float]]] = {}
    for workers in (1, args.workers):
        with tempfile.TemporaryDirectory() as tmp:
            url, demo, protocols = build(args.db, Path(tmp))
            with serving(url, workers=workers) as server:
                load1 = os.getloadavg()[0]
                stats, elapsed = asyncio.run(load(server.base, demo, protocols, args.viewers,
                                                  args.polls, args.interval, args.limit))
            report(stats, elapsed, f"{workers} worker(s): {args.viewers} viewers × "
                   f"{args.polls} polls, {len(demo.open_games)} judges, PostgreSQL "
                   f"(load average before: {load1:.1f}, {os.cpu_count()} cores)")
            runs[workers] = summary(stats, elapsed)
    one, many = runs[1], runs[args.workers]
    print(f"\n== {args.workers} workers / 1 worker")
    print(f"{'request':<24}{'req/s ×':>9}{'p99 ×':>9}{'p99 ms 1':>10}{f'p99 ms {args.workers}':>10}")
    for kind in one:
        if kind in many:
            print(f"{kind:<24}{many[kind][0] / one[kind][0]:>9.2f}"
                  f"{many[kind][1] / one[kind][1]:>9.2f}{one[kind][1]:>10.1f}{many[kind][1]:>10.1f}")


def percentile(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def flood_runs(args: argparse.Namespace) -> None:
    """The judges alone, then the judges during the flood, each on a database and a server
    made anew, in one run; then per kind of request the ratio of p50 and p99 (flood /
    alone), the server's memory and CPU time."""
    import os

    runs: dict[int, Stats] = {}
    for connections in (0, args.flood):
        with tempfile.TemporaryDirectory() as tmp:
            url, demo, protocols = build(args.db, Path(tmp))
            with serving(url, per_address=args.per_address, stop_wait=10) as server:
                load1 = os.getloadavg()[0]
                cpu0, client0 = cpu_seconds(server.pid), children_cpu()
                stats, elapsed, counts, memory = asyncio.run(flood(
                    server.base, demo, protocols, server.pid, connections, args.flood_seconds,
                    args.flood_in_process, args.flood_same_address))
                cpu = cpu_seconds(server.pid) - cpu0
                client = children_cpu() - client0  # the flood's process, waited for
        where = "its own process" if not args.flood_in_process else "the judges' process"
        whence = (f"everybody from {SAME_ADDRESS}" if args.flood_same_address else
                  f"the flood from {FLOOD_ADDRESSES[0]}-{FLOOD_ADDRESSES[-1]}, "
                  "each judge from his own address")
        report(stats, elapsed, f"{len(demo.open_games)} judges ({whence}), "
               + (f"a sign-in flood of {connections} connections from {where} for "
                  f"{args.flood_seconds:.0f} s" if connections else "no flood")
               + f" ({'PostgreSQL' if args.db else 'SQLite'}; load average before "
               f"{load1:.1f}, {os.cpu_count()} cores)")
        total = sum(counts.values())
        errors = sum(v for k, v in counts.items() if k.startswith("5") and k != "503")
        if connections:
            print(f"flood: {total} sign-ins, by answer: "
                  + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
                  + f"; server errors (5xx other than 503 busy): {errors}")
        print(f"server RSS: {memory[0]:.0f} MB before, {max(memory):.0f} MB at the peak; "
              f"server CPU {cpu:.1f} s in {elapsed:.0f} s"
              + (f"; the flood client's CPU {client:.1f} s (same machine)"
                 if connections and not args.flood_in_process else ""))
        runs[connections] = stats
    alone, flooded = runs[0], runs[args.flood]
    print("\n== judges during the flood / alone (p50 and p99 in ms)")
    print(f"{'request':<24}{'p50 0':>9}{'p50 F':>9}{'p50 ×':>8}{'p99 0':>9}{'p99 F':>9}{'p99 ×':>8}")
    for kind, times in alone.times.items():
        other = flooded.times.get(kind)
        if not other:
            continue
        a50, f50 = statistics.median(times) * 1000, statistics.median(other) * 1000
        a99, f99 = percentile(times, 0.99), percentile(other, 0.99)
        print(f"{kind:<24}{a50:>9.0f}{f50:>9.0f}{f50 / a50:>8.2f}{a99:>9.0f}{f99:>9.0f}"
              f"{f99 / a99:>8.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="PostgreSQL URL (dropped and made anew); default SQLite")
    ap.add_argument("--viewers", type=int, default=500)
    ap.add_argument("--polls", type=int, default=6)
    ap.add_argument("--interval", type=float, default=5.0, help="seconds between polls")
    ap.add_argument("--limit", type=float, default=90.0, help="stop after this many seconds")
    ap.add_argument("--flood", type=int, default=None,
                    help="connections of a sign-in flood (0: the judges alone, to compare)")
    ap.add_argument("--flood-seconds", type=float, default=30.0)
    ap.add_argument("--per-address", default=None,
                    help="the bench server's per-address sign-in limit (default: the app's)")
    ap.add_argument("--workers", type=int, default=None,
                    help="compare one server process with this many (PostgreSQL only)")
    ap.add_argument("--flood-same-address", action="store_true",
                    help=f"the flood and every judge from {SAME_ADDRESS} (the worst case: "
                    "per-address limits cannot tell them apart)")
    ap.add_argument("--flood-in-process", action="store_true",
                    help="the flood from the judges' own client process (as before: their "
                    "latencies then include the client's event loop busy with the flood)")
    if sys.argv[1:2] == ["--flooder"]:  # the flood's own process (flood_process)
        base, connections, seconds, names, sources = sys.argv[2:7]
        print(json.dumps(asyncio.run(flooders(base, json.loads(names), int(connections),
                                              float(seconds), json.loads(sources)))))
        return
    args = ap.parse_args()
    if args.flood is not None:
        flood_runs(args)
        return
    if args.workers is not None:
        if not args.db:
            raise SystemExit("--workers needs --db postgresql://... (SQLite is one process)")
        compare_workers(args)
        return
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        url, demo, protocols = build(args.db, Path(tmp))
        print(f"built {len(demo.open_games)} seated tables in {time.perf_counter() - t0:.1f} s "
              f"({'PostgreSQL' if args.db else 'SQLite'})")
        with serving(url, per_address=args.per_address, stop_wait=10) as server:
            stats, elapsed = asyncio.run(load(server.base, demo, protocols, args.viewers,
                                              args.polls, args.interval, args.limit))
            report(stats, elapsed, f"{args.viewers} viewers × {args.polls} polls, "
                   f"{len(demo.open_games)} judges, {'PostgreSQL' if args.db else 'SQLite'}")


if __name__ == "__main__":
    main()
