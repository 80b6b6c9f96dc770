"""The drawings of lots as the standings and the head judge's page show them: the order
each tied group was drawn in (by nickname, with the place it shared), the seed, who drew
it and when (on the tournament's clock), and a redraw with its reason beside the drawing
it replaced."""

from __future__ import annotations

from dataclasses import dataclass

from mafiatab.i18n import local_time
from mafiatab.services.facade import Services
from mafiatab.services.standings import LotRecord


@dataclass(frozen=True, slots=True)
class ShownDraw:
    """One group's draw: the place its players shared, and their nicknames in drawn order."""

    place: int | None
    order: list[str]


@dataclass(frozen=True, slots=True)
class ShownLot:
    record: LotRecord
    draws: list[ShownDraw]
    #: who drew it and when, in words; "" when not recorded (a lot from an imported file)
    by: str
    at: str


def shown_lots(svc: Services, tid: int, lang: str, records: list[LotRecord]) -> list[ShownLot]:
    """The drawings of lots the service gave this reader, newest first, in words."""
    if not records:
        return []
    _t, players, _stages = svc.tournaments.context(tid)
    nick = {p.id: p.nickname for p in players}
    place = {r.player: r.place for r in svc.standings.cached(tid).rows}
    zone = svc.zones.zone(tid)
    out = []
    for rec in reversed(records):
        draws = [ShownDraw(min((place[p] for p in d.group if p in place), default=None),
                           [nick.get(p, p) for p in d.order]) for d in rec.draws]
        out.append(ShownLot(rec, draws, rec.by or "",
                            local_time(rec.at, zone, lang) if rec.at is not None else ""))
    return out


__all__ = ["ShownDraw", "ShownLot", "shown_lots"]
