"""The stream overlay: an OBS browser source per table, fed by the
game's official log, and the head judge's screen settings.

`GET /t/{tid}/overlay/{code}` is a transparent 1920×1080 page; `static/overlay.js` draws
it from the state of `Services.overlay_state` (the page's boot data, then the
events of `.../events`, or the JSON of `.../state` polled while the stream is down).
Access: the tournament's overlay key (`?key=`, made and revoked by the head judge on
`/t/{tid}/screens`), staff signed in, or anyone while the standings are public. The
roles and the checks are left out by the service until the game is over, or, for the
keyed link only, until the head judge's delay has passed, so they are in no HTML, JSON
or event before that.

The operator's options are query parameters, checked here (`Options`): which parts to
show (`parts=seats,fouls,...`, or `hide=roles,checks`), colours (`fg`, `bg`, `accent`,
`red`, `black`: hexadecimal without `#`), the font size in pixels (`font`) and the
language (`lang=ru|en`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, Field
from sse_starlette.sse import EventSourceResponse

from mafiatab.domain.gamelog_state import Phase
from mafiatab.domain.problems import translate_clause
from mafiatab.i18n import RESULT, pick
from mafiatab.services import live_log
from mafiatab.services.facade import Services
from mafiatab.services.screens import MAX_ROLES_DELAY, OverlayVersion
from mafiatab.web.deps import Who
from mafiatab.web.live import state_of as live_state_of
from mafiatab.web.push import hub_of
from mafiatab.web.refusals import BadInput
from mafiatab.web.rendering import TEMPLATES, render
from mafiatab.web.security import LANGS, Principal, check_csrf, principal, require_user

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)
api = APIRouter(prefix="/api", dependencies=[Depends(check_csrf)], tags=["screens"])

#: every part of the overlay an operator may switch off
PARTS: Final = ("header", "seats", "names", "photos", "fouls", "nominations", "vote", "out", "timer",
                "checks", "best_move", "result", "roles")
_COLOUR = re.compile(r"[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8}")
DEFAULT_COLOURS: Final = {"fg": "ffffff", "bg": "101418d9", "accent": "f2c14e",
                          "red": "c8102e", "black": "1b1b1b"}
FONT_RANGE: Final = (12, 64)

#: the overlay's words, Russian first (glossary.md)
WORDS: dict[str, tuple[str, str]] = {
    "table": ("Стол {table}", "Table {table}"),
    "round": ("тур {round}", "round {round}"),
    "nominated": ("Выставлены", "Nominated"),
    "vote": ("Голосование", "Vote"),
    "lift": ("За подъём: {n}", "For lifting: {n}"),
    "checks": ("Проверки", "Checks"),
    "best_move": ("Лучший ход", "Best move"),
    "fouls": ("фолы", "fouls"),
    "speaks": ("говорит", "speaks"),
    "roles_hidden": ("Роли будут показаны позже", "Roles are shown later"),
    "roles_at": ("Роли — в {time}", "Roles at {time}"),
    "not_dealt": ("Роли не розданы", "Roles not dealt"),
    "agreement": ("договорка", "agreement night"),
    "don_check": ("Дон → {target}: {answer}", "Don → {target}: {answer}"),
    "sheriff_check": ("Шериф → {target}: {answer}", "Sheriff → {target}: {answer}"),
    "is_sheriff": ("шериф", "sheriff"),
    "not_sheriff": ("не шериф", "not the sheriff"),
    "is_black": ("чёрный", "black"),
    "is_red": ("красный", "red"),
    "night": ("ночь {n}", "night {n}"),
}
#: how a player left the table (gamelog_state.Departure.how)
OUT: dict[str, tuple[str, str]] = {
    "killed": ("убит", "shot"),
    "voted": ("заголосован", "voted out"),
    "lifted": ("поднят", "lifted"),
    "fouls": ("удалён: 4 фола", "removed: 4 fouls"),
    "disqualified": ("удалён (дисквалификация)", "removed (disqualification)"),
    "team_loss": ("ППК", "team loss awarded"),
}
#: the roles on the overlay's cards (glossary.md)
ROLE_WORDS: dict[str, tuple[str, str]] = {
    "red": ("мирный", "civilian"),
    "sheriff": ("шериф", "sheriff"),
    "black": ("мафия", "mafia"),
    "don": ("дон", "don"),
}


def _w(key: str, lang: str, **kw: Any) -> str:
    return pick(WORDS, key, lang).format(**kw)


@dataclass(frozen=True, slots=True)
class Options:
    """The operator's options, checked: nothing of a query string reaches the page's
    style unless it is a known part, a hexadecimal colour or a number in range."""

    parts: frozenset[str]
    colours: dict[str, str]
    font: int
    lang: str

    @classmethod
    def parse(cls, query: dict[str, str], default_lang: str) -> Options:
        parts = set(PARTS)
        if query.get("parts"):
            parts = {p for p in query["parts"].split(",") if p in PARTS}
        for p in (query.get("hide") or "").split(","):
            parts.discard(p)
        colours = dict(DEFAULT_COLOURS)
        for name in DEFAULT_COLOURS:
            value = (query.get(name) or "").lstrip("#")
            if value:
                if not _COLOUR.fullmatch(value):
                    raise BadInput("bad_colour", field=name)
                colours[name] = value
        font = 28
        if query.get("font"):
            try:
                font = int(query["font"])
            except ValueError:
                raise BadInput("bad_font") from None
            font = max(FONT_RANGE[0], min(FONT_RANGE[1], font))
        lang = query.get("lang") or default_lang
        return cls(frozenset(parts), colours, font, lang if lang in LANGS else "ru")

    def style(self) -> str:
        """The page's CSS variables (only checked values)."""
        cs = "; ".join(f"--{k}: #{v}" for k, v in self.colours.items())
        return f":root {{ {cs}; --font: {self.font}px; }}"


