"""Exact balancing once the tables of every round are fixed.

Seats: every player sits in every seat ⌊R/10⌋ or ⌈R/10⌉ times, in every seat pair (1–2, 3–4, …)
⌊R/5⌋ or ⌈R/5⌉ times and in every half (1–5, 6–10) ⌊R/2⌋ or ⌈R/2⌉ times. The player–game graph
is bipartite, so such an equitable colouring exists; CP-SAT finds it as a feasibility problem
(a permutation per game plus per-player cardinalities), so S1 = S2 = 0.

Table numbers: tables of a round may be renumbered freely (meetings do not change), so the
player–table counts T1 are balanced first by an exact CP-SAT model (a permutation of table
numbers per round, every unpinned player's count of every number within [⌊R/T⌋, ⌈R/T⌉]; pinned
players keep their table). Unlike the seats, T1 = 0 is often impossible once the tables are
chosen for fair meetings: with 2 tables and 2 rounds a player of table A who meets players of
both tables of round 2 already breaks it, and CP-SAT proves the model infeasible within a second
for the searched instances of seating.md (30/10 … 60/12). Then a greedy descent minimises T1.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from ortools.sat.python import cp_model

from mafiatab.seating.model import TABLE_SIZE, SeatingRequest

WORKERS = 8
SEAT_PAIRS = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9)]
HALVES = [(0, 1, 2, 3, 4), (5, 6, 7, 8, 9)]


def _bounds(total: int, parts: int) -> tuple[int, int]:
    return total // parts, -(-total // parts)


def _solver(seed: int, limit: float) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    # Interleaved search: several subsolvers, yet deterministic for a seed.
    solver.parameters.num_workers = WORKERS
    solver.parameters.random_seed = seed % (2**31)
    solver.parameters.max_time_in_seconds = limit
    solver.parameters.interleave_search = True
    return solver


def relabel_tables(
    request: SeatingRequest, tables: list[list[list[int]]], effort: float = 2.0
) -> list[list[list[int]]]:
    """Renumber the tables of each round so that every unpinned player sits at every table
    number ⌊R/T⌋ or ⌈R/T⌉ times (T1 = 0) where that is possible, keeping pinned tables.

    CP-SAT is bounded by deterministic time (`effort`, about half as many seconds here), so a
    seed always gives the same numbering; when it proves T1 = 0 impossible or finds nothing
    in time, the greedy descent does its best.
    """
    if request.tables == 1:
        return tables
    exact = _relabel_exact(request, tables, effort)
    if exact is not None:
        return exact
    return _relabel_greedy(request, tables)


def _relabel_exact(
    request: SeatingRequest, tables: list[list[list[int]]], effort: float
) -> list[list[list[int]]] | None:
    """y[r, t, l]: table t of round r gets number l; every unpinned player's count of every
    number within [⌊R/T⌋, ⌈R/T⌉]. None if infeasible or not solved within `effort`."""
    t_n, g = request.tables, len(tables)
    lo, hi = _bounds(request.games, t_n)
    model = cp_model.CpModel()
    y = {
        (r, t, lab): model.new_bool_var("")
        for r in range(g)
        for t in range(t_n)
        for lab in range(t_n)
    }
    at: dict[int, list[tuple[int, int]]] = {}
    for r, rnd in enumerate(tables):
        for t, table in enumerate(rnd):
            model.add_exactly_one(y[r, t, lab] for lab in range(t_n))
            pinned = {request.pins[p] for p in table if p in request.pins}
            for lab in pinned:
                model.add(y[r, t, lab] == 1)  # two different pins at one table: infeasible
            for lab in {x for p in table for x in request.forbidden.get(p, ())}:
                if 0 <= lab < t_n:
                    model.add(y[r, t, lab] == 0)  # a judge's conflict: never that number
            for p in table:
                at.setdefault(p, []).append((r, t))
        for lab in range(t_n):
            model.add_exactly_one(y[r, t, lab] for t in range(t_n))
    for p, games in at.items():
        if p in request.pins:
            continue
        for lab in range(t_n):
            model.add_linear_constraint(sum(y[r, t, lab] for r, t in games), lo, hi)
    solver = _solver(request.seed, 10 * effort)
    solver.parameters.max_deterministic_time = effort
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    out: list[list[list[int]]] = []
    for r, rnd in enumerate(tables):
        new: list[list[int]] = [[] for _ in range(t_n)]
        for t, table in enumerate(rnd):
            lab = next(lab for lab in range(t_n) if solver.value(y[r, t, lab]))
            new[lab] = list(table)
        out.append(new)
    return out


def _relabel_greedy(
    request: SeatingRequest, tables: list[list[list[int]]], sweeps: int = 200
) -> list[list[list[int]]]:
    """A deterministic descent over swaps of two table numbers within a round, with random
    kicks; T1 is reported, not promised (pins can make T1 = 0 impossible)."""
    t_n, n = request.tables, request.players
    rng = np.random.default_rng(request.seed)
    lo, hi = _bounds(request.games, t_n)
    g = len(tables)
    label = np.tile(np.arange(t_n), (g, 1))  # label[r, t]: new number of table t
    members = np.array(tables, dtype=np.int64)  # [G, T, 10]
    fixed = np.zeros((g, t_n), dtype=bool)
    for r in range(g):
        for t in range(t_n):
            fixed[r, t] = any(int(p) in request.pins for p in members[r, t])
    free_player = np.array([p not in request.pins for p in range(n)])
    banned = np.zeros((n, t_n), dtype=bool)  # a judge's conflict: never that number
    for p, xs in request.forbidden.items():
        banned[p, [x for x in xs if 0 <= x < t_n]] = True
    count = np.zeros((n, t_n), dtype=np.int64)
    for r in range(g):
        for t in range(t_n):
            count[members[r, t], label[r, t]] += 1

    def off(c: NDArray[np.int64], who: NDArray[np.int64]) -> int:
        sub = c[who]
        bad = np.maximum(sub - hi, 0) + np.maximum(lo - sub, 0)
        return int((bad * free_player[who][:, None]).sum())

    for sweep in range(sweeps):
        improved = False
        for r in rng.permutation(g):
            for t1 in range(t_n):
                for t2 in range(t1 + 1, t_n):
                    if fixed[r, t1] or fixed[r, t2]:
                        continue
                    if (banned[members[r, t1], label[r, t2]].any()
                            or banned[members[r, t2], label[r, t1]].any()):
                        continue
                    who = np.concatenate((members[r, t1], members[r, t2]))
                    before = off(count, who)
                    l1, l2 = label[r, t1], label[r, t2]
                    a, b = members[r, t1], members[r, t2]
                    count[a, l1] -= 1
                    count[a, l2] += 1
                    count[b, l2] -= 1
                    count[b, l1] += 1
                    after = off(count, who)
                    kick = sweep % 10 == 9 and rng.random() < 0.05
                    if after < before or (after == before and rng.random() < 0.3) or kick:
                        label[r, t1], label[r, t2] = l2, l1
                        improved = improved or after < before
                    else:
                        count[a, l1] += 1
                        count[a, l2] -= 1
                        count[b, l2] += 1
                        count[b, l1] -= 1
        if off(count, np.arange(n)) == 0:
            break
    out: list[list[list[int]]] = []
    for r in range(g):
        new: list[list[int]] = [[] for _ in range(t_n)]
        for t in range(t_n):
            new[int(label[r, t])] = list(tables[r][t])
        out.append(new)
    return out


def balance_seats(
    request: SeatingRequest, tables: list[list[list[int]]], limit: float = 60.0
) -> list[list[list[int]]]:
    """Order the players of every table so that S1 = S2 = 0 (see the module docstring).

    Returns the tables unchanged in order if CP-SAT finds nothing within `limit` (it has not
    happened on the instances of seating.md; the metrics then show the cells off).
    """
    model = cp_model.CpModel()
    x: dict[tuple[int, int, int, int], cp_model.IntVar] = {}
    mine: dict[int, list[tuple[int, int, int]]] = {}
    for r, rnd in enumerate(tables):
        for t, table in enumerate(rnd):
            for i, p in enumerate(table):
                for s in range(TABLE_SIZE):
                    x[r, t, i, s] = model.new_bool_var("")
                model.add_exactly_one(x[r, t, i, s] for s in range(TABLE_SIZE))
                mine.setdefault(p, []).append((r, t, i))
            for s in range(TABLE_SIZE):
                model.add_exactly_one(x[r, t, i, s] for i in range(len(table)))
    for games in mine.values():
        total = len(games)
        lo, hi = _bounds(total, TABLE_SIZE)
        for s in range(TABLE_SIZE):
            model.add_linear_constraint(sum(x[g + (s,)] for g in games), lo, hi)
        lo, hi = _bounds(2 * total, TABLE_SIZE)
        for pair in SEAT_PAIRS:
            model.add_linear_constraint(sum(x[g + (s,)] for g in games for s in pair), lo, hi)
        lo, hi = _bounds(total, 2)
        for half in HALVES:
            model.add_linear_constraint(sum(x[g + (s,)] for g in games for s in half), lo, hi)
    solver = _solver(request.seed, limit)
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return tables
    out: list[list[list[int]]] = []
    for r, rnd in enumerate(tables):
        new_rnd: list[list[int]] = []
        for t, table in enumerate(rnd):
            seats = [0] * TABLE_SIZE
            for i, p in enumerate(table):
                s = next(s for s in range(TABLE_SIZE) if solver.value(x[r, t, i, s]))
                seats[s] = p
            new_rnd.append(seats)
        out.append(new_rnd)
    return out
