"""The metrics of seating.md (P1–P4, S1, S2, T1, hard constraints), computed from a seating."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from mafiatab.seating.model import TABLE_SIZE, Seating, SeatingRequest

SEAT_GROUPS = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (0, 1, 2, 3, 4), (5, 6, 7, 8, 9)]


@dataclass(frozen=True)
class Metrics:
    max_meetings: int
    pairs_at_max: int
    min_meetings: int
    pairs_never: int
    sum_sq: int
    histogram: dict[int, int]
    seat_cells_off: int
    seat_group_cells_off: int
    table_cells_off: int
    hard_violations: int

    def as_json(self) -> dict[str, int]:
        """The metrics object of the mafiatab.seating/1 format (histogram kept out)."""
        return {
            "max_meetings": self.max_meetings,
            "pairs_at_max": self.pairs_at_max,
            "min_meetings": self.min_meetings,
            "pairs_never": self.pairs_never,
            "sum_sq": self.sum_sq,
            "seat_cells_off": self.seat_cells_off,
            "seat_group_cells_off": self.seat_group_cells_off,
            "table_cells_off": self.table_cells_off,
            "hard_violations": self.hard_violations,
        }


def _off(count: int, total: int, parts: int) -> bool:
    lo, hi = (total // parts), -(-total // parts)
    return not lo <= count <= hi


def compute_metrics(request: SeatingRequest, seating: Seating) -> Metrics:
    """Everything of seating.md's metric list; hard violations include a wrong game count."""
    n, games = request.players, request.games
    meet: Counter[tuple[int, int]] = Counter()
    seat = [[0] * TABLE_SIZE for _ in range(n)]
    table = [[0] * request.tables for _ in range(n)]
    played = [0] * n
    hard = 0
    for rnd in seating.rounds:
        seen: set[int] = set()
        for t, players in enumerate(rnd):
            for s, p in enumerate(players):
                if p in seen:
                    hard += 1
                seen.add(p)
                seat[p][s] += 1
                table[p][t] += 1
                played[p] += 1
                if request.pins.get(p, t) != t:
                    hard += 1
            for i, a in enumerate(players):
                for b in players[i + 1 :]:
                    meet[min(a, b), max(a, b)] += 1
                    if a in request.clubs and request.clubs.get(b) == request.clubs[a]:
                        hard += 1
    hard += sum(1 for p in range(n) if played[p] != games)
    values = [meet.get((i, j), 0) for i in range(n) for j in range(i + 1, n)]
    hist = Counter(values)
    mx, mn = max(values), min(values)
    seat_off = sum(1 for p in range(n) for s in range(TABLE_SIZE) if _off(seat[p][s], games, 10))
    group_off = 0
    for p in range(n):
        for grp in SEAT_GROUPS:
            c = sum(seat[p][s] for s in grp)
            group_off += _off(c, games * len(grp), TABLE_SIZE)
    table_off = sum(
        1 for p in range(n) for t in range(request.tables) if _off(table[p][t], games, request.tables)
    )
    return Metrics(
        max_meetings=mx,
        pairs_at_max=hist[mx],
        min_meetings=mn,
        pairs_never=hist.get(0, 0),
        sum_sq=sum(v * v for v in values),
        histogram=dict(sorted(hist.items())),
        seat_cells_off=seat_off,
        seat_group_cells_off=group_off,
        table_cells_off=table_off,
        hard_violations=hard,
    )
