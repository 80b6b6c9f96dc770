"""The judge's live screen: the page and its JSON API.

The page is a shell; `static/live.js` draws it from the state this module serves
(`GET /api/t/{tid}/games/{code}/live`) and sends the judge's taps as operations
(`POST` to the same path). The rules stay in the game-log engine: the state carries the
engine's next step, its notes with their clauses and its refusals; the script only
queues what the judge taps while the connection is down (services/live_log.py says how a
batch is applied once and in order).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any, Final

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field

from mafiatab.domain.clock import clock_time, parse_instant
from mafiatab.domain.course import course_view
from mafiatab.domain.gamelog_state import NextStep
from mafiatab.domain.words import STEP
from mafiatab.services.live_log import LiveGame, LiveRefused, Op, OutOfOrder, apply_ops, load_for
from mafiatab.services.tournaments import ConflictError
from mafiatab.web import course_files
from mafiatab.web.deps import Svc, Who, see_other
from mafiatab.web.forms import short_message
from mafiatab.web.offline import words as offline_words
from mafiatab.web.refusals import Unprocessable, problem_body
from mafiatab.web.rendering import render
from mafiatab.web.security import check_csrf, require_user

pages = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)
api = APIRouter(prefix="/api", dependencies=[Depends(check_csrf)], tags=["live"])

#: the screen's words, Russian first (the engine gives the next step's own text)
WORDS: dict[str, tuple[str, str]] = {
    "live": ("Ведение игры", "Live game"),
    "deal": ("Раздача ролей", "Deal the roles"),
    "deal_btn": ("Роли розданы", "Roles dealt"),
    "speaks": ("Говорит место {seat}", "Seat {seat} speaks"),
    "defence": ("Оправдательная речь места {seat}", "Seat {seat} speaks before the revote"),
    "end_speech": ("Речь окончена", "Speech over"),
    "end_defence": ("Речь окончена", "Speech over"),
    "nominate": ("Выставить (нажмите место)", "Nominate (tap a seat)"),
    "nominated": ("Выставлен(а): {seat}", "Nominated: {seat}"),
    "start": ("Старт", "Start"),
    "pause": ("Пауза", "Pause"),
    "reset": ("Сброс", "Reset"),
    "vote": ("Голосование", "Vote"),
    "lift": ("Голосование за подъём", "Vote on lifting"),
    "by_voters": ("по игрокам", "by voters"),
    "by_counts": ("числом", "by counts"),
    "rest_last": ("Остальные голоса — за последнего ({seat})",
                  "The rest count for the last candidate ({seat})"),
    "record_vote": ("Записать голосование", "Record the vote"),
    "lift_for": ("За подъём", "For lifting"),
    "shot": ("Стрельба", "The shot"),
    "miss": ("Промах", "Miss"),
    "don_check": ("Проверка дона", "The don's check"),
    "sheriff_check": ("Проверка шерифа", "The sheriff's check"),
    "best_move": ("Лучший ход места {seat}", "Best move of seat {seat}"),
    "record": ("Записать", "Record"),
    "last_words": ("Последнее слово места {seat}", "Last words of seat {seat}"),
    "fouls": ("Фолы", "Fouls"),
    "foul": ("Фол", "Foul"),
    "more": ("ещё", "more"),
    "disqualify": ("Дисквалификация", "Disqualify"),
    "fourth_foul": ("4-й фол месту {seat}: игрок будет удалён из-за стола. Записать?",
                    "A 4th foul to seat {seat}: the player leaves the table. Record it?"),
    "removed_4th": ("место {seat} удалено (4-й фол)", "seat {seat} is removed (4th foul)"),
    "team_loss": ("Поражение команды", "Team loss"),
    "sure": ("Точно? Место {seat}: {what}", "Sure? Seat {seat}: {what}"),
    "undo": ("Отменить последнее", "Undo the last"),
    "log": ("Журнал игры", "Game log"),
    "queued": ("в очереди, не проверено", "queued, not yet checked"),
    "offline": ("Нет связи: события копятся на телефоне и уйдут, когда связь вернётся",
                "Offline: events are kept on the phone and sent when the connection returns"),
    "online": ("На связи", "Online"),
    "sending": ("Отправка…", "Sending…"),
    "refused": ("Отклонено", "Refused"),
    "conflict": ("Протокол изменён в другом месте; состояние обновлено",
                 "The protocol was changed elsewhere; the state is reloaded"),
    "ended": ("Игра окончена", "The game is over"),
    "to_protocol": ("Дальше: протокол (доп. баллы, подача)",
                    "Next: the protocol (extras, submit)"),
    "any_event": ("Событие (без связи)", "Event (offline)"),
    "seat": ("Место", "Seat"),
    "out": ("вне игры", "out"),
    "not_editable": ("Протокол уже подан: вести игру нельзя",
                     "The protocol is submitted: the game cannot be recorded"),
    "revote": ("Переголосование", "Repeated vote"),
    "tap_to_close": ("нажмите, чтобы закрыть", "tap to close"),
    "record_problems": ("Протокол нарушает правила турнира — подать его нельзя",
                        "The protocol breaks the tournament's rules: it cannot be submitted"),
}
#: the step line's parts: the engine's own words (`domain.words.STEP`), one catalogue
STEP_TEXT: Final = STEP
#: an event of the log as one line of the screen's journal
EVENT_TEXT: dict[str, tuple[str, str]] = {
    "deal": ("раздача ролей", "roles dealt"),
    "shot": ("выстрел: место {target}", "shot: seat {target}"),
    "miss": ("промах", "miss"),
    "don_check": ("дон проверил место {target}", "the don checked seat {target}"),
    "sheriff_check": ("шериф проверил место {target}", "the sheriff checked seat {target}"),
    "best_move": ("лучший ход места {seat}: {seats}", "best move of seat {seat}: {seats}"),
    "last_words": ("последнее слово места {seat}", "last words of seat {seat}"),
    "speech": ("речь места {seat}", "speech of seat {seat}"),
    "nominates": ("речь места {seat}, выставлен(а) {nominates}",
                  "speech of seat {seat}, nominates {nominates}"),
    "defence": ("оправдательная речь места {seat}", "seat {seat} speaks before the revote"),
    "vote": ("голосование: {tally}", "vote: {tally}"),
    "lift": ("за подъём: {count}", "for lifting: {count}"),
    "foul": ("фол месту {seat}", "foul to seat {seat}"),
    "foul_removes": ("место {seat} удалено ({count}-й фол)", "seat {seat} is removed (foul {count})"),
    "disqualify": ("дисквалификация места {seat}", "seat {seat} disqualified"),
    "team_loss": ("поражение команды места {seat}", "team loss for seat {seat}'s team"),
}


def _clock(at: object, zone: dt.tzinfo) -> str | None:
    """An event's wall-clock time on the tournament's clock ("14:30:05"), if it has one."""
    moment = parse_instant(at)
    return clock_time(moment, zone) if moment is not None else None


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pair[0] if lang == "ru" else pair[1]


#: the foul that removes a player from the table (FIIM 7.1; the engine's own number)
REMOVING_FOUL: Final = 4


def describe(event: dict[str, Any], lang: str, fouls: int | None = None) -> str:
    """One event of the log as the journal shows it; `fouls`: a foul's number for its
    seat (the 4th says that the player leaves the table)."""
    kind = str(event.get("type"))
    values = dict(event)
    if kind == "foul" and fouls is not None and fouls == REMOVING_FOUL:
        kind = "foul_removes"
        values["count"] = fouls
    if kind == "shot" and event.get("target") is None:
        kind = "miss"
    if kind == "speech" and event.get("nominates") is not None:
        kind = "nominates"
    if kind == "best_move":
        values["seats"] = ", ".join(str(s) for s in event.get("seats") or []) or "—"
    if kind == "vote":
        if isinstance(event.get("votes"), dict):
            values["tally"] = ", ".join(f"{c}: {len(v)}" for c, v in event["votes"].items())
        else:
            values["tally"] = ", ".join(f"{c}: {n}" for c, n in (event.get("counts") or {}).items())
    if kind == "lift":
        voters = event.get("voters")
        values["count"] = len(voters) if isinstance(voters, list) else event.get("count")
    pair = EVENT_TEXT.get(kind)
    if pair is None:
        return kind
    try:
        return _pick(pair, lang).format(**values)
    except (KeyError, IndexError):
        return kind


def step_line(step: NextStep, first_killed: int | None, best_move_open: bool,
              lang: str) -> str:
    """The judge's next step in one line (the engine's `NextStep.line`: a repeated vote is
    called one, never "night falls"; nothing empty is shown); the notes are listed apart."""
    return step.line(lang, first_killed, best_move_open)


def foul_numbers(log: list[dict[str, Any]]) -> list[int | None]:
    """Each event's foul number for its seat (1, 2, 3, 4…), None for other events."""
    seen: dict[Any, int] = {}
    out: list[int | None] = []
    for ev in log:
        if ev.get("type") == "foul":
            seen[ev.get("seat")] = seen.get(ev.get("seat"), 0) + 1
            out.append(seen[ev.get("seat")])
        else:
            out.append(None)
    return out


