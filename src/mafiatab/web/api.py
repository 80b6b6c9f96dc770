"""The JSON API under /api: everything the pages do, for scripts and other front ends.

Same service calls and the same checks as the pages; protocols travel as format-1 game
objects (tournament-format.md), standings as `mafiatab.standings/1`. Writes need the
session cookie and the `X-CSRF-Token` header; `GET /api/session` gives both.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel, Field

from mafiatab.domain import protocol as model
from mafiatab.domain.points import to_json_number
from mafiatab.domain.problems import ProtocolRefused
from mafiatab.formats.standings_json import standings_to_dict
from mafiatab.services.tournaments import RevisionInfo, decode_game, encode_game_dict
from mafiatab.services.web_support import STAFF, WebService
from mafiatab.storage.models import JUDGE, ORGANIZER
from mafiatab.web.pages import explain_context, public_game, shown_order, standings_context
from mafiatab.web.security import (
    Principal,
    check_csrf,
    principal,
    require_role,
    require_user,
    service,
    sign_in,
    sign_out,
)

router = APIRouter(prefix="/api", dependencies=[Depends(check_csrf)], tags=["api"])

Who = Annotated[Principal, Depends(principal)]
Svc = Annotated[WebService, Depends(service)]


class Login(BaseModel):
    user: str | None = None
    password: str | None = None
    code: str | None = Field(None, description="a per-tournament code instead of user/password")


class NewTournament(BaseModel):
    name: str
    rules: str = "fsm"
    stages: list[dict[str, Any]] = Field(
        default_factory=lambda: [{"id": "qual", "name": "Qualification", "kind": "qualification"}])


class Draft(BaseModel):
    base_revision: int = Field(description="the revision this edit starts from (0: new game)")
    protocol: dict[str, Any] = Field(description="a format-1 game object")


class Step(BaseModel):
    base_revision: int | None = None
    reason: str | None = None


class Players(BaseModel):
    players: list[dict[str, Any]] = Field(description="format-1 players: id, nickname, club")


class Seating(BaseModel):
    stage: str
    round: int
    table: int
    players: list[str] = Field(min_length=10, max_length=10)
    judge: str | None = None


class Options(BaseModel):
    standings_hidden: bool = False
    extras_hidden: bool = False
    finished: bool = False


class Grant(BaseModel):
    user: str
    role: str = JUDGE
    password: str | None = None
    code: bool = Field(False, description="make a sign-in code instead (returned once)")


class Assign(BaseModel):
    game: str
    judge: str


class Lot(BaseModel):
    seed: str


def _revision(info: RevisionInfo) -> dict[str, Any]:
    return {"game": info.game, "revision": info.number, "state": info.state,
            "author": info.author, "at": info.at.isoformat(), "reason": info.reason,
            "protocol": json.loads(encode_game_dict(info.protocol))}  # Decimal points as numbers


def _game(protocol: dict[str, Any]) -> model.Game:
    return decode_game(json.dumps(protocol, ensure_ascii=False))


def _sent(svc: WebService, me: Principal, tid: int, code: str,
          protocol: dict[str, Any]) -> tuple[str, model.Game]:
    """The sender and the protocol he sent. Where the game is (id, stage, round, table)
    is the stored game's, so it may be left out; a body that is not a protocol is
    refused with its problems, or with 403 to one who may not edit the game at all."""
    user = require_user(me)
    placed = {"id": code, "stage": "", "round": 1, "table": 1, **protocol}
    try:
        return user, _game(placed)
    except ProtocolRefused:
        if not svc.may_edit(tid, code, user):
            raise HTTPException(status_code=403, detail="not allowed") from None
        raise


@router.get("/session")
def session(me: Who) -> dict[str, Any]:
    """Who is signed in, their roles per tournament, and the CSRF token for writes."""
    return {"user": me.user, "lang": me.lang, "csrf": me.csrf,
            "roles": {str(k): sorted(v) for k, v in me.roles.items()}}


@router.post("/login")
def login(body: Login, request: Request, me: Who, svc: Svc) -> dict[str, Any]:
    if body.code:
        found = svc.sign_in_with_code(body.code)
        if found is None:
            raise HTTPException(status_code=401, detail="bad_code")
        sign_in(request, found[0])
    elif body.user and body.password is not None and svc.check_password(body.user, body.password):
        sign_in(request, body.user)
    else:
        raise HTTPException(status_code=401, detail="bad_login")
    return session(principal(request))


@router.post("/logout")
def logout(request: Request, me: Who) -> dict[str, Any]:
    sign_out(request)
    return {"ok": True}


@router.get("/tournaments")
def tournaments(me: Who, svc: Svc) -> list[dict[str, Any]]:
    return [{"id": t.id, "name": t.name, "rules": t.rules, "players": t.players,
             "games": t.games, "confirmed": t.confirmed} for t in svc.list_tournaments()]


@router.post("/tournaments", status_code=201)
def create(body: NewTournament, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    tid = svc.create_tournament(body.name, body.rules, actor=user,
                                stages=[model.Stage(**s) for s in body.stages])
    return {"id": tid}


@router.get("/t/{tid}/standings")
def standings(tid: int, me: Who, svc: Svc, stage: str | None = None) -> dict[str, Any]:
    """mafiatab.standings/1; `hidden` when the tournament hides them from this asker."""
    ctx = standings_context(svc, me, tid, stage)
    if ctx["hidden"]:
        return {"format": "mafiatab.standings/1", "hidden": True, "standings": []}
    s = svc.cached_standings(tid, [stage] if stage else None)
    out = standings_to_dict(s)
    if ctx["extras_hidden"]:
        keep = ("player", "nickname", "games", "wins", "main")
        order = {r.player: i for i, r in enumerate(shown_order(s.rows))}
        out["standings"] = sorted(({k: r[k] for k in keep} for r in out["standings"]),
                                  key=lambda r: order[r["player"]])
        out["extras_hidden"] = True
    out["confirmed_games"], out["games"], out["after_round"] = (
        ctx["done"], ctx["total"], ctx["last_round"])
    return out


@router.get("/t/{tid}/players/{pid}")
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


@router.get("/t/{tid}/games")
def games(tid: int, me: Who, svc: Svc) -> list[dict[str, Any]]:
    """Every table's protocol state (staff); a judge sees his own tables; others see
    the confirmed games."""
    rows = svc.overview(tid)
    if not me.is_staff(tid):
        if svc.visibility(tid).standings_hidden and not me.has(tid, {JUDGE}):
            raise HTTPException(status_code=403)
        rows = [g for g in rows if g.confirmed_revision or (me.user and g.judge == me.user)]
    return [{"game": g.code, "stage": g.stage, "round": g.round, "table": g.table,
             "state": g.state, "revision": g.revision, "confirmed_revision": g.confirmed_revision,
             "judge": g.judge} for g in rows]


@router.get("/t/{tid}/games/{code}")
def game(tid: int, code: str, me: Who, svc: Svc) -> dict[str, Any]:
    """The confirmed protocol (staff and the table's judge: the newest revision)."""
    if me.user is not None and (svc.may_edit(tid, code, me.user)
                                or svc.judge_of(tid, code) == me.user):
        return _revision(svc.head(tid, code))  # the table's judge: his own, submitted too
    info, extras_hidden = public_game(svc, me, tid, code)
    out = _revision(info)
    if extras_hidden:  # the extras, and the judge's explanations of them (FIIM 9.10)
        out["protocol"].pop("scores", None)
        out["protocol"].pop("explanations", None)
    return out


@router.post("/t/{tid}/games/{code}/check")
def check(tid: int, code: str, body: Draft, me: Who, svc: Svc) -> dict[str, Any]:
    """Every rule problem of a protocol (kept in step with the stored log), unsaved."""
    user, game = _sent(svc, me, tid, code, body.protocol)
    checked = svc.protocols.check(tid, code, game, actor=user)
    return {"problems": [p.as_dict(me.lang) for p in checked.problems]}


@router.put("/t/{tid}/games/{code}/draft")
def draft(tid: int, code: str, body: Draft, me: Who, svc: Svc) -> dict[str, Any]:
    """Save a draft; 409 if someone saved after `base_revision`; 422 if it contradicts
    the game's log. A protocol sent without a `log` keeps the stored one; its id, stage,
    round and table are the stored game's. `"log": null` (head judge, organizer) removes
    the stored log, and the audit log keeps it."""
    user, game = _sent(svc, me, tid, code, body.protocol)
    drop = "log" in body.protocol and body.protocol["log"] is None
    return _revision(svc.protocols.save_draft(tid, code, game, actor=user,
                                              base_revision=body.base_revision,
                                              drop_log=drop))


@router.post("/t/{tid}/games/{code}/submit")
def submit(tid: int, code: str, body: Step, me: Who, svc: Svc) -> dict[str, Any]:
    """Submit the newest draft (`base_revision`: the one you saw; default the newest)."""
    user = require_user(me)
    return _revision(svc.protocols.submit(tid, code, actor=user,
                                          base_revision=body.base_revision))


@router.post("/t/{tid}/games/{code}/confirm")
def confirm(tid: int, code: str, body: Step, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_role(me, tid, STAFF)
    return _revision(svc.protocols.confirm(tid, code, actor=user,
                                           base_revision=body.base_revision))


@router.post("/t/{tid}/games/{code}/return")
def send_back(tid: int, code: str, body: Step, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_role(me, tid, STAFF)
    return _revision(svc.protocols.send_back(tid, code, actor=user, reason=body.reason or "",
                                             base_revision=body.base_revision))


@router.post("/t/{tid}/players")
def players(tid: int, body: Players, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_role(me, tid, {ORGANIZER})
    svc.register_players(tid, [model.Player(**p) for p in body.players], actor=user)
    return {"ok": True}


@router.post("/t/{tid}/seating")
def seating(tid: int, body: Seating, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_role(me, tid, STAFF)
    return _revision(svc.enter_seating(tid, body.stage, body.round, body.table, body.players,
                                       actor=user, judge=body.judge))


@router.post("/t/{tid}/options")
def options(tid: int, body: Options, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_role(me, tid, STAFF)
    svc.set_visibility(tid, actor=user, standings_hidden=body.standings_hidden,
                       extras_hidden=body.extras_hidden, finished=body.finished)
    return {"ok": True}


@router.post("/t/{tid}/staff")
def staff(tid: int, body: Grant, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_role(me, tid, STAFF)
    if body.code:
        return {"code": svc.create_code(tid, body.user, body.role, actor=user)}
    svc.grant(tid, body.user, body.role, actor=user, password=body.password)
    return {"ok": True}


@router.post("/t/{tid}/assign")
def assign(tid: int, body: Assign, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_role(me, tid, STAFF)
    svc.assign_judge(tid, body.game, body.judge, actor=user)
    return {"ok": True}


@router.post("/t/{tid}/lots")
def lots(tid: int, body: Lot, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_role(me, tid, STAFF)
    draws = svc.record_lot(tid, body.seed, actor=user)
    return {"draws": [{"seed": d.seed, "group": d.group, "order": d.order} for d in draws]}


@router.get("/t/{tid}/audit")
def audit(tid: int, me: Who, svc: Svc) -> list[dict[str, Any]]:
    require_role(me, tid, STAFF)
    rows = [{"at": at.isoformat(), "user": u, "action": a, "detail": d}
            for at, u, a, d in svc.audit_log(tid)]
    result: list[dict[str, Any]] = json.loads(json.dumps(rows, default=str))  # Decimal points
    return result


__all__ = ["router"]
