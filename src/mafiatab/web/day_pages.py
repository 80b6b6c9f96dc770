"""The tournament day's pages: the desk's check-in with the next
round's no-shows, a player's own page, the teams.

* `GET /t/{tid}/checkin` (staff): every player with one big tick (44 px), the desk's QR
  code, and the next round's no-shows, each with one button (its reserve takes the seat)
  and one to re-seat the whole round for those present.
* `GET /t/{tid}/here/{key}`: the desk's QR code; opened on a player's phone after his own
  sign-in it marks him present (a phone not signed in is asked for his code first).
* `GET /code?c=...`: a player's own QR code (his sign-in code): signs in, opens his page.
* `GET /t/{tid}/me`: the player's page; `/t/{tid}/me/part` its content (the poll's
  fallback) and `/t/{tid}/me/events` the same pushed after every change (SSE).
* `GET /t/{tid}/teams`: team standings; the organizer registers teams there.

Every action is one call of a service in `services/` (checkin, my_page, teams); the JSON
API under `/api/t/{tid}/...` calls the same functions.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import threading
from collections.abc import Mapping
from typing import Annotated, Any, Final

import segno
from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from sse_starlette.sse import EventSourceResponse

from mafiatab.domain.numbers import ascii_int
from mafiatab.domain.points import format_points
from mafiatab.i18n import local_time, zone_words
from mafiatab.services.checkin import RoundPlan
from mafiatab.services.errors import PermissionDenied
from mafiatab.services.facade import Services
from mafiatab.services.teams import TeamsInvalid, TeamsRefused, parse_teams
from mafiatab.texts.web import VERDICTS
from mafiatab.web.push import PING, hub_of
from mafiatab.web.rendering import TEMPLATES, render
from mafiatab.web.security import (
    NeedLogin,
    Principal,
    check_csrf,
    code_sign_in,
    principal,
    read_form,
    require_user,
    service,
    sign_in,
)

router = APIRouter(dependencies=[Depends(check_csrf)])
Who = Annotated[Principal, Depends(principal)]
Svc = Annotated[Services, Depends(service)]

#: the page's words (Russian first, English second)
WORDS: Final[dict[str, tuple[str, str]]] = {
    "checkin": ("Регистрация игроков", "Check-in"),
    "present_n": ("На месте: {n} из {m}", "Present: {n} of {m}"),
    "present": ("На месте", "Present"),
    "absent": ("Нет", "Absent"),
    "by_qr": ("сам, по QR", "by QR"),
    "desk_qr": ("QR-код стойки регистрации", "The desk's check-in QR code"),
    "desk_qr_hint": ("Игрок входит по своему коду, затем сканирует этот QR — и отмечен.",
                     "A player signs in with his own code, then scans this QR: he is present."),
    "new_key": ("Новый QR (старый перестанет работать)", "New QR (the old one stops working)"),
    "next_round": ("Следующий тур: {stage}, тур {round}", "Next round: {stage}, round {round}"),
    "no_round": ("Ни один тур не ждёт начала: опубликуйте рассадку.",
                 "No round waits to start: publish a seating."),
    "no_shows": ("Не пришли", "No-shows"),
    "draft_round": ("Рассадка тура {round} ещё не опубликована",
                    "Round {round}'s seating is not published yet"),
    "publish_present": ("Опубликовать тур для пришедших", "Publish the round for those present"),
    "publish_hint": ("Столы тура вносятся как рассадка игр; не пришедших сразу заменяют по правилам "
                     "рассадки.", "The round's tables are entered as the games' seating; the "
                     "no-shows are replaced at once, by the seating's rules."),
    "published": ("Тур {round} опубликован.", "Round {round} published."),
    "started_tables": ("Уже играют столы {tables}: их рассадка не меняется, пересаживаются "
                       "остальные.", "Tables {tables} have started: their seating stays, the "
                       "others are re-seated."),
    "all_here": ("Все игроки тура на месте.", "Every player of the round is present."),
    "table_seat": ("стол {table}, место {seat}", "table {table}, seat {seat}"),
    "replace_by": ("Заменить: {who}", "Replace by {who}"),
    "no_reserve": ("нет запасного, который подходит", "no reserve fits"),
    "reserves": ("Запасные (на месте, не в рассадке)", "Reserves (present, not seated)"),
    "none": ("нет", "none"),
    "reseat": ("Пересадить тур для пришедших", "Re-seat the round for those present"),
    "reseat_hint": ("Показатели рассадки (встречи пар, места) сохраняются как можно лучше; "
                    "одноклубники и закреплённые — по правилам.",
                    "The seating's metrics (pairs' meetings, seats) are kept as good as they "
                    "can be; club-mates and pinned players by the rules."),
    "replaced": ("{reserve} сел(а) вместо {absent}: стол {table}.",
                 "{reserve} took the seat of {absent}: table {table}."),
    "reseated": ("Тур пересажен: изменены столы {tables}. Сумма квадратов встреч пар: {a} → {b}; "
                 "перекосов по местам: {c} → {d}.",
                 "Round re-seated: tables {tables} changed. Sum of squares of pairs' meetings: "
                 "{a} → {b}; seats out of balance: {c} → {d}."),
    "metrics": ("Самое большее встреч одной пары: {mx}; перекосов по местам: {off}",
                "Most meetings of one pair: {mx}; seats out of balance: {off}"),
    "metrics_title": ("Сумма квадратов встреч всех пар (Σ m²): {sq}; чем меньше, тем ровнее "
                      "встречи. Перекос по местам: игрок сидит на одном месте чаще или реже, "
                      "чем при равном распределении.",
                      "Sum of the squares of all pairs' meetings (Σ m²): {sq}; the smaller, the "
                      "more even the meetings. A seat out of balance: a player sits in one seat "
                      "more or less often than an even share."),
    "blank": ("Бланки протоколов тура (PDF)", "Blank protocols of the round (PDF)"),
    "player_qr": ("Код игрока (QR)", "Player's code (QR)"),
    "player_qr_hint": ("Покажите или распечатайте: игрок сканирует и попадает на свою страницу. "
                       "Код показывается один раз.",
                       "Show or print it: the player scans it and opens his page. The code is "
                       "shown once."),
    "here_done": ("Вы отмечены: {nick}. Удачной игры!", "You are checked in: {nick}. Good game!"),
    "enter_code": ("Введите свой код игрока", "Enter your player's code"),
    "sign_in": ("Войти", "Sign in"),
    "me": ("Моя страница", "My page"),
    "next_seat": ("Мой стол", "My table"),
    "next_seat_is": ("{stage}, тур {round}: стол {table}, место {seat}",
                     "{stage}, round {round}: table {table}, seat {seat}"),
    "no_next": ("Рассадки следующего тура с вами пока нет.",
                "You are not in a published seating yet."),
    "checked_in": ("Вы отмечены на регистрации", "You are checked in"),
    "not_checked_in": ("Вы ещё не отмечены на регистрации", "You have not checked in yet"),
    "standing": ("Моё место", "My standing"),
    "place_of": ("{place}-е место из {n}, итого {total}", "place {place} of {n}, total {total}"),
    "lot": ("делится, нужен жребий", "shared: a lot is needed"),
    "hidden": ("Закрытые таблицы: итоги — после турнира",
               "Hidden standings: the results after the tournament"),
    "my_games": ("Мои игры", "My games"),
    "my_cases": ("Мои протесты и апелляции", "My protests and appeals"),
    "no_cases": ("Нет.", "None."),
    "status_open": ("открыто", "open"),
    "status_decided": ("решено", "decided"),
    "status_withdrawn": ("отозвано", "withdrawn"),
    **VERDICTS,
    "kind_appeal": ("апелляция", "appeal"),
    "kind_protest": ("протест", "protest"),
    "times_in": ("время — {zone}", "times: {zone}"),
    "decide_by": ("решение до {at}", "decision by {at}"),
    "file_by": ("подать до {at}", "file by {at}"),
    "teams": ("Командный зачёт", "Team standings"),
    "team": ("Команда", "Team"),
    "members": ("Игроки", "Players"),
    "register_teams": ("Команды турнира", "The tournament's teams"),
    "teams_hint": ("По строке: «Название: id или ник, id или ник, …»",
                   "One a line: 'Name: id or nickname, id or nickname, …'"),
    "save": ("Сохранить", "Save"),
    "no_teams": ("Команды не зарегистрированы.", "No teams are registered."),
    "updated": ("обновлено", "updated"),
    "photo": ("Моё фото для трансляции", "My photo for the stream"),
    "photo_hint": ("Снимок до 3 МБ (с телефона подойдёт); обрезается до квадрата по центру.",
                   "JPEG, PNG, WebP or GIF up to 3 MB; cropped to its centred square."),
    "photo_upload": ("Загрузить фото", "Upload the photo"),
    "photo_file": ("Файл фото", "The photo's file"),
    "photo_remove": ("Удалить фото", "Remove the photo"),
}


def dw(key: str, lang: str, **params: object) -> str:
    pair = WORDS.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == "en" else pair[0]
    return text.format(**params) if params else text


_LOCK = threading.Lock()


class Day:
    """The day's services of one app, on the web service's store (its writes wake the
    push hub and forget the standings' stamps as every other write does)."""

    def __init__(self, web: Services) -> None:
        self.checkin = web.checkin
        self.my = web.my_page
        self.teams = web.teams
        self.photos = web.photos
        self.zones = web.zones


def day(request: Request) -> Day:
    d: Day = request.app.state.day
    return d


DaySvc = Annotated[Day, Depends(day)]


def install(app: FastAPI) -> None:
    """The day's services and routes (one line in `create_app`, after appeals.install)."""
    from mafiatab.web import photos  # players' photos for the overlay

    app.state.day = Day(app.state.services)
    app.include_router(router)
    app.include_router(photos.router)
    app.include_router(photos.api)


def _see(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def qr_svg(data: str, scale: int = 6) -> str:
    """An inline SVG of a QR code (segno; no image files, no script)."""
    return segno.make(data, error="m").svg_inline(scale=scale, dark="#1b1b1b", light="#fff")


def _pins(request: Request, tid: int, stage: str, user: str) -> dict[str, int]:
    """The pins the organizer gave the seating of this stage (the seating page's newest
    proposal), so that a change keeps them."""
    desk = getattr(request.app.state, "seating_desk", None)
    job = desk.job(tid, actor=user) if desk is not None else None
    if job is None or job.params.stage != stage:
        return {}
    return dict(job.params.pins)


def _plan(request: Request, d: Day, tid: int, user: str) -> RoundPlan | None:
    plan = d.checkin.next_round(tid, actor=user)
    if plan is not None:
        pins = _pins(request, tid, plan.stage, user)
        if pins:
            plan = d.checkin.next_round(tid, actor=user, pins=pins)
    return plan


def _draft(request: Request, tid: int, presence: Mapping[str, Any],
           user: str) -> dict[str, Any] | None:
    """The seating page's proposal's first round not yet published, with its no-shows (a
    round the organizer has not entered as games yet): published for those present in one
    step (`publish_present`)."""
    desk = getattr(request.app.state, "seating_desk", None)
    job = desk.job(tid, actor=user) if desk is not None else None
    if job is None or job.document is None:
        return None
    published = job.published
    for r, tables in enumerate(job.rounds(), start=1):
        if r in published:
            continue
        no_shows = [(p.id, t, i) for t, seated in enumerate(tables, start=1)
                    for i, p in enumerate(seated, start=1) if p.id not in presence]
        return {"round": r, "stage": job.params.stage, "number": job.stage_round(r),
                "tables": len(tables), "no_shows": no_shows}
    return None


def _checkin_context(request: Request, d: Day, svc: Services, me: Principal, tid: int,
                     message: str | None = None) -> dict[str, Any]:
    user = require_user(me)
    key = d.checkin.desk_key(tid, actor=user)  # the staff's page: checked first
    t, players, stages = svc.tournaments.context(tid)
    presence = d.checkin.presence(tid)
    link = f"{str(request.base_url).rstrip('/')}/t/{tid}/here/{key}"
    names = {p.id: p.nickname for p in players}
    plan = _plan(request, d, tid, user)
    return {"t": t, "tid": tid, "players": players, "presence": presence, "names": names,
            "plan": plan, "draft": _draft(request, tid, presence, user) if plan is None else None,
            "desk_link": link, "desk_qr": qr_svg(link),
            "message": message, "stage_names": {s.id: s.name for s in stages},
            "dw": lambda k, **kw: dw(k, me.lang, **kw)}


@router.get("/t/{tid}/checkin", response_class=HTMLResponse)
def checkin_page(request: Request, tid: int, me: Who, svc: Svc, d: DaySvc,
                 message: str | None = None) -> Response:
    return render(request, "checkin.html", **_checkin_context(request, d, svc, me, tid,
                                                              message))


async def _form(request: Request) -> dict[str, str]:
    data = await read_form(request)
    return {k: v for k, v in data.items() if isinstance(v, str)}


@router.post("/t/{tid}/checkin/player/{pid}")
async def tick(request: Request, tid: int, pid: str, me: Who, svc: Svc, d: DaySvc) -> Response:
    """One tap at the desk: present or not."""
    user = require_user(me)
    f = await _form(request)
    present = f.get("present", "1") == "1"
    await run_in_threadpool(d.checkin.set_present, tid, pid, present, actor=user)
    # htmx follows the redirect and swaps the list and the round's panel in place (the
    # phone keeps its scroll); without script the page comes back at the player's row
    return _see(f"/t/{tid}/checkin#ck-{pid}")


@router.post("/t/{tid}/checkin/replace")
async def replace(request: Request, tid: int, me: Who, svc: Svc, d: DaySvc) -> Response:
    user = require_user(me)
    f = await _form(request)
    stage, absent, reserve = f.get("stage", ""), f.get("absent", ""), f.get("reserve", "")
    rnd = _int(f.get("round", ""))
    tb = await run_in_threadpool(lambda: d.checkin.replace(
        tid, stage, rnd, absent, reserve, actor=user, pins=_pins(request, tid, stage, user)))
    names = {p.id: p.nickname for p in svc.tournaments.context(tid)[1]}
    msg = dw("replaced", me.lang, reserve=names.get(reserve, reserve),
             absent=names.get(absent, absent), table=tb.number)
    return _see(f"/t/{tid}/checkin?message={_q(msg)}")


@router.post("/t/{tid}/checkin/reseat")
async def reseat(request: Request, tid: int, me: Who, d: DaySvc) -> Response:
    user = require_user(me)
    f = await _form(request)
    stage, rnd = f.get("stage", ""), _int(f.get("round", ""))
    r = await run_in_threadpool(lambda: d.checkin.reseat(
        tid, stage, rnd, actor=user, pins=_pins(request, tid, stage, user)))
    msg = dw("reseated", me.lang, tables=", ".join(map(str, r.changed_tables)) or "—",
             a=r.before.sum_sq, b=r.after.sum_sq, c=r.before.seat_cells_off,
             d=r.after.seat_cells_off)
    return _see(f"/t/{tid}/checkin?message={_q(msg)}")


@router.post("/t/{tid}/checkin/publish")
async def publish_present(request: Request, tid: int, me: Who, d: DaySvc) -> Response:
    """A proposal's round not yet published: it is entered as its games' seating (the
    seating page's publish) and, when some of its players have not come, re-seated for
    those present at once: one service call, one transaction (`SeatingDesk.publish_present`)."""
    from mafiatab.services.seating_web import SeatingRefused
    from mafiatab.web.seating_pages import desk_of

    user = require_user(me)
    f = await _form(request)
    rnd = _int(f.get("round", ""))
    desk = desk_of(request.app)
    try:
        done = await run_in_threadpool(lambda: desk.publish_present(tid, rnd, actor=user))
    except SeatingRefused as e:
        return _see(f"/t/{tid}/checkin?message={_q(e.reason(me.lang))}")
    msg = dw("published", me.lang, round=done.round)
    r = done.reseated
    if r is not None:
        msg += " " + dw("reseated", me.lang,
                        tables=", ".join(map(str, r.changed_tables)) or "—",
                        a=r.before.sum_sq, b=r.after.sum_sq, c=r.before.seat_cells_off,
                        d=r.after.seat_cells_off)
    return _see(f"/t/{tid}/checkin?message={_q(msg)}")


@router.post("/t/{tid}/checkin/key")
def new_key(request: Request, tid: int, me: Who, d: DaySvc) -> Response:
    user = require_user(me)
    d.checkin.desk_key(tid, actor=user, new=True)
    return _see(f"/t/{tid}/checkin")


@router.post("/t/{tid}/checkin/player/{pid}/code", response_class=HTMLResponse)
def player_code(request: Request, tid: int, pid: str, me: Who, svc: Svc) -> Response:
    """A sign-in code for the player, as a QR card to hand over (shown once)."""
    user = require_user(me)  # the service asks for the staff first
    appeals = request.app.state.services.appeals
    _account, code = appeals.player_code(tid, pid, actor=user)
    link = f"{str(request.base_url).rstrip('/')}/code?c={code}"
    names = {p.id: p.nickname for p in svc.tournaments.context(tid)[1]}
    return render(request, "me.html", card=True, tid=tid, nickname=names.get(pid, pid),
                  code=code, qr=qr_svg(link), link=link,
                  dw=lambda k, **kw: dw(k, me.lang, **kw))


def _int(text: str) -> int:
    return ascii_int(text, 6) or 0


def _q(text: str) -> str:
    from urllib.parse import quote

    return quote(text)


# --- the player's side ---------------------------------------------------------------------


@router.get("/t/{tid}/here/{key}", response_class=HTMLResponse)
async def here(request: Request, tid: int, key: str, me: Who, svc: Svc, d: DaySvc) -> Response:
    """The desk's QR: marks the signed-in player present (idempotent), else asks for his
    code and comes back here."""
    user = me.user
    try:
        if user is None:
            raise NeedLogin()
        pid = await run_in_threadpool(d.checkin.check_in_by_qr, tid, key[:64], actor=user)
    except (NeedLogin, PermissionDenied):  # signed out, or not a player here: his code
        return render(request, "me.html", ask_code=True, next=f"/t/{tid}/here/{key[:64]}",
                      code="", dw=lambda k, **kw: dw(k, me.lang, **kw))
    names = {p.id: p.nickname for p in svc.tournaments.context(tid)[1]}
    return render(request, "me.html", here_done=True, tid=tid, nickname=names.get(pid, pid),
                  dw=lambda k, **kw: dw(k, me.lang, **kw))


@router.get("/code", response_class=HTMLResponse)
def code_page(request: Request, me: Who, c: str = "", next: str = "") -> Response:
    """A player's own QR code lands here: his code filled in, one tap to sign in."""
    return render(request, "me.html", ask_code=True, code=c[:64], next=_safe(next),
                  dw=lambda k, **kw: dw(k, me.lang, **kw))


@router.post("/code")
async def code_post(request: Request, me: Who, svc: Svc) -> Response:
    f = await _form(request)
    found = await code_sign_in(request, f.get("code", ""))
    if found is None:
        return render(request, "me.html", status_code=401, ask_code=True, bad=True,
                      code="", next=_safe(f.get("next", "")),
                      dw=lambda k, **kw: dw(k, me.lang, **kw))
    user, tid = found
    code = f.get("code", "")
    await run_in_threadpool(lambda: sign_in(request, user, code=code))
    nxt = _safe(f.get("next", ""))
    return _see(nxt or f"/t/{tid}/me")


def _safe(value: str) -> str:
    """Only a path of this site (no scheme, no host, no //)."""
    if value.startswith("/") and not value.startswith("//") and "\\" not in value:
        return value[:300]
    return ""


def _me_context(d: Day, me: Principal, tid: int) -> dict[str, Any]:
    user = require_user(me)
    page = d.my.page(tid, actor=user)
    zone = d.zones.zone(tid)

    def when(value: dt.datetime) -> str:
        """A moment on the tournament's clock, as every page shows it (never UTC)."""
        return local_time(value, zone, me.lang)

    return {"tid": tid, "page": page, "dw": lambda k, **kw: dw(k, me.lang, **kw),
            "fmt": lambda v: format_points(v, me.lang), "when": when,
            "zone_words": zone_words(zone, me.lang)}


@router.get("/t/{tid}/me", response_class=HTMLResponse)
def me_page(request: Request, tid: int, me: Who, d: DaySvc) -> Response:
    from mafiatab.web.photos import photo_url

    context = _me_context(d, me, tid)
    page = context["page"]
    digests = d.photos.digests(tid)
    photos = {page.player: photo_url(tid, page.player, digests[page.player])} \
        if page.player in digests else {}
    return render(request, "me.html", mine=True, **context, photos=photos,
                  p={"id": page.player, "nickname": page.nickname}, photo_next=f"/t/{tid}/me",
                  headers={"Cache-Control": "no-store"})


def _me_part(d: Day, me: Principal, tid: int) -> str:
    from mafiatab.web import texts

    context = _me_context(d, me, tid)
    context.update(lang=me.lang, me=me, csrf=me.csrf,
                   w=lambda key, **kw: texts.word(key, me.lang, **kw))
    return TEMPLATES.get_template("me_part.html").render(context)


@router.get("/t/{tid}/me/part", response_class=HTMLResponse)
def me_part(request: Request, tid: int, me: Who, d: DaySvc) -> Response:
    """The page's content (its poll while the stream is down)."""
    return HTMLResponse(_me_part(d, me, tid), headers={"Cache-Control": "no-store"})


@router.get("/t/{tid}/me/events")
async def me_events(request: Request, tid: int, d: DaySvc) -> Response:
    """The page's content pushed after every change of the tournament (one probe per
    tournament for all its players' pages; one render per player)."""
    me = await run_in_threadpool(principal, request)
    user = require_user(me)
    await run_in_threadpool(d.my.player_of, tid, user)  # 403 before the stream opens
    token = request.session.get("sid")
    accounts = service(request).accounts

    def signed_in() -> bool:
        return isinstance(token, str) and accounts.session_user(token) == user

    async def stream() -> Any:
        # the session is checked again before every event: a revoked code, a sign-out or
        # "sign out everywhere" ends the stream too, not only the next request
        async for event in hub_of(request).events(("me", tid), lambda: d.my.version(tid),
                                                  ("me", user, me.lang),
                                                  lambda: _me_part(d, me, tid)):
            if not await run_in_threadpool(signed_in):
                yield {"event": "gone", "data": "gone"}  # an empty event is not delivered
                return
            yield event

    return EventSourceResponse(
        hub_of(request).while_signed_in(stream(), token), ping=PING,
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


# --- teams ---------------------------------------------------------------------------------


def _teams_context(svc: Services, d: Day, me: Principal, tid: int) -> dict[str, Any]:
    t, players, _stages = svc.tournaments.context(tid)
    vis = svc.access.visibility(tid)
    staff = me.is_staff(tid)
    shown = d.teams.view(tid, actor=me.user)
    hidden, rows = shown is None, shown or []
    return {"t": t, "tid": tid, "rows": rows, "hidden": hidden, "staff": staff,
            "organizer": me.has(tid, {"organizer"}), "teams": d.teams.teams(tid),
            "names": {p.id: p.nickname for p in players},
            "extras_hidden": vis.extras_hidden and not staff,
            "dw": lambda k, **kw: dw(k, me.lang, **kw)}


@router.get("/t/{tid}/teams", response_class=HTMLResponse)
def teams_page(request: Request, tid: int, me: Who, svc: Svc, d: DaySvc) -> Response:
    return render(request, "teams.html", **_teams_context(svc, d, me, tid))


@router.post("/t/{tid}/teams")
async def teams_post(request: Request, tid: int, me: Who, svc: Svc, d: DaySvc) -> Response:
    user = require_user(me)
    f = await _form(request)
    _t, players, _stages = svc.tournaments.context(tid)
    try:
        try:
            teams = parse_teams(f.get("teams", ""), players)
        except TeamsInvalid:
            d.teams.require_may_register(tid, user)  # the asker's refusal before the text's
            raise
        await run_in_threadpool(d.teams.register, tid, teams, actor=user)
    except TeamsInvalid as e:
        return render(request, "teams.html", status_code=422, error=e.message(me.lang),
                      typed=f.get("teams", ""), **_teams_context(svc, d, me, tid))
    except TeamsRefused as e:
        # the refusal's own problems (codes of the catalogue), a player named by nickname
        names = {p.id: p.nickname for p in players}
        error = "; ".join(
            dataclasses.replace(p, params={k: names.get(v, v) for k, v in p.params.items()})
            .message(me.lang) for p in e.problems)
        return render(request, "teams.html", status_code=422, error=error,
                      typed=f.get("teams", ""), **_teams_context(svc, d, me, tid))
    return _see(f"/t/{tid}/teams")


# --- the JSON API --------------------------------------------------------------------------


@router.get("/api/t/{tid}/checkin")
def api_checkin(request: Request, tid: int, me: Who, d: DaySvc) -> Response:
    user = require_user(me)
    plan = _plan(request, d, tid, user)
    return JSONResponse({
        "present": sorted(d.checkin.presence(tid)),
        "next_round": None if plan is None else {
            "stage": plan.stage, "round": plan.round,
            "no_shows": [{"player": n.player, "table": n.table, "seat": n.seat,
                          "suggested": n.suggested} for n in plan.no_shows],
            "reserves": plan.reserves, "metrics": plan.metrics.as_json()}})


@router.post("/api/t/{tid}/checkin/{pid}")
async def api_tick(request: Request, tid: int, pid: str, me: Who, d: DaySvc) -> Response:
    user = require_user(me)
    body: Any = {}
    if request.headers.get("content-length") not in (None, "0"):
        try:
            body = await request.json()
        except ValueError:
            body = None
    present = body.get("present", True) if isinstance(body, dict) else None
    # neither true nor false: the service refuses it once it has checked the asker
    done = await run_in_threadpool(d.checkin.set_present, tid, pid,
                                   present if isinstance(present, bool) else None, actor=user)
    return JSONResponse({"player": pid, "present": done})


@router.get("/api/t/{tid}/me")
def api_me(tid: int, me: Who, d: DaySvc) -> Response:
    """The player's page as JSON (the same call as the page)."""
    page = d.my.page(tid, actor=require_user(me))
    n = page.next_seat
    return JSONResponse({
        "player": page.player, "nickname": page.nickname, "present": page.presence is not None,
        "next": None if n is None else {"stage": n.stage, "round": n.round, "table": n.table,
                                        "seat": n.seat, "game": n.game},
        "standings_hidden": page.standings_hidden, "place": page.place,
        "total": None if page.total is None else format_points(page.total, "en"),
        "games": [{"game": g.game, "round": g.round, "table": g.table, "seat": g.seat,
                   "total": format_points(g.total, "en"),
                   "parts": [{"kind": x.kind, "points": format_points(x.points, "en"),
                              "clause": x.clause} for x in g.parts]} for g in page.games],
        "cases": [{"id": c.view.id, "game": c.view.case.filing.game,
                   "status": c.view.case.status.value,
                   "decide_by": c.view.decide_by.isoformat() if c.view.decide_by else None,
                   "file_by": c.filing_deadline.isoformat() if c.filing_deadline else None}
                  for c in page.cases]})


@router.get("/api/t/{tid}/teams")
def api_teams(tid: int, me: Who, svc: Svc, d: DaySvc) -> Response:
    rows = d.teams.view(tid, actor=me.user, refuse=True) or []
    return JSONResponse({"teams": [
        {"team": r.team, "name": r.name, "place": r.place, "lot_needed": r.lot_needed,
         "members": list(r.members), "games": r.games, "wins": r.wins,
         "total": str(format_points(r.total, "en"))} for r in rows]})


__all__ = ["WORDS", "Day", "dw", "install", "qr_svg", "router"]
