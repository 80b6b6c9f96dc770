"""The table-composition search's inner loop in plain Python: the same moves, the same
random numbers and the same arithmetic as the numba kernel (`_kernel.py`), for a Python
without numba.

Same interface as `_kernel.anneal`: the arrays are read into Python lists on entry and
written back on exit, so the driver (optimize.py) cannot tell the two apart, and a seed
gives the very same seating through either (tests/seating/test_kernel_py.py), and
bench/seating.py can tell what it reaches with a given number of moves at numba's speed.
It spends 30 to 36 times numba's CPU time per move (bench/seating.py --kernel python). The
light install does not use it yet: the seats and table numbers after the search need
OR-Tools' CP-SAT (seats.py), the other half of the `seating` extra, and a plain-Python
equitable seat colouring does not exist yet.
"""

from __future__ import annotations

import math
from typing import Any

MASK = (1 << 64) - 1
MULT = 2685821657736338717


def anneal(
    mem: Any, byes: Any, tab: Any, slot: Any, meet: Any, club: Any, pin: Any, avail: Any,
    up: Any, down: Any, hard: int, iters: int, temp0: float, temp1: float, state: Any,
    cost: Any, best_mem: Any, best_byes: Any,
) -> int:
    """`_kernel.anneal` without numba (its argument list documents the arrays)."""
    g_n, t_n, size = mem.shape
    n = meet.shape[0]
    b_n = byes.shape[1]
    M = [[[int(x) for x in tb] for tb in rnd] for rnd in mem.tolist()]
    B = byes.tolist()
    TAB = tab.tolist()
    SLOT = slot.tolist()
    MEET = meet.tolist()
    CLUB = club.tolist()
    PIN = pin.tolist()
    AV = avail.tolist()
    UP = [int(x) for x in up.tolist()]
    DOWN = [int(x) for x in down.tolist()]
    x_state = int(state[0])
    cur = int(cost[0])
    best = int(cost[1])
    best_m: list[list[list[int]]] | None = None
    best_b: list[list[int]] | None = None
    # The numba kernel copies the tables at every new best; here the copy is taken only
    # when an accepted move leaves a best state (the same tables, far fewer copies).
    at_best = False
    ratio = temp1 / temp0
    exp = math.exp
    accepted = 0
    del n

    def rand() -> int:
        nonlocal x_state
        x = x_state
        x ^= x >> 12
        x ^= (x << 25) & MASK
        x ^= x >> 27
        x_state = x
        return ((x * MULT) & MASK) >> 11

    for it in range(iters):
        temp = temp0 * ratio ** (it / iters)
        r = rand() % g_n
        if b_n > 0 and rand() % 4 == 0:
            t1 = rand() % t_n
            k1 = rand() % size
            row1 = M[r][t1]
            a = row1[k1]
            kb = rand() % b_n
            b = B[r][kb]
            if not AV[r][b] or (PIN[b] >= 0 and PIN[b] != t1):
                continue
            start = rand() % g_n
            r2 = -1
            for j in range(g_n):
                rr = (start + j) % g_n
                if TAB[rr][a] < 0 and TAB[rr][b] >= 0 and AV[rr][a]:
                    t2 = TAB[rr][b]
                    if PIN[a] < 0 or PIN[a] == t2:
                        r2 = rr
                        break
            if r2 < 0:
                continue
            t2 = TAB[r2][b]
            k2 = SLOT[r2][b]
            kb2 = SLOT[r2][a]
            row2 = M[r2][t2]
            ma, mb = MEET[a], MEET[b]
            ca, cb = CLUB[a], CLUB[b]
            d = 0
            for x in row1:
                if x != a:
                    d += DOWN[ma[x]] + UP[mb[x]]
                    ma[x] -= 1
                    MEET[x][a] -= 1
                    mb[x] += 1
                    MEET[x][b] += 1
                    cx = CLUB[x]
                    if cx >= 0:
                        if cx == ca:
                            d -= hard
                        if cx == cb:
                            d += hard
            for y in row2:
                if y != b:
                    d += DOWN[mb[y]] + UP[ma[y]]
                    cy = CLUB[y]
                    if cy >= 0:
                        if cy == cb:
                            d -= hard
                        if cy == ca:
                            d += hard
            if d <= 0 or float(rand()) / 9007199254740992.0 < exp(-d / temp):
                if at_best and d >= 0:
                    best_m = [[list(tb) for tb in rnd] for rnd in M]
                    best_b = [list(rb) for rb in B]
                    at_best = False
                for y in row2:
                    if y != b:
                        mb[y] -= 1
                        MEET[y][b] -= 1
                        ma[y] += 1
                        MEET[y][a] += 1
                row1[k1] = b
                B[r][kb] = a
                TAB[r][b] = t1
                SLOT[r][b] = k1
                TAB[r][a] = -1
                SLOT[r][a] = kb
                row2[k2] = a
                B[r2][kb2] = b
                TAB[r2][a] = t2
                SLOT[r2][a] = k2
                TAB[r2][b] = -1
                SLOT[r2][b] = kb2
                cur += d
                accepted += 1
            else:
                for x in row1:
                    if x != a:
                        ma[x] += 1
                        MEET[x][a] += 1
                        mb[x] -= 1
                        MEET[x][b] -= 1
        else:
            if t_n < 2:
                continue
            t1 = rand() % t_n
            t2 = rand() % (t_n - 1)
            if t2 >= t1:
                t2 += 1
            k1 = rand() % size
            k2 = rand() % size
            row1 = M[r][t1]
            row2 = M[r][t2]
            a = row1[k1]
            b = row2[k2]
            if PIN[a] >= 0 or PIN[b] >= 0:
                continue
            ma, mb = MEET[a], MEET[b]
            ca, cb = CLUB[a], CLUB[b]
            d = 0
            for k in range(size):
                x = row1[k]
                if x != a:
                    d += DOWN[ma[x]] + UP[mb[x]]
                    cx = CLUB[x]
                    if cx >= 0:
                        if cx == ca:
                            d -= hard
                        if cx == cb:
                            d += hard
                y = row2[k]
                if y != b:
                    d += DOWN[mb[y]] + UP[ma[y]]
                    cy = CLUB[y]
                    if cy >= 0:
                        if cy == cb:
                            d -= hard
                        if cy == ca:
                            d += hard
            if d <= 0 or float(rand()) / 9007199254740992.0 < exp(-d / temp):
                if at_best and d >= 0:
                    best_m = [[list(tb) for tb in rnd] for rnd in M]
                    best_b = [list(rb) for rb in B]
                    at_best = False
                for k in range(size):
                    x = row1[k]
                    if x != a:
                        ma[x] -= 1
                        MEET[x][a] -= 1
                        mb[x] += 1
                        MEET[x][b] += 1
                    y = row2[k]
                    if y != b:
                        mb[y] -= 1
                        MEET[y][b] -= 1
                        ma[y] += 1
                        MEET[y][a] += 1
                row1[k1] = b
                row2[k2] = a
                TAB[r][a] = t2
                TAB[r][b] = t1
                SLOT[r][a] = k2
                SLOT[r][b] = k1
                cur += d
                accepted += 1
            else:
                continue
        if cur < best:
            best = cur
            at_best = True
    mem[:] = M
    byes[:] = B
    tab[:] = TAB
    slot[:] = SLOT
    meet[:] = MEET
    state[0] = x_state
    cost[0] = cur
    cost[1] = best
    if at_best:
        best_mem[:] = M
        best_byes[:] = B
    elif best_m is not None and best_b is not None:
        best_mem[:] = best_m
        best_byes[:] = best_b
    return accepted
