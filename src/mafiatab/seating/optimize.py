"""Table composition: who plays with whom in every round (seats come later, in seats.py).

Simulated annealing over swaps of two players between tables of one round, and, when some
players sit out, trades of a game for a bye mirrored in a second round (so every player
keeps exactly R games).

What "better" means depends on the instance (`objective_for`): pairs meeting far more often
than the mean μ = 9R/(N−1) are outliers and count first, level by level from the top; then,
where μ < 2, the pairs that never meet; then Σm² (the variance). The search runs in phases:

1. annealing on a smooth cost f(m) = m² plus a steep penalty above the cap (the highest level
   that is not an outlier) and a small one for m = 0: the landscape stays smooth enough to
   cross the plateaus of m²;
2. a descent on the exact lexicographic cost (weights so large that no move can trade a
   higher key for a lower one), accepting sideways moves so it wanders along plateaus;
3. restarts from the best seating found: a short reheat at a lower temperature, then the
   descent again.

Two independent runs use the two cores; the better one (by the lexicographic key) is kept.
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
# Annealing cost, tuned on the instances of seating.md: weight 8 per pair one level above the
# cap (8× more a level higher) keeps outliers rare without freezing the search; a start
# temperature of 5 lets early moves cross the many plateaus of m².
CAP_WEIGHT = 8
CAP_BASE = 8
ZERO_WEIGHT = 1
ZERO_FIRST_WEIGHT = 4  # where never-meeting pairs rank before Σm², push them harder
TEMP_START = 5.0
TEMP_END = 0.05
# Restarts reheat the best seating to this temperature: enough to leave its basin, too little
# to forget it.
REHEAT_START = 1.0
DESCENT_TEMP = 1e-9  # exp(-1/1e-9) == 0: only moves that do not worsen the key are taken
# A level counts as an outlier when it lies at least this far above μ: at 30/10 (μ = 3.10)
# pairs at 5 are outliers (the target counts them), at 40/10 (μ = 2.31) pairs at 4 are the bulk
# that the bound on Σm² forces, and Σm² decides.
OUTLIER_GAP = 1.75
SPARSE_MU = 1.5  # below it the max is the whole target: the cap is ⌈μ⌉
ZERO_FIRST_MU = 2.0  # below it a pair that never meets is the unfairness organizers notice
MOVE_PAIRS = 36  # pairs whose count changes in one move (two players × 18 partners)
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
    """The quality reported to people: (max m, pairs at max, Σm², pairs never meeting)."""
    iu = np.triu_indices(meet.shape[0], 1)
    m = meet[iu]
    mx = int(m.max())
    return mx, int((m == mx).sum()), int((m.astype(np.int64) ** 2).sum()), int((m == 0).sum())


@dataclass(frozen=True)
class Objective:
    """The lexicographic order of one instance: pairs above `cap`, level by level from the top;
    then pairs never meeting if `zero_first`; then Σm²; then pairs never meeting."""

    cap: int
    zero_first: bool
    top: int  # the most games a pair can share (R): every key has the same length


def objective_for(request: SeatingRequest) -> Objective:
    """Per instance, from μ: one fixed weight cannot serve both 30/10 (few pairs at 5 matter)
    and 40/10 (pairs at 4 are unavoidable in bulk, Σm² matters); the distance to μ tells them
    apart."""
    mu = mean_meetings(request.players, request.games)
    if mu < SPARSE_MU:
        return Objective(cap=max(1, math.ceil(mu - 1e-9)), zero_first=True, top=request.games)
    return Objective(
        cap=math.floor(mu + OUTLIER_GAP), zero_first=mu < ZERO_FIRST_MU, top=request.games
    )


def lex_key(meet: IntArray, objective: Objective) -> tuple[int, ...]:
    """The order the descent minimises, as a tuple (smaller is better)."""
    iu = np.triu_indices(meet.shape[0], 1)
    m = meet[iu]
    hist = np.bincount(m, minlength=objective.top + 1)
    above = tuple(int(hist[k]) for k in range(objective.top, objective.cap, -1))
    zeros = int(hist[0])
    sq = int((m.astype(np.int64) ** 2).sum())
    return (*above, zeros if objective.zero_first else 0, sq, zeros)


def lex_table(request: SeatingRequest, objective: Objective,
              soft: int = 0) -> tuple[NDArray[np.int64], int]:
    """f(m) and the hard rules' weight such that the sign of any one move's cost change is
    the sign of its change of `lex_key` (one move changes at most MOVE_PAIRS pairs by one):
    each term's weight exceeds the largest change all lower terms can make together. Levels
    more than about four above the cap share one weight (the annealing never leaves pairs
    there). Soft rules (`soft`: the largest cost of one shared game) count with Σm²."""
    size = request.games + 3
    d = MOVE_PAIRS
    sq_span = d * (2 * size + 1) + d * soft
    w_zero = sq_span + 1 if objective.zero_first else 0
    lower = sq_span + d * w_zero
    top = 2**36
    f = np.zeros(size, dtype=np.int64)
    w = lower + 1
    for m in range(size):
        f[m] = m * m
        if m > objective.cap:
            f[m] += w
            w = min(top, (d + 1) * w + lower)
    f[0] += w_zero
    hard = d * top * 2 + 1
    return f, hard


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


#: the cost of one shared game per point of a soft rule's weight, in units of m² (a pair
#: going from m to m + 1 games costs 2m + 1): weight 1 is a nudge, weight 10 a strong push
SOFT_UNIT = 2


@dataclass(frozen=True)
class Rules:
    """The request's rules as the search's arrays: `hard[a, b]` 1 when a and b must never
    share a table, `soft[a, b]` the cost of one game they share (negative: wanted),
    `banned[p, t]` 1 when p must never sit at table t."""

    hard: NDArray[np.int64]
    soft: NDArray[np.int64]
    banned: NDArray[np.int64]

    def pair_costs(self, weight: int) -> NDArray[np.int64]:
        return np.asarray(self.hard * weight + self.soft, dtype=np.int64)

    def table_costs(self, weight: int) -> NDArray[np.int64]:
        return np.asarray(self.banned * weight, dtype=np.int64)

    @property
    def soft_span(self) -> int:
        return int(np.abs(self.soft).max()) if self.soft.size else 0


def rules_of(request: SeatingRequest) -> Rules:
    n, t = request.players, request.tables
    hard = np.zeros((n, n), dtype=np.int64)
    soft = np.zeros((n, n), dtype=np.int64)
    for (a, b), (kind, w) in request.pair_rules().items():
        if kind is not None:
            hard[a, b] = hard[b, a] = 1
        elif w:
            soft[a, b] = soft[b, a] = w * SOFT_UNIT
    banned = np.zeros((n, t), dtype=np.int64)
    for p, tables in request.forbidden.items():
        for x in tables:
            if 0 <= x < t:
                banned[p, x] = 1
    return Rules(hard, soft, banned)


def _breaches(rules: Rules, tables: list[list[list[int]]]) -> tuple[int, int]:
    """(hard breaches: pairs kept apart sharing a game, players at banned tables; the soft
    rules' cost)."""
    bad = 0
    soft = 0
    for rnd in tables:
        for t, table in enumerate(rnd):
            idx = np.array(table)
            bad += int(rules.hard[np.ix_(idx, idx)].sum()) // 2
            soft += int(rules.soft[np.ix_(idx, idx)].sum()) // 2
            bad += int(rules.banned[idx, t].sum())
    return bad, soft


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

    from mafiatab.seating.model import InfeasibleRequest, counted

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
        raise InfeasibleRequest("seating_no_schedule", games=counted(request.games, "game"),
                                need=need)
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

            raise InfeasibleRequest("seating_round_pinned_over", round=r + 1, size=TABLE_SIZE)
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
    request: SeatingRequest,
    mem: IntArray,
    byes: IntArray,
    f: NDArray[np.int64],
    hard: int,
    state: NDArray[np.uint64],
    rules: Rules,
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
    tables = _as_lists(mem)
    meet = meeting_matrix(request, tables)
    iu = np.triu_indices(n, 1)
    bad, soft = _breaches(rules, tables)
    cost0 = int(f[meet[iu]].sum()) + hard * bad + soft
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


def _seed_state(seed: int) -> NDArray[np.uint64]:
    return np.array([(seed * 0x9E3779B97F4A7C15 + 1) % 2**64 or 1], dtype=np.uint64)


def _as_lists(mem: IntArray) -> list[list[list[int]]]:
    return [[list(map(int, tb)) for tb in rnd] for rnd in mem]


def default_iterations(request: SeatingRequest) -> int:
    """Moves of the first annealing per run: enough for the targets of seating.md; the
    descents and restarts add RESTART_SHARE times as many (see `plan`)."""
    games = request.rounds * request.tables
    return int(min(60_000_000, max(5_000_000, 1_000_000 * games)))


RESTARTS = 1
REHEAT_SHARE = 0.5  # moves of a reheat, as a share of the first annealing
DESCENT_SHARE = 0.1  # moves of a descent, as a share of the first annealing
RESTART_SHARE = DESCENT_SHARE + RESTARTS * (REHEAT_SHARE + DESCENT_SHARE)


@dataclass(frozen=True)
class Phase:
    """One stage of the search: a cost table, its club weight, a temperature range, a number of
    moves per run, and whether every run first restarts from the best seating of all runs."""

    f: NDArray[np.int64]
    hard: int
    temp0: float
    temp1: float
    iters: int
    restart: bool


def plan(
    request: SeatingRequest, objective: Objective, total: int, temp0: float = TEMP_START,
    soft: int = 0,
) -> list[Phase]:
    """Anneal, descend exactly, then RESTARTS × (reheat the best, descend): see the module."""
    # Sparse instances (μ < SPARSE_MU) keep the small weight: there, with m ≤ 2, fewer
    # never-meeting pairs means more pairs at 2, and a push on zeros brings back pairs at 3.
    sparse = mean_meetings(request.players, request.games) < SPARSE_MU
    zero = ZERO_FIRST_WEIGHT if objective.zero_first and not sparse else ZERO_WEIGHT
    smooth = cost_table(request, objective.cap, CAP_WEIGHT, CAP_BASE, zero)
    lex, lex_hard = lex_table(request, objective, soft)
    descent = max(1, int(total * DESCENT_SHARE))
    phases = [
        Phase(smooth, HARD, temp0, TEMP_END, total, False),
        Phase(lex, lex_hard, DESCENT_TEMP, DESCENT_TEMP, descent, True),
    ]
    for _ in range(RESTARTS):
        phases.append(
            Phase(smooth, HARD, min(temp0, REHEAT_START), TEMP_END, int(total * REHEAT_SHARE), True)
        )
        phases.append(Phase(lex, lex_hard, DESCENT_TEMP, DESCENT_TEMP, descent, True))
    return phases


def _key(request: SeatingRequest, objective: Objective, mem: IntArray,
         rules: Rules) -> tuple[int, ...]:
    """Hard breaches first, then the lexicographic key with the soft rules' cost added to
    its Σm² term (the two are in the same units)."""
    tables = _as_lists(mem)
    bad, soft = _breaches(rules, tables)
    key = list(lex_key(meeting_matrix(request, tables), objective))
    key[-2] += soft
    return (bad, *key)


def compose(
    request: SeatingRequest,
    *,
    iterations: int | None = None,
    time_limit: float = 55.0,
    progress: Progress | None = None,
    start: list[list[list[int]]] | None = None,
    runs: int = 2,
) -> Composition:
    """Search table compositions; `start` (from a construction) replaces the random start.

    `iterations` is the first annealing's length per run; the whole search makes
    (1 + RESTART_SHARE) times as many moves per run."""
    rng = np.random.default_rng(request.seed)
    total = iterations if iterations is not None else default_iterations(request)
    objective = objective_for(request)
    # A construction is already good: anneal it gently instead of melting it.
    rules = rules_of(request)
    phases = plan(request, objective, total, TEMP_START if start is None else 0.3,
                  rules.soft_span)
    pin = np.full(request.players, -1, dtype=np.int32)
    for p, t in request.pins.items():
        pin[p] = t
    avail = np.ones((request.rounds, request.players), dtype=np.bool_)
    for p, rounds in request.availability.items():
        avail[:, p] = False
        avail[sorted(rounds), p] = True

    first = phases[0]
    run_list: list[_Run] = []
    for i in range(runs):
        if start is not None and i == 0:
            mem = np.array(start, dtype=np.int32)
            byes = np.zeros((request.rounds, request.byes_per_round), dtype=np.int32)
            for r in range(request.rounds):
                byes[r] = np.setdiff1d(np.arange(request.players), mem[r].ravel())
        else:
            mem, byes = random_start(request, rng)
        run_list.append(
            _make_run(request, mem, byes, first.f, first.hard,
                      _seed_state(request.seed * 1000 + i), rules)
        )

    grand = sum(ph.iters for ph in phases)
    done = 0
    t_start = time.monotonic()
    interrupted = False
    stop = False

    # The best seating by the lexicographic key over all runs and phases: a reheat minimises
    # the smooth cost, which may prefer a seating the key ranks lower, so it is kept apart.
    champion = (_key(request, objective, run_list[0].best_mem, rules),
                run_list[0].best_mem.copy(),
                run_list[0].best_byes.copy())
    # `champion` is updated at the end of every phase (and at a stop).

    def update_champion() -> None:
        nonlocal champion
        for run in run_list:  # ties go to the lower index: no dependence on thread timing
            key = _key(request, objective, run.best_mem, rules)
            if key < champion[0]:
                champion = (key, run.best_mem.copy(), run.best_byes.copy())

    for phase in phases:
        if phase.restart:
            run_list = [
                _make_run(request, champion[1], champion[2], phase.f, phase.hard, run.state,
                          rules)
                for run in run_list
            ]
        up = np.zeros_like(phase.f)
        down = np.zeros_like(phase.f)
        up[:-1] = phase.f[1:] - phase.f[:-1]
        down[1:] = phase.f[:-1] - phase.f[1:]
        pm, fb = rules.pair_costs(phase.hard), rules.table_costs(phase.hard)
        chunks = max(1, min(400, phase.iters // 500_000))
        per = max(1, phase.iters // chunks)

        def work(run: _Run, c: int, ph: Phase = phase, up: NDArray[np.int64] = up,
                 down: NDArray[np.int64] = down, chunks: int = chunks, per: int = per,
                 pm: NDArray[np.int64] = pm, fb: NDArray[np.int64] = fb) -> None:
            ratio = ph.temp1 / ph.temp0
            lo = ph.temp0 * ratio ** (c / chunks)
            hi = ph.temp0 * ratio ** ((c + 1) / chunks)
            anneal(
                run.mem, run.byes, run.tab, run.slot, run.meet, pm, fb, pin, avail, up, down,
                per, lo, hi, run.state, run.cost, run.best_mem, run.best_byes,
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
                done += per
                # Mid-phase the champion is left alone: a hot annealing passes by seatings the
                # key likes (no outlier yet) that are poor starts for what follows.
                leader = min(run_list,
                             key=lambda run: _key(request, objective, run.best_mem, rules))
                if progress is not None:
                    progress(min(1.0, done / grand), _describe(request, leader.best_mem))
                if interrupted or time.monotonic() - t_start > time_limit:
                    interrupted = interrupted or done < grand
                    stop = True
                    break
                if _is_perfect(request, leader.best_mem, rules):
                    stop = True
                    break
        update_champion()
        if stop:
            break

    tables = [[sorted(int(p) for p in tb) for tb in rnd] for rnd in champion[1]]
    return Composition(tables=tables, interrupted=interrupted)


def _is_perfect(request: SeatingRequest, mem: IntArray, rules: Rules) -> bool:
    """No pair twice, no hard rule broken, no soft rule to weigh: nothing left to improve."""
    meet = meeting_matrix(request, _as_lists(mem))
    bad, _soft = _breaches(rules, _as_lists(mem))
    return int(meet.max()) <= 1 and bad == 0 and not rules.soft.any()


def _describe(request: SeatingRequest, mem: IntArray) -> str:
    mx, at, sq, never = pair_key(meeting_matrix(request, _as_lists(mem)))
    return f"max {mx}×{at}  Σm² {sq}  0×{never}"
