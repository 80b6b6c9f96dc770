"""The hall's screen, and the public standings pushed to their page.

`GET /t/{tid}/hall` is a full-screen page for a TV in the hall: the standings (the stage,
"после 3-го тура"), the next round's seating, and the organizer's announcements, in
letters readable from ten metres; `static/hall.js` pages through a long table by itself.
It shows what the public sees, whoever is signed in on the laptop that drives the TV:
closed standings stay closed, and no role of any game is ever on it.

`GET /t/{tid}/standings/events` pushes the public standings table (the fragment the page
polls) after every change; the page's htmx poll runs only while the stream is down.
"""

from __future__ import annotations

import json
import socket
from typing import Any, Final

import segno
from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sse_starlette.sse import EventSourceResponse

from mafiatab.domain.points import format_points
from mafiatab.i18n import pick
from mafiatab.services.facade import Services
from mafiatab.services.screens import Hall
from mafiatab.web.deps import Who
from mafiatab.web.overlay import screens_of
from mafiatab.web.pages import public_table
from mafiatab.web.push import PING, hub_of
from mafiatab.web.rendering import TEMPLATES
from mafiatab.web.security import LANGS, Principal, check_csrf, principal

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)

#: the event that asks a page to re-read its own content (an empty event is never
#: delivered by EventSource)
REREAD: Final = "reread"
#: seconds a page of a long table stays on the screen (the operator may pass ?page=)
PAGE_SECONDS: Final = 12
WORDS: dict[str, tuple[str, str]] = {
    "standings": ("Турнирная таблица", "Standings"),
    "seating": ("Рассадка", "Seating"),
    "next_round": ("{stage}, тур {round}", "{stage}, round {round}"),
    "table": ("Стол {table}", "Table {table}"),
    "announcements": ("Объявления", "Announcements"),
    "hidden": ("Закрытые таблицы: итоги — после турнира",
               "Hidden standings: the results after the tournament"),
    "extras_hidden": ("Доп. баллы скрыты до конца турнира", "Extra points hidden until the end"),
    "place": ("Место", "Place"),
    "player": ("Игрок", "Player"),
    "total": ("Итого", "Total"),
    "main": ("Осн.", "Main"),
    "games": ("Игры", "Games"),
    "wins": ("Победы", "Wins"),
    "no_seating": ("Рассадки следующего тура пока нет", "The next round is not seated yet"),
    "page": ("стр. {n} из {m}", "page {n} of {m}"),
    "wifi": ("Wi-Fi зала: {ssid}", "The hall's Wi-Fi: {ssid}"),
    "wifi_password": ("пароль: {password}", "password: {password}"),
    "address": ("Протоколы и таблица: {url}", "Protocols and standings: {url}"),
}


def after_round(n: int, lang: str) -> str:
    """"после 3-го тура" / "after round 3" (the ordinal's ending agrees: 3-го)."""
    return f"после {n}-го тура" if lang == "ru" else f"after round {n}"


def hall_json(hall: Hall, lang: str) -> dict[str, Any]:
    """The screen's content with its words, points written as the reader's language
    writes them (decimal comma in Russian)."""
    rows = None
    if hall.rows is not None:
        rows = []
        for r in hall.rows:
            row: dict[str, Any] = {"name": r.nickname, "games": r.games, "wins": r.wins}
            if hall.extras_hidden:
                row["main"] = format_points(r.main, lang, fixed=True)
            else:
                row.update(place=f"{r.place}{'*' if r.lot_needed else ''}",
                           total=format_points(r.total, lang, fixed=True))
            rows.append(row)
    title = hall.stage or ""
    if hall.after_round:
        title += f" · {after_round(hall.after_round, lang)}" if title else after_round(
            hall.after_round, lang)
    nxt = None
    if hall.next_round is not None:
        nxt = pick(WORDS, "next_round", lang).format(stage=hall.next_stage or "",
                                                     round=hall.next_round)
    return {
        "tournament": hall.tournament, "title": title, "rows": rows,
        "extras_hidden": hall.extras_hidden, "next": nxt,
        "tables": [{"table": t.table, "title": pick(WORDS, "table", lang).format(table=t.table),
                    "seats": [[s, n] for s, n in t.seats]} for t in hall.tables],
        "announcements": hall.announcements,
    }


def wifi_code(ssid: str, password: str) -> str:
    """The text of a QR code that joins a Wi-Fi network (the `WIFI:` form phones read);
    `\\ ; , : "` in a name or password are escaped with a backslash."""
    def esc(text: str) -> str:
        return "".join("\\" + c if c in '\\;,:"' else c for c in text)
    kind = "WPA" if password else "nopass"
    return f"WIFI:T:{kind};S:{esc(ssid)};P:{esc(password)};;" if password else (
        f"WIFI:T:{kind};S:{esc(ssid)};;")


def lan_address() -> str | None:
    """This computer's address on the hall's network (the interface its default route
    leaves by; nothing is sent), or None without a network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET: a route is looked up, no packet goes
            address: str = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def server_address(request: Request) -> str:
    """The address phones in the hall open: the one the TV's browser used, unless that
    is this computer's own loopback (a laptop driving the TV), then its hall address."""
    url = request.base_url
    host = url.hostname or ""
    if host in ("127.0.0.1", "localhost", "::1"):
        lan = lan_address()
        if lan is not None:
            return str(url.replace(netloc=f"{lan}:{url.port}" if url.port else lan))
    return str(url)