def screens_of(request: Request) -> Services:
    """The process's services (the screens' use cases are `.screens`)."""
    svc: Services = request.app.state.services
    return svc


def phase_text(phase: dict[str, Any] | None, lang: str) -> str | None:
    if phase is None:
        return None
    text = Phase(phase["kind"], phase["number"]).label(lang)
    if phase["kind"] == "night" and phase["number"] == 0:
        text += f" ({_w('agreement', lang)})"
    return text


def with_words(state: dict[str, Any], lang: str) -> dict[str, Any]:
    """The service's state with the words a viewer reads (codes stay beside them)."""
    out = dict(state)
    out["phase_text"] = phase_text(state.get("phase"), lang)
    seats = []
    for s in state["seats"]:
        row = dict(s)
        row["role_text"] = pick(ROLE_WORDS, s["role"], lang) if s.get("role") else None
        row["out_text"] = pick(OUT, s["out"], lang) if s.get("out") else None
        if s.get("out_phase"):
            row["out_text"] += f", {phase_text(s['out_phase'], lang)}"
        seats.append(row)
    out["seats"] = seats
    out["departures"] = [{**d, "text": f"{d['seat']}: {pick(OUT, d['how'], lang)}, "
                                       f"{phase_text(d['phase'], lang)}"}
                         for d in state["departures"]]
    checks = []
    for c in state["checks"]:
        if c["kind"] == "don_check":
            answer = _w("is_sheriff" if c["answer"] else "not_sheriff", lang)
        else:
            answer = _w("is_black" if c["answer"] else "is_red", lang)
        checks.append({**c, "text": f"{_w('night', lang, n=c['night'])}: "
                                    + _w(c["kind"], lang, target=c["target"], answer=answer)})
    out["checks"] = checks
    if state.get("result"):
        # the clause of a special ending (a draw by FIIM 7.8, a team loss) beside it, for
        # the commentators; an ordinary win needs none
        out["result_text"] = pick(RESULT, state["result"], lang)
        special = state["result"] == "draw" or any(
            d["how"] == "team_loss" for d in state["departures"])
        if special and state.get("end_clause"):
            out["result_text"] += f" ({translate_clause(state['end_clause'], lang)})"
    return out


def with_photos(state: dict[str, Any], svc: Services, tid: int) -> dict[str, Any]:
    """Each seat's photo address (`photo`, None: the card's placeholder). The overlay's
    key, when it has one, is added by the page itself (one render serves every viewer)."""
    from mafiatab.web.photos import photo_url

    digests = svc.photos.digests(tid)
    state["seats"] = [{**s, "photo": photo_url(tid, s["player"], digests[s["player"]])
                       if s.get("player") in digests else None} for s in state["seats"]]
    return state


