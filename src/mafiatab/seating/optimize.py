"""Table composition: who plays with whom in every round (seats come later, in seats.py).

Simulated annealing over swaps of two players between tables of one round, and, when some
players sit out, trades of a game for a bye mirrored in a second round (so every player
keeps exactly R games). The cost of a pair that met m times is f(m) = m² plus a steep
penalty above a cap c (the best max we hope for) plus a small one for m = 0, plus a huge one
for club-mates at a table: minimising it approximates the lexicographic order
(max meetings, pairs at max, Σm², pairs never meeting) while keeping the landscape smooth
enough for annealing. Two independent runs use the two cores; the better one is kept.

Everything is driven by iteration counts, never by the clock, so a seed always gives the same
seating; the time limit only cuts a run short (and then the result depends on the machine).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from mafiatab.seating._kernel import anneal
from mafiatab.seating.model import TABLE_SIZE, SeatingRequest, mean_meetings

HARD = 1_000_000
# Tuned on the instances of seating.md: weight 2 per pair one level above the cap (8× more a
# level higher) balances "few pairs at max" against Σm²; a start temperature of 5 lets early
# moves cross the many plateaus of m².
CAP_WEIGHT = 2
SPARSE_CAP_WEIGHT = 8  # when μ < 1.5 the max dominates the targets: push harder above the cap
CAP_BASE = 8
ZERO_WEIGHT = 1
TEMP_START = 5.0
TEMP_END = 0.05
Progress = Callable[[float, str], None]
IntArray = NDArray[np.int32]


@dataclass
class Composition:
    """tables[r][t]: the 10 players of table t in round r (unordered: seats come later)."""

    tables: list[list[list[int]]]
    interrupted: bool = False


def meeting_matrix(request: SeatingRequest, tables: list[list[list[int]]]) -> IntArray:
    """m(i, j) for the given tables."""
    n = request.players
    meet = np.zeros((n, n), dtype=np.int32)
    for rnd in tables:
        for table in rnd:
            idx = np.array(table)
            meet[np.ix_(idx, idx)] += 1
    np.fill_diagonal(meet, 0)
    return meet


def pair_key(meet: IntArray) -> tuple[int, int, int, int]:
    """The lexicographic quality: (max m, pairs at max, Σm², pairs never meeting)."""
    iu = np.triu_indices(meet.shape[0], 1)
    m = meet[iu]
    mx = int(m.max())
    return mx, int((m == mx).sum()), int((m.astype(np.int64) ** 2).sum()), int((m == 0).sum())


def cost_table(
    request: SeatingRequest, cap: int, weight: int, base: int, zero: int
) -> NDArray[np.int64]:
    """f(m) for m = 0..R+1: m², plus weight·base^(k-cap-1) for each level k above the cap
    (so one pair a level higher outweighs several a level lower), plus `zero` for m = 0."""
    f = np.zeros(request.games + 3, dtype=np.int64)
    for m in range(f.size):
        extra = sum(weight * base ** (k - cap - 1) for k in range(cap + 1, m + 1))
        f[m] = m * m + min(extra, 10**12)
    f[0] += zero
    return f


def _club_ids(request: SeatingRequest) -> IntArray:
    ids: dict[str, int] = {}
    club = np.full(request.players, -1, dtype=np.int32)
    for p, name in request.clubs.items():
        club[p] = ids.setdefault(name, len(ids))
    return club


def _hard_violations(request: SeatingRequest, tables: list[list[list[int]]]) -> int:
    bad = 0
    for rnd in tables:
        for t, table in enumerate(rnd):
            clubs = [request.clubs[p] for p in table if p in request.clubs]
            bad += len(clubs) - len(set(clubs))
            bad += sum(1 for p in table if request.pins.get(p, t) != t)
    return bad


def play_schedule(request: SeatingRequest, rng: np.random.Generator) -> NDArray[np.bool_]:
    """Which players play which round: exactly R each, 10·T each round, respecting availability.

    Greedy by urgency (fewest spare rounds first, ties at random) spreads byes evenly; when
    availability makes the greedy fail, CP-SAT decides (and proves impossibility).
    """
    n, g, need = request.players, request.rounds, TABLE_SIZE * request.tables
    avail = np.ones((g, n), dtype=bool)
    for p, rounds in request.availability.items():
        avail[:, p] = False
        avail[list(rounds), p] = True
    play = np.zeros((g, n), dtype=bool)
    left = np.full(n, request.games)
    ok = True
    for r in range(g):
        spare = avail[r:].sum(axis=0) - left
        order = np.lexsort((rng.random(n), spare))
        chosen = [p for p in order if avail[r, p] and left[p] > 0][:need]
        if len(chosen) < need:
            ok = False
            break
        play[r, chosen] = True
        left[chosen] -= 1
    if ok and (left == 0).all():
        return play
    return _play_schedule_cpsat(request, avail)


def _play_schedule_cpsat(request: SeatingRequest, avail: NDArray[np.bool_]) -> NDArray[np.bool_]:
    from ortools.sat.python import cp_model

    from mafiatab.seating.model import InfeasibleRequest

    n, g, need = request.players, request.rounds, TABLE_SIZE * request.tables
    model = cp_model.CpModel()
    x = {(r, p): model.new_bool_var(f"x{r}_{p}") for r in range(g) for p in range(n) if avail[r, p]}
    for p in range(n):
        model.add(sum(x[r, p] for r in range(g) if avail[r, p]) == request.games)
    for r in range(g):
        model.add(sum(x[r, p] for p in range(n) if avail[r, p]) == need)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = request.seed % (2**31)
    solver.parameters.max_time_in_seconds = 30.0
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise InfeasibleRequest(
            "По доступности игроков нельзя составить туры: каждому нужно сыграть "
            f"{request.games} игр, а в каждом туре должно играть {need}.",
            f"The players' availability admits no schedule where everyone plays "
            f"{request.games} games and {need} play each round.",
        )
    play = np.zeros((g, n), dtype=bool)
    for (r, p), var in x.items():
        play[r, p] = bool(solver.value(var))
    return play


def random_start(
    request: SeatingRequest, rng: np.random.Generator
) -> tuple[IntArray, IntArray]:
    """A random composition honouring pins: mem[G, T, 10] and byes[G, B]."""
    g, t_n = request.rounds, request.tables
    play = play_schedule(request, rng)
    mem = np.zeros((g, t_n, TABLE_SIZE), dtype=np.int32)
    byes = np.zeros((g, request.byes_per_round), dtype=np.int32)
    for r in range(g):
        players = [int(p) for p in np.flatnonzero(play[r])]
        rng.shuffle(players)
        pinned = [p for p in players if p in request.pins]
        free = [p for p in players if p not in request.pins]
        fill: list[list[int]] = [[] for _ in range(t_n)]
        for p in pinned:
            fill[request.pins[p]].append(p)
        over = [p for tb in fill for p in tb[TABLE_SIZE:]]
        if over:
            from mafiatab.seating.model import InfeasibleRequest

            raise InfeasibleRequest(
                f"В туре {r + 1} за одним столом закреплено больше {TABLE_SIZE} игроков.",
                f"More than {TABLE_SIZE} players are pinned to one table in round {r + 1}.",
            )
        for tb in fill:
            while len(tb) < TABLE_SIZE:
                tb.append(free.pop())
        mem[r] = np.array(fill, dtype=np.int32)
        byes[r] = np.array([int(p) for p in np.flatnonzero(~play[r])], dtype=np.int32)
    return mem, byes


@dataclass
class _Run:
    mem: IntArray
    byes: IntArray
    tab: IntArray
    slot: IntArray
    meet: IntArray
    state: NDArray[np.uint64]
    cost: NDArray[np.int64]
    best_mem: IntArray
    best_byes: IntArray


def _make_run(
    request: SeatingRequest, mem: IntArray, byes: IntArray, f: NDArray[np.int64], seed: int
) -> _Run:
    g, n = request.rounds, request.players
    tab = np.full((g, n), -1, dtype=np.int32)
    slot = np.zeros((g, n), dtype=np.int32)
    for r in range(g):
        for t in range(mem.shape[1]):
            for k in range(TABLE_SIZE):
                tab[r, mem[r, t, k]] = t
                slot[r, mem[r, t, k]] = k
        for k in range(byes.shape[1]):
            slot[r, byes[r, k]] = k
    tables = [[list(map(int, tb)) for tb in rnd] for rnd in mem]
    meet = meeting_matrix(request, tables)
    iu = np.triu_indices(n, 1)
    cost0 = int(f[meet[iu]].sum()) + HARD * _club_pairs(request, tables)
    state = np.array([(seed * 0x9E3779B97F4A7C15 + 1) % 2**64 or 1], dtype=np.uint64)
    return _Run(
        mem=mem.copy(),
        byes=byes.copy(),
        tab=tab,
        slot=slot,
        meet=meet,
        state=state,
        cost=np.array([cost0, cost0], dtype=np.int64),
        best_mem=mem.copy(),
        best_byes=byes.copy(),
    )


def _club_pairs(request: SeatingRequest, tables: list[list[list[int]]]) -> int:
    bad = 0
    for rnd in tables:
        for table in rnd:
            clubs = [request.clubs[p] for p in table if p in request.clubs]
            for c in set(clubs):
                k = clubs.count(c)
                bad += k * (k - 1) // 2
    return bad


def default_iterations(request: SeatingRequest) -> int:
    """Moves per run: enough for the targets of seating.md, well inside the time limits."""
    games = request.rounds * request.tables
    return int(min(60_000_000, max(5_000_000, 1_000_000 * games)))


def compose(
    request: SeatingRequest,
    *,
    iterations: int | None = None,
    time_limit: float = 55.0,
    progress: Progress | None = None,
    start: list[list[list[int]]] | None = None,
    runs: int = 2,
) -> Composition:
    """Search table compositions; `start` (from a construction) replaces the random start."""
    rng = np.random.default_rng(request.seed)
    total = iterations if iterations is not None else default_iterations(request)
    mu = mean_meetings(request.players, request.games)
    cap = max(1, math.ceil(mu - 1e-9))
    weight = CAP_WEIGHT if mu >= 1.5 else SPARSE_CAP_WEIGHT
    f = cost_table(request, cap, weight, CAP_BASE, ZERO_WEIGHT)
    up = np.zeros_like(f)
    down = np.zeros_like(f)
    up[:-1] = f[1:] - f[:-1]
    down[1:] = f[:-1] - f[1:]
    club = _club_ids(request)
    pin = np.full(request.players, -1, dtype=np.int32)
    for p, t in request.pins.items():
        pin[p] = t
    avail = np.ones((request.rounds, request.players), dtype=np.bool_)
    for p, rounds in request.availability.items():
        avail[:, p] = False
        avail[sorted(rounds), p] = True

    run_list: list[_Run] = []
    for i in range(runs):
        if start is not None and i == 0:
            mem = np.array(start, dtype=np.int32)
            byes = np.zeros((request.rounds, request.byes_per_round), dtype=np.int32)
            for r in range(request.rounds):
                byes[r] = np.setdiff1d(np.arange(request.players), mem[r].ravel())
        else:
            mem, byes = random_start(request, rng)
        run_list.append(_make_run(request, mem, byes, f, request.seed * 1000 + i))

    temp0, temp1 = TEMP_START, TEMP_END
    if start is not None:
        temp0 = 0.3
    chunks = max(20, min(400, total // 500_000))
    per = max(1, total // chunks)
    t_start = time.monotonic()
    interrupted = False

    def work(run: _Run, c: int) -> None:
        lo = temp0 * (temp1 / temp0) ** (c / chunks)
        hi = temp0 * (temp1 / temp0) ** ((c + 1) / chunks)
        anneal(
            run.mem, run.byes, run.tab, run.slot, run.meet, club, pin, avail, up, down,
            HARD, per, lo, hi, run.state, run.cost, run.best_mem, run.best_byes,
        )

    with ThreadPoolExecutor(max_workers=max(1, runs)) as pool:
        for c in range(chunks):
            futures = [pool.submit(work, run, c) for run in run_list]
            try:
                for fut in futures:
                    fut.result()
            except KeyboardInterrupt:
                for fut in futures:
                    fut.result()
                interrupted = True
            best = min(run_list, key=lambda x: int(x.cost[1]))
            if progress is not None:
                progress((c + 1) / chunks, _describe(request, best))
            if interrupted or time.monotonic() - t_start > time_limit:
                interrupted = interrupted or c + 1 < chunks
                break
            if _is_perfect(request, best):
                break

    best = min(run_list, key=lambda x: int(x.cost[1]))
    tables = [[sorted(int(p) for p in tb) for tb in rnd] for rnd in best.best_mem]
    return Composition(tables=tables, interrupted=interrupted)


def _best_meet(request: SeatingRequest, run: _Run) -> IntArray:
    tables = [[list(map(int, tb)) for tb in rnd] for rnd in run.best_mem]
    return meeting_matrix(request, tables)


def _is_perfect(request: SeatingRequest, run: _Run) -> bool:
    """No pair twice and no club clash: nothing left to improve."""
    meet = _best_meet(request, run)
    return int(meet.max()) <= 1 and int(run.cost[1]) < HARD


def _describe(request: SeatingRequest, run: _Run) -> str:
    mx, at, sq, never = pair_key(_best_meet(request, run))
    return f"max {mx}×{at}  Σm² {sq}  0×{never}"
