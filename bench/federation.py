"""Benchmark of a federation's database: many tournaments of one pool of people
in PostgreSQL, then the rating recomputed from scratch and a person's page served,
against the same on a tenth of the tournaments measured in the same run (the baseline).

Run on demand: `.venv/bin/python bench/federation.py [--tournaments 1000] [--baseline 100]
[--requests 40]`. PostgreSQL is the one at `MAFIATAB_TEST_PG_URL` (default: the local
`test` database); each size works in a schema of its own, dropped afterwards.

The data: every tournament has 50 people of a pool of 5 per tournament (so a person
plays about ten tournaments whatever the size, and a person's page has the same work at
every size), 20 rounds of 5 tables (100 games); FSM rules; tournaments dated a day apart.
Tournaments go in through the service's own import (`import_loaded`: one transaction
each, games and revisions in bulk inserts).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import time
from typing import Any

from fastapi.testclient import TestClient

from mafiatab.domain.protocol import Player, Stage, Tournament
from mafiatab.rules import get_profile
from mafiatab.sample import sample_game
from mafiatab.services.facade import Services
from mafiatab.services.tournament_file import LoadedTournament
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.web.app import create_app
from server import pg_schema

PLAYERS = 50
ROUNDS = 20
PER_POOL = 5


def pool(n: int) -> list[Player]:
    return [Player(id=f"x{i}", nickname=f"Игрок {i}", club=f"Клуб {i % 40 + 1}")
            for i in range(n)]


def tournament(i: int, people: list[Player], rng: random.Random) -> Tournament:
    p = get_profile("fsm")
    chosen = rng.sample(people, PLAYERS)
    players = [Player(id=f"p{k + 1:02d}", nickname=x.nickname, club=x.club)
               for k, x in enumerate(chosen)]
    ids = [x.id for x in players]
    date = (dt.date(2020, 1, 1) + dt.timedelta(days=i)).isoformat()
    games = []
    for rnd in range(1, ROUNDS + 1):
        order = ids[:]
        rng.shuffle(order)
        for t in range(PLAYERS // 10):
            g = sample_game(rng, p, f"q{rnd}-t{t + 1}", "qual", rnd, t + 1,
                            order[t * 10:(t + 1) * 10])
            g.date = date
            games.append(g)
    return Tournament(name=f"Турнир {i + 1}", rules="fsm", players=players,
                      stages=[Stage(id="qual", name="Отбор", kind="qualification")],
                      games=games)


def fill(url: str, n: int, seed: int) -> float:
    """`n` tournaments into the database; the seconds it took."""
    engine = make_engine(url)
    upgrade(engine)
    svc = Services(engine).tournaments
    rng = random.Random(seed)
    people = pool(PER_POOL * n)
    profile = get_profile("fsm")
    t0 = time.perf_counter()
    for i in range(n):
        svc.import_loaded(LoadedTournament(tournament(i, people, rng), profile, []))
        if (i + 1) % 100 == 0:
            print(f"  {i + 1} tournaments, {time.perf_counter() - t0:.0f} s", flush=True)
    engine.dispose()
    return time.perf_counter() - t0


def analyze(url: str) -> None:
    from sqlalchemy import text

    engine = make_engine(url)
    with engine.connect() as conn:
        conn.execute(text("ANALYZE tournaments, players, tournament_participants, stages, "
                          "rounds, tables, games, protocol_revisions, audit_log"))
        conn.commit()
    engine.dispose()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def measure(url: str, requests: int, seed: int) -> dict[str, Any]:
    engine = make_engine(url)
    people = Services(engine).people
    t0 = time.perf_counter()
    table = people.compute_rating()
    rating_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    games, _, _ = people.rated_games()
    load_s = time.perf_counter() - t0
    engine.dispose()
    print(f"  rating from scratch {rating_s:.2f} s (loading the games {load_s:.2f} s)",
          flush=True)

    app = create_app(url, secret="bench")
    client = TestClient(app)
    rng = random.Random(seed)
    ids = [r.person for r in table.rows]
    chosen = rng.sample(ids, min(requests, len(ids)))
    cold, warm = [], []
    for pid in chosen:
        t0 = time.perf_counter()
        r = client.get(f"/people/{pid}")
        cold.append(time.perf_counter() - t0)
        assert r.status_code == 200, r.status_code
    for pid in chosen:
        t0 = time.perf_counter()
        r = client.get(f"/people/{pid}")
        warm.append(time.perf_counter() - t0)
        assert r.status_code == 200
    print(f"  person page p50 {pct(cold, 0.5) * 1000:.1f} ms first, "
          f"{pct(warm, 0.5) * 1000:.1f} ms again", flush=True)
    t0 = time.perf_counter()
    assert client.get("/rating").status_code == 200  # computes and caches the rating
    rating_page_first = time.perf_counter() - t0
    t0 = time.perf_counter()
    assert client.get("/rating").status_code == 200
    rating_page_cached = time.perf_counter() - t0
    last = games[-1]
    t0 = time.perf_counter()
    assert client.get(f"/rating?t={last.tournament}&g={last.game}").status_code == 200
    what_if_game = time.perf_counter() - t0
    return {
        "games": table.games, "people": len(table.rows), "rating_s": rating_s,
        "load_s": load_s, "cold_p50": pct(cold, 0.5), "cold_p99": pct(cold, 0.99),
        "warm_p50": pct(warm, 0.5), "warm_p99": pct(warm, 0.99),
        "rating_page_first": rating_page_first, "rating_page_cached": rating_page_cached,
        "what_if_game": what_if_game,
        "games_per_person": statistics.mean(r.rating.games for r in table.rows),
    }


def run(n: int, requests: int, seed: int) -> dict[str, Any]:
    with pg_schema("mt_federation") as url:
        print(f"{n} tournaments ({n * PLAYERS * ROUNDS // 10} games):", flush=True)
        fill_s = fill(url, n, seed)
        analyze(url)  # what autovacuum does after a bulk load, before anybody asks
        print(f"  filled in {fill_s:.1f} s", flush=True)
        out = measure(url, requests, seed)
        out["fill_s"] = fill_s
        return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tournaments", type=int, default=1000)
    ap.add_argument("--baseline", type=int, default=100)
    ap.add_argument("--requests", type=int, default=40,
                    help="people whose pages are asked for, each twice")
    ap.add_argument("--seed", type=int, default=14)
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    base = run(args.baseline, args.requests, args.seed)
    big = run(args.tournaments, args.requests, args.seed)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    rows = [
        ("games rated", "games", "{:.0f}"),
        ("people", "people", "{:.0f}"),
        ("mean games per person", "games_per_person", "{:.1f}"),
        ("fill (import), s", "fill_s", "{:.1f}"),
        ("rating from scratch, s", "rating_s", "{:.2f}"),
        ("  of which loading the games, s", "load_s", "{:.2f}"),
        ("person page, first visit p50, ms", "cold_p50", "ms"),
        ("person page, first visit p99, ms", "cold_p99", "ms"),
        ("person page, again p50, ms", "warm_p50", "ms"),
        ("person page, again p99, ms", "warm_p99", "ms"),
        ("rating page, first (computes), s", "rating_page_first", "{:.2f}"),
        ("rating page, cached, ms", "rating_page_cached", "ms"),
        ("what-if of the last game, s", "what_if_game", "{:.2f}"),
    ]
    print(f"\n{'':40} {args.baseline:>12} {args.tournaments:>12} {'ratio':>8}")
    for label, key, fmt in rows:
        a, b = base[key], big[key]
        if fmt == "ms":
            sa, sb = f"{a * 1000:.1f}", f"{b * 1000:.1f}"
        else:
            sa, sb = fmt.format(a), fmt.format(b)
        ratio = f"{b / a:.2f}" if a else "—"
        print(f"{label:40} {sa:>12} {sb:>12} {ratio:>8}")


if __name__ == "__main__":
    main()