@router.get("/t/{tid}/overlay/{code}", response_class=HTMLResponse)
def overlay_page(request: Request, tid: int, code: str, me: Who) -> Response:
    """The OBS browser source of one table (1920×1080, transparent)."""
    q = dict(request.query_params)
    opts = Options.parse(q, me.lang)
    key = q.get("key")
    svc = screens_of(request)
    state = with_photos(with_words(svc.screens.overlay_state(tid, code, key=key, user=me.user),
                                   opts.lang), svc, tid)
    keep = {k: v for k, v in (("key", key), ("lang", opts.lang)) if v}
    base = f"/t/{tid}/overlay/{code}"
    boot = {"state": state, "parts": sorted(opts.parts), "lang": opts.lang,
            "words": {k: pick(WORDS, k, opts.lang) for k in WORDS},
            "events": f"{base}/events?{urlencode(keep)}",
            "poll": f"{base}/state?{urlencode(keep)}"}
    return TEMPLATES.TemplateResponse(request, "overlay.html", {
        "request": request, "lang": opts.lang, "style": opts.style(),
        "boot": json.dumps(boot, ensure_ascii=False).replace("<", "\\u003c")},
        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


@router.get("/t/{tid}/overlay/{code}/state")
def overlay_json(request: Request, tid: int, code: str, me: Who,
                 key: str | None = None, lang: str | None = None) -> Response:
    """The overlay's state as JSON (the fallback poll)."""
    svc = screens_of(request)
    lang = lang if lang in LANGS else me.lang
    state = with_photos(with_words(svc.screens.overlay_state(tid, code, key=key, user=me.user),
                                   lang), svc, tid)
    return JSONResponse(state, headers={"Cache-Control": "no-store"})


@router.get("/t/{tid}/overlay/{code}/events")
async def overlay_events(request: Request, tid: int, code: str,
                         key: str | None = None, lang: str | None = None) -> Response:
    """The overlay's server-sent events: its state after every change of the game."""
    me = await run_in_threadpool(principal, request)
    svc = screens_of(request)
    # the roles delay is the key's: a keyed listener gets its own render
    keyed = await run_in_threadpool(
        lambda: svc.screens.require_watch(tid, key=key, user=me.user) == "key")
    # 404 for a game that is not there, before a topic is made for it: else every made-up
    # code would be probed (and its failure logged) every second for as long as it is open
    await run_in_threadpool(svc.screens.overlay_version, tid, code)
    lang = lang if lang in LANGS else me.lang
    hub = hub_of(request)

    def probe() -> Any:
        # the game's version, and the players' photos (one uploaded mid-game shows at once)
        return svc.screens.overlay_version(tid, code), tuple(sorted(svc.photos.digests(tid).items()))

    def draw() -> str:
        # one render serves every listener of the language and the grant (the key's
        # listeners see the roles once the delay has passed, the others at the end), and
        # each listener's access is checked when it connects and before every event
        state = svc.screens.overlay_state(tid, code, verified=True, keyed=keyed)
        return json.dumps(with_photos(with_words(state, lang), svc, tid), ensure_ascii=False)

    topic = ("overlay", tid, code)
    token = request.session.get("sid")

    def grant() -> str | None:
        return svc.screens.watch_grant(tid, key=key, user=me.user)

    def signed_in() -> bool:
        return isinstance(token, str) and svc.accounts.session_user(token) == me.user

    def still_allowed() -> bool:
        # a staff member watching by his role (no key, the standings hidden): his session
        # as well as the role, before every event, as the judge's live stream does
        return signed_in() and grant() is not None

    async def stream() -> Any:
        checked: Any = None  # the access part of the version this listener was checked at
        by_session = False  # the grant checked rests on the listener's session
        async for event in hub.events(topic, probe, (lang, keyed), draw):
            version = hub.topics[topic].version if topic in hub.topics else None
            game = version[0] if isinstance(version, tuple) else version
            access = game.access if isinstance(game, OverlayVersion) else game
            if access != checked:
                given = await run_in_threadpool(grant)
                if given is None or (given == "key") != keyed:
                    # gone, or its grant changed (a revoked key): the keyed stream ends
                    yield {"event": "gone", "data": "gone"}  # an empty event is not delivered
                    return
                checked, by_session = access, given == "staff"
                if by_session and not await run_in_threadpool(signed_in):
                    yield {"event": "gone", "data": "gone"}
                    return
            elif by_session and not await run_in_threadpool(still_allowed):
                yield {"event": "gone", "data": "gone"}
                return
            yield event

    return EventSourceResponse(stream(), ping=15,
                               headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@api.get("/t/{tid}/games/{code}/live/events", include_in_schema=False)
async def live_events(request: Request, tid: int, code: str) -> Response:
    """The judge's live screen's stream: the state of `GET .../live` after every change
    of the game made elsewhere (the table's judge and staff only: it has the roles)."""
    me = await run_in_threadpool(principal, request)
    svc = screens_of(request)
    user = require_user(me)
    await run_in_threadpool(svc.protocols.require_may, tid, code, user, "save")  # 403 first
    lang = me.lang
    token = request.session.get("sid")

    def draw() -> str:
        return json.dumps(live_state_of(live_log.load(svc.games, tid, code), lang), ensure_ascii=False)

    def still_allowed() -> bool:
        # the session as well as the role: a sign-out, "sign out everywhere" or a revoked
        # code ends the stream too, not only the next request (as `/t/{tid}/me/events`)
        return (isinstance(token, str) and svc.accounts.session_user(token) == user
                and svc.protocols.may_edit(tid, code, user))

    async def stream() -> Any:
        async for event in hub_of(request).events(("live", tid, code),
                                                  lambda: svc.screens.overlay_version(tid, code),
                                                  lang, draw):
            if not await run_in_threadpool(still_allowed):
                yield {"event": "gone", "data": "gone"}  # an empty event is not delivered
                return
            yield event

    return EventSourceResponse(hub_of(request).while_signed_in(stream(), token), ping=15,
                               headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


# --- the head judge's screen settings ---------------------------------------------

SCREEN_WORDS: dict[str, tuple[str, str]] = {
    "title": ("Экраны турнира", "Tournament screens"),
    "overlay": ("Оверлей трансляции", "Stream overlay"),
    "overlay_help": ("Источник «Браузер» в OBS, 1920×1080; фон прозрачный. Ссылка только "
                     "для чтения; новая ссылка отменяет прежнюю.",
                     "An OBS browser source, 1920×1080, transparent. The link is read-only; "
                     "a new link revokes the old one."),
    "make_link": ("Создать ссылку", "Make a link"),
    "revoke": ("Отозвать ссылку", "Revoke the link"),
    "link_live": ("Ссылка действует (создана {at})", "A link is live (made {at})"),
    "no_link": ("Ссылки нет", "No link"),
    "copy_now": ("Скопируйте ссылки сейчас: ключ больше не будет показан.",
                 "Copy the links now: the key is not shown again."),
    "public_note": ("Таблица открыта: оверлей доступен и без ключа, но роли без ключа — "
                    "только после конца игры.",
                    "The standings are public: the overlay opens without a key too, but "
                    "without the key the roles show only after the game's end."),
    "delay": ("Задержка показа ролей для ссылки с ключом (минуты после раздачи; пусто — "
              "только в конце игры)",
              "Roles delay for the link with the key (minutes after the deal; empty: only "
              "at the game's end)"),
    "save": ("Сохранить", "Save"),
    "hall": ("Экран зала", "Hall screen"),
    "open_hall": ("Открыть экран зала", "Open the hall screen"),
    "announcements": ("Объявления (по одному в строке)", "Announcements (one a line)"),
    "table": ("Стол {table}", "Table {table}"),
}


def _screens_context(request: Request, me: Principal, tid: int,
                     key: str | None = None) -> dict[str, Any]:
    svc = screens_of(request)
    settings = svc.screens.settings(tid, actor=require_user(me))
    t, _p, _s = svc.tournaments.context(tid)
    games = svc.games.overview(tid)
    last = [g for g in games if not g.confirmed_revision] or games[-8:]
    links = []
    for g in last:
        q = {"key": key} if key else {}
        links.append((g, f"{request.base_url}t/{tid}/overlay/{g.code}"
                         + (f"?{urlencode(q)}" if q else "")))
    sw = {k: pick(SCREEN_WORDS, k, me.lang) for k in SCREEN_WORDS}
    return {"t": t, "tid": tid, "settings": settings, "links": links, "key": key, "sw": sw,
            "public": not svc.access.visibility(tid).standings_hidden,
            "delay_minutes": "" if settings.roles_delay is None else
            f"{settings.roles_delay / 60:g}"}


@router.get("/t/{tid}/screens", response_class=HTMLResponse)
def screens_page(request: Request, tid: int, me: Who) -> Response:
    return render(request, "screens.html", **_screens_context(request, me, tid))


async def _form(request: Request) -> dict[str, str]:
    data = await request.form()
    return {k: v for k, v in data.items() if isinstance(v, str)}


@router.post("/t/{tid}/screens/overlay-key", response_class=HTMLResponse)
def make_key_page(request: Request, tid: int, me: Who) -> Response:
    user = require_user(me)
    key = screens_of(request).screens.make_overlay_key(tid, actor=user)
    return render(request, "screens.html", **_screens_context(request, me, tid, key))


@router.post("/t/{tid}/screens/overlay-key/revoke")
def revoke_key_page(request: Request, tid: int, me: Who) -> Response:
    user = require_user(me)
    screens_of(request).screens.revoke_overlay_key(tid, actor=user)
    return RedirectResponse(f"/t/{tid}/screens", status_code=303)


def _minutes(value: str) -> int | None:
    value = value.strip().replace(",", ".")
    if not value:
        return None
    try:
        minutes = float(value)
    except ValueError:
        raise BadInput("bad_roles_delay") from None
    if not 0 <= minutes <= MAX_ROLES_DELAY / 60:
        raise BadInput("roles_delay_range", most=MAX_ROLES_DELAY // 60)
    return round(minutes * 60)


@router.post("/t/{tid}/screens/settings")
async def settings_page(request: Request, tid: int, me: Who) -> Response:
    user = require_user(me)
    f = await _form(request)
    svc = screens_of(request)
    # the staff's settings, read first: the asker is refused (by the service) before
    # anything of the form is looked at, an empty form too
    await run_in_threadpool(lambda: svc.screens.settings(tid, actor=user))
    if "roles_delay" in f:
        await run_in_threadpool(svc.screens.set_roles_delay, tid, _minutes(f["roles_delay"]),
                                actor=user)
    if "announcements" in f:
        await run_in_threadpool(svc.screens.set_announcements, tid, f["announcements"], actor=user)
    return RedirectResponse(f"/t/{tid}/screens", status_code=303)


class ScreensIn(BaseModel):
    """The screen settings; a field left out is left as it is."""

    roles_delay: int | None = Field(None, ge=0, le=MAX_ROLES_DELAY,
                                    description="seconds after the deal; null: at the end")
    announcements: str | None = Field(None, max_length=2000)


@api.get("/t/{tid}/screens")
def screens_api(request: Request, tid: int, me: Who) -> dict[str, Any]:
    s = screens_of(request).screens.settings(tid, actor=require_user(me))
    return {"roles_delay": s.roles_delay, "announcements": s.announcements,
            "overlay_link": s.overlay_link}


@api.post("/t/{tid}/screens")
def screens_set_api(request: Request, tid: int, body: ScreensIn, me: Who) -> dict[str, Any]:
    user = require_user(me)
    svc = screens_of(request)
    if "roles_delay" in body.model_fields_set:
        svc.screens.set_roles_delay(tid, body.roles_delay, actor=user)
    if body.announcements is not None:
        svc.screens.set_announcements(tid, body.announcements, actor=user)
    return screens_api(request, tid, me)


@api.post("/t/{tid}/screens/overlay-key")
def make_key_api(request: Request, tid: int, me: Who) -> dict[str, Any]:
    """A new overlay key (the old link stops working); shown only in this answer."""
    user = require_user(me)
    return {"key": screens_of(request).screens.make_overlay_key(tid, actor=user)}


@api.delete("/t/{tid}/screens/overlay-key")
def revoke_key_api(request: Request, tid: int, me: Who) -> dict[str, Any]:
    user = require_user(me)
    screens_of(request).screens.revoke_overlay_key(tid, actor=user)
    return {"overlay_link": False}


__all__ = ["OUT", "PARTS", "WORDS", "Options", "api", "router", "screens_of", "with_photos",
           "with_words"]
