"""Independent, deliberately simple metrics for a mafiatab.seating/1 document (1-based).

Written from seating.md alone; it shares no code with mafiatab.seating.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any


def lo_hi(total: int, parts: int) -> tuple[int, int]:
    lo = total // parts
    hi = lo if total % parts == 0 else lo + 1
    return lo, hi


def reference_metrics(doc: dict[str, Any], tables: int) -> dict[str, Any]:
    n, r = doc["players"], doc["games"]
    meet = {pair: 0 for pair in combinations(range(1, n + 1), 2)}
    seat = {(p, s): 0 for p in range(1, n + 1) for s in range(1, 11)}
    table = {(p, t): 0 for p in range(1, n + 1) for t in range(1, tables + 1)}
    games = dict.fromkeys(range(1, n + 1), 0)
    twice_in_round = 0
    for rnd in doc["rounds"]:
        here: list[int] = []
        for tb in rnd["tables"]:
            seats = tb["seats"]
            assert len(seats) == 10
            here += seats
            for k, p in enumerate(seats):
                seat[p, k + 1] += 1
                table[p, tb["table"]] += 1
                games[p] += 1
            for a, b in combinations(sorted(seats), 2):
                if a != b:
                    meet[a, b] += 1
        twice_in_round += len(here) - len(set(here))
    values = list(meet.values())
    mx, mn = max(values), min(values)
    s_lo, s_hi = lo_hi(r, 10)
    s1 = sum(1 for v in seat.values() if not s_lo <= v <= s_hi)
    s2 = 0
    groups = [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10], [1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]
    for p in range(1, n + 1):
        for grp in groups:
            lo, hi = lo_hi(r * len(grp), 10)
            c = sum(seat[p, s] for s in grp)
            s2 += not lo <= c <= hi
    t_lo, t_hi = lo_hi(r, tables)
    t1 = sum(1 for v in table.values() if not t_lo <= v <= t_hi)
    return {
        "max_meetings": mx,
        "pairs_at_max": values.count(mx),
        "min_meetings": mn,
        "pairs_never": values.count(0),
        "sum_sq": sum(v * v for v in values),
        "seat_cells_off": s1,
        "seat_group_cells_off": s2,
        "table_cells_off": t1,
        "games": games,
        "twice_in_round": twice_in_round,
        "meet": meet,
    }
