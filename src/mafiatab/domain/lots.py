"""The lot (FIIM 8.8.5, FSM 8.7.6): a recorded random draw among players still tied.

A lot is a procedure, not a number the program invents: the draw is made from a seed
the head judge announces, so anyone can repeat it, and it is stored in the tournament
(`lots`, `lot_draws`) so that the standings show its result from then on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mafiatab.domain.protocol import LotDraw, Tournament
from mafiatab.domain.standings import Row


def tied_groups(rows: Sequence[Row]) -> list[list[Row]]:
    """The groups of rows that share a place and need a lot, in the order of places."""
    groups: dict[int, list[Row]] = {}
    for row in rows:
        if row.lot_needed:
            groups.setdefault(row.place, []).append(row)
    return [groups[place] for place in sorted(groups)]


def draw_lots(rows: Sequence[Row], seed: str) -> list[LotDraw]:
    """One draw per tied group: the group's players (sorted by id, so the draw does not
    depend on the order of the file) shuffled by a generator seeded with `seed` and the
    group's place. The same seed always gives the same order."""
    draws = []
    for group in tied_groups(rows):
        members = sorted(r.player for r in group)
        order = members[:]
        random.Random(f"{seed}/{group[0].place}").shuffle(order)
        draws.append(LotDraw(seed=seed, group=members, order=order))
    return draws


def record_draws(t: Tournament, draws: Sequence[LotDraw]) -> None:
    """Store the draws in the tournament: each group's order replaces whatever the old lot
    said of those players, and the draw itself is kept with its seed."""
    drawn = {pid for d in draws for pid in d.order}
    lots = [pid for pid in t.lots if pid not in drawn]
    for d in draws:
        lots.extend(d.order)
    t.lots = lots
    t.lot_draws = [*t.lot_draws, *draws]
