"""The JSON API under /api: everything the pages do, for scripts and other front ends.

Same service calls and the same checks as the pages; protocols travel as format-1 game
objects (tournament-format.md), standings as `mafiatab.standings/1`. Writes need the
session cookie and the `X-CSRF-Token` header; `GET /api/session` gives both.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends
from pydantic import Field

from mafiatab.domain import protocol as model
from mafiatab.domain.points import to_json_number
from mafiatab.domain.problems import Problem, ProtocolRefused, Typed
from mafiatab.domain.published import FIELD as PUBLISHED
from mafiatab.domain.typed import MAX_FIELDS, MAX_NAME, MAX_TEXT, RawField
from mafiatab.formats.standings_json import standings_to_dict
from mafiatab.services.facade import Services
from mafiatab.services.standings import LOT_REASON_MAX, LotRecord
from mafiatab.services.tournaments import RevisionInfo, decode_game, encode_game_dict
from mafiatab.storage.models import JUDGE
from mafiatab.web import forms
from mafiatab.web.deps import Svc, Who
from mafiatab.web.pages import explain_context, shown_order, standings_context
from mafiatab.web.refusals import Unprocessable
from mafiatab.web.security import (
    Body,
    Principal,
    check_csrf,
    require_user,
)

router = APIRouter(prefix="/api", dependencies=[Depends(check_csrf)], tags=["api"])



#: bounds of what the API reads: text fields, ids, lists, numbers
NAME: Final = 100
TEXT: Final = 2000
ID: Final = 100
BIG_LIST: Final = 2000
Int = Annotated[int, Field(ge=0, le=1_000_000)]




class NewTournament(Body):
    name: str = Field(min_length=1, max_length=200)
    #: required: as on the page's form, no federation's rules are preselected
    rules: str = Field(min_length=1, max_length=20)
    stages: list[dict[str, Any]] = Field(
        default_factory=lambda: [{"id": "qual", "name": "Qualification", "kind": "qualification"}],
        max_length=20)


class Draft(Body):
    base_revision: Int = Field(description="the revision this edit starts from (0: new game)")
    protocol: dict[str, Any] = Field(description="a format-1 game object")
    typed: dict[Annotated[str, Field(max_length=MAX_NAME)],
                Annotated[str, Field(max_length=MAX_TEXT)]] | None = Field(
        None, max_length=MAX_FIELDS,
        description="what the judge typed and could not be read, by the protocol form's "
        "field names (`extra_3`, `day_1_nominated`…): kept with the draft, each with its "
        "problem, until a save clears it ({}); a submit is refused while any is left. "
        "Left out: the base revision's stay")


class Step(Body):
    base_revision: Int | None = None
    reason: str | None = Field(None, max_length=TEXT)


class Correction(Body):
    base_revision: Int = Field(description="the submitted revision being corrected")
    protocol: dict[str, Any] = Field(description="the corrected format-1 game object")
    reason: str = Field(min_length=1, max_length=TEXT,
                        description="why (the table judge and the players see it)")


class FourEyes(Body):
    on: bool = Field(description="nobody confirms or decides what he submitted, corrected "
                     "or filed (or issued the sign-in code of)")


class Players(Body):
    players: list[dict[str, Any]] = Field(description="format-1 players: id, nickname, club",
                                          max_length=BIG_LIST)


class Seating(Body):
    stage: str = Field(max_length=ID)
    round: int = Field(ge=1, le=1000)
    table: int = Field(ge=1, le=1000)
    players: list[Annotated[str, Field(max_length=ID)]] = Field(min_length=10, max_length=10)
    judge: str | None = Field(None, max_length=NAME)


class Options(Body):
    standings_hidden: bool = False
    extras_hidden: bool = False
    finished: bool = False


class Grant(Body):
    user: str = Field(min_length=1, max_length=NAME)
    role: str = Field(JUDGE, max_length=30)
    password: str | None = Field(None, max_length=256,
                                 description="for a new account only (10 characters or more)")
    code: bool = Field(False, description="make a sign-in code instead (returned once): a new "
                       "account for this tournament and this role")
    ttl_minutes: int | None = Field(None, ge=1, le=30 * 24 * 60,
                                    description="the code's life (default: the tournament's end)")


class Revoke(Body):
    user: str = Field(min_length=1, max_length=NAME)
    role: str = Field(max_length=30)


class Assign(Body):
    game: str = Field(max_length=ID)
    judge: str = Field(max_length=NAME)


class Lot(Body):
    seed: str = Field(min_length=1, max_length=200)


class Redraw(Body):
    seed: str = Field(min_length=1, max_length=200)
    reason: str = Field(min_length=1, max_length=LOT_REASON_MAX)
    number: int | None = Field(None, ge=1, le=100_000,
                               description="which drawing (default: the newest not replaced)")


def _revision(info: RevisionInfo, lang: str = "en") -> dict[str, Any]:
    return {"game": info.game, "revision": info.number, "state": info.state,
            "author": info.author, "at": info.at.isoformat(), "reason": info.reason,
            "protocol": json.loads(encode_game_dict(info.protocol)),  # Decimal points as numbers
            "typed": {name: {"text": rf.text, "problems": [p.as_dict(lang) for p in rf.problems]}
                      for name, rf in info.typed.items()}}


def _typed(svc: Services, tid: int, code: str,
           typed: dict[str, str] | None) -> dict[str, RawField] | None:
    """The texts the judge typed, each read as the protocol form reads its field: the
    ones that cannot be read are kept with their problems; a name the form does not have,
    or a text that reads (it belongs in the protocol), is refused with its field."""
    if typed is None:
        return None
    parsed = forms.game_from_form(typed, code=code, stage="", rnd=1, table=1,
                                  profile=svc.protocols.profile(tid))
    stray = [Problem("typed_readable", code, None, name, None, {"value": Typed(text)})
             for name, text in typed.items() if name not in parsed.typed]
    if stray:
        raise ProtocolRefused(stray)
    return parsed.typed


def _stage(data: dict[str, Any]) -> model.Stage:
    try:
        return model.Stage(**data)
    except TypeError as e:
        raise Unprocessable("value_unreadable", detail=f"stage: {e}"[:200]) from None


def _player(data: dict[str, Any]) -> model.Player:
    try:
        return model.Player(**data)
    except TypeError as e:
        raise Unprocessable("value_unreadable", detail=f"player: {e}"[:200]) from None


def _game(protocol: dict[str, Any]) -> model.Game:
    return decode_game(json.dumps(protocol, ensure_ascii=False))


def _sent(svc: Services, me: Principal, tid: int, code: str,
          protocol: dict[str, Any], action: str = "save") -> tuple[str, model.Game]:
    """The sender and the protocol he sent. Where the game is (id, stage, round, table)
    is the stored game's, so it may be left out; a body that is not a protocol is
    refused with its problems, or, by the service, to one who may not `action` the
    game at all (403)."""
    user = require_user(me)
    placed = {"id": code, "stage": "", "round": 1, "table": 1, **protocol}
    try:
        return user, _game(placed)
    except ProtocolRefused:
        svc.protocols.require_may(tid, code, user, action)
        raise


@router.get("/tournaments")
def tournaments(me: Who, svc: Svc) -> list[dict[str, Any]]:
    return [{"id": t.id, "name": t.name, "rules": t.rules, "players": t.players,
             "games": t.games, "confirmed": t.confirmed} for t in svc.tournaments.list_tournaments()]


@router.post("/tournaments", status_code=201)
def create(body: NewTournament, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    tid = svc.tournaments.new_tournament(body.name, body.rules, actor=user,
                             stages=[_stage(s) for s in body.stages])
    return {"id": tid}


@router.get("/t/{tid}/standings")
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
    rows = svc.games.listed(tid, actor=me.user)
    return [{"game": g.code, "stage": g.stage, "round": g.round, "table": g.table,
             "state": g.state, "revision": g.revision, "confirmed_revision": g.confirmed_revision,
             "judge": g.judge} for g in rows]


@router.get("/t/{tid}/games/{code}")
def game(tid: int, code: str, me: Who, svc: Svc) -> dict[str, Any]:
    """The confirmed protocol (staff and the table's judge: the newest revision)."""
    if me.user is not None and (svc.protocols.may_edit(tid, code, me.user)
                                or svc.games.judge_of(tid, code) == me.user):
        return _revision(svc.games.head(tid, code))  # the table's judge: his own, submitted too
    info, extras_hidden = svc.games.readable(tid, code, actor=me.user)
    out = _revision(info)
    if extras_hidden:  # the extras, and the judge's explanations of them (FIIM 9.10)
        out["protocol"].pop("scores", None)
        out["protocol"].pop("explanations", None)
        for c in out["protocol"].get("corrections", []):  # what and why could tell them
            c["changes"] = [ch for ch in c.get("changes", [])
                            if not str(ch.get("path", "")).startswith(("scores", "explanations"))]
            c["reason"] = ""
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
    the game's log. The draft is kept with the tournament-wide problems it has (one
    player at two tables, a player not seated here, ...) in `problems`, shaped as
    `check`'s; its submit refuses them. A protocol sent without a `log` keeps the stored one; its id, stage,
    round and table are the stored game's. `"log": null` (head judge, organizer) removes
    the stored log, and the audit log keeps it."""
    user, game = _sent(svc, me, tid, code, body.protocol)
    drop = "log" in body.protocol and body.protocol["log"] is None
    saved = svc.protocols.save_draft(tid, code, game, actor=user,
                                     base_revision=body.base_revision, drop_log=drop,
                                     typed=_typed(svc, tid, code, body.typed))
    # kept as sent; the record's problems beside it, as `check` gives them
    return {**_revision(saved, me.lang),
            "problems": [p.as_dict(me.lang) for p in saved.problems]}


@router.post("/t/{tid}/games/{code}/submit")
def submit(tid: int, code: str, body: Step, me: Who, svc: Svc) -> dict[str, Any]:
    """Submit the newest draft (`base_revision`: the one you saw; default the newest)."""
    user = require_user(me)
    return _revision(svc.protocols.submit(tid, code, actor=user,
                                          base_revision=body.base_revision))


@router.post("/t/{tid}/games/{code}/confirm")
def confirm(tid: int, code: str, body: Step, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)  # the service checks the role before anything else
    return _revision(svc.protocols.confirm(tid, code, actor=user,
                                           base_revision=body.base_revision))


@router.post("/t/{tid}/games/{code}/correct")
def correct(tid: int, code: str, body: Correction, me: Who, svc: Svc) -> dict[str, Any]:
    """The head judge's (organizer's) correction of a submitted protocol, with its reason:
    it stays submitted (waiting for confirmation) and is marked in `corrections`
    (docs/format.md). 409 on a newer revision or a protocol not submitted; 422 with every
    problem when it breaks a rule."""
    user, game = _sent(svc, me, tid, code, body.protocol, "correct")
    return _revision(svc.protocols.correct(tid, code, game, actor=user, reason=body.reason,
                                           base_revision=body.base_revision))


@router.put("/t/{tid}/four-eyes")
def four_eyes(tid: int, body: FourEyes, me: Who, svc: Svc) -> dict[str, Any]:
    """Switch the four-eyes rule (the organizer; audited)."""
    user = require_user(me)
    svc.tournaments.set_options(tid, actor=user, confirmer_must_differ=body.on)
    return {"four_eyes": svc.tournaments.four_eyes(tid, actor=user)}


@router.get("/t/{tid}/four-eyes")
def four_eyes_state(tid: int, me: Who, svc: Svc) -> dict[str, Any]:
    return {"four_eyes": svc.tournaments.four_eyes(tid, actor=require_user(me))}


@router.post("/t/{tid}/games/{code}/return")
def send_back(tid: int, code: str, body: Step, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)  # the service checks the role before anything else
    return _revision(svc.protocols.send_back(tid, code, actor=user, reason=body.reason or "",
                                             base_revision=body.base_revision))


@router.post("/t/{tid}/players")
def players(tid: int, body: Players, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    svc.tournaments.register_players(tid, [_player(p) for p in body.players], actor=user)
    return {"ok": True}


@router.post("/t/{tid}/seating")
def seating(tid: int, body: Seating, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    return _revision(svc.games.enter_seating(tid, body.stage, body.round, body.table, body.players,
                                       actor=user, judge=body.judge))


@router.post("/t/{tid}/options")
def options(tid: int, body: Options, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    svc.access.set_visibility(tid, actor=user, standings_hidden=body.standings_hidden,
                       extras_hidden=body.extras_hidden, finished=body.finished)
    return {"ok": True}


@router.post("/t/{tid}/staff")
def staff(tid: int, body: Grant, me: Who, svc: Svc) -> dict[str, Any]:
    """Give a role. A password is for a new account only; with `code` a new account
    for this tournament and role is made and its sign-in code returned once."""
    user = require_user(me)  # the service asks who hands out roles first
    if body.code:
        ttl = dt.timedelta(minutes=body.ttl_minutes) if body.ttl_minutes else None
        return {"code": svc.access.create_code(tid, body.user, body.role, actor=user, ttl=ttl)}
    svc.access.grant(tid, body.user, body.role, actor=user, password=body.password)
    return {"ok": True}


@router.delete("/t/{tid}/staff")
def revoke_role(tid: int, body: Revoke, me: Who, svc: Svc) -> dict[str, Any]:
    """Take a role away: in force from the account's next request."""
    user = require_user(me)  # the service asks who hands out roles first
    svc.access.revoke_role(tid, body.user, body.role, actor=user)
    return {"ok": True}


