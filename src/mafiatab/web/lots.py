"""The drawings of lots as the standings and the head judge's page show them: the order
each tied group was drawn in (by nickname, with the place it shared), the seed, who drew
it and when (on the tournament's clock), and a redraw with its reason beside the drawing
it replaced."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import Field

from mafiatab.domain.numbers import ascii_int
from mafiatab.i18n import local_time
from mafiatab.services.facade import Services
from mafiatab.services.standings import LOT_REASON_MAX, LotRecord
from mafiatab.web.deps import Svc, Who, form_fields, see_other
from mafiatab.web.security import Body, check_csrf, require_user


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


# --- the head judge's page's forms: a drawing, a redraw ------------------------------------

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)


@router.post("/t/{tid}/manage/lots")
async def lots_page(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    f = await form_fields(request)
    svc.standings.record_lot(tid, f.get("seed", ""), actor=user)
    return see_other(f"/t/{tid}/manage#lots")


@router.post("/t/{tid}/manage/lots/redraw")
async def redraw_page(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    """A drawing of lots drawn again: a correction with its reason (one service call)."""
    user = require_user(me)
    f = await form_fields(request)
    number = ascii_int(f.get("number", ""), 6)
    svc.standings.redraw_lot(tid, f.get("seed", ""), actor=user, reason=f.get("reason", ""), number=number)
    return see_other(f"/t/{tid}/manage#lots")



# --- the JSON API: drawing, the record, a redraw -----------------------------------------

api = APIRouter(prefix="/api", dependencies=[Depends(check_csrf)], tags=["api"])


class Lot(Body):
    seed: str = Field(min_length=1, max_length=200)


class Redraw(Body):
    seed: str = Field(min_length=1, max_length=200)
    reason: str = Field(min_length=1, max_length=LOT_REASON_MAX)
    number: int | None = Field(None, ge=1, le=100_000,
                               description="which drawing (default: the newest not replaced)")


@api.post("/t/{tid}/lots")
def lots(tid: int, body: Lot, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    draws = svc.standings.record_lot(tid, body.seed, actor=user)
    return {"draws": [{"seed": d.seed, "group": d.group, "order": d.order} for d in draws]}


def _lot(r: LotRecord) -> dict[str, Any]:
    return {"number": r.number, "seed": r.seed, "by": r.by,
            "at": r.at.isoformat() if r.at is not None else None, "reason": r.reason,
            "replaces": r.replaces, "replaced_by": r.replaced_by,
            "draws": [{"group": d.group, "order": d.order} for d in r.draws]}


@api.get("/t/{tid}/lots")
def lot_list(tid: int, me: Who, svc: Svc) -> list[dict[str, Any]]:
    """Every drawing of lots, oldest first: seed, order, who and when (UTC, ISO)."""
    return [_lot(r) for r in svc.standings.lots(tid, actor=require_user(me))]


@api.post("/t/{tid}/lots/redraw")
def redraw(tid: int, body: Redraw, me: Who, svc: Svc) -> dict[str, Any]:
    """A drawing of lots drawn again with a new seed: a correction with its reason."""
    user = require_user(me)
    return _lot(svc.standings.redraw_lot(tid, body.seed, actor=user, reason=body.reason,
                                         number=body.number))