def state_of(live: LiveGame, lang: str, zone: dt.tzinfo = dt.UTC) -> dict[str, Any]:
    """What the screen draws: the stored log (each event with its time on the
    tournament's clock, `zone`), the engine's next step, the seats."""
    info = live.revision
    out: dict[str, Any] = {
        "game": info.game, "revision": info.number, "protocol_state": info.state,
        "seq": live.seq, "dealt": live.dealt,
        "roles": [s.role for s in sorted(live.game.seats, key=lambda s: s.seat)],
        "players": [s.player for s in sorted(live.game.seats, key=lambda s: s.seat)],
        "events": [{"id": i, "event": ev, "text": describe(ev, lang, count),
                    "time": _clock(ev.get("at"), zone)}
                   for i, ev, count in zip(live.ids, live.log, foul_numbers(live.log),
                                           strict=True)],
        "problems": [p.as_dict(lang) for p in live.problems],
        # the record's problems in words (round, table, seat, rule; the screen is the
        # game's, so without its code): the submit will refuse them
        "record_problems": [dict(p.as_dict(lang), text=short_message(p, lang))
                            for p in live.record],
        "ended": False, "result": None, "step": None, "fouls": {},
    }
    if live.replayed is None:
        return out
    # the course in the words the phone's copy of the engine uses too (domain/course.py)
    course = course_view(live.replayed.state, lang, live.game.result or None)
    out.update(course)
    return out