@router.get("/t/{tid}/codes")
def codes(tid: int, me: Who, svc: Svc) -> list[dict[str, Any]]:
    """The tournament's sign-in codes (never the codes themselves; the service checks)."""
    user = require_user(me)
    return [{"id": c.id, "user": c.user, "role": c.role, "created_by": c.created_by,
             "created_at": c.created_at.isoformat(),
             "expires_at": c.expires_at.isoformat() if c.expires_at else None,
             "revoked": c.revoked, "valid": c.valid} for c in svc.access.codes(tid, actor=user)]


@router.delete("/t/{tid}/codes/{cid}")
def revoke_code(tid: int, cid: int, me: Who, svc: Svc) -> dict[str, Any]:
    """The code stops working, and every session made with it ends now."""
    user = require_user(me)  # the service checks the role before anything else
    svc.access.revoke_code(tid, cid, actor=user)
    return {"ok": True}


@router.post("/t/{tid}/assign")
def assign(tid: int, body: Assign, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    svc.games.assign_judge(tid, body.game, body.judge, actor=user)
    return {"ok": True}


@router.post("/t/{tid}/lots")
def lots(tid: int, body: Lot, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    draws = svc.standings.record_lot(tid, body.seed, actor=user)
    return {"draws": [{"seed": d.seed, "group": d.group, "order": d.order} for d in draws]}


def _lot(r: LotRecord) -> dict[str, Any]:
    return {"number": r.number, "seed": r.seed, "by": r.by,
            "at": r.at.isoformat() if r.at is not None else None, "reason": r.reason,
            "replaces": r.replaces, "replaced_by": r.replaced_by,
            "draws": [{"group": d.group, "order": d.order} for d in r.draws]}


@router.get("/t/{tid}/lots")
def lot_list(tid: int, me: Who, svc: Svc) -> list[dict[str, Any]]:
    """Every drawing of lots, oldest first: seed, order, who and when (UTC, ISO)."""
    return [_lot(r) for r in svc.standings.lots(tid, actor=require_user(me))]


@router.post("/t/{tid}/lots/redraw")
def redraw(tid: int, body: Redraw, me: Who, svc: Svc) -> dict[str, Any]:
    """A drawing of lots drawn again with a new seed: a correction with its reason."""
    user = require_user(me)
    return _lot(svc.standings.redraw_lot(tid, body.seed, actor=user, reason=body.reason,
                                         number=body.number))


@router.get("/t/{tid}/audit")
def audit(tid: int, me: Who, svc: Svc) -> list[dict[str, Any]]:
    user = require_user(me)
    rows = [{"at": at.isoformat(), "user": u, "action": a, "detail": d}
            for at, u, a, d in svc.tournaments.audit_log(tid, actor=user)]
    result: list[dict[str, Any]] = json.loads(json.dumps(rows, default=str))  # Decimal points
    return result


__all__ = ["router"]
