"""The metrics of seating.md (P1–P4, S1, S2, T1, hard constraints), computed from a seating."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from mafiatab.seating.model import CONFLICT, PIN, ROUND, TABLE_SIZE, Seating, SeatingRequest

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
    #: the hard violations per rule (club, team, pair, conflict, pin, round): what a refusal
    #: names
    hard_by_rule: dict[str, int] = field(default_factory=dict)
    #: games shared by pairs a soft rule wants apart (avoid), and by pairs it wants together
    #: (welcome)
    soft_avoided_met: int = 0
    soft_welcome_met: int = 0
    #: the most games one player plays in one seat, and at one table number
    most_same_seat: int = 0
    most_same_table: int = 0
    #: players with some seat (some seat pair or half, some table) off its share
    players_seats_off: int = 0
    players_groups_off: int = 0
    players_tables_off: int = 0

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
    by_rule: Counter[str] = Counter()
    rules = request.pair_rules()
    for rnd in seating.rounds:
        seen: set[int] = set()
        for t, players in enumerate(rnd):
            for s, p in enumerate(players):
                if p in seen:
                    by_rule[ROUND] += 1
                seen.add(p)
                seat[p][s] += 1
                table[p][t] += 1
                played[p] += 1
                if request.pins.get(p, t) != t:
                    by_rule[PIN] += 1
                if t in request.forbidden.get(p, ()):
                    by_rule[CONFLICT] += 1
            for i, a in enumerate(players):
                for b in players[i + 1 :]:
                    meet[min(a, b), max(a, b)] += 1
    by_rule[ROUND] += sum(1 for p in range(n) if played[p] != games)
    avoided = welcome = 0
    for pair, (kind, w) in rules.items():
        m = meet.get(pair, 0)
        if kind is not None:
            by_rule[kind] += m
        elif w > 0:
            avoided += m
        elif w < 0:
            welcome += m
    hard = sum(by_rule.values())
    values = [meet.get((i, j), 0) for i in range(n) for j in range(i + 1, n)]
    hist = Counter(values)
    mx, mn = max(values), min(values)
    seat_off = sum(1 for p in range(n) for s in range(TABLE_SIZE) if _off(seat[p][s], games, 10))
    players_seats = sum(1 for p in range(n)
                        if any(_off(seat[p][s], games, 10) for s in range(TABLE_SIZE)))
    group_off = 0
    players_groups = 0
    for p in range(n):
        mine = 0
        for grp in SEAT_GROUPS:
            c = sum(seat[p][s] for s in grp)
            mine += _off(c, games * len(grp), TABLE_SIZE)
        group_off += mine
        players_groups += mine > 0
    table_off = sum(
        1 for p in range(n) for t in range(request.tables) if _off(table[p][t], games, request.tables)
    )
    players_tables = sum(1 for p in range(n) if any(
        _off(table[p][t], games, request.tables) for t in range(request.tables)))
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
        hard_by_rule={k: v for k, v in sorted(by_rule.items()) if v},
        soft_avoided_met=avoided,
        soft_welcome_met=welcome,
        most_same_seat=max((max(row) for row in seat), default=0),
        most_same_table=max((max(row) for row in table), default=0),
        players_seats_off=players_seats,
        players_groups_off=players_groups,
        players_tables_off=players_tables,
    )
