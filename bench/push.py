"""Push benchmark: 500 server-sent-event listeners on loopback, and
the delay from a confirmation to the last listener receiving it.

    .venv/bin/python bench/push.py                          # 500 listeners of the standings
    .venv/bin/python bench/push.py --topic hall --listeners 500
    .venv/bin/python bench/push.py --db postgresql+psycopg://postgres@127.0.0.1:5432/mafiatab_push

A PostgreSQL database named here is dropped and made anew (never point it at real data).
The tournament is `sample_tournament` (`--players`, 100 by default): round 1 played and
confirmed, round 2 seated, each table's protocol saved and submitted by its judge before
the listeners connect. One uvicorn process serves; the listeners are plain asyncio
sockets in this process (an SSE reader is a few lines; httpx's per-connection overhead
would measure the client). Then the head judge confirms `--confirms` tables, one every
`--gap` seconds; for each confirmation the bench records when the request was sent, when
its answer came, and when each listener got the event that followed. Prints, per
confirmation and overall: the answer's time and the delay to the median, the 99th
percentile and the last listener.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from mafiatab.formats.tournament_json import game_to_dict
from mafiatab.sample import sample_tournament
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import DEMO_PASSWORD, Demo, populate
from server import fresh_postgres, serving

PATHS = {"standings": "/t/{tid}/standings/events", "hall": "/t/{tid}/hall/events"}


def build(db: str | None, folder: Path, players: int) -> tuple[str, Demo, dict[str, dict[str, object]]]:
    sample = sample_tournament("fsm", players, 2, seed=7, name="Push cup")
    url = str(folder / "push.sqlite") if db is None else db
    if db is not None:
        fresh_postgres(db)
    engine = make_engine(url)
    demo = populate(engine, sample, folder / "push.sqlite")
    engine.dispose()
    protocols = {f"qual-r2-t{g.table}": game_to_dict(g) for g in sample.games if g.round == 2}
    return url, demo, protocols


def sign_in(base: str, user: str) -> tuple[httpx.Client, dict[str, str]]:
    c = httpx.Client(base_url=base, timeout=60)
    csrf = c.get("/api/session").json()["csrf"]
    r = c.post("/api/login", json={"user": user, "password": DEMO_PASSWORD},
               headers={"X-CSRF-Token": csrf})
    r.raise_for_status()
    return c, {"X-CSRF-Token": r.json()["csrf"]}


def submit_all(base: str, tid: int, protocols: dict[str, dict[str, object]],
               games: list[str]) -> dict[str, int]:
    """Each table's judge saves the sample's protocol and submits it (private steps:
    the public sees nothing of them, so the listeners get no event)."""
    out: dict[str, int] = {}
    for game in games:
        c, h = sign_in(base, f"judge{game.rsplit('t', 1)[1]}")
        head = c.get(f"/api/t/{tid}/games/{game}").json()
        saved = c.put(f"/api/t/{tid}/games/{game}/draft", headers={**h, "content-type":
                      "application/json"}, content=json.dumps(
                          {"base_revision": head["revision"], "protocol": protocols[game]},
                          default=float))
        saved.raise_for_status()
        done = c.post(f"/api/t/{tid}/games/{game}/submit",
                      json={"base_revision": saved.json()["revision"]}, headers=h)
        done.raise_for_status()
        out[game] = done.json()["revision"]
        c.close()
    return out


@dataclass
class Listener:
    """One EventSource: its connection and when each of its events arrived."""

    arrivals: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    status: int = 0
    error: str | None = None


async def listen(port: int, path: str, me: Listener, ready: asyncio.Event,
                 stop: asyncio.Event) -> None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 22)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                     "Cache-Control: no-cache\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        me.status = int(head.split(b" ", 2)[1])
        buf = b""
        size = 0
        while not stop.is_set():
            chunk = await reader.read(1 << 16)
            if not chunk:
                break
            buf += chunk
            # an event ends with a blank line; the chunked framing's own lines never
            # contain one inside an event, so counting "event: update" lines is enough
            while b"\r\n\r\n" in buf or b"\n\n" in buf:
                cut = min(i for i in (buf.find(b"\r\n\r\n"), buf.find(b"\n\n")) if i >= 0)
                block, buf = buf[:cut], buf[cut + 2:]
                size += len(block)
                if b"event: update" in block:
                    me.arrivals.append(time.perf_counter())
                    me.sizes.append(size)
                    size = 0
                    if len(me.arrivals) == 1:
                        ready.set()
        writer.close()
    except (OSError, asyncio.IncompleteReadError, ValueError) as e:
        me.error = repr(e)
        ready.set()


async def run(port: int, tid: int, topic: str, n: int, revisions: dict[str, int],
              confirms: int, gap: float, base: str) -> None:
    path = PATHS[topic].format(tid=tid)
    listeners = [Listener() for _ in range(n)]
    readies = [asyncio.Event() for _ in range(n)]
    stop = asyncio.Event()
    t0 = time.perf_counter()
    tasks = []
    for i in range(n):  # connect in waves, as phones in a hall do, not in one burst
        tasks.append(asyncio.create_task(listen(port, path, listeners[i], readies[i], stop)))
        if i % 50 == 49:
            await asyncio.sleep(0.05)
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
    ok = [x for x in listeners if x.status == 200 and x.arrivals]
    print(f"{len(ok)} of {n} listeners on {path} got the first event "
          f"({time.perf_counter() - t0:.1f} s to connect them all; "
          f"first event {statistics.median(x.sizes[0] for x in ok) / 1024:.0f} KiB each)")
    head, h = await asyncio.to_thread(sign_in, base, "headjudge")
    rows = []
    for game in list(revisions)[:confirms]:
        await asyncio.sleep(gap)
        before = [len(x.arrivals) for x in listeners]
        sent = time.perf_counter()
        r = await asyncio.to_thread(head.post, f"/api/t/{tid}/games/{game}/confirm",
                                    json={"base_revision": revisions[game]}, headers=h)
        answered = time.perf_counter()
        r.raise_for_status()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(
                len(x.arrivals) <= b for x, b in zip(listeners, before, strict=True)
                if x in ok):
            await asyncio.sleep(0.01)
        delays = sorted(x.arrivals[b] - sent for x, b in zip(listeners, before, strict=True)
                        if len(x.arrivals) > b)
        missed = sum(1 for x, b in zip(listeners, before, strict=True) if len(x.arrivals) <= b)
        rows.append((game, answered - sent, delays, missed))
    stop.set()
    for t in tasks:
        t.cancel()
    head.close()
    print(f"\n{'confirmed':<14}{'answer ms':>10}{'got':>6}{'missed':>7}{'p50 ms':>9}"
          f"{'p99 ms':>9}{'last ms':>9}{'last after answer':>19}")
    everything: list[float] = []
    for game, answer, delays, missed in rows:
        everything += delays
        p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))] if delays else float("nan")
        print(f"{game:<14}{answer * 1000:>10.0f}{len(delays):>6}{missed:>7}"
              f"{statistics.median(delays) * 1000:>9.0f}{p99 * 1000:>9.0f}"
              f"{delays[-1] * 1000:>9.0f}{(delays[-1] - answer) * 1000:>19.0f}")
    everything.sort()
    if everything:
        print(f"{'all':<14}{'':>10}{len(everything):>6}{'':>7}"
              f"{statistics.median(everything) * 1000:>9.0f}"
              f"{everything[int(len(everything) * 0.99) - 1] * 1000:>9.0f}"
              f"{everything[-1] * 1000:>9.0f}")
        worst = max(d[-1] for _g, _a, d, _m in rows if d)
        print(f"\nthe last of {len(ok)} listeners had each confirmation within "
              f"{worst * 1000:.0f} ms of its request")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="PostgreSQL URL (dropped and made anew); default SQLite")
    ap.add_argument("--topic", choices=sorted(PATHS), default="standings")
    ap.add_argument("--listeners", type=int, default=500)
    ap.add_argument("--players", type=int, default=100)
    ap.add_argument("--confirms", type=int, default=5)
    ap.add_argument("--gap", type=float, default=2.0, help="seconds between confirmations")
    ap.add_argument("--plain", action="store_true",
                    help="serve on asyncio's loop and h11 (the baseline of uvloop, httptools)")
    ap.add_argument("--profile", help="write the server's event-loop profile (cProfile) here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        url, demo, protocols = build(args.db, Path(tmp), args.players)
        print(f"built {len(demo.open_games)} seated tables in {time.perf_counter() - t0:.1f} s "
              f"({'PostgreSQL' if args.db else 'SQLite'})")
        with serving(url, backlog=4096, stop_wait=10, profile=args.profile,
                     plain=args.plain) as server:
            games = demo.open_games[:args.confirms]
            revisions = submit_all(server.base, demo.tournament, protocols, games)
            asyncio.run(run(server.port, demo.tournament, args.topic, args.listeners, revisions,
                            args.confirms, args.gap, server.base))


if __name__ == "__main__":
    main()
