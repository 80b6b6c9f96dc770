"""Protests and appeals on the web, with the charts and the downloads.

Pages: a player files from the game's page (`/t/{tid}/games/{code}/appeal`); each case
has a thread page for the player who filed, the game's judge and the head judge (with the
decision form for the head judge or the appeals commission); `/t/{tid}/appeals` lists the
cases the asker may read, open ones first with their deadlines, and for staff the
schedule, the players' sign-ins and the downloads. The JSON API under `/api` does the
same. Charts are SVG from `formats.charts`, drawn once per tournament change; the
standings as XLSX/CSV/PDF and the protocols as PDF (blank for a round, filled for a game)
are for staff, and public only where the tournament publishes its standings (and extras).

The rules are the core's (`domain.appeals`), the transactions the service's
(`services.appeals`); each route here checks who asks, calls, renders.
"""

from __future__ import annotations

import datetime as dt
import json
import zoneinfo
from decimal import Decimal
from functools import lru_cache
from typing import Any, Final

import msgspec
from babel import Locale
from babel.core import get_global
from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import Field

from mafiatab.domain import appeals as ap
from mafiatab.domain.numbers import ascii_int
from mafiatab.domain.protocol import Game, SeatScores
from mafiatab.i18n import PENALTY, local_time, pick, utc_offset, zone_place, zone_words
from mafiatab.rules import PROFILES
from mafiatab.rules.profile import RuleProfile
from mafiatab.services.appeals import (
    CaseView,
    change_of,
    filing_of,
    refusals_json,
    schedule_of,
)
from mafiatab.services.clock import server_zone_name, utcnow
from mafiatab.services.facade import Services
from mafiatab.services.tournament_file import profile_for
from mafiatab.texts import number
from mafiatab.texts.web import VERDICTS
from mafiatab.web.deps import Svc, Who
from mafiatab.web.refusals import BadInput
from mafiatab.web.rendering import render
from mafiatab.web.security import (
    MAX_TEXT,
    Body,
    Principal,
    attachment,
    check_csrf,
    read_form,
    require_user,
)

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)
api = APIRouter(prefix="/api", dependencies=[Depends(check_csrf)], tags=["appeals"])

WORDS: Final[dict[str, tuple[str, str]]] = {
    "appeals": ("Протесты и апелляции", "Protests and appeals"),
    "file": ("Подать протест или апелляцию", "File a protest or an appeal"),
    "protest": ("Протест на результат", "Protest on the result"),
    "appeal": ("Апелляция на свой балл", "Appeal of one's score"),
    "subject": ("Что оспаривается", "What is disputed"),
    "positive_extra": ("доп. балл", "extra point"),
    "penalty": ("штраф", "penalty"),
    "other": ("другое", "other"),
    "result": ("результат", "result"),
    "awarded": ("Присуждено", "Awarded"),
    "claimed": ("Прошу", "Asked for"),
    "text": ("Суть", "What happened"),
    "send": ("Отправить", "Send"),
    "until": ("Подать можно до {at} ({clause})", "May be filed until {at} ({clause})"),
    "until_inclusive": ("Подать можно не позднее {at} ({clause})",
                        "May be filed until {at} inclusive ({clause})"),
    "closed": ("Срок подачи истёк {at} ({clause})", "The time to file ended {at} ({clause})"),
    "time_zone": ("Часовой пояс турнира", "The tournament's time zone"),
    "zone_hint": ("Все сроки и время событий игр — по этому поясу.",
                  "Every deadline and game event is shown on this clock."),
    "zone_server": ("как у сервера ({server})", "the server's ({server})"),
    "times_in": ("Время — {zone}", "Times: {zone}"),
    "no_decide_by": ("срок решения по ФСМ 8.9.2 прошёл до подачи",
                     "the decision's deadline passed before the filing"),
    "no_deadline": ("Срок правилами не ограничен", "The rules set no deadline"),
    "decide_by": ("решить до", "decide by"),
    "thread": ("Обсуждение", "Thread"),
    "decision": ("Решение", "Decision"),
    "outcome_rejected": ("отклонить", "reject"),
    "outcome_accepted": ("удовлетворить", "accept"),
    "outcome_replay": ("переиграть", "replay"),
    "new_result": ("Новый результат", "New result"),
    "seat_extra": ("Место и новый доп. балл", "Seat and its new extra"),
    "what_changes": ("Что изменить (при «удовлетворить»)",
                     "What changes (when accepted)"),
    "seat_of": ("Место {seat} — {player}", "Seat {seat}: {player}"),
    "extra_now": ("Доп. балл", "Extra"),
    "pu_extra_now": ("Доп. балл ПУ", "First killed's extra"),
    "will_now": ("Оценка завещания", "Will"),
    "protocol_now": ("Оценка протокола", "Protocol evaluation"),
    "fouls_now": ("Фолы", "Fouls"),
    "penalty_line": ("Штраф {points}{kind}", "Penalty {points}{kind}"),
    "penalty_remove": ("снять", "remove"),
    "penalty_size": ("новый размер", "new size"),
    "no_penalties": ("Штрафов нет", "No penalties"),
    "pu_entries": ("Протокол ПУ (например, 3ч 5ч 7к)", "First killed's protocol (e.g. 3b 5b 7r)"),
    "other_seat": ("Другое место", "Another seat"),
    "first_killed": ("ПУ (место)", "First killed (seat)"),
    "best_move": ("ЛХ (места через пробел)", "Best move (seats, spaces between)"),
    "empty_clears": ("Пустое поле снимает балл; неизменённое остаётся как было.",
                     "An emptied field takes the value away; an unchanged one stays."),
    **VERDICTS,
    "changed": ("Изменено в протоколе", "Changed in the protocol"),
    "committee": ("Согласовано с Судейским комитетом", "The judicial committee agreed"),
    "non_game": ("Внеигровое преимущество", "Non-game advantage"),
    "withdraw": ("Отозвать", "Withdraw"),
    "status_open": ("открыто", "open"),
    "status_decided": ("решено", "decided"),
    "status_withdrawn": ("отозвано", "withdrawn"),
    "no_cases": ("Дел нет", "No cases"),
    "schedule": ("Расписание (для сроков)", "Schedule (for the deadlines)"),
    "schedule_hint": ("Каждый тур: день турнира и начало; время — {zone}. Тур без начала "
                      "не входит в расписание.",
                      "Each round: the tournament's day and its start; times: {zone}. A round "
                      "without a start is left out of the schedule."),
    "schedule_round": ("Тур", "Round"),
    "schedule_day": ("День", "Day"),
    "schedule_starts": ("Начало", "Starts"),
    "schedule_row": ("{stage}, тур {n}", "{stage}, round {n}"),
    "schedule_new": ("Ещё тур", "Another round"),
    "tables_closed": ("Таблицы закрыты (пусто — ещё нет), время — {zone}:",
                      "Tables closed at (empty: not yet), time: {zone}:"),
    "schedule_missing": ("Расписание не введено: сроки считаются от фактических стартов туров, "
                         "последним считается последний начавшийся тур",
                         "No schedule entered: deadlines count the rounds' actual starts, and the "
                         "latest started round is taken as the last"),
    "player_access": ("Вход для игрока", "A player's sign-in"),
    "player_code": ("Код для игрока {player} ({user}): {code} — покажите его один раз",
                    "Code for player {player} ({user}): {code} — shown once"),
    "downloads": ("Выгрузки", "Downloads"),
    "blank": ("Пустые бланки тура", "Blank protocols of a round"),
    "filled": ("Протокол (PDF)", "Protocol (PDF)"),
    "charts": ("Графики", "Charts"),
    "game_end": ("Игра окончена в", "The game ended at"),
    "revision_made": ("Протокол: ревизия {n}", "Protocol: revision {n}"),
    "warnings": ("Предупреждения", "Warnings"),
    "refused": ("Отказано", "Refused"),
    "player": ("Игрок", "Player"),
    "filed": ("подано", "filed"),
}


