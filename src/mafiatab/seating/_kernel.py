"""Compiled inner loop of the table-composition search (numba, no Python objects).

Kept apart from optimize.py so that the untyped numba decorator touches as little typed code
as possible; every array layout is described in optimize.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numba
import numpy as np


def _rand(state: Any) -> Any:
    """xorshift64*: our own generator so a run is reproducible whatever thread runs it."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return (x * np.uint64(2685821657736338717)) >> np.uint64(11)


def _randint(state: Any, n: int) -> int:
    return int(np.int64(_rand(state) % np.uint64(n)))


def _uniform(state: Any) -> float:
    return float(_rand(state)) / 9007199254740992.0


def _anneal(
    mem: Any,  # int32[G, T, 10]: players at each table
    byes: Any,  # int32[G, B]: players sitting out
    tab: Any,  # int32[G, N]: table of each player, -1 for a bye
    slot: Any,  # int32[G, N]: index in mem[r, tab] or in byes[r]
    meet: Any,  # int32[N, N]: games shared
    pm: Any,  # int64[N, N]: cost of one game the pair shares (hard rules and soft weights)
    fb: Any,  # int64[N, T]: cost of a player at a table (a judge's conflict: hard)
    pin: Any,  # int32[N]: pinned table or -1
    avail: Any,  # bool[G, N]
    up: Any,  # int64[m]: cost change when a pair goes from m to m + 1
    down: Any,  # int64[m]: cost change when a pair goes from m to m - 1
    iters: int,
    temp0: float,
    temp1: float,
    state: Any,  # uint64[1]
    cost: Any,  # int64[2]: current, best
    best_mem: Any,
    best_byes: Any,
) -> int:
    g_n, t_n, size = mem.shape
    b_n = byes.shape[1]
    accepted = 0
    ratio = temp1 / temp0
    for it in range(iters):
        temp = temp0 * ratio ** (it / iters)
        r = _randint(state, g_n)
        if b_n > 0 and _randint(state, 4) == 0:
            # A player at a table trades a game for a bye with a player sitting out, and the
            # trade is mirrored in another round, so everyone keeps exactly R games.
            t1 = _randint(state, t_n)
            k1 = _randint(state, size)
            a = mem[r, t1, k1]
            kb = _randint(state, b_n)
            b = byes[r, kb]
            if not avail[r, b] or (pin[b] >= 0 and pin[b] != t1):
                continue
            start = _randint(state, g_n)
            r2 = -1
            for j in range(g_n):
                rr = (start + j) % g_n
                if tab[rr, a] < 0 and tab[rr, b] >= 0 and avail[rr, a]:
                    t2 = tab[rr, b]
                    if pin[a] < 0 or pin[a] == t2:
                        r2 = rr
                        break
            if r2 < 0:
                continue
            t2 = tab[r2, b]
            k2 = slot[r2, b]
            kb2 = slot[r2, a]
            d = fb[b, t1] - fb[a, t1] + fb[a, t2] - fb[b, t2]
            # part 1 applied to meet, part 2 evaluated on top of it
            for k in range(size):
                x = mem[r, t1, k]
                if x != a:
                    d += down[meet[a, x]] + up[meet[b, x]] + pm[b, x] - pm[a, x]
                    meet[a, x] -= 1
                    meet[x, a] -= 1
                    meet[b, x] += 1
                    meet[x, b] += 1
            for k in range(size):
                y = mem[r2, t2, k]
                if y != b:
                    d += down[meet[b, y]] + up[meet[a, y]] + pm[a, y] - pm[b, y]
            if d <= 0 or _uniform(state) < np.exp(-d / temp):
                for k in range(size):
                    y = mem[r2, t2, k]
                    if y != b:
                        meet[b, y] -= 1
                        meet[y, b] -= 1
                        meet[a, y] += 1
                        meet[y, a] += 1
                mem[r, t1, k1] = b
                byes[r, kb] = a
                tab[r, b] = t1
                slot[r, b] = k1
                tab[r, a] = -1
                slot[r, a] = kb
                mem[r2, t2, k2] = a
                byes[r2, kb2] = b
                tab[r2, a] = t2
                slot[r2, a] = k2
                tab[r2, b] = -1
                slot[r2, b] = kb2
                cost[0] += d
                accepted += 1
            else:
                for k in range(size):
                    x = mem[r, t1, k]
                    if x != a:
                        meet[a, x] += 1
                        meet[x, a] += 1
                        meet[b, x] -= 1
                        meet[x, b] -= 1
        else:
            if t_n < 2:
                continue
            t1 = _randint(state, t_n)
            t2 = _randint(state, t_n - 1)
            if t2 >= t1:
                t2 += 1
            k1 = _randint(state, size)
            k2 = _randint(state, size)
            a = mem[r, t1, k1]
            b = mem[r, t2, k2]
            if pin[a] >= 0 or pin[b] >= 0:
                continue
            d = fb[a, t2] - fb[a, t1] + fb[b, t1] - fb[b, t2]
            for k in range(size):
                x = mem[r, t1, k]
                if x != a:
                    d += down[meet[a, x]] + up[meet[b, x]] + pm[b, x] - pm[a, x]
                y = mem[r, t2, k]
                if y != b:
                    d += down[meet[b, y]] + up[meet[a, y]] + pm[a, y] - pm[b, y]
            if d <= 0 or _uniform(state) < np.exp(-d / temp):
                for k in range(size):
                    x = mem[r, t1, k]
                    if x != a:
                        meet[a, x] -= 1
                        meet[x, a] -= 1
                        meet[b, x] += 1
                        meet[x, b] += 1
                    y = mem[r, t2, k]
                    if y != b:
                        meet[b, y] -= 1
                        meet[y, b] -= 1
                        meet[a, y] += 1
                        meet[y, a] += 1
                mem[r, t1, k1] = b
                mem[r, t2, k2] = a
                tab[r, a] = t2
                tab[r, b] = t1
                slot[r, a] = k2
                slot[r, b] = k1
                cost[0] += d
                accepted += 1
            else:
                continue
        if cost[0] < cost[1]:
            cost[1] = cost[0]
            best_mem[:] = mem
            best_byes[:] = byes
    return accepted


_jit = numba.njit(cache=True, nogil=True)
_rand = _jit(_rand)
_randint = _jit(_randint)
_uniform = _jit(_uniform)
anneal = cast(Callable[..., int], _jit(_anneal))
