"""Standings from a file's bytes, against `json.loads` of the same bytes, in one process.

    python bench/standings.py [--repeat N]

Two files: a 200-player tournament of 15 rounds (300 games) and a 10,000-game archive.
For each, the best of N runs of
  - json.loads(bytes)                      (the baseline, with the garbage collector on),
  - json.loads(bytes) with the collector paused (a stricter baseline),
  - mafiatab: bytes -> checked tournament -> standings (`standings_from_bytes`, the path
    of `mafiatab standings`),
and the ratios. Goal: at most 2x a collector-paused json.loads on 300 and 10,000 games,
in both federations.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import sys
import time
from collections.abc import Callable

from mafiatab.formats.tournament_json import dumps_tournament
from mafiatab.sample import sample_tournament
from mafiatab.services.gc_pause import gc_paused
from mafiatab.services.tournament_file import standings_from_bytes


def best_of(n: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(n):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def loads_paused(data: bytes) -> object:
    with gc_paused():
        return json.loads(data)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, best of {args.repeat}")
    cases = [
        ("200 players x 15 rounds", sample_tournament("fsm", 200, 15, seed=11)),
        ("200 x 15 rounds (fiim2018)", sample_tournament("fiim2018", 200, 15, seed=14)),
        ("10,000 games (fsm)", sample_tournament("fsm", 200, 500, seed=12)),
        ("10,000 games (fiim2018)", sample_tournament("fiim2018", 200, 500, seed=13)),
    ]
    print(f"{'file':26} {'games':>6} {'MB':>6} {'loads':>9} {'loads*':>9} {'mafiatab':>9} "
          f"{'ratio':>6} {'ratio*':>7}")
    for label, t in cases:
        data = dumps_tournament(t).encode()
        base = best_of(args.repeat, lambda d=data: json.loads(d))
        base_paused = best_of(args.repeat, lambda d=data: loads_paused(d))
        ours = best_of(args.repeat, lambda d=data: standings_from_bytes(d))
        print(f"{label:26} {len(t.games):6d} {len(data) / 1e6:6.1f} {base * 1e3:7.1f}ms "
              f"{base_paused * 1e3:7.1f}ms {ours * 1e3:7.1f}ms {ours / base:6.2f} "
              f"{ours / base_paused:7.2f}")
    print("loads* and ratio*: json.loads with the garbage collector paused, as mafiatab runs")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