def aw(key: str, lang: str, **params: object) -> str:
    pair = WORDS.get(key)
    text = key if pair is None else pair[0 if lang == "ru" else 1]
    return text.format(**params) if params else text


def status_words(view: CaseView, lang: str) -> str:
    """A case's state as people say it: a decided appeal «удовлетворена» / «отклонена»
    (a protest «удовлетворён» / «отклонён»), else open or withdrawn."""
    verdict = view.verdict()
    if verdict is None:
        return aw("status_" + view.case.status.value, lang)
    return aw(f"verdict_{verdict}_{view.case.filing.kind.value}", lang)






def install(app: FastAPI) -> None:
    """Register the routes (one line in app.py); their refusals are the app's one
handler's (`app.refusal`)."""
    app.include_router(router)
    app.include_router(api)



def _see(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


async def _form(request: Request) -> dict[str, str]:
    data = await read_form(request)
    return {k: v for k, v in data.items() if isinstance(v, str)}


def _when(value: str, zone: dt.tzinfo = dt.UTC) -> dt.datetime:
    """A time typed in a form: with no offset it is on the tournament's clock (`zone`;
    the zone database resolves daylight saving time)."""
    try:
        moment = dt.datetime.fromisoformat(value.strip()[:40])
    except ValueError:
        raise BadInput("bad_time", value=value[:40]) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=zone)


def _when_or_none(value: str, zone: dt.tzinfo = dt.UTC) -> dt.datetime | None:
    """`_when`, or None for a blank or unreadable time (the service refuses it once it
    has checked the asker)."""
    try:
        return _when(value, zone) if value.strip() else None
    except BadInput:
        return None


def clock_words(svc: Services, tid: int, lang: str) -> dict[str, Any]:
    """What every page of the cases needs to show moments: the zone, its IANA name (the
    select's value), its words («Москва (UTC+3)»), `when` (a moment as «07.03.2026 14:30
    (Москва, UTC+3)») and `local` (the form's value)."""
    zone = svc.zones.zone(tid)

    def when(value: dt.datetime | None) -> str:
        return local_time(value, zone, lang) if value is not None else ""

    def local(value: dt.datetime | None) -> str:
        if value is None:
            return ""
        return value.astimezone(zone).replace(tzinfo=None).isoformat(timespec="minutes")

    return {"zone": zone, "zone_name": zone.key,
            "zone_words": zone_words(zone, lang), "when": when, "local": local,
            "now": utcnow()}


# --- JSON of a case ------------------------------------------------------------------------


def case_json(v: CaseView, lang: str) -> dict[str, Any]:
    c = v.case
    out: dict[str, Any] = msgspec.to_builtins(c)
    out.update(number=v.number, revision=v.revision,
               changes=[{**c.as_dict(), "message": c.message(lang)} for c in v.changes],
               warnings=v.warnings, verdict=v.verdict(), status_words=status_words(v, lang),
               decide_by=v.decide_by.isoformat() if v.decide_by else None)
    return out


# --- pages -----------------------------------------------------------------------------------


