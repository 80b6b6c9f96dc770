"""Benchmark of the storage: a 10,000-game import, and standings read from each
database against the same standings from the JSON file, in one process.

Run on demand: `.venv/bin/python bench/storage.py [--repeat 15] [--no-pg]`. PostgreSQL is
the one at `MAFIATAB_TEST_PG_URL` (default: the local `test` database); the benchmark works
in a schema of its own and drops it afterwards. Goal: standings from a database within 2x
of those from the file.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mafiatab.formats.standings_json import standings_to_dict
from mafiatab.formats.tournament_json import dumps_tournament
from mafiatab.sample import sample_tournament
from mafiatab.services.facade import Services
from mafiatab.services.tournament_file import standings_from_bytes
from mafiatab.storage.engine import make_engine, upgrade
from server import pg_schema


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Median seconds of `repeat` calls, and the last result."""
    times = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


@contextmanager
def sqlite_db(folder: Path) -> Iterator[str]:
    yield str(folder / "bench.sqlite")


def bench_one(name: str, url: str, archive: bytes, small: Path, repeat: int) -> dict[str, float]:
    engine = make_engine(url)
    upgrade(engine)
    service = Services(engine)
    t0 = time.perf_counter()
    service.tournaments.import_file(archive)
    import_s = time.perf_counter() - t0
    tid = service.tournaments.import_file(small.read_bytes())
    service.standings.compute(tid)  # warm the connection pool and the statement cache

    file_s, from_file = timed(lambda: standings_from_bytes(small.read_bytes()), repeat)
    db_s, from_db = timed(lambda: service.standings.compute(tid), repeat)
    assert standings_to_dict(from_db) == standings_to_dict(from_file), "standings differ"
    engine.dispose()
    print(f"{name:<11} import 10,000 games: {import_s:6.2f} s   "
          f"standings of 300 games: file {file_s * 1000:6.1f} ms, "
          f"database {db_s * 1000:6.1f} ms, ratio {db_s / file_s:4.2f}x")
    return {"import": import_s, "file": file_s, "db": db_s}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--no-pg", action="store_true")
    args = ap.parse_args()

    archive = dumps_tournament(sample_tournament("fsm", 200, 500, args.seed)).encode("utf-8")
    small_t = sample_tournament("fsm", 200, 15, args.seed)
    assert len(small_t.games) == 300
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        small = folder / "t300.json"
        small.write_text(dumps_tournament(small_t), encoding="utf-8")
        print(f"archive: {len(archive) / 1e6:.1f} MB, 10,000 games; "
              f"standings: 300 games, median of {args.repeat} runs")
        with sqlite_db(folder) as url:
            bench_one("SQLite", url, archive, small, args.repeat)
        if not args.no_pg:
            with pg_schema("mt_bench") as url:
                bench_one("PostgreSQL", url, archive, small, args.repeat)


if __name__ == "__main__":
    main()
