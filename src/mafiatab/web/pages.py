"""The HTML pages: public standings and players, the judge's protocol form, the head
judge's overview and set-up. Each route checks who asks, calls the service, renders."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from pydantic import Field

from mafiatab.domain import protocol as model
from mafiatab.domain.points import to_json_number
from mafiatab.domain.provenance import import_source
from mafiatab.domain.published import FIELD as PUBLISHED
from mafiatab.domain.published import ordered, published_table
from mafiatab.formats.standings_json import standings_to_dict
from mafiatab.i18n import federation
from mafiatab.rules import PROFILES
from mafiatab.services.facade import Services
from mafiatab.services.web_support import (
    GameStatus,
)
from mafiatab.texts import pick, say
from mafiatab.texts.register import AWARD, REGISTER_PAGE
from mafiatab.web import texts
from mafiatab.web.deps import Svc, Who, built
from mafiatab.web.lots import shown_lots
from mafiatab.web.public_cache import PLACEHOLDER, cache_of, page_bytes
from mafiatab.web.refusals import Missing
from mafiatab.web.rendering import TEMPLATES, render
from mafiatab.web.security import (
    Body,
    Principal,
    check_csrf,
    principal,
    require_user,
    service,
)

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)


# --- a tournament's public pages ---------------------------------------------------


def _progress(games: list[GameStatus], stage: str | None) -> tuple[int, int, int]:
    """Confirmed games, all games, and the last round whose tables are all confirmed."""
    scope = [g for g in games if stage is None or g.stage == stage]
    done = sum(1 for g in scope if g.confirmed_revision)
    rounds: dict[tuple[str, int], bool] = {}
    for g in scope:
        rounds[(g.stage, g.round)] = rounds.get((g.stage, g.round), True) and bool(g.confirmed_revision)
    last = 0
    for (_st, rnd), complete in sorted(rounds.items(), key=lambda x: x[0][1]):
        if not complete:
            break
        last = rnd
    return done, len(scope), last


def shown_order(rows: list[Any]) -> list[Any]:
    """Standings while extras are hidden, ordered by what is shown (main points, then
    wins, then the name), as FSM "closed tables" mean: the order of the hidden totals
    would tell the extras."""
    return sorted(rows, key=lambda r: (-r.main, -r.wins, r.nickname, r.player))


def standings_context(svc: Services, me: Principal, tid: int, stage: str | None) -> dict[str, Any]:
    """What the standings table shows this asker (staff see everything)."""
    t, _players, stages = svc.tournaments.context(tid)
    if stage is not None and stage not in {s.id for s in stages}:
        raise Missing("no_such_stage", stage=stage[:40])
    shown, extras_hidden = svc.standings.view(tid, [stage] if stage else None, actor=me.user)
    hidden = shown is None
    rows = shown or []
    if extras_hidden:
        rows = shown_order(rows)
    done, total, last = _progress(svc.games.overview(tid), stage)
    # results imported as another system published them: shown as published, beside
    # (or, with no protocols, instead of) mafiatab's own standings
    published = None if hidden else published_table(t.other or {})
    people = svc.people.person_ids(tid) if rows or published else {}
    return {"t": t, "tid": tid, "stages": stages, "stage": stage, "rows": rows,
            "people": people, "hidden": hidden, "extras_hidden": extras_hidden,
            "done": done, "total": total, "last_round": last, "published": published,
            # results another system recorded: marked, their source named
            "source": import_source(t.other or {})}


@router.get("/t/{tid}", response_class=HTMLResponse)
async def tournament_page(request: Request, tid: int, stage: str | None = None) -> Response:
    """The standings page. For a reader nobody signed in as, it is the same page for every
    phone of one language until the tournament changes (but for its CSRF token): rendered
    once per change and kept (`web.public_cache`), as the hall opens it after a round."""
    svc = service(request)
    if request.session.get("sid") is not None:
        return await run_in_threadpool(_page, request, svc, tid, stage)
    me = principal(request)  # anonymous: no database
    cache = cache_of(request.app)
    stamp = await cache.stamp(tid)
    anon = Principal(user=None, lang=me.lang, csrf=PLACEHOLDER)
    key = ("page", tid, stage or None, me.lang, stamp, request.url.path)
    kept, _etag = await cache.get(
        key, lambda: bytes(_page(request, svc, tid, stage, anon).body))
    return HTMLResponse(page_bytes(kept, me.csrf))


def _page(request: Request, svc: Services, tid: int, stage: str | None,
          who: Principal | None = None) -> HTMLResponse:
    me = who or principal(request)
    context = standings_context(svc, me, tid, stage or None)
    # the lots drawn, on the record, as the service shows them to this reader
    lots = svc.standings.published_lots(tid, actor=me.user)
    lang = me.lang
    return render(request, "standings.html", who=who, **context,
                  lots=shown_lots(svc, tid, me.lang, lots), ordered=ordered,
                  rule_titles={p.id: p.title for p in PROFILES.values()},
                  federation=federation,
                  awards=[a for a in svc.awards.named(tid) if a.nickname is not None],
                  exhibition=[p.nickname for p in svc.tournaments.context(tid)[1]
                              if p.exhibition],
                  rw=lambda key, **kw: say(REGISTER_PAGE, key, lang, **kw),
                  award_word=lambda code: pick(AWARD, code, lang))


def public_table(svc: Services, tid: int, stage: str | None, lang: str) -> bytes:
    """The standings table as the public sees it, in `lang`: what the page's poll and its
    event stream send to everyone who is not staff."""
    anon = Principal(user=None, lang=lang, csrf="")
    context = standings_context(svc, anon, tid, stage)
    context.update(lang=lang, me=anon, csrf="",
                   w=lambda key, **kw: texts.word(key, lang, **kw))
    return TEMPLATES.get_template("standings_table.html").render(context).encode()


@router.get("/t/{tid}/standings", response_class=HTMLResponse)
async def standings_fragment(request: Request, tid: int, stage: str | None = None) -> Response:
    """The table alone, polled by htmx every few seconds by every phone in the hall.

    For the public it is rendered once per change of the tournament (the service's stamp)
    and language, and served from memory until the next change (`web.public_cache`; the
    poll without a stage is answered there before this route). An unchanged table answers
    304 to the browser's ETag, which saves the hall's Wi-Fi the bytes. Staff get a fresh
    render (they see what the public does not)."""
    svc = service(request)
    if request.session.get("sid") is not None:
        me = await run_in_threadpool(principal, request)
        if me.is_staff(tid):
            return await run_in_threadpool(
                lambda: render(request, "standings_table.html",
                               **standings_context(svc, me, tid, stage or None)))
    else:
        me = principal(request)  # anonymous: no database
    cache = cache_of(request.app)
    stamp = await cache.stamp(tid)
    key = ("table", tid, stage or None, me.lang, stamp)
    body, etag = await cache.get(key, lambda: public_table(svc, tid, stage or None, me.lang))
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return HTMLResponse(body, headers=headers)


def explain_context(svc: Services, me: Principal, tid: int, pid: str,
                    stage: str | None) -> dict[str, Any]:
    t, players, stages = svc.tournaments.context(tid)
    player = next((p for p in players if p.id == pid), None)
    if player is None:
        raise Missing("no_such_player", player=pid[:40])
    games, extras_hidden = svc.standings.player_games(tid, pid, [stage] if stage else None,
                                                      actor=me.user)
    return {"t": t, "tid": tid, "player": player, "games": games, "stages": stages,
            "stage": stage, "extras_hidden": extras_hidden}


# --- judges -----------------------------------------------------------------------------


# --- head judge -------------------------------------------------------------------------


@router.get("/t/{tid}/audit", response_class=HTMLResponse)
def audit_page(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    log = svc.tournaments.audit_log(tid, actor=require_user(me))
    t, players, _s = svc.tournaments.context(tid)
    # an entry names a player by his nickname; the id stays in the stored log and the API
    nick = {p.id: p.nickname for p in players}
    entries = [(at, user, action, {**detail, **{k: nick.get(detail[k], detail[k])
                                                 for k in ("player", "before", "after")
                                                 if isinstance(detail.get(k), str)}})
               for at, user, action, detail in reversed(log)]
    return render(request, "audit.html", t=t, tid=tid, entries=entries)


# --- the JSON API: tournaments, standings, a player's points, the audit log ------------------

api = APIRouter(prefix="/api", dependencies=[Depends(check_csrf)], tags=["api"])


class NewTournament(Body):
    name: str = Field(min_length=1, max_length=200)
    #: required: as on the page's form, no federation's rules are preselected
    rules: str = Field(min_length=1, max_length=20)
    stages: list[dict[str, Any]] = Field(
        default_factory=lambda: [{"id": "qual", "name": "Qualification", "kind": "qualification"}],
        max_length=20)



@api.get("/tournaments")
def tournaments(me: Who, svc: Svc) -> list[dict[str, Any]]:
    return [{"id": t.id, "name": t.name, "rules": t.rules, "players": t.players,
             "games": t.games, "confirmed": t.confirmed} for t in svc.tournaments.list_tournaments()]


@api.post("/tournaments", status_code=201)
def create(body: NewTournament, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    tid = svc.tournaments.new_tournament(body.name, body.rules, actor=user,
                             stages=[built(model.Stage, s, "stage") for s in body.stages])
    return {"id": tid}


@api.get("/t/{tid}/standings")
def standings(tid: int, me: Who, svc: Svc, stage: str | None = None) -> dict[str, Any]:
    """mafiatab.standings/1; `hidden` when the tournament hides them from this asker."""
    ctx = standings_context(svc, me, tid, stage)
    if ctx["hidden"]:
        return {"format": "mafiatab.standings/1", "hidden": True, "standings": []}
    s = svc.standings.cached(tid, [stage] if stage else None)
    out = standings_to_dict(s)
    if ctx["extras_hidden"]:
        keep = ("player", "nickname", "games", "wins", "main")
        order = {r.player: i for i, r in enumerate(shown_order(s.rows))}
        out["standings"] = sorted(({k: r[k] for k in keep} for r in out["standings"]),
                                  key=lambda r: order[r["player"]])
        out["extras_hidden"] = True
    if ctx["extras_hidden"]:
        out.pop("exhibition", None)
    out["confirmed_games"], out["games"], out["after_round"] = (
        ctx["done"], ctx["total"], ctx["last_round"])
    if ctx["published"] is not None:  # results imported as another system published them
        out[PUBLISHED] = ctx["t"].other[PUBLISHED]
    if ctx["source"] is not None:  # results another system recorded: where they come from
        out["imported_from"] = ctx["source"]
    out["awards"] = [{"award": a.award, "player": a.player, "nickname": a.nickname}
                     for a in svc.awards.named(tid)]
    return out


@api.get("/t/{tid}/players/{pid}")
def player(tid: int, pid: str, me: Who, svc: Svc, stage: str | None = None) -> dict[str, Any]:
    """Every game of the player with each part of its points and the clause."""
    ctx = explain_context(svc, me, tid, pid, stage)
    return {"player": pid, "nickname": ctx["player"].nickname,
            "extras_hidden": ctx["extras_hidden"],
            "games": [{"game": g.game, "stage": g.stage, "round": g.round, "table": g.table,
                       "seat": g.seat, "role": g.role, "result": g.result,
                       "total": to_json_number(g.total),
                       "parts": [{"kind": x.kind, "points": to_json_number(x.points),
                                  "clause": x.clause} for x in g.parts]}
                      for g in ctx["games"]]}


@api.get("/t/{tid}/audit")
def audit(tid: int, me: Who, svc: Svc) -> list[dict[str, Any]]:
    user = require_user(me)
    rows = [{"at": at.isoformat(), "user": u, "action": a, "detail": d}
            for at, u, a, d in svc.tournaments.audit_log(tid, actor=user)]
    result: list[dict[str, Any]] = json.loads(json.dumps(rows, default=str))  # Decimal points
    return result


__all__ = ["api", "router", "standings_context", "explain_context", "public_table"]