def _list_context(svc: Services, me: Principal, tid: int, user: str) -> dict[str, Any]:
    cases = svc.appeals.cases(tid, actor=user)  # first: the service refuses the uninvolved
    t, players, stages = svc.tournaments.context(tid)
    staff = me.is_staff(tid)
    rounds = sorted({(g.stage, g.round) for g in svc.games.overview(tid)})
    schedule = svc.appeals.schedule(tid, actor=user) if staff else None
    zones = zone_choices(me.lang) if staff else []
    return {**clock_words(svc, tid, me.lang), "zone_set": svc.zones.is_set(tid),
            "server_zone": dict(zones).get(server_zone_name(), server_zone_name()),
            "zones": zones,
            "schedule_rows": schedule_rows(schedule, rounds) if schedule is not None else [],
            "stages": stages,
            "t": t, "tid": tid, "cases": cases, "staff": staff,
            "names": {p.id: p.nickname for p in players}, "players": players,
            "schedule": schedule,
            "schedule_warnings": svc.appeals.schedule_warnings(tid, actor=user) if staff else [],
            "linked": svc.appeals.linked_players(tid, actor=user) if staff else {}, "rounds": rounds,
            "mine": svc.appeals.players_of(tid, user), "aw": lambda k, **kw: aw(k, me.lang, **kw),
            "status_of": lambda v: status_words(v, me.lang), "code_made": None}


