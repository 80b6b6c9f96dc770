"""A game's moments on the web: its events' times, its video, timecodes.

The game page lists the log's events with their time on the tournament's clock and,
when the game has a video, a timecode link to each moment ("1:23:45", `…&t=5025s`);
an appeal's thread lists the moments of its game the same way, so that the head judge
opens the disputed moment at once. Staff set the video from the game page (`POST
/t/{tid}/games/{code}/video`) or the API (`PUT /api/t/{tid}/games/{code}/video`);
`GET /api/t/{tid}/games/{code}/moments` gives the moments to anyone who may see the
game. The rules of times and links are `domain.clock`'s, the transaction
`services.video`'s; this module checks who asks, calls, renders.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import Field

from mafiatab.domain import protocol as model
from mafiatab.domain.clock import local_time, parse_timecode, timecode
from mafiatab.i18n import zone_words
from mafiatab.services.facade import Services
from mafiatab.services.store import StaleRevision
from mafiatab.services.video import Moment, moments
from mafiatab.web.live import describe
from mafiatab.web.refusals import Stale
from mafiatab.web.rendering import TEMPLATES
from mafiatab.web.security import (
    Body,
    Principal,
    check_csrf,
    principal,
    read_form,
    require_user,
    service,
)

Who = Annotated[Principal, Depends(principal)]
Svc = Annotated[Services, Depends(service)]

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)
api = APIRouter(prefix="/api", dependencies=[Depends(check_csrf)], tags=["games"])

WORDS: dict[str, tuple[str, str]] = {
    "moments": ("Ход игры", "The game's course"),
    "time": ("Время", "Time"),
    "event": ("Событие", "Event"),
    "video": ("Видео", "Video"),
    "video_link": ("Ссылка на видео (http/https)", "Video link (http/https)"),
    "offset": ("Начало игры в видео (ч:мм:сс)", "The game starts in the video at (h:mm:ss)"),
    "save_video": ("Сохранить видео", "Save the video"),
    "watch": ("смотреть с {tc}", "watch from {tc}"),
    "times_in": ("время — {zone}", "times: {zone}"),
    "started": ("начало {at}", "started {at}"),
    "no_times": ("время событий не записано", "the events' times were not recorded"),
}


def tw(key: str, lang: str, **params: object) -> str:
    """A word of this module's pages, Russian first."""
    pair = WORDS.get(key)
    text = key if pair is None else pair[0 if lang == "ru" else 1]
    return text.format(**params) if params else text


def moment_rows(svc: Services, tid: int, game: model.Game, lang: str) -> dict[str, Any]:
    """What a page shows of a game's moments: the rows, the zone, the video."""
    zone = svc.zones.zone(tid)
    found = moments(game, zone)
    rows = [{"m": m, "text": describe(m.event, lang)} for m in found]
    first = next((m.at for m in found if m.at is not None), None)
    return {"rows": rows, "zone": zone_words(zone, lang, first), "video": game.video,
            "timed": first is not None,
            "start": local_time(first, zone, lang, with_zone=False) if first is not None else None,
            "offset": timecode(game.video.offset) if game.video is not None else "",
            "tw": lambda k, **kw: tw(k, lang, **kw)}


def _game_moments(request: Request, tid: int, game: model.Game) -> dict[str, Any]:
    """The game page's moments (a template global: the page's route stays as it is)."""
    svc: Services = request.app.state.services
    return moment_rows(svc, tid, game, principal(request).lang)


def moment_json(m: Moment, lang: str, zone: Any) -> dict[str, Any]:
    return {"index": m.index, "type": m.event.get("type"), "text": describe(m.event, lang),
            "at": m.at.isoformat().replace("+00:00", "Z") if m.at else None,
            "clock": m.clock, "second": m.second, "timecode": m.timecode, "link": m.link}


def install(app: FastAPI) -> None:
    """The routes and the game page's template global (one line in app.py)."""
    TEMPLATES.env.globals["game_moments"] = _game_moments
    app.include_router(router)
    app.include_router(api)


def _offset(text: str) -> int | None:
    """The timecode's seconds; None when it is none (the service refuses it once it has
    checked the asker)."""
    return parse_timecode(text or "0")


@router.post("/t/{tid}/games/{code}/video")
async def video_page(request: Request, tid: int, code: str, me: Who, svc: Svc) -> Response:
    """Staff set (or clear, with an empty link) the game's video from its page."""
    user = require_user(me)
    f = {k: v for k, v in (await read_form(request)).items() if isinstance(v, str)}
    try:
        svc.videos.set_video(tid, code, f.get("url", "")[:1000], _offset(f.get("offset", "")),
                              actor=user)
    except StaleRevision:
        raise Stale("video_stale") from None
    return RedirectResponse(f"/t/{tid}/games/{code}#moments", status_code=303)


class VideoBody(Body):
    url: str | None = Field(None, description="http(s) link; null or empty: no video",
                            max_length=1000)
    offset: int | str = Field(0, description="the game's start in the video: seconds or h:mm:ss")
    base_revision: int | None = Field(None, description="the revision seen (optional)")


@api.put("/t/{tid}/games/{code}/video")
def api_video(tid: int, code: str, body: VideoBody, me: Who, svc: Svc) -> dict[str, Any]:
    """Set the game's video (staff): a new revision of the same state; 400 `bad_video`,
    409 when `base_revision` is not the newest."""
    user = require_user(me)
    offset = body.offset if isinstance(body.offset, int) else _offset(body.offset)
    try:
        number = svc.videos.set_video(tid, code, body.url, offset, actor=user,
                                       base_revision=body.base_revision)
    except StaleRevision:
        raise Stale("video_stale") from None
    return {"revision": number}


@api.get("/t/{tid}/games/{code}/moments")
def api_moments(tid: int, code: str, me: Who, svc: Svc) -> dict[str, Any]:
    """The game's events with their times (UTC and on the tournament's clock) and, with a
    video, their timecodes and links; for whoever may see the game."""
    info, _hidden = svc.games.readable(tid, code, actor=me.user)
    g = info.game_struct()
    zone = svc.zones.zone(tid)
    return {"game": code, "revision": info.number, "time_zone": zone.key,
            "video": {"url": g.video.url, "offset": g.video.offset} if g.video else None,
            "moments": [moment_json(m, me.lang, zone) for m in moments(g, zone)]}


__all__ = ["api", "install", "moment_rows", "router"]
