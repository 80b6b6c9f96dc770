"""Benchmark of the seating generator on every instance of seating.md (five seeds each).

Run on demand: `.venv/bin/python bench/seating.py [--seeds 5] [--only 30/10] [--rules]`.
Prints every metric, the bounds, the target and the time, then the median per instance.
With `--rules` every instance also carries the rules an organizer sets (`ruled`): clubs of
up to three kept apart (hard), teams of four kept apart (soft), three pairs kept apart
(hard), two pairs avoided and two welcomed (soft), and two players with a judge's conflict
at one table each (hard): the targets must hold with them.

`--kernel python` runs the search's inner loop (seating/_kernel.py) by the interpreter
instead of numba's compiled code: what a Python without numba would do; `--iterations N`
fixes the first annealing's moves per run (default: the driver's own count). Both give the
very same seating for the same seed and iterations, so `--iterations` with numba shows what
the interpreter would reach with that many moves, in a fraction of its time.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from mafiatab.seating.generate import generate
from mafiatab.seating.model import (
    CLUB,
    TEAM,
    GroupRule,
    PairRule,
    SeatingRequest,
    build_request,
    mean_meetings,
    sum_sq_lower_bound,
)

INSTANCES = [
    (20, 10, None, "Σm² = 4500, seats perfect; stretch: max 6"),
    (30, 10, None, "max 5 on ≤ 10 pairs, seats perfect; stretch: max 4"),
    (36, 10, 3, "max ≤ 5, seats perfect"),
    (40, 10, None, "max 4, Σm² ≤ 4700; stretch: max 3"),
    (50, 10, None, "max 3, fewest never-meeting pairs"),
    (60, 12, None, "max 3"),
    (100, 12, None, "max 2; stretch: every pair 1–2"),
    (110, 11, None, "no pair twice"),
    (200, 15, None, "max 2; stretch: no pair twice"),
]


def ruled(n: int, r: int, t: int | None, seed: int) -> SeatingRequest:
    """The instance with an organizer's rules (see the module): deterministic. Hard rules
    never chain (a kept apart from b, b from c would put a with c in every round at two
    tables): clubs, hard pairs and the judges' conflicts hold different players; soft rules
    may share them."""
    tables = build_request(n, r, t).tables
    size = min(3, tables)
    clubs = {p: f"club{p // size}" for p in range(0, 6 * size)}
    h = n // 2
    teams = {p: f"team{p // 4}" for p in range(h, min(n, h + 16))}
    pairs = (PairRule(n - 1, n - 2, True), PairRule(n - 3, n - 4, True),
             PairRule(n - 5, n - 6, True), PairRule(n - 7, 1, False, 5),
             PairRule(n - 8, 2, False, 5), PairRule(3, h - 1, False, -3),
             PairRule(4, h - 2, False, -3))
    forbidden = {n - 7: frozenset({0}), n - 8: frozenset({tables - 1})}
    return build_request(n, r, t, seed=seed,
                         groups=(GroupRule(CLUB, clubs, True), GroupRule(TEAM, teams, False, 5)),
                         pairs=pairs, forbidden=forbidden)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--only", default="", help="N/R[,N/R...]: only these instances")
    ap.add_argument("--rules", action="store_true", help="with an organizer's rules")
    ap.add_argument("--kernel", choices=("numba", "python"), default="numba")
    ap.add_argument("--iterations", type=int, default=None)
    args = ap.parse_args()
    if args.kernel == "python":
        from mafiatab.seating import optimize

        # numba keeps the function it compiled: the same moves, run by the interpreter
        optimize.anneal = optimize.anneal.py_func  # type: ignore[attr-defined]
    header = (
        f"{'N/R':>7} {'seed':>4} {'max':>3} {'#max':>5} {'min':>3} {'#0':>5} {'Σm²':>6} "
        f"{'S1':>3} {'S2':>3} {'T1':>4} {'hard':>4} {'avd':>4} {'wlc':>4} {'time':>6}  method"
    )
    summary = []
    for n, r, t, target in INSTANCES:
        if args.only and f"{n}/{r}" not in args.only.split(","):
            continue
        req0 = build_request(n, r, t)
        mu = mean_meetings(n, r)
        bound = sum_sq_lower_bound(n, r, req0.tables, req0.rounds)
        print(
            f"\n== {n}/{r}: {req0.tables} tables, {req0.rounds} rounds; μ = {mu:.3f}; "
            f"bounds: max ≥ {math.ceil(mu)}, min ≤ {math.floor(mu)}, Σm² ≥ {bound}"
        )
        print(f"   target: {target}")
        print(header)
        rows = []
        for seed in range(args.seeds):
            req = ruled(n, r, t, seed) if args.rules else build_request(n, r, t, seed=seed)
            start = time.monotonic()
            res = generate(req, time_limit=55.0 if n <= 100 else 280.0,
                           iterations=args.iterations)
            took = time.monotonic() - start
            m = res.metrics
            rows.append((m, took))
            print(
                f"{n:>3}/{r:<3} {seed:>4} {m.max_meetings:>3} {m.pairs_at_max:>5} "
                f"{m.min_meetings:>3} {m.pairs_never:>5} {m.sum_sq:>6} {m.seat_cells_off:>3} "
                f"{m.seat_group_cells_off:>3} {m.table_cells_off:>4} {m.hard_violations:>4} "
                f"{m.soft_avoided_met:>4} {m.soft_welcome_met:>4} "
                f"{took:>6.1f}  {res.method}{' (interrupted)' if res.interrupted else ''}",
                flush=True,
            )
        med = {
            "max": statistics.median(m.max_meetings for m, _ in rows),
            "#max": statistics.median(m.pairs_at_max for m, _ in rows),
            "#0": statistics.median(m.pairs_never for m, _ in rows),
            "Σm²": statistics.median(m.sum_sq for m, _ in rows),
            "S1": max(m.seat_cells_off for m, _ in rows),
            "S2": max(m.seat_group_cells_off for m, _ in rows),
            "T1": statistics.median(m.table_cells_off for m, _ in rows),
            "hard": max(m.hard_violations for m, _ in rows),
            "min": statistics.median(m.min_meetings for m, _ in rows),
            "time": statistics.median(tk for _, tk in rows),
            "tmax": max(tk for _, tk in rows),
        }
        print(f"   median: {med}")
        summary.append((f"{n}/{r}", med, target))
    print(
        "\n| N/R | max | pairs at max | min | never | Σm² | S1/S2 (worst) | T1 | hard (worst) "
        "| time median / max | target |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, med, target in summary:
        print(
            f"| {name} | {med['max']} | {med['#max']} | {med['min']} | {med['#0']} | {med['Σm²']} | "
            f"{med['S1']}/{med['S2']} | {med['T1']} | {med['hard']} | "
            f"{med['time']:.1f} s / {med['tmax']:.1f} s | {target} |"
        )


if __name__ == "__main__":
    main()