@pages.get("/t/{tid}/games/{code}/live", response_class=HTMLResponse)
def live_page(request: Request, tid: int, code: str, me: Who, svc: Svc) -> Response:
    """The live screen of a table: its judge, or staff. A protocol the judge submitted
    (or the head judge confirmed) is no longer his to record: its address shows the
    protocol as submitted instead of a refusal."""
    user = require_user(me)
    if not svc.protocols.may_edit(tid, code, user) and svc.games.status(tid, code).state in (
            "submitted", "confirmed"):
        return see_other(f"/t/{tid}/games/{code}")
    live = load_for(svc.games, svc.protocols, tid, code, actor=user)
    t, players, _stages = svc.tournaments.context(tid)
    st = svc.games.status(tid, code)
    words = {k: _pick(v, me.lang) for k, v in WORDS.items()}
    zone = svc.zones.zone(tid)
    boot = {"tid": tid, "code": code, "lang": me.lang, "words": words,
            "state": state_of(live, me.lang, zone),
            # the queued taps' times are shown on the tournament's clock, as the log's are
            "zone": zone.key,
            "api": f"/api/t/{tid}/games/{code}/live",
            "events": f"/api/t/{tid}/games/{code}/live/events",  # web/overlay.py
            "event_text": {k: _pick(v, me.lang) for k, v in EVENT_TEXT.items()},
            "protocol_url": f"/t/{tid}/games/{code}/edit",
            "offline_words": offline_words(me.lang),
            # the phone's copy of the engine (static/course.js): the rules it runs under
            "course": course_files.setup(), "rules": t.rules,
            "options": dict(t.rule_options or {}),
            # the screen names players by nickname, never by their id (the state has ids)
            "nicks": {p.id: p.nickname for p in players}}
    page = render(request, "live.html", t=t, tid=tid, code=code, st=st,
                  boot=json.dumps(boot, ensure_ascii=False).replace("<", "\\u003c"),
                  lw=words)
    # the phone's engine is WebAssembly: this page alone may compile it
    page.headers["Content-Security-Policy"] = course_files.WASM_CSP
    return page