@router.get("/t/{tid}/appeals", response_class=HTMLResponse)
def appeals_page(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    return render(request, "appeals.html", **_list_context(svc, me, tid, user))


def _filer(svc: Services, me: Principal, tid: int, code: str) -> tuple[str, set[str]]:
    """The account and the players it files for (the service refuses anyone but a
    player or staff)."""
    user = require_user(me)
    return user, svc.appeals.filer(tid, code, actor=user)


def _awarded(svc: Services, tid: int, code: str, lang: str) -> dict[str, dict[str, str]]:
    """What each player of the game was awarded, as the appeal form fills it in: his
    judge's extra and the sum of his penalties, as the protocol has them."""
    info = svc.games.confirmed(tid, code) or svc.games.head(tid, code)
    game = info.game_struct()
    profile, _ = profile_for(svc.tournaments.tournament(tid))
    out: dict[str, dict[str, str]] = {}
    for s in game.seats:
        sc = game.scores.get(s.seat, SeatScores())
        extra = sc.extra if sc.extra is not None else sc.pu_extra
        penalty = sum((Decimal(p) for p in (ap.penalty_points(x, profile)
                                            for x in sc.penalties) if p is not None),
                      Decimal(0))
        out[s.player] = {"positive_extra": number(extra or Decimal(0), lang),
                         "penalty": number(penalty, lang)}
    return out


def _new_context(svc: Services, me: Principal, tid: int, code: str, mine: set[str],
                 refusals: list[ap.Refusal] | None = None,
                 values: dict[str, str] | None = None) -> dict[str, Any]:
    t, players, _stages = svc.tournaments.context(tid)
    deadlines = {}
    for kind in ap.Kind:
        found, missing = svc.appeals.filing_deadline(tid, code, kind, actor=require_user(me))
        deadlines[kind.value] = (found, missing)
    awarded = _awarded(svc, tid, code, me.lang)
    own = sorted(mine)[0] if len(mine) == 1 else (players[0].id if players else "")
    first = (values or {}).get("subject", "positive_extra")
    return {**clock_words(svc, tid, me.lang), "is_open": ap.is_open,
            "awarded": awarded, "awarded_json": json.dumps(awarded, ensure_ascii=False),
            "own": own, "awarded_now": awarded.get(own, {}).get(first, ""),
            "t": t, "tid": tid, "code": code, "mine": sorted(mine),
            "players": players, "staff": me.is_staff(tid),
            "score_appeals": PROFILES[t.rules].score_appeals.value,
            "deadlines": deadlines, "refusals": refusals or [], "v": values or {},
            "aw": lambda k, **kw: aw(k, me.lang, **kw)}


@router.get("/t/{tid}/games/{code}/appeal", response_class=HTMLResponse)
def new_page(request: Request, tid: int, code: str, me: Who, svc: Svc) -> Response:
    _user, mine = _filer(svc, me, tid, code)
    return render(request, "appeal_new.html", **_new_context(svc, me, tid, code, mine))


def _decimal(value: str | None) -> str | None:
    """A number as typed (a decimal comma, a real minus) as the records take it."""
    value = (value or "").strip().replace(",", ".").replace("−", "-").replace("–", "-")
    return value or None


@router.post("/t/{tid}/games/{code}/appeal")
async def file_page(request: Request, tid: int, code: str, me: Who, svc: Svc) -> Response:
    user, mine = _filer(svc, me, tid, code)
    f = await _form(request)
    player = f.get("player") or (sorted(mine)[0] if len(mine) == 1 else "")
    if not player:
        raise BadInput("whose_case")
    kind = f.get("kind", "appeal")
    data: dict[str, Any] = {"kind": kind, "player": player, "game": code,
                            "subject": "result" if kind == "protest" else f.get("subject", "other"),
                            "awarded": _decimal(f.get("awarded")),
                            "claimed": _decimal(f.get("claimed")), "text": f.get("text", "")}
    try:
        filing = filing_of(data)
    except msgspec.ValidationError as e:
        raise BadInput("filing_unreadable", detail=str(e)[:200]) from None
    try:
        view = svc.appeals.file(tid, filing, actor=user)
    except ap.Refused as e:
        return render(request, "appeal_new.html", status_code=422,
                      **_new_context(svc, me, tid, code, mine, e.refusals, f))
    return _see(f"/t/{tid}/appeals/{view.id}")


def moments_of_case(svc: Services, tid: int, view: CaseView, lang: str) -> dict[str, Any]:
    """The moments of the case's game (its published protocol, else the newest), so that
    the thread links each event to its time and its place in the video."""
    from mafiatab.web.game_time import moment_rows

    code = view.case.filing.game
    info = svc.games.confirmed(tid, code) or svc.games.head(tid, code)
    return {"gm": moment_rows(svc, tid, info.game_struct(), lang)}


def _seat_form(game: Game, seat: int, profile: RuleProfile, lang: str) -> dict[str, Any]:
    """One seat's parts of the decision form, filled with what the protocol says now."""
    sc = game.scores.get(seat, SeatScores())
    player = next((s.player for s in game.seats if s.seat == seat), "")
    fk = (seat == game.first_killed and profile.has_first_killed_protocol.value)
    # the first killed's extra is his own (FSM 8.3.9.1): that field is always offered
    always = "pu_extra" if fk else "extra"
    values = []
    for name in ("extra", "pu_extra", "will", "protocol"):
        value = getattr(sc, name)
        if name == always or value is not None:
            values.append((name, "" if value is None else number(value, lang)))
    penalties = []
    for i, pen in enumerate(sc.penalties):
        written = ap.penalty_points(pen, profile)
        kind = "" if pen.kind == "game_action" else f" ({pick(PENALTY, pen.kind, lang)})"
        words = aw("penalty_line", lang, kind=kind,
                   points=number(Decimal(written), lang).replace("-", "−") if written else "")
        size = "" if pen.points is None else number(pen.points, lang)
        rule = (pen.rule if pen.rule is None or pen.rule.startswith(profile.federation)
                else f"{profile.federation} {pen.rule}")
        penalties.append({"index": i, "kind": pen.kind, "size": size, "words": words,
                          "rule": rule or ""})
    entries = ap.entries_text([(e.seat, e.colour) for e in sc.pu_protocol.entries], lang) \
        if sc.pu_protocol is not None else ""
    return {"seat": seat, "player": player, "values": values,
            "fouls": game.fouls.get(seat, 0), "penalties": penalties,
            "pu_entries": entries if fk else None}


def decision_form(svc: Services, tid: int, view: CaseView, lang: str) -> dict[str, Any]:
    """The decision form's protocol parts: the filer's seat filled in (what the case is
    about), the game's result, first killed and best move as they are."""
    code = view.case.filing.game
    info = svc.games.confirmed(tid, code) or svc.games.head(tid, code)
    game = info.game_struct()
    t = svc.tournaments.tournament(tid)
    profile, _ = profile_for(t)
    seat = next((s.seat for s in game.seats if s.player == view.case.filing.player), None)
    shown = [seat] if seat is not None else []
    if (profile.has_first_killed_protocol.value and game.first_killed is not None
            and game.first_killed not in shown):
        shown.append(game.first_killed)  # his protocol may be what the case is about
    return {"form_seats": [_seat_form(game, s, profile, lang) for s in shown],
            "form_game": game}


def _thread_context(svc: Services, me: Principal, tid: int, view: CaseView, user: str,
                    refusals: list[ap.Refusal] | None = None,
                    typed: dict[str, str] | None = None) -> dict[str, Any]:
    """The case's page; `typed`: the decision form as sent, kept after a refusal."""
    t, players, _stages = svc.tournaments.context(tid)
    may_decide = svc.appeals.may_decide(tid, user)
    form = (decision_form(svc, tid, view, me.lang)
            if may_decide and view.case.status is ap.Status.OPEN else {})
    return {**clock_words(svc, tid, me.lang), **moments_of_case(svc, tid, view, me.lang),
            **form, "status_words": status_words(view, me.lang), "typed": typed or {},
            "replay_clause": (PROFILES[t.rules].replay_allowed.clause
                              if PROFILES[t.rules].replay_allowed.value else None),
            "t": t, "tid": tid, "v": view, "c": view.case,
            "names": {p.id: p.nickname for p in players},
            "may_write": svc.appeals.may_write(tid, view.number, user),
            "may_decide": may_decide,
            "mine": view.case.filing.player in svc.appeals.players_of(tid, user),
            "refusals": refusals or [], "aw": lambda k, **kw: aw(k, me.lang, **kw)}


@router.get("/t/{tid}/appeals/{case}", response_class=HTMLResponse)
def thread_page(request: Request, tid: int, case: str, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    view = svc.appeals.case(tid, case, actor=user)
    return render(request, "appeal.html", **_thread_context(svc, me, tid, view, user))


@router.post("/t/{tid}/appeals/{case}/messages")
async def message_page(request: Request, tid: int, case: str, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    text = (await _form(request)).get("text", "")
    view = svc.appeals.add_message(tid, case, text, actor=user)
    return _see(f"/t/{tid}/appeals/{view.id}")


@router.post("/t/{tid}/appeals/{case}/withdraw")
async def withdraw_page(request: Request, tid: int, case: str, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    confirmed = (await _form(request)).get("confirm") == "yes"
    view = svc.appeals.withdraw(tid, case, actor=user, confirmed=confirmed)
    return _see(f"/t/{tid}/appeals/{view.id}")


def _whole(value: str, what: str) -> int:
    number_ = ascii_int(value.strip(), 2)
    if number_ is None:
        raise BadInput("bad_whole", field=what, value=value[:20])
    return number_


#: the letters of a first killed's protocol entry, as the sheet writes them
_COLOURS: Final = {"ч": "black", "b": "black", "к": "red", "r": "red"}


def _entries_typed(text: str) -> list[list[Any]]:
    """«3ч 5ч 7к» (or 3b 5b 7r) as [[3, "black"], ...]."""
    out: list[list[Any]] = []
    for token in text.replace(",", " ").lower().split()[:10]:
        seat, colour = token[:-1], _COLOURS.get(token[-1:])
        if colour is None:
            raise BadInput("bad_pu_entry", value=token[:10])
        out.append([_whole(seat, "pu_entries"), colour])
    return out


def _change_from_form(f: dict[str, str]) -> dict[str, Any] | None:
    """The decision form's change, as the service takes it: a new result, first killed
    and best move; for each seat shown (`block|N`) its values as the form has them (the
    core keeps what did not change), a penalty's «снять» and new size; another seat's
    extra and fouls."""
    change: dict[str, Any] = {}
    if f.get("result"):
        change["result"] = f["result"]
    if f.get("first_killed", "").strip():
        change["first_killed"] = _whole(f["first_killed"], "first_killed")
    moves = f.get("best_move", "").replace(",", " ").split()
    if moves:
        change["best_move"] = [_whole(m, "best_move") for m in moves[:3]]
    seats: dict[int, dict[str, Any]] = {}
    for key in f:
        kind, _, rest = key.partition("|")
        if kind != "block":
            continue
        seat = _whole(rest, "seat")
        edit: dict[str, Any] = {}
        for name in ("extra", "pu_extra", "will", "protocol"):
            if f"{name}|{seat}" in f:
                edit[name] = _decimal(f[f"{name}|{seat}"])
        if f.get(f"fouls|{seat}", "").strip():
            edit["fouls"] = _whole(f[f"fouls|{seat}"], "fouls")
        if f"pu_entries|{seat}" in f:
            edit["pu_entries"] = _entries_typed(f[f"pu_entries|{seat}"])
        penalties = []
        for pkey, value in f.items():
            pkind, _, prest = pkey.partition("|")
            if pkind not in ("pen_remove", "pen_points"):
                continue
            pseat, _, tail = prest.partition("|")
            index, _, pen_kind = tail.partition("|")
            if pseat != str(seat):
                continue
            if pkind == "pen_remove" and value:
                penalties.append({"index": _whole(index, "penalty"), "kind": pen_kind,
                                  "remove": True})
            elif (pkind == "pen_points" and value.strip()
                  and not f.get(f"pen_remove|{seat}|{index}|{pen_kind}")):
                penalties.append({"index": _whole(index, "penalty"), "kind": pen_kind,
                                  "points": _decimal(value)})
        if penalties:
            edit["penalties"] = penalties
        seats[seat] = edit
    other = f.get("other_seat", "").strip()
    if other:
        seat = _whole(other, "seat")
        edit = seats.setdefault(seat, {})
        if f.get("other_extra", "").strip():
            edit["extra"] = _decimal(f["other_extra"])
        if f.get("other_fouls", "").strip():
            edit["fouls"] = _whole(f["other_fouls"], "fouls")
    seats = {seat: edit for seat, edit in seats.items() if edit}
    if seats:
        change["seats"] = seats
    return change or None


def _keep_other_scores(svc: Services, tid: int, code: str, change: dict[str, Any] | None
                       ) -> dict[str, Any] | None:
    """A seat's new extra on top of what the protocol already has for the seat."""
    if not change or "scores" not in change:
        return change
    info = svc.games.confirmed(tid, code)
    if info is None:
        return change
    old = info.protocol.get("scores", {})
    for seat, sc in change["scores"].items():
        change["scores"][seat] = {**old.get(str(seat), {}), **sc}
    return change


#: the parts of a seat's `scores` in the API that are a seat's edit as they are
_EDITABLE: Final = frozenset({"extra", "pu_extra", "will", "protocol", "pu_protocol"})


def _as_seat_edits(change: dict[str, Any] | None) -> dict[str, Any] | None:
    """The API's `scores` {seat: {extra: ...}} as the seats' edits the service applies
    inside its transaction on the protocol as it is then; None when a seat's scores name
    more than those parts (its penalties, approvals: then they replace the seat's)."""
    if not change or "scores" not in change:
        return change
    scores = change["scores"]
    if not isinstance(scores, dict) or not all(isinstance(sc, dict) for sc in scores.values()):
        return change  # not scores at all: refused as the record's shape (400)
    if not all(set(sc) <= _EDITABLE for sc in scores.values()):
        return None
    seats: dict[str, Any] = {str(k): dict(v) for k, v in (change.get("seats") or {}).items()}
    for seat, sc in scores.items():
        seats[str(seat)] = {**sc, **seats.get(str(seat), {})}
    rest = {k: v for k, v in change.items() if k != "scores"}
    return {**rest, "seats": seats}


def _decide(svc: Services, tid: int, case: str, user: str, data: dict[str, Any]
            ) -> tuple[CaseView, ap.Effect]:
    try:
        outcome = ap.Outcome(data.get("outcome", ""))
        edits = _as_seat_edits(data.get("change"))
        if edits is None and data.get("change") is not None:
            view = svc.appeals.case(tid, case, actor=user)
            edits = _keep_other_scores(svc, tid, view.case.filing.game, data.get("change"))
        change = change_of(edits)
    except (ValueError, msgspec.ValidationError) as e:
        svc.appeals.require_may_decide(tid, user)  # the asker's refusal before the content's
        raise BadInput("decision_unreadable", detail=str(e)[:200]) from None
    return svc.appeals.decide(tid, case, actor=user, outcome=outcome, reason=str(data.get("reason", "")),
                      change=change, committee_agreed=bool(data.get("committee_agreed")),
                      non_game_advantage=bool(data.get("non_game_advantage")))


@router.post("/t/{tid}/appeals/{case}/decision")
async def decision_page(request: Request, tid: int, case: str, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    f = await _form(request)
    # the form always carries the protocol's parts as they are: they are a change only
    # when the case is accepted
    accepted = f.get("outcome") == ap.Outcome.ACCEPTED.value
    try:
        change = _change_from_form(f) if accepted else None
    except BadInput:
        svc.appeals.require_may_decide(tid, user)  # the asker's refusal before the content's
        raise
    data = {"outcome": f.get("outcome", ""), "reason": f.get("reason", ""),
            "change": change,
            "committee_agreed": f.get("committee_agreed") == "on",
            "non_game_advantage": f.get("non_game_advantage") == "on"}
    try:
        view, _effect = _decide(svc, tid, case, user, data)
    except ap.Refused as e:
        view = svc.appeals.case(tid, case, actor=user)
        return render(request, "appeal.html", status_code=422,
                      **_thread_context(svc, me, tid, view, user, e.refusals, f))
    return _see(f"/t/{tid}/appeals/{view.id}")


@lru_cache(maxsize=2)
def zone_choices(lang: str) -> list[tuple[str, str]]:
    """The zone database's places as the reader names them, for a select: (name, label)
    sorted by label ("Россия, Москва (UTC+3)"); the value sent is the zone's name."""
    loc = Locale.parse("ru" if lang == "ru" else "en")
    territory = get_global("zone_territories")
    now = dt.datetime.now(dt.UTC)
    found: list[tuple[str, str]] = [("UTC", "UTC")]
    for name in zoneinfo.available_timezones():
        if "/" not in name or name.startswith(("Etc/", "SystemV/", "US/", "posix/", "right/")):
            continue
        country = loc.territories.get(territory.get(name, ""), "")
        city = zone_place(name, lang) or name
        utc = utc_offset(now.astimezone(zoneinfo.ZoneInfo(name)).utcoffset())
        place = f"{country}, {city}" if country and country != city else city
        found.append((name, f"{place} ({utc})"))
    labels: dict[str, str] = {}
    for name, label in sorted(found, key=lambda x: (x[1], x[0])):
        labels.setdefault(label, name)  # an alias of a zone reads as the zone
    return [(name, label) for label, name in labels.items()]


def schedule_rows(schedule: ap.Schedule, rounds: list[tuple[str, int]]
                  ) -> list[tuple[str, int, ap.RoundTime | None]]:
    """The schedule form's rows: every round of the schedule and of the seating, in order."""
    have = {(r.stage, r.round): r for r in schedule.rounds}
    last = dt.datetime.max.replace(tzinfo=dt.UTC)
    keys = sorted(set(have) | set(rounds),
                  key=lambda k: (have[k].starts if k in have else last, k))
    return [(st, n, have.get((st, n))) for st, n in keys]


def _schedule_from_form(f: dict[str, str], zone: dt.tzinfo) -> ap.Schedule:
    """The rows of the schedule form (`starts|STAGE|N`, `day|STAGE|N`, and the new row's
    `new_stage`, `new_round`, `new_day`, `new_starts`) as the schedule; a round without
    a start is left out."""
    rows: dict[tuple[str, int], tuple[str, str]] = {}
    for key, value in f.items():
        kind, _, rest = key.partition("|")
        stage, _, rnd = rest.rpartition("|")
        if kind == "starts" and stage and rnd.isdecimal() and len(rnd) <= 4 and value.strip():
            rows[(stage, int(rnd))] = (f.get(f"day|{stage}|{rnd}", "1"), value)
    new_stage, new_round = f.get("new_stage", ""), f.get("new_round", "").strip()
    if new_stage and new_round and f.get("new_starts", "").strip():
        if not new_round.isdecimal() or len(new_round) > 4:
            raise BadInput("bad_whole", field="round", value=new_round[:20])
        rows[(new_stage, int(new_round))] = (f.get("new_day", "1"), f["new_starts"])
    rounds = []
    for (stage, n), (day, starts) in rows.items():
        day = day.strip() or "1"
        if not day.isdecimal() or len(day) > 4:
            raise BadInput("bad_whole", field="day", value=day[:20])
        rounds.append(ap.RoundTime(stage=stage, round=n, day=int(day),
                                   starts=_when(starts, zone)))
    closed = f.get("tables_closed_at", "")
    return ap.Schedule(rounds=sorted(rounds, key=lambda r: r.starts),
                       tables_closed_at=_when(closed, zone) if closed.strip() else None)


@router.post("/t/{tid}/appeals-schedule")
async def schedule_page(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    """The schedule from its form's rows (a round's day and start; a new round below);
    rows that are no schedule are the service's to refuse, once it has checked the asker."""
    user = require_user(me)
    f = await _form(request)
    try:
        schedule: ap.Schedule | None = _schedule_from_form(f, svc.zones.zone(tid))
    except BadInput:
        schedule = None
    svc.appeals.set_schedule(tid, schedule if schedule and schedule.rounds else None,
                             actor=user)
    return _see(f"/t/{tid}/appeals")


@router.post("/t/{tid}/appeals-players")
async def player_access_page(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    f = await _form(request)
    player = f.get("player", "").strip()
    account, code = svc.appeals.player_code(tid, player, actor=user,
                                            user=f.get("user", "").strip() or None)
    ctx = _list_context(svc, me, tid, user)
    ctx["code_made"] = (player, account, code)
    return render(request, "appeals.html", **ctx)


@router.post("/t/{tid}/games/{code}/ended")
async def ended_page(request: Request, tid: int, code: str, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    value = (await _form(request)).get("ended", "")
    svc.appeals.set_game_end(tid, code, _when_or_none(value, svc.zones.zone(tid)), actor=user)
    return _see(f"/t/{tid}/games/{code}")


@router.post("/t/{tid}/time-zone")
async def zone_page(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    """The organizer sets the tournament's time zone (validated; empty: the server's)."""
    user = require_user(me)
    svc.zones.set_zone(tid, (await _form(request)).get("time_zone", "")[:100], actor=user)
    return _see(f"/t/{tid}/appeals")


# --- charts and downloads -----------------------------------------------------------------


def _svg(data: bytes) -> Response:
    return Response(data, media_type="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=30"})


@router.get("/t/{tid}/charts/roles.svg")
def roles_svg(tid: int, me: Who, svc: Svc) -> Response:
    return _svg(svc.exports.chart(tid, "roles", me.lang, actor=me.user))


@router.get("/t/{tid}/charts/seats.svg")
def seats_svg(tid: int, me: Who, svc: Svc) -> Response:
    return _svg(svc.exports.chart(tid, "seats", me.lang, actor=me.user))


@router.get("/t/{tid}/players/{pid}/places.svg")
def places_svg(tid: int, pid: str, me: Who, svc: Svc) -> Response:
    return _svg(svc.exports.chart(tid, "places", me.lang, pid, actor=me.user))


def _file(data: bytes, media: str, name: str) -> Response:
    return Response(data, media_type=media, headers=attachment(name))


@router.get("/t/{tid}/export/standings.xlsx")
def standings_xlsx(tid: int, me: Who, svc: Svc) -> Response:
    return _file(svc.exports.standings_file(tid, "xlsx", me.lang, actor=me.user),
                 "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                 f"standings-{tid}.xlsx")


@router.get("/t/{tid}/export/standings.csv")
def standings_csv(tid: int, me: Who, svc: Svc, comma: bool = False) -> Response:
    return _file(svc.exports.standings_file(tid, "csv", me.lang, actor=me.user, comma=comma),
                 "text/csv; charset=utf-8", f"standings-{tid}.csv")


@router.get("/t/{tid}/export/paper.csv")
def paper_csv(tid: int, me: Who, svc: Svc, comma: bool = False) -> Response:
    """The paper columns of the confirmed games (fouls, days, explanations, protests)."""
    return _file(svc.exports.paper_csv(tid, me.lang, actor=me.user, comma=comma),
                 "text/csv; charset=utf-8", f"paper-{tid}.csv")


@router.get("/t/{tid}/export/standings.pdf")
def standings_pdf(tid: int, me: Who, svc: Svc) -> Response:
    return _file(svc.exports.standings_file(tid, "pdf", me.lang, actor=me.user),
                 "application/pdf", f"standings-{tid}.pdf")


@router.get("/t/{tid}/games/{code}/protocol.pdf")
def protocol_pdf(tid: int, code: str, me: Who, svc: Svc) -> Response:
    """The filled protocol (FIIM section 9): the confirmed one (staff: the newest)."""
    return _file(svc.exports.protocol_pdf(tid, code, me.lang, actor=me.user),
                 "application/pdf", f"protocol-{code}.pdf")


@router.get("/t/{tid}/export/blank.pdf")
def blank_pdf(tid: int, me: Who, svc: Svc, stage: str | None = None,
              round: int | None = None, tables: int | None = None) -> Response:
    """Blank protocols (to fill by hand) for a round's tables; default: the newest round."""
    name, data = svc.exports.blank_pdf(tid, stage, round, tables, me.lang,
                                       actor=require_user(me))
    return _file(data, "application/pdf", name)


# --- the JSON API -------------------------------------------------------------------------------


class FilingBody(Body):
    kind: str = Field(description="protest | appeal", max_length=20)
    player: str | None = Field(None, description="the player's id (default: the asker's)",
                               max_length=100)
    subject: str = Field("result", description="result | positive_extra | penalty | other",
                         max_length=30)
    awarded: str | None = Field(None, max_length=20)
    claimed: str | None = Field(None, max_length=20)
    text: str = Field("", max_length=MAX_TEXT)


class Text(Body):
    text: str = Field(max_length=MAX_TEXT)


class DecisionBody(Body):
    outcome: str = Field(description="rejected | accepted | replay", max_length=20)
    reason: str = Field("", max_length=MAX_TEXT)
    change: dict[str, Any] | None = Field(
        None, description="what an accepted case changes: result, first_killed, best_move; "
        "seats {seat: {extra, pu_extra, will, protocol (null: taken away), fouls, "
        "pu_protocol, penalties [{index, kind, remove | points}], add_penalties [Penalty]}}; "
        "scores {seat: SeatScores} replaces a seat's whole scores")
    committee_agreed: bool = False
    non_game_advantage: bool = False


class Ended(Body):
    ended: str = Field(description="ISO time; UTC when no offset is given", max_length=40)


class PlayerAccess(Body):
    player: str = Field(max_length=100)
    user: str | None = Field(None, max_length=100)


@api.get("/t/{tid}/appeals")
def api_cases(tid: int, me: Who, svc: Svc, open: bool = False) -> list[dict[str, Any]]:
    """The cases the asker may read, open ones first."""
    user = require_user(me)
    return [case_json(v, me.lang) for v in svc.appeals.cases(tid, actor=user, open_only=open)]


@api.post("/t/{tid}/games/{code}/appeals", status_code=201)
def api_file(tid: int, code: str, body: FilingBody, me: Who, svc: Svc) -> dict[str, Any]:
    """File a protest or an appeal; 422 with every refusal and its clause."""
    user, mine = _filer(svc, me, tid, code)
    player = body.player or (sorted(mine)[0] if len(mine) == 1 else None)
    if player is None:
        raise BadInput("whose_case")
    try:
        filing = filing_of({**body.model_dump(), "player": player, "game": code})
    except msgspec.ValidationError as e:
        raise BadInput("filing_unreadable", detail=str(e)[:200]) from None
    return case_json(svc.appeals.file(tid, filing, actor=user), me.lang)


@api.get("/t/{tid}/games/{code}/deadline")
def api_deadline(tid: int, code: str, me: Who, svc: Svc, kind: str = "appeal") -> dict[str, Any]:
    """Until when a filing on the game is possible, and why that cannot be known yet."""
    user = require_user(me)
    try:
        k = ap.Kind(kind)
    except ValueError:
        raise BadInput("bad_case_kind", value=kind[:20]) from None
    found, missing = svc.appeals.filing_deadline(tid, code, k, actor=user)
    zone = svc.zones.zone(tid)
    return {"deadline": found.at.isoformat() if found else None,
            "local": local_time(found.at, zone, me.lang) if found else None,
            "time_zone": zone.key,
            "zone_words": zone_words(zone, me.lang, found.at if found else None),
            "open": ap.is_open(found, utcnow()) and not missing,
            "clause": found.clause if found else None,
            "missing": refusals_json(missing, me.lang, zone)}


@api.get("/t/{tid}/appeals/{case}")
def api_case(tid: int, case: str, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    return case_json(svc.appeals.case(tid, case, actor=user), me.lang)


@api.post("/t/{tid}/appeals/{case}/messages")
def api_message(tid: int, case: str, body: Text, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    return case_json(svc.appeals.add_message(tid, case, body.text, actor=user), me.lang)


class Withdraw(Body):
    confirm: bool = Field(False, description="true: the player takes the case back")


@api.post("/t/{tid}/appeals/{case}/withdraw")
def api_withdraw(tid: int, case: str, body: Withdraw, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    return case_json(svc.appeals.withdraw(tid, case, actor=user, confirmed=body.confirm),
                     me.lang)


@api.post("/t/{tid}/appeals/{case}/decision")
def api_decide(tid: int, case: str, body: DecisionBody, me: Who, svc: Svc) -> dict[str, Any]:
    """Decide (head judge or appeals commission): 422 with every refusal; the answer has
    the protocol revision made, what changed and the warnings."""
    user = require_user(me)
    view, effect = _decide(svc, tid, case, user, body.model_dump())
    return {**case_json(view, me.lang), "replay": effect.replay}


@api.get("/t/{tid}/schedule")
def api_schedule(tid: int, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    out: dict[str, Any] = msgspec.to_builtins(svc.appeals.schedule(tid, actor=user))
    out["warnings"] = svc.appeals.schedule_warnings(tid, actor=user)
    return out


@api.put("/t/{tid}/schedule")
def api_set_schedule(tid: int, body: dict[str, Any], me: Who, svc: Svc) -> dict[str, Any]:
    """`{"rounds": [{stage, round, day, starts}], "tables_closed_at": ISO | null}`."""
    user = require_user(me)
    try:
        schedule: ap.Schedule | None = schedule_of(body)
    except msgspec.ValidationError:
        schedule = None  # the service refuses it once it has checked the asker
    svc.appeals.set_schedule(tid, schedule, actor=user)
    return {"ok": True}


class ZoneBody(Body):
    time_zone: str = Field(description="an IANA name, e.g. Europe/Moscow; empty: the server's",
                           max_length=64)


@api.get("/t/{tid}/time-zone")
def api_zone(tid: int, me: Who, svc: Svc) -> dict[str, Any]:
    """The tournament's time zone (every moment on its pages is shown on this clock)."""
    svc.tournaments.context(tid)  # 404 for no tournament
    return {"time_zone": svc.zones.zone_name(tid), "set": svc.zones.is_set(tid)}


@api.put("/t/{tid}/time-zone")
def api_set_zone(tid: int, body: ZoneBody, me: Who, svc: Svc) -> dict[str, Any]:
    """Set the tournament's time zone (organizer, head judge); 400 `bad_zone`."""
    user = require_user(me)
    return {"time_zone": svc.zones.set_zone(tid, body.time_zone, actor=user)}


@api.put("/t/{tid}/games/{code}/ended")
def api_ended(tid: int, code: str, body: Ended, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    svc.appeals.set_game_end(tid, code, _when_or_none(body.ended), actor=user)
    return {"ok": True}


@api.post("/t/{tid}/player-access")
def api_player_access(tid: int, body: PlayerAccess, me: Who, svc: Svc) -> dict[str, Any]:
    """A sign-in code for a player (returned once), linked to his account."""
    user = require_user(me)
    account, code = svc.appeals.player_code(tid, body.player, actor=user, user=body.user)
    return {"user": account, "code": code}


__all__ = ["api", "install", "router"]