def _svg(data: str) -> str:
    # a viewBox instead of a size: the code fills the box the screen gives it
    return str(segno.make(data, error="m").svg_inline(border=2, dark="#000", light="#fff",
                                                       omitsize=True))


def hall_qr(request: Request, ssid: str | None, password: str | None, lang: str
            ) -> dict[str, Any]:
    """The QR codes the hall's TV shows for the phones: the hall's Wi-Fi (when named)
    and the server's address, each with its words."""
    out: dict[str, Any] = {}
    ssid = (ssid or "").strip()[:64]
    password = (password or "")[:64]
    if ssid:
        out["wifi_svg"] = _svg(wifi_code(ssid, password))
        out["wifi"] = pick(WORDS, "wifi", lang).format(ssid=ssid)
        if password:
            out["wifi_password"] = pick(WORDS, "wifi_password", lang).format(password=password)
    url = server_address(request)
    out["address_svg"] = _svg(url)
    out["address"] = pick(WORDS, "address", lang).format(url=url)
    return out


def _lang(lang: str | None, me: Principal) -> str:
    return lang if lang in LANGS else me.lang


@router.get("/t/{tid}/hall", response_class=HTMLResponse)
def hall_page(request: Request, tid: int, me: Who, lang: str | None = None,
              page: int = PAGE_SECONDS, qr: bool = False, wifi: str | None = None,
              password: str | None = None) -> Response:
    """The hall's TV: full screen, pages by itself, pushed after every change. `qr`:
    also the QR codes of the hall's Wi-Fi (`wifi`, `password`) and of this server's
    address, for a hall without internet whose server is a laptop (docs/web.md)."""
    svc = screens_of(request)
    lang = _lang(lang, me)
    boot = {"state": hall_json(svc.screens.hall(tid), lang), "lang": lang,
            "page_seconds": max(3, min(120, page)),
            "words": {k: pick(WORDS, k, lang) for k in WORDS},
            "events": f"/t/{tid}/hall/events?lang={lang}",
            "poll": f"/t/{tid}/hall/state?lang={lang}"}
    return TEMPLATES.TemplateResponse(request, "hall.html", {
        "request": request, "lang": lang,
        "qr": hall_qr(request, wifi, password, lang) if qr or wifi else None,
        "boot": json.dumps(boot, ensure_ascii=False).replace("<", "\\u003c")},
        headers={"Cache-Control": "no-store"})


@router.get("/t/{tid}/hall/state")
def hall_state(request: Request, tid: int, me: Who, lang: str | None = None) -> Response:
    return JSONResponse(hall_json(screens_of(request).screens.hall(tid), _lang(lang, me)),
                        headers={"Cache-Control": "no-store"})


@router.get("/t/{tid}/hall/events")
async def hall_events(request: Request, tid: int, lang: str | None = None) -> Response:
    me = await run_in_threadpool(principal, request)
    svc: Services = screens_of(request)
    await run_in_threadpool(svc.tournaments.context, tid)  # 404 for an unknown tournament
    lang = _lang(lang, me)

    def draw() -> str:
        return json.dumps(hall_json(svc.screens.hall(tid), lang), ensure_ascii=False)

    return hub_of(request).response(("hall", tid), lambda: svc.screens.hall_version(tid), lang, draw,
                                    request)


def _public_table(svc: Services, tid: int, stage: str | None, lang: str) -> str:
    """The public standings fragment, as the page's poll serves it to the public."""
    return public_table(svc, tid, stage, lang).decode()


@router.get("/t/{tid}/standings/events")
async def standings_events(request: Request, tid: int, stage: str | None = None) -> Response:
    """The standings page's stream: the public table itself after every change; staff
    get `reread` and re-read their own table (they see what the public does not)."""
    me = await run_in_threadpool(principal, request)
    svc = screens_of(request)
    _t, _players, stages = await run_in_threadpool(svc.tournaments.context, tid)
    stage = stage if stage in {s.id for s in stages} else None
    staff = await run_in_threadpool(
        lambda: svc.standings.stream_variant(tid, actor=me.user) == "staff")

    def draw() -> str:
        return REREAD if staff else _public_table(svc, tid, stage, me.lang)

    variant = ("staff",) if staff else ("public", stage, me.lang)
    events = hub_of(request).events(("standings", tid), lambda: svc.standings.stamp(tid), variant,
                                    draw)
    if not staff:
        return EventSourceResponse(events, ping=PING, headers={"Cache-Control": "no-store",
                                                               "X-Accel-Buffering": "no"})
    token, user = request.session.get("sid"), me.user

    def still_staff() -> bool:
        # a staff listener's "re-read" rests on his session and role: a sign-out, "sign out
        # everywhere" or a role taken away ends it before the next event (the page's poll
        # then reads what it may), as the judge's and the player's streams do
        return (isinstance(token, str) and user is not None
                and svc.accounts.session_user(token) == user
                and svc.standings.stream_variant(tid, actor=user) == "staff")

    async def stream() -> Any:
        async for event in events:
            if not await run_in_threadpool(still_staff):
                yield {"event": "gone", "data": "gone"}  # an empty event is not delivered
                return
            yield event

    return EventSourceResponse(hub_of(request).while_signed_in(stream(), token), ping=PING,
                               headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


__all__ = ["PAGE_SECONDS", "WORDS", "after_round", "hall_json", "hall_qr", "router",
           "server_address", "wifi_code"]
