"""Seating in the web app: the organizer's / head judge's page that
generates a stage's seating for the registered players, shows its metrics and grid,
publishes it round by round, prints it; and the same under /api.

Thin: every decision is `services.seating_web.SeatingDesk`'s (and the generator's). The
desk lives on the app (`app.state.seating_desk`), made at the app's start (or on first
use), so that `create_app` needs one line for this router and nothing else; it holds no
state of its own but the process's job runner: generations and proposals are rows of the
database, so any server process answers for any of them. Routes are plain `def`: FastAPI
runs them in its thread pool, and the search runs in the runner's thread, so the event
loop is never blocked.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import Field

from mafiatab.domain.numbers import ascii_int
from mafiatab.services.facade import Services
from mafiatab.services.seating_rules import (
    RulesRefused,
    TournamentRules,
    conflict_lines,
    pair_lines,
    parse_conflict_lines,
    parse_pair_lines,
)
from mafiatab.services.seating_web import (
    MAX_FIRST_ROUND,
    MAX_GAMES,
    MAX_ITERATIONS,
    MAX_PLAYERS,
    MAX_SEED,
    MAX_TIME_LIMIT,
    SeatingDesk,
    SeatingJob,
    SeatingParams,
    SeatingRefused,
    SwapPreview,
    parse_availability,
    parse_pins,
    parse_rounds,
)
from mafiatab.storage.models import JUDGE
from mafiatab.texts.pages import SEATING
from mafiatab.web.deps import Svc, Who
from mafiatab.web.refusals import Missing
from mafiatab.web.rendering import render
from mafiatab.web.security import (
    Body,
    Principal,
    check_csrf,
    read_form,
    require_user,
)

router = APIRouter(dependencies=[Depends(check_csrf)])


def install(app: Any) -> None:
    """The router, and the desk (with its job runner) made when the app starts."""
    app.include_router(router)
    _with_runner(app)


WORDS: Final = SEATING


def sw(key: str, lang: str, **params: object) -> str:
    """A word of the seating pages (ru first, en second)."""
    pair = WORDS.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == "en" else pair[0]
    return text.format(**params) if params else text


_DESK_LOCK = threading.Lock()


def desk_of(app: Any) -> SeatingDesk:
    """The app's desk (the facade's), its job runner started on first use (one per app,
    so one per server process)."""
    d = getattr(app.state, "seating_desk", None)
    if d is None:
        with _DESK_LOCK:
            d = getattr(app.state, "seating_desk", None)
            if d is None:
                d = app.state.services.seating
                d.start_runner()
                app.state.seating_desk = d
    assert isinstance(d, SeatingDesk)
    return d


def desk(request: Request) -> SeatingDesk:
    return desk_of(request.app)


def _with_runner(app: Any) -> None:
    """At the app's start (its lifespan) every process runs waiting generations, also
    one that no seating request has reached (another process may have queued them); at
    its end the runner stops (a running search is cancelled, another process takes it
    again)."""
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:
        d = desk_of(app)
        try:
            async with inner(a) as state:
                yield state
        finally:
            await run_in_threadpool(d.stop_runner)

    app.router.lifespan_context = lifespan


Desk = Annotated[SeatingDesk, Depends(desk)]


def _refusal(request: Request, me: Principal, e: SeatingRefused) -> Response:
    """The seating page's refusal: the error page in the reader's words. (The API lets
    a refusal reach the app's one handler: the JSON of every refusal, with its problems.)"""
    return render(request, "error.html", status_code=e.status, message=e.reason(me.lang))


def _int(value: str | None, default: int | None, name: str) -> int | None:
    value = (value or "").strip()
    if not value:
        return default
    magnitude = ascii_int(value.removeprefix("-"), 18)
    if magnitude is None:
        raise SeatingRefused("desk_not_a_number", name=name, value=value)
    return -magnitude if value.startswith("-") else magnitude


def _default_stage(svc: Services, tid: int) -> str:
    _t, _p, stages = svc.tournaments.context(tid)
    if not stages:
        raise Missing("no_stages")
    return next((s.id for s in stages if s.kind == "qualification"), stages[0].id)


def _page_context(svc: Services, d: SeatingDesk, me: Principal, tid: int,
                  user: str) -> dict[str, Any]:
    t, players, stages = svc.tournaments.context(tid)
    gone = svc.roster.withdrawn(tid)  # the count and the tables' hint: whom the seating seats
    players = [p for p in players if p.id not in gone]
    job = d.job(tid, actor=user)
    cancelled = d.cancelled(tid, actor=user)
    rules = svc.seating_rules.rules(tid, actor=user)
    nick = {p.id: p.nickname for p in players}
    done = job is not None and job.document is not None
    return {"t": t, "tid": tid, "players": players, "stages": stages, "job": job,
            "rules": rules, "pair_text": pair_lines(rules, players, me.lang),
            "conflict_text": conflict_lines(rules, players),
            "server_pairs": [(nick.get(x.first, x.first), nick.get(x.second, x.second),
                              x.policy, x.weight) for x in rules.server_pairs],
            "teams": svc.seating_rules.team_count(tid),
            "figs": job.figures(me.lang) if done and job is not None else [],
            "cancelled": cancelled, "generator_missing": _generator_missing(me.lang),
            "judges": sorted({u for u, r in svc.access.staff(tid, actor=user) if r == JUDGE}),
            "default_stage": _default_stage(svc, tid),
            # "keep club-mates apart" is offered only when clubs are given, on with two or more
            "clubs": len({p.club for p in players if p.club}), "s": lambda k, **kw: sw(k, me.lang, **kw),
            "mu": _mu(job), "max_time": int(MAX_TIME_LIMIT)}


def _generator_missing(lang: str) -> str:
    """The words (with the install command) when the seating extra is not installed."""
    from mafiatab.seating.model import InfeasibleRequest, require_generator

    try:
        require_generator()
    except InfeasibleRequest as e:
        return e.reason(lang)
    return ""


def _mu(job: SeatingJob | None) -> str:
    if job is None or job.document is None:
        return ""
    from mafiatab.seating.model import mean_meetings

    return f"{mean_meetings(len(job.players), job.params.games):.3f}"


# --- pages -------------------------------------------------------------------------------------


@router.get("/t/{tid}/seating", response_class=HTMLResponse, include_in_schema=False)
def seating_page(request: Request, tid: int, me: Who, svc: Svc, d: Desk,
                 published: int | None = None, swapped: int | None = None) -> Response:
    user = require_user(me)  # signed out: to the sign-in page; the desk checks the role
    return render(request, "seating.html", published_now=published, swapped_now=swapped,
                  **_page_context(svc, d, me, tid, user))


@router.get("/t/{tid}/seating/status", response_class=HTMLResponse, include_in_schema=False)
def seating_status_fragment(request: Request, tid: int, me: Who, svc: Svc, d: Desk) -> Response:
    """htmx: the status box, polled while the search runs (it stops polling when done)."""
    user = require_user(me)  # signed out: to the sign-in page; the desk checks the role
    return render(request, "seating_status.html", published_now=None, polled=True,
                  **_page_context(svc, d, me, tid, user))


def _weight(f: dict[str, str], name: str) -> int:
    return _int(f.get(name), 5, name) or 5


def _table_judges(text: str) -> dict[int, str]:
    out: dict[int, str] = {}
    for line in text.splitlines()[:MAX_PLAYERS]:
        if not line.strip():
            continue
        table, sep, judge = line.partition(":")
        number = ascii_int(table.strip(), 4)
        if not sep or number is None or not judge.strip():
            raise SeatingRefused("desk_table_judge_line", line=line[:200])
        out[number] = judge.strip()[:200]
    return out


def _params_from_form(f: dict[str, str], svc: Services, tid: int, user: str) -> SeatingParams:
    _t, players, _s = svc.tournaments.context(tid)
    games = _int(f.get("games"), None, "games")
    if games is None:
        raise SeatingRefused("desk_games_needed")
    limit = _int(f.get("time_limit"), None, "time_limit")
    judges = sorted({u for u, r in svc.access.staff(tid, actor=user) if r == JUDGE})
    rules = TournamentRules(
        clubs=f.get("clubs", "off"), clubs_weight=_weight(f, "clubs_weight"),
        teams=f.get("teams", "soft"), teams_weight=_weight(f, "teams_weight"),
        pairs=parse_pair_lines(f.get("pairs", ""), players),
        conflicts=parse_conflict_lines(f.get("conflicts", ""), players, judges))
    return SeatingParams(
        stage=f.get("stage") or _default_stage(svc, tid), games=games,
        tables=_int(f.get("tables"), None, "tables"), seed=_int(f.get("seed"), 0, "seed") or 0,
        pins=parse_pins(f.get("pins", ""), players),
        availability=parse_availability(f.get("availability", ""), players),
        first_round=_int(f.get("first_round"), 1, "first_round") or 1,
        time_limit=float(limit) if limit else None, rules=rules,
        table_judges=_table_judges(f.get("table_judges", "")))


async def _form(request: Request) -> dict[str, str]:
    data = await read_form(request)
    return {k: v for k, v in data.items() if isinstance(v, str)}


@router.post("/t/{tid}/seating/generate", include_in_schema=False)
async def seating_generate_post(request: Request, tid: int, me: Who, svc: Svc,
                                d: Desk) -> Response:
    user = require_user(me)  # signed out: to the sign-in page; the desk checks the role
    f = await _form(request)
    try:
        old = d.job(tid, actor=user)
        if f.get("again") and old is not None:
            params = replace(old.params, seed=old.params.seed + 1, iterations=None)
        else:
            params = _params_from_form(f, svc, tid, user)
        d.start(tid, params, actor=user)
    except (SeatingRefused, RulesRefused) as e:
        if e.status == 403 and isinstance(e, SeatingRefused):
            return _refusal(request, me, e)
        if e.status == 403:
            raise  # the app's one handler answers a refusal of the asker's rights
        # the form again, with what was typed and why it was refused
        return render(request, "seating.html", status_code=e.status, published_now=None,
                      typed={k: v[:20_000] for k, v in f.items() if k != "csrf"},
                      seating_error=(e.lines(me.lang) if isinstance(e, SeatingRefused)
                                     else e.message(me.lang)),
                      **_page_context(svc, d, me, tid, user))
    return RedirectResponse(f"/t/{tid}/seating", status_code=303)


@router.post("/t/{tid}/seating/cancel", include_in_schema=False)
async def seating_cancel_post(request: Request, tid: int, me: Who, d: Desk) -> Response:
    """The page's cancel button: the search stops at its next progress report."""
    user = require_user(me)  # signed out: to the sign-in page; the desk checks the role
    await _form(request)
    try:
        await run_in_threadpool(lambda: d.cancel(tid, actor=user))
    except SeatingRefused as e:
        return _refusal(request, me, e)
    return RedirectResponse(f"/t/{tid}/seating", status_code=303)


@router.post("/t/{tid}/seating/publish", include_in_schema=False)
async def seating_publish_post(request: Request, tid: int, me: Who, svc: Svc,
                               d: Desk) -> Response:
    user = require_user(me)  # signed out: to the sign-in page; the desk checks the role
    f = await _form(request)
    try:
        rnd = _int(f.get("round"), None, "round")
        if rnd is None:
            raise SeatingRefused("desk_round_needed")
        judges = {int(k.removeprefix("judge_")): v for k, v in f.items()
                  if k.startswith("judge_") and k.removeprefix("judge_").isdecimal()
                  and len(k) <= 10}
        d.publish(tid, rnd, actor=user, judges=judges)
    except SeatingRefused as e:
        return _refusal(request, me, e)
    return RedirectResponse(f"/t/{tid}/seating?published={rnd}", status_code=303)


@router.post("/t/{tid}/seating/swap", include_in_schema=False)
async def seating_swap_post(request: Request, tid: int, me: Who, svc: Svc,
                            d: Desk) -> Response:
    """The swap box: `preview` shows every figure before and after (nothing changes),
    `confirm` swaps. A refusal comes back on the page with what was typed."""
    user = require_user(me)  # signed out: to the sign-in page; the desk checks the role
    f = await _form(request)
    preview: SwapPreview | None = None
    try:
        rnd = _int(f.get("round"), None, "round")
        if rnd is None:
            raise SeatingRefused("desk_round_needed")
        first, second = f.get("first", "")[:200], f.get("second", "")[:200]
        if f.get("action") == "confirm":
            done = await run_in_threadpool(
                lambda: d.swap(tid, rnd, first, second, actor=user, lang=me.lang))
            return RedirectResponse(
                f"/t/{tid}/seating?swapped={done.round}", status_code=303)
        preview = await run_in_threadpool(
            lambda: d.preview_swap(tid, rnd, first, second, actor=user, lang=me.lang))
    except SeatingRefused as e:
        if e.status == 403:
            return _refusal(request, me, e)
        return render(request, "seating.html", status_code=e.status, published_now=None,
                      swap_typed=f, swap_error=e.lines(me.lang),
                      **_page_context(svc, d, me, tid, user))
    return render(request, "seating.html", published_now=None, swap_typed=f,
                  swap=preview, **_page_context(svc, d, me, tid, user))


@router.get("/t/{tid}/seating/print", response_class=HTMLResponse, include_in_schema=False)
def seating_print(request: Request, tid: int, me: Who, svc: Svc, d: Desk,
                  round: str | None = None) -> Response:
    """A printable page (A4): one round's tables, or every round (`round` empty)."""
    user = require_user(me)  # signed out: to the sign-in page; the desk checks the role
    try:
        job = d.require_job(tid, actor=user)
        rounds = job.rounds()
        if not rounds:
            raise SeatingRefused("desk_not_ready", status=409)
        wanted = sorted(parse_rounds(round or "")) or list(range(1, len(rounds) + 1))
        if any(r > len(rounds) for r in wanted):
            raise SeatingRefused("desk_rounds_are", status=404, rounds=len(rounds))
    except SeatingRefused as e:
        return _refusal(request, me, e)
    t, _p, stages = svc.tournaments.context(tid)
    stage = next((x.name for x in stages if x.id == job.params.stage), job.params.stage)
    return render(request, "seating_print.html", t=t, tid=tid, job=job, rounds=rounds,
                  wanted=wanted, stage=stage, s=lambda k, **kw: sw(k, me.lang, **kw))


@router.get("/t/{tid}/seating/download", include_in_schema=False)
def seating_download(request: Request, tid: int, me: Who, d: Desk) -> Response:
    """The proposal as a mafiatab.seating/1 file."""
    user = require_user(me)  # signed out: to the sign-in page; the desk checks the role
    try:
        doc = _document(d, tid, user)
    except SeatingRefused as e:
        return _refusal(request, me, e)
    return Response(json.dumps(doc, ensure_ascii=False, indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="seating-{tid}.json"'})


def _document(d: SeatingDesk, tid: int, user: str) -> dict[str, Any]:
    job = d.require_job(tid, actor=user)
    if job.document is None:
        raise SeatingRefused("desk_not_ready", status=409)
    return job.document


# --- the API --------------------------------------------------------------------------------


class GenerateBody(Body):
    stage: str | None = Field(None, description="the stage (default: the first qualification)",
                              max_length=100)
    games: int = Field(ge=1, le=MAX_GAMES, description="games per player")
    tables: int | None = Field(None, ge=1, le=MAX_PLAYERS // 10,
                               description="tables per round (default: from N)")
    seed: int = Field(0, ge=0, le=MAX_SEED)
    separate_clubs: bool | None = Field(
        None, description="keep players of one club apart (a hard rule) or not; default: "
        "the tournament's rule")
    table_judges: dict[int, str] = Field(default_factory=dict,
                                         description="table → judge through the stage")
    pins: dict[str, int] = Field(default_factory=dict, description="player id → table (1-based)")
    availability: dict[str, str | list[int]] = Field(
        default_factory=dict, description="player id → rounds, '1-3,5' or [1, 2, 3, 5]")
    first_round: int = Field(1, ge=1, le=MAX_FIRST_ROUND,
                             description="the stage's round the seating's round 1 is")
    time_limit: float | None = Field(None, gt=0, le=MAX_TIME_LIMIT, description="seconds")
    iterations: int | None = Field(None, ge=1, le=MAX_ITERATIONS,
                                   description="search moves per run (tests)")


class SwapBody(Body):
    round: int = Field(ge=1, le=MAX_GAMES * 50, description="the seating's round (1-based)")
    first: str = Field(min_length=1, max_length=200, description="a player's id or nickname")
    second: str = Field(min_length=1, max_length=200, description="a player's id or nickname")
    confirm: bool = Field(False, description="false: only show the figures before and after")


class PublishBody(Body):
    round: int = Field(ge=1, le=MAX_GAMES * 50, description="the seating's round (1-based)")
    judges: dict[int, str] = Field(default_factory=dict, description="table → judge account")


@router.post("/api/t/{tid}/seating/generate", status_code=202, tags=["api"])
def api_generate(request: Request, tid: int, body: GenerateBody, me: Who, svc: Svc,
                 d: Desk) -> Any:
    """Start generating the seating (answers at once; poll `status`). 422 with the reason
    when no seating is possible; 409 while another generation of this tournament runs."""
    user = require_user(me)  # signed out: to the sign-in page; the desk checks the role
    avail = {p: parse_rounds(v) if isinstance(v, str) else frozenset(v)
             for p, v in body.availability.items()}
    params = SeatingParams(stage=body.stage or _default_stage(svc, tid), games=body.games,
                           tables=body.tables, seed=body.seed,
                           separate_clubs=body.separate_clubs, pins=body.pins,
                           availability=avail, first_round=body.first_round,
                           time_limit=body.time_limit, iterations=body.iterations,
                           table_judges=body.table_judges)
    job = d.start(tid, params, actor=user)
    return job.status(me.lang)


@router.post("/api/t/{tid}/seating/cancel", tags=["api"])
def api_cancel(request: Request, tid: int, me: Who, d: Desk) -> Any:
    """Stop the waiting or running generation (404 when none): a waiting one ends at once,
    a running one within a moment (its state turns `cancelled`)."""
    user = require_user(me)  # signed out: to the sign-in page; the desk checks the role
    return d.cancel(tid, actor=user).status(me.lang)


@router.get("/api/t/{tid}/seating/status", tags=["api"])
def api_status(request: Request, tid: int, me: Who, d: Desk) -> Any:
    """State (waiting, running, done, refused, failed, cancelled), progress, the place in
    the queue (`ahead`), and when done the metrics."""
    user = require_user(me)  # signed out: to the sign-in page; the desk checks the role
    job = d.job(tid, actor=user)
    cancelled = d.cancelled(tid, actor=user)
    if cancelled is not None and (job is None or cancelled.number > job.number):
        return cancelled.status(me.lang)
    return d.require_job(tid, actor=user).status(me.lang)


@router.get("/api/t/{tid}/seating", tags=["api"])
def api_get(request: Request, tid: int, me: Who, d: Desk) -> Any:
    """The proposal: mafiatab.seating/1, plus `participants` (number → id, nickname, club)."""
    user = require_user(me)  # signed out: to the sign-in page; the desk checks the role
    return _document(d, tid, user)


@router.post("/api/t/{tid}/seating/publish", tags=["api"])
def api_publish(request: Request, tid: int, body: PublishBody, me: Who, d: Desk) -> Any:
    """Enter every table of a round as its game's seating (409 when its protocols started)."""
    user = require_user(me)  # signed out: to the sign-in page; the desk checks the role
    job = d.require_job(tid, actor=user)
    games = d.publish(tid, body.round, actor=user, judges=body.judges)
    return {"round": body.round, "stage": job.params.stage,
            "stage_round": job.stage_round(body.round), "games": games}


@router.post("/api/t/{tid}/seating/swap", tags=["api"])
def api_swap(request: Request, tid: int, body: SwapBody, me: Who, d: Desk) -> Any:
    """Swap two players of a round (with `confirm`), or only show every figure before and
    after (without): 409 when the round's protocols started, 422 when a hard rule breaks."""
    user = require_user(me)  # signed out: to the sign-in page; the desk checks the role
    call = d.swap if body.confirm else d.preview_swap
    return call(tid, body.round, body.first, body.second, actor=user, lang=me.lang).as_json()


__all__ = ["desk_of", "install", "router", "sw"]