class OpIn(BaseModel):
    """An operation of the screen: an event (docs/gamelog.md) or the undo of one."""

    id: str = Field(min_length=1, max_length=100, description="made by the client, unique")
    seq: int = Field(ge=1, description="1, 2, 3… per game, undos included")
    event: dict[str, Any] | None = Field(None, description="an event of the game log")
    undo: str | None = Field(None, description="the id of the last event, to take it back")
    at: str | None = Field(None, max_length=40,
                           description="when the judge tapped (ISO); default: on arrival")


class Batch(BaseModel):
    base_revision: int = Field(description="the protocol revision the screen last saw")
    events: list[OpIn] = Field(default_factory=list, max_length=500)


@api.get("/t/{tid}/games/{code}/live")
def live_state(tid: int, code: str, me: Who, svc: Svc) -> dict[str, Any]:
    """The game's log, the engine's next step and the seats (the table's judge, staff)."""
    live = load_for(svc.games, svc.protocols, tid, code, actor=require_user(me))
    return state_of(live, me.lang, svc.zones.zone(tid))


@api.post("/t/{tid}/games/{code}/live")
def live_events(tid: int, code: str, body: Batch, me: Who, svc: Svc) -> Response:
    """Apply queued operations in order, each once (by id), as one new draft revision.

    409 `out_of_order` (with `expected`) or `conflict` (with the head revision); 422
    `refused` with the engine's problems and the refused operation's id: nothing of the
    batch is stored then."""
    user = require_user(me)
    for op in body.events:
        if (op.event is None) == (op.undo is None):
            raise Unprocessable("event_or_undo")
    ops = [Op(id=o.id, seq=o.seq, event=o.event, undo=o.undo, at=o.at) for o in body.events]
    try:
        live, applied, duplicates = apply_ops(svc.games, svc.protocols, tid, code, ops,
                                              actor=user, base_revision=body.base_revision)
    except OutOfOrder as e:
        return JSONResponse(problem_body(e, me.lang, expected=e.expected), status_code=409)
    except ConflictError as e:
        return JSONResponse(problem_body(e, me.lang, head=e.head), status_code=409)
    except LiveRefused as e:
        # each problem also without its place (game code, log index): the screen shows it
        # beside the refused tap, which says where already
        problems = [dict(p.as_dict(me.lang), text=short_message(p, me.lang)) for p in e.problems]
        return JSONResponse(problem_body(e, me.lang, problems, refused=e.op.id),
                            status_code=422)
    out = state_of(live, me.lang, svc.zones.zone(tid))
    out.update(applied=applied, duplicates=duplicates)
    return JSONResponse(out)


router = APIRouter()
router.include_router(course_files.router)
router.include_router(pages)
router.include_router(api)

__all__ = ["router", "describe", "foul_numbers", "state_of", "step_line"]
