"""The server's CPU per request, by kind, beside a floor measured in the same run.

    .venv/bin/python bench/server_cpu.py                        # SQLite
    .venv/bin/python bench/server_cpu.py --db postgresql+psycopg://postgres@127.0.0.1:5432/mafiatab_bench
    .venv/bin/python bench/server_cpu.py --db postgresql+psycopg://... --workers 2
    .venv/bin/python bench/server_cpu.py --burst [--db ...]     # 500 first loads in 5 s + 50 saves

Wall-clock latency on a shared machine is not a stable measure; the server's CPU time is:
it is read from the server's own counters (/proc/<pid>/stat, user + system, of the
process and of its worker processes) before and after each kind of request, less what the
server spends idle in as long (measured first). The floor is a bare Starlette route, in a
uvicorn process of its own started the same way, that answers the same bytes the app
answered (its status, content type and body) to the same requests: the ratio app / floor
is what the app adds to serving those bytes at all.

The server runs on core 0 (`taskset`), this process (the load generator: plain asyncio
connections, `rawhttp`) on the others; on a machine with one core both share it, and the
CPU counters still hold.

The tournament: `sample_tournament` with 500 players, round 1 confirmed, round 2 seated at
50 tables, a judge each (bench/web.py's). Kinds, in this order on one server:

* `fragment`: the standings table a phone polls (`/t/{tid}/standings`), anonymous;
* `304`: the same with the ETag it had (`If-None-Match`);
* `page`: the tournament's page (`/t/{tid}`), anonymous, a new phone each (no cookie);
* `event`: one message of the standings' event stream to each of `--streams` listeners,
  after a change of the tournament written by this process (one audit entry; the server
  finds it by its once-a-second probe), per listener and message;
* `sign in: password`, `sign in: code`: each judge from an address of his own (argon2
  for a password: it stays, and dominates);
* `save`: a judge's draft save of the sample's protocol (`--saves` each), `submit`,
  `confirm` (the head judge), on tables 1-25;
* `live tap`: one tap of the live screen (services.live_log) on tables 26-50.

With `--workers N` (PostgreSQL) the same runs on one process and then on N
(`serve --workers N`), and it prints CPU per request of each and their ratio: CPU per
request that does not grow with the workers is what lets N workers serve N times the
requests on N cores.

`--burst`: the hall after a round. `--viewers` phones (500) each open the tournament's page
within `--spread` seconds (5; a new connection and no cookie each) and then poll the
standings fragment every 5 s with its ETag, while the 50 judges (signed in before) save
their protocols; prints p50/p99/max per kind with the load average, `--runs` times.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mafiatab.services.facade import Services
from mafiatab.services.live_log import load
from mafiatab.services.store import record_audit
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import DEMO_PASSWORD, HEAD_JUDGE_NAME, ORGANIZER_NAME, Demo
from rawhttp import Answer, Conn
from server import Server, free_port, pinned, serving
from web import build

TICK = os.sysconf("SC_CLK_TCK")
#: the server's core; the load generator takes the others
SERVER_CORE = "0"


def tree(pid: int) -> list[int]:
    """The process and its descendants (uvicorn's workers)."""
    out = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            kids = (task / "children").read_text().split()
        except OSError:
            continue
        for k in kids:
            out += tree(int(k))
    return out


def cpu_of(pid: int) -> float:
    """CPU seconds (user + system) of the process and its workers so far."""
    total = 0
    for p in tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / TICK


def load_average() -> float:
    return os.getloadavg()[0]


@dataclass
class Kind:
    """One kind of request as measured: how many, the server's CPU, and what it answered."""

    name: str
    count: int = 0
    cpu: float = 0.0
    load: float = 0.0
    #: (method, status, content type, request body, response body) of one answer: the floor's
    sample: tuple[str, int, str, bytes, bytes] | None = None
    floor: float | None = None
    #: each request on a connection of its own (a new phone), for the floor too
    fresh: bool = False

    @property
    def per(self) -> float:
        return self.cpu / self.count if self.count else 0.0


@dataclass
class Meter:
    """The server's CPU around a block, less the idle rate."""

    pid: int
    idle: float = 0.0  # CPU seconds per second when nothing is asked
    kinds: dict[str, Kind] = field(default_factory=dict)
    #: a folder: each kind's samples of the server's stacks (py-spy, collapsed) go there
    profile: str | None = None

    def measure_idle(self, seconds: float = 3.0) -> None:
        c0, t0 = cpu_of(self.pid), time.monotonic()
        time.sleep(seconds)
        self.idle = (cpu_of(self.pid) - c0) / (time.monotonic() - t0)

    @contextmanager
    def kind(self, name: str) -> Iterator[Kind]:
        k = self.kinds.setdefault(name, Kind(name))
        k.load = load_average()
        spy = None
        if self.profile:
            out = Path(self.profile) / (name.replace(" ", "_").replace(":", "") + ".txt")
            spy = subprocess.Popen(["py-spy", "record", "--pid", str(self.pid), "--rate", "1000",
                                    "--gil", "--format", "raw", "--output", str(out),
                                    "--subprocesses"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(1.0)
        c0, t0 = cpu_of(self.pid), time.monotonic()
        yield k
        k.cpu += max(0.0, cpu_of(self.pid) - c0 - self.idle * (time.monotonic() - t0))
        if spy is not None:
            spy.send_signal(2)
            spy.wait(30)


def keep(k: Kind, method: str, a: Answer, body: bytes = b"") -> None:
    if k.sample is None:
        k.sample = (method, a.status, a.headers.get("content-type", "text/plain"), body, a.body)


async def many(n: int, width: int, one: Callable[[int, int], Awaitable[None]]) -> None:
    """`one(i, lane)` for i < n, `width` lanes at a time (a lane: one connection)."""
    queue = iter(range(n))

    async def lane(j: int) -> None:
        for i in queue:
            await one(i, j)

    await asyncio.gather(*(lane(j) for j in range(width)))


def judge_source(i: int) -> str:
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


async def signed_in(port: int, name: str, source: str) -> tuple[Conn, str, Answer]:
    c = Conn("127.0.0.1", port, source)
    r = await c.request("GET", "/api/session")
    csrf = json.loads(r.body)["csrf"]
    body = json.dumps({"user": name, "password": DEMO_PASSWORD}).encode()
    a = await c.request("POST", "/api/login", body, {"X-CSRF-Token": csrf,
                                                    "Content-Type": "application/json"})
    if a.status != 200:
        raise SystemExit(f"{name}: sign-in {a.status} {a.body[:200]!r}")
    return c, json.loads(a.body)["csrf"], a


JSON = "application/json"


async def run_kinds(server: Server, meter: Meter, demo: Demo, protocols: dict[str, Any],
                    url: str, args: argparse.Namespace) -> None:
    port, tid = server.port, demo.tournament
    frag = f"/t/{tid}/standings"
    phones = [Conn("127.0.0.1", server.port) for _ in range(args.width)]
    for c in phones:
        await c.request("GET", frag)  # warm: connections, the first render
    first = await phones[0].request("GET", frag)
    etag = first.headers["etag"]

    with meter.kind("fragment") as k:
        async def frag_one(_i: int, j: int) -> None:
            a = await phones[j].request("GET", frag)
            keep(k, "GET", a)
        await many(args.n, len(phones), frag_one)
        k.count += args.n
    with meter.kind("304") as k:
        async def not_mod(_i: int, j: int) -> None:
            a = await phones[j].request("GET", frag, headers={"If-None-Match": etag})
            assert a.status == 304, a.status
            keep(k, "GET", a)
        await many(args.n, len(phones), not_mod)
        k.count += args.n
    for c in phones:
        await c.close()
    pages = max(50, args.n // 10)
    warm = Conn("127.0.0.1", port)  # the page's first render, and the router's first use
    await warm.request("GET", f"/t/{tid}")
    await warm.close()
    with meter.kind("page") as k:
        k.fresh = True
        async def page(_i: int, _j: int) -> None:
            c = Conn("127.0.0.1", port)  # a new phone: no cookie, a connection of its own
            a = await c.request("GET", f"/t/{tid}")
            assert a.status == 200, a.status
            keep(k, "GET", a)
            await c.close()
        await many(pages, args.width, page)
        k.count += pages

    # the event stream: listeners, then changes written by this process
    engine = make_engine(url)
    svc = Services(engine)
    listeners = [Conn("127.0.0.1", port) for _ in range(args.streams)]
    for c in listeners:
        assert await c.stream(f"/t/{tid}/standings/events") == 200
    await asyncio.gather(*(c.event() for c in listeners))  # the table as it is now
    await asyncio.sleep(1.5)
    with meter.kind("event") as k:
        for n in range(args.changes):
            with svc.store.write() as s:
                record_audit(s, ORGANIZER_NAME, tid, "bench_change", {"n": n})
            got = await asyncio.gather(*(c.event() for c in listeners))
            if k.sample is None:
                k.sample = ("GET", 200, "text/event-stream", b"", got[0] + b"\r\n\r\n")
        k.count += args.changes * len(listeners)
    for c in listeners:
        await c.close()

    # judges: tables 1-25 save, submit and are confirmed; 26-50 get live taps
    games = sorted(demo.open_games, key=lambda g: int(g.rsplit("t", 1)[1]))
    half = len(games) // 2
    writing, tapping = games[:half], games[half:]
    judges: dict[str, tuple[Conn, str]] = {}
    with meter.kind("sign in: password") as k:
        for i, g in enumerate(games):
            c, csrf, a = await signed_in(port, f"judge{g.rsplit('t', 1)[1]}", judge_source(i))
            keep(k, "POST", a, json.dumps({"user": "judge1", "password": DEMO_PASSWORD}).encode())
            judges[g] = (c, csrf)
        k.count += len(games)
    codes = [svc.access.create_code(tid, f"reserve{i}", "judge", actor=ORGANIZER_NAME)
             for i in range(args.codes)]
    with meter.kind("sign in: code") as k:
        async def by_code(i: int, _j: int) -> None:
            c = Conn("127.0.0.1", port, judge_source(100 + i))
            csrf = json.loads((await c.request("GET", "/api/session")).body)["csrf"]
            body = json.dumps({"code": codes[i]}).encode()
            a = await c.request("POST", "/api/login", body,
                                {"X-CSRF-Token": csrf, "Content-Type": JSON})
            assert a.status == 200, (a.status, a.body[:300])
            keep(k, "POST", a, body)
            await c.close()
        await many(len(codes), 5, by_code)
        k.count += len(codes)

    revisions: dict[str, int] = {}
    for g in writing:
        c, _csrf = judges[g]
        revisions[g] = json.loads((await c.request("GET", f"/api/t/{tid}/games/{g}")).body)["revision"]
    with meter.kind("save") as k:
        for _ in range(args.saves):
            async def save(i: int, _j: int) -> None:
                g = writing[i]
                c, csrf = judges[g]
                body = json.dumps({"base_revision": revisions[g], "protocol": protocols[g]},
                                  default=float).encode()
                a = await c.request("PUT", f"/api/t/{tid}/games/{g}/draft", body,
                                    {"X-CSRF-Token": csrf, "Content-Type": JSON})
                assert a.status == 200, (a.status, a.body[:300])
                revisions[g] = json.loads(a.body)["revision"]
                keep(k, "PUT", a, body)
            await many(len(writing), 5, save)
            k.count += len(writing)
    with meter.kind("submit") as k:
        async def submit(i: int, _j: int) -> None:
            g = writing[i]
            c, csrf = judges[g]
            body = json.dumps({"base_revision": revisions[g]}).encode()
            a = await c.request("POST", f"/api/t/{tid}/games/{g}/submit", body,
                                {"X-CSRF-Token": csrf, "Content-Type": JSON})
            assert a.status == 200, (a.status, a.body[:300])
            revisions[g] = json.loads(a.body)["revision"]
            keep(k, "POST", a, body)
        await many(len(writing), 5, submit)
        k.count += len(writing)
    head, hcsrf, _ = await signed_in(port, HEAD_JUDGE_NAME, "127.0.0.200")
    with meter.kind("confirm") as k:
        for g in writing:
            body = json.dumps({"base_revision": revisions[g]}).encode()
            a = await head.request("POST", f"/api/t/{tid}/games/{g}/confirm", body,
                                   {"X-CSRF-Token": hcsrf, "Content-Type": JSON})
            assert a.status == 200, (a.status, a.body[:300])
            keep(k, "POST", a, body)
        k.count += len(writing)

    # live taps: the next legal tap of each game worked out here (on the bench's own
    # connection to the database, not the server's), then sent as the screen sends it
    from mafiatab.sample_live import next_tap

    fouls: dict[str, dict[int, int]] = {g: {} for g in tapping}
    seq = {g: load(svc.games, tid, g).seq for g in tapping}
    with meter.kind("live tap") as k:
        for _round in range(args.taps):
            for g in tapping:
                live = load(svc.games, tid, g)  # outside the server: not its CPU
                event = next_tap(live, fouls[g])
                if event is None:
                    continue
                seq[g] += 1
                c, csrf = judges[g]
                body = json.dumps({"base_revision": live.revision.number, "events": [
                    {"id": f"b{seq[g]}", "seq": seq[g], "event": event}]}).encode()
                a = await c.request("POST", f"/api/t/{tid}/games/{g}/live", body,
                                    {"X-CSRF-Token": csrf, "Content-Type": JSON})
                assert a.status == 200, (a.status, a.body[:300])
                keep(k, "POST", a, body)
                k.count += 1
    for c, _ in judges.values():
        await c.close()
    await head.close()
    engine.dispose()


# --- the floor --------------------------------------------------------------------


def floor_main(spec_file: str, port: int) -> None:
    """A bare Starlette app: `/floor/<i>` answers the i-th sample's bytes (the floor)."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    specs = json.loads(Path(spec_file).read_text())

    def route(i: int, spec: dict[str, Any]) -> Route:
        body = bytes.fromhex(spec["body"])

        async def answer(request: Request) -> Response:
            await request.body()
            return Response(body, status_code=spec["status"], media_type=spec["type"])

        return Route(f"/floor/{i}", answer, methods=[spec["method"]])

    app = Starlette(routes=[route(i, s) for i, s in enumerate(specs)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="error", backlog=2048,
                proxy_headers=False)


async def run_floor(port: int, pid: int, meter: Meter, samples: list[Kind],
                    args: argparse.Namespace) -> None:
    for i, k in enumerate(samples):
        assert k.sample is not None
        method, status, _type, body, _ = k.sample
        count = min(max(k.count, 200), args.n)
        conns = [Conn("127.0.0.1", port) for _ in range(args.width)]
        for c in conns:
            await c.request(method, f"/floor/{i}", body)
        c0, t0 = cpu_of(pid), time.monotonic()

        async def one(_n: int, j: int, conns: list[Conn] = conns, i: int = i,
                      method: str = method, body: bytes = body, fresh: bool = k.fresh) -> None:
            await conns[j].request(method, f"/floor/{i}", body)
            if fresh:
                await conns[j].close()

        await many(count, len(conns), one)
        used = max(0.0, cpu_of(pid) - c0 - meter.idle * (time.monotonic() - t0))
        k.floor = used / count
        for c in conns:
            await c.close()


def floors(kinds: list[Kind], args: argparse.Namespace) -> None:
    sampled = [k for k in kinds if k.sample is not None]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump([{"method": k.sample[0], "status": k.sample[1], "type": k.sample[2],
                    "body": k.sample[4].hex()} for k in sampled if k.sample], f)
    port = free_port()
    proc = subprocess.Popen([*pinned(SERVER_CORE), sys.executable, __file__, "--floor-app",
                             f.name, str(port)])
    try:
        wait_floor(port)
        meter = Meter(proc.pid)
        meter.measure_idle(2.0)
        asyncio.run(run_floor(port, proc.pid, meter, sampled, args))
    finally:
        proc.terminate()
        proc.wait(10)
        os.unlink(f.name)


def wait_floor(port: int) -> None:
    import socket

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the floor's server did not start")


def table(kinds: list[Kind], label: str) -> None:
    print(f"\n== {label}")
    print(f"{'request':<20}{'count':>7}{'load':>6}{'CPU ms/req':>12}{'floor ms':>10}{'ratio':>8}")
    for k in kinds:
        floor = f"{k.floor * 1e3:10.3f}" if k.floor else f"{'-':>10}"
        ratio = f"{k.per / k.floor:8.1f}" if k.floor else f"{'-':>8}"
        print(f"{k.name:<20}{k.count:>7}{k.load:>6.1f}{k.per * 1e3:>12.3f}{floor}{ratio}")
    sys.stdout.flush()


def measure(url: str, demo: Demo, protocols: dict[str, Any], args: argparse.Namespace,
            workers: int | None) -> list[Kind]:
    with serving(url, workers=workers, stop_wait=15, pin=SERVER_CORE) as server:
        time.sleep(1.0)
        meter = Meter(server.pid, profile=args.profile)
        meter.measure_idle()
        asyncio.run(run_kinds(server, meter, demo, protocols, url, args))
        print(f"server idle: {meter.idle * 1e3:.1f} ms of CPU a second (subtracted)")
        return list(meter.kinds.values())


# --- the burst --------------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] * 1e3


async def burst(server: Server, demo: Demo, protocols: dict[str, Any],
                args: argparse.Namespace) -> dict[str, list[float]]:
    port, tid = server.port, demo.tournament
    times: dict[str, list[float]] = {"first load": [], "standings poll": [], "judge save": []}
    failures: dict[str, int] = {}
    games = sorted(demo.open_games, key=lambda g: int(g.rsplit("t", 1)[1]))
    judges = []
    for i, g in enumerate(games):  # signed in before the round ends
        c, csrf, _ = await signed_in(port, f"judge{g.rsplit('t', 1)[1]}", judge_source(i))
        rev = json.loads((await c.request("GET", f"/api/t/{tid}/games/{g}")).body)["revision"]
        judges.append((g, c, csrf, rev))

    async def timed(kind: str, call: Awaitable[Answer], ok: tuple[int, ...] = (200,)) -> Answer | None:
        t0 = time.perf_counter()
        try:
            a = await call
        except (OSError, asyncio.IncompleteReadError):
            failures[kind] = failures.get(kind, 0) + 1
            return None
        times[kind].append(time.perf_counter() - t0)
        if a.status not in ok:
            failures[kind] = failures.get(kind, 0) + 1
        return a

    async def viewer(i: int) -> None:
        await asyncio.sleep(random.uniform(0, args.spread))
        c = Conn("127.0.0.1", port)
        a = await timed("first load", c.request("GET", f"/t/{tid}"))
        etag = None
        for _ in range(args.polls):
            await asyncio.sleep(5.0)
            a = await timed("standings poll", c.request(
                "GET", f"/t/{tid}/standings", headers={"If-None-Match": etag} if etag else {}),
                (200, 304))
            if a is not None and a.status == 200:
                etag = a.headers.get("etag")
        await c.close()

    async def judge(g: str, c: Conn, csrf: str, rev: int) -> None:
        await asyncio.sleep(random.uniform(0, args.spread * 2))
        body = json.dumps({"base_revision": rev, "protocol": protocols[g]}, default=float).encode()
        await timed("judge save", c.request("PUT", f"/api/t/{tid}/games/{g}/draft", body,
                                            {"X-CSRF-Token": csrf, "Content-Type": JSON}))

    await asyncio.gather(*(viewer(i) for i in range(args.viewers)),
                         *(judge(*j) for j in judges))
    for _g, c, _csrf, _rev in judges:
        await c.close()
    if failures:
        print("failures: " + ", ".join(f"{k}: {v}" for k, v in failures.items()))
    return times


def burst_runs(args: argparse.Namespace) -> None:
    for run in range(1, args.runs + 1):
        with tempfile.TemporaryDirectory() as tmp:
            url, demo, protocols = build(args.db, Path(tmp))
            with serving(url, workers=args.workers, stop_wait=15, pin=SERVER_CORE) as server:
                time.sleep(1.0)
                load0 = os.getloadavg()
                c0 = cpu_of(server.pid)
                t0 = time.perf_counter()
                times = asyncio.run(burst(server, demo, protocols, args))
                elapsed = time.perf_counter() - t0
                cpu = cpu_of(server.pid) - c0
                load1 = os.getloadavg()
        where = "PostgreSQL" if args.db else "SQLite"
        print(f"\n== burst {run}/{args.runs} ({where}{f', {args.workers} workers' if args.workers else ''}): "
              f"{args.viewers} first loads within {args.spread:.0f} s, then {args.polls} polls each, "
              f"{len(demo.open_games)} judges' saves; load average {load0[0]:.1f} before, "
              f"{load1[0]:.1f} after; server CPU {cpu:.1f} s in {elapsed:.1f} s")
        print(f"{'request':<16}{'count':>7}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
        for kind, values in times.items():
            if values:
                print(f"{kind:<16}{len(values):>7}{statistics.median(values) * 1e3:>9.1f}"
                      f"{pct(values, 0.99):>9.1f}{max(values) * 1e3:>9.1f}")
        sys.stdout.flush()


def main() -> None:
    if sys.argv[1:2] == ["--floor-app"]:
        floor_main(sys.argv[2], int(sys.argv[3]))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="PostgreSQL URL (dropped and made anew); default SQLite")
    ap.add_argument("--workers", type=int, default=None,
                    help="also measure this many server processes (PostgreSQL)")
    ap.add_argument("-n", type=int, default=2000, help="requests of each cheap kind")
    ap.add_argument("--width", type=int, default=10, help="connections at once")
    ap.add_argument("--streams", type=int, default=200, help="event stream listeners")
    ap.add_argument("--changes", type=int, default=5, help="changes pushed to them")
    ap.add_argument("--codes", type=int, default=25, help="sign-ins with a code")
    ap.add_argument("--saves", type=int, default=3, help="draft saves per judge")
    ap.add_argument("--taps", type=int, default=8, help="live taps per game")
    ap.add_argument("--profile", metavar="DIR", help="py-spy's samples of each kind there "
                    "(py-spy on the PATH; the CPU figures then include its sampling)")
    ap.add_argument("--burst", action="store_true", help="the hall after a round (see above)")
    ap.add_argument("--viewers", type=int, default=500)
    ap.add_argument("--spread", type=float, default=5.0)
    ap.add_argument("--polls", type=int, default=3)
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    if cores > 1:  # the load generator keeps off the server's core
        os.sched_setaffinity(0, set(range(1, cores)))
    if args.burst:
        burst_runs(args)
        return
    where = "PostgreSQL" if args.db else "SQLite"
    runs = [None] if args.workers is None else [1, args.workers]
    results: dict[int | None, list[Kind]] = {}
    for workers in runs:
        with tempfile.TemporaryDirectory() as tmp:
            url, demo, protocols = build(args.db, Path(tmp))
            kinds = measure(url, demo, protocols, args, workers)
        floors(kinds, args)
        results[workers] = kinds
        table(kinds, f"server CPU per request, {where}"
              + (f", {workers} worker(s)" if workers else ", one process")
              + f" (load average now {load_average():.1f}, {cores} cores)")
    if args.workers is not None:
        one, many_ = results[1], {k.name: k for k in results[args.workers]}
        print(f"\n== CPU per request, {args.workers} workers / 1")
        for k in one:
            other = many_.get(k.name)
            if other is not None and k.per:
                print(f"{k.name:<20}{k.per * 1e3:>9.3f}{other.per * 1e3:>9.3f}"
                      f"{other.per / k.per:>8.2f}")


if __name__ == "__main__":
    main()
