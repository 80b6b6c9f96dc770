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
        draws.append(LotDraw(seed=seed, group=members,
                             order=_shuffled(members, seed, group[0].place)))
    return draws


def _shuffled(members: Sequence[str], seed: str, place: int) -> list[str]:
    order = sorted(members)
    random.Random(f"{seed}/{place}").shuffle(order)
    return order


def redraw_lots(rows: Sequence[Row], previous: Sequence[LotDraw], seed: str) -> list[LotDraw]:
    """The same groups drawn again with a new seed (a head judge's correction of a lot,
    with its reason, kept beside the draw it replaces). A group's place is the first of
    the places its players hold now (the place they shared before the lot), so the same
    seed gives the same order, as a first draw does."""
    place = {r.player: r.place for r in rows}
    draws = []
    for d in previous:
        members = sorted(d.group)
        at = min((place[p] for p in members if p in place), default=0)
        draws.append(LotDraw(seed=seed, group=members, order=_shuffled(members, seed, at)))
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
