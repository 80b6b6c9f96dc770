"""A game's protocol: its page, the judge's list of tables and his form (check, autosave,
submit, a replacement), the head judge's steps (confirm, return, correct, four eyes), and
the same use cases through the JSON API. Each route parses, calls one service call (which
checks who asks) and renders."""

from __future__ import annotations

import datetime as dt
import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import Field

from mafiatab.domain import protocol as model
from mafiatab.domain.corrections import seat_changes, what_words
from mafiatab.domain.numbers import ascii_int
from mafiatab.domain.paper import dealt_roles
from mafiatab.domain.problems import Problem, ProtocolRefused, Typed, translate_clause
from mafiatab.domain.scoring import Part, score_game
from mafiatab.domain.typed import MAX_FIELDS, MAX_NAME, MAX_TEXT, RawField
from mafiatab.domain.validation import validate_game
from mafiatab.i18n import local_time
from mafiatab.rules import PROFILES
from mafiatab.services.errors import NotFound, PermissionDenied, ServiceError
from mafiatab.services.facade import Services
from mafiatab.services.protocols import SubmitRefused, profile_of, returned_reason
from mafiatab.services.tournaments import (
    ConflictError,
    RevisionInfo,
    decode_game,
    encode_game_dict,
)
from mafiatab.services.web_support import MAIN_PARTS, GameStatus
from mafiatab.storage.models import CONFIRMED
from mafiatab.web import forms, offline
from mafiatab.web.deps import TEXT, Int, Svc, Who, form_fields, safe_next, see_other
from mafiatab.web.refusals import Missing
from mafiatab.web.rendering import render
from mafiatab.web.security import Body, Principal, check_csrf, require_user

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)
api = APIRouter(prefix="/api", dependencies=[Depends(check_csrf)], tags=["api"])


# --- the pages ------------------------------------------------------------------------------


def _scored(svc: Services, t: Any, g: model.Game, players: list[model.Player],
            stages: list[model.Stage], extras_hidden: bool
            ) -> tuple[dict[int, list[Part]] | None, list[Problem]]:
    """Each seat's points of this one game with their clauses (before K and Ci, which
    the standings apply), or None and the problems when the protocol breaks a rule."""
    profile, problems = profile_of(t)
    problems = [p for p in problems + validate_game(g, profile, {p.id for p in players},
                                                     {st.id for st in stages})
                if not p.warning]
    if problems:
        return None, problems
    out = {r.seat: [x for x in r.parts if not extras_hidden or x.kind in MAIN_PARTS]
           for r in score_game(g, profile).seat_results()}
    return out, []


@router.get("/t/{tid}/games/{code}", response_class=HTMLResponse)
def game_page(request: Request, tid: int, code: str, me: Who, svc: Svc) -> Response:
    """The whole protocol as the paper holds it, each player's points with the clauses;
    for the head judge, a submitted protocol is confirmed or sent back from here."""
    info, extras_hidden = svc.games.readable(tid, code, actor=me.user)
    t, players, stages = svc.tournaments.context(tid)
    names = {p.id: p.nickname for p in players}
    g = info.game_struct()
    scored, problems = _scored(svc, t, g, players, stages, extras_hidden)
    staff = me.is_staff(tid)
    returned = None
    if staff or info.state == "returned":
        returned = returned_reason(svc.games.revisions(tid, code))
    # the tournament as a whole (one game a round, the seated player, removals): the
    # head judge sees what his confirmation would meet
    record = svc.invariants.of_game(tid, code, actor=require_user(me)) if staff else []
    return render(request, "game.html", t=t, tid=tid, info=info, g=g, record=record,
                  names=names, extras_hidden=extras_hidden, scored=scored,
                  **correction_marks(svc, tid, g, names, me.lang, extras_hidden),
                  problems=problems if staff or info.state != CONFIRMED else [],
                  decide=staff and info.state == "submitted", returned=returned,
                  four_eyes=(svc.protocols.four_eyes_refusal(tid, code, me.user)
                             if staff and me.user and info.state == "submitted" else None),
                  may_edit=me.user is not None and svc.protocols.may_edit(tid, code, me.user))


def correction_marks(svc: Services, tid: int, g: model.Game, names: dict[str, str],
                     lang: str, extras_hidden: bool = False) -> dict[str, Any]:
    """The head judge's corrections of a protocol as the pages show them: each in words
    with its moment on the tournament's clock (`corrections`), and, per seat, what stands
    beside the judge's explanation of that seat (`seat_marks`). While extras are hidden,
    a correction says only who and when (what and why could tell the extras)."""
    if not g.corrections:
        return {"corrections": [], "seat_marks": {}}
    zone = svc.zones.zone(tid)
    out = []
    for c in g.corrections:
        try:
            at = local_time(dt.datetime.fromisoformat(c.at.replace("Z", "+00:00")), zone, lang)
        except ValueError:
            at = c.at
        what = what_words(c, lang, names) if not extras_hidden else ""
        out.append({"by": c.by, "at": at, "what": what,
                    "reason": c.reason if not extras_hidden else "…"})
    marks = {} if extras_hidden else {
        seat: seat_changes(g.corrections, seat, lang, names) for seat in range(1, 11)}
    return {"corrections": out, "seat_marks": {k: v for k, v in marks.items() if v}}


@router.get("/t/{tid}/judge", response_class=HTMLResponse)
def judge_page(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    games = svc.games.tables_of(tid, actor=require_user(me))
    t, _p, _s = svc.tournaments.context(tid)
    # a returned protocol says why, on the judge's own list
    reasons = {g.code: returned_reason(svc.games.revisions(tid, g.code))
               for g in games if g.state == "returned"}
    # what the head judge changed in his protocols, and why, on his own list
    names = {p.id: p.nickname for p in _p}
    corrected = {}
    for g in games:
        head = svc.games.head(tid, g.code).game_struct()
        if head.corrections:
            corrected[g.code] = correction_marks(svc, tid, head, names, me.lang)["corrections"]
    return render(request, "judge.html", t=t, tid=tid, games=games, reasons=reasons,
                  corrected=corrected)


def _editable(svc: Services, me: Principal, tid: int, code: str) -> str:
    user = require_user(me)
    svc.protocols.require_may(tid, code, user, "replace")  # the service refuses
    return user


def _parse(svc: Services, tid: int, code: str, f: dict[str, str]) -> forms.Parsed:
    """The form's protocol; where it is (stage, round, table) the service takes from the
    stored game, never from the form. Its typing problems cite the tournament's rules."""
    return forms.game_from_form(f, code=code, stage="", rnd=1, table=1,
                                profile=svc.protocols.profile(tid))


def _from_log(g: model.Game) -> bool:
    """Whether the protocol's facts come from its log (the form shows them, read-only)."""
    return g.log is not None and dealt_roles(g) is not None


def _edit_context(svc: Services, me: Principal, tid: int, code: str,
                  values: dict[str, str], base: int, problems: list[Problem],
                  message: str | None = None, typed: frozenset[str] = frozenset()
                  ) -> dict[str, Any]:
    t, players, _stages = svc.tournaments.context(tid)
    revisions = svc.games.revisions(tid, code)
    head = revisions[-1]
    g = head.game_struct()
    from_log = _from_log(g)  # then the template shows the log's facts from `g`, read-only
    st = GameStatus(code, g.stage, g.round, g.table, head.state, head.number, 0, head.author,
                    None)
    return {"t": t, "tid": tid, "code": code, "st": st, "v": values, "base": base,
            "players": players, "nick": {p.id: p.nickname for p in players},
            # a seated table's players change only by a recorded replacement
            "seated": svc.invariants.seated(tid, code) is not None,
            "slots": forms.slots(problems), "problems": problems,
            "staff": me.is_staff(tid), "message": message, "from_log": from_log, "g": g,
            # fields whose text is the judge's own typing, shown exactly as typed
            "typed": typed,
            "returned": returned_reason(revisions),
            # staff change a submitted protocol by a correction with its reason
            "correcting": me.is_staff(tid) and head.state == "submitted",
            # the profile says which fields exist (FSM 8.3.9), never the federation's name
            "fk_protocol": PROFILES[t.rules].has_first_killed_protocol.value,
            # the form's parts that cite a clause cite the tournament's own
            "cited": {"broken_table": translate_clause(
                          PROFILES[t.rules].has_broken_table.clause, me.lang),
                      "pu_protocol": translate_clause(
                          PROFILES[t.rules].has_first_killed_protocol.clause, me.lang)},
            "seats": forms.SEATS, "days": forms.DAYS, "pu_entries": forms.PU_ENTRIES,
            "situations": model.VERSION_SITUATIONS, "tags": model.ENTRY_TAGS,
            "penalty_kinds": model.PENALTY_KINDS, "penalty_slots": forms.PENALTY_SLOTS,
            # the queue of the form's saves on the phone (static/form-queue.js)
            "oq_boot": offline.boot_json(tid, code, me.lang)}


@router.post("/t/{tid}/games/{code}/correct", response_class=HTMLResponse)
async def correct_page(request: Request, tid: int, code: str, me: Who, svc: Svc) -> Response:
    """The head judge's correction of a submitted protocol: the form's protocol and the
    reason, one service call; it stays in the queue, marked. A value the form could not
    read, a rule broken or no reason: the form again, with every problem beside its
    field and nothing stored."""
    user = require_user(me)
    f = await form_fields(request)
    parsed = _parse(svc, tid, code, f)
    base = _base(f.get("base", "")) or 0
    message: str | None = None
    problems = list(parsed.problems)
    try:
        svc.protocols.correct(tid, code, parsed.game, actor=user,
                              reason=f.get("correction_reason", ""), base_revision=base,
                              unread=[p for p in parsed.problems if not p.warning])
    except ProtocolRefused as e:
        problems += [p for p in e.problems if p not in problems]
    except (PermissionDenied, NotFound):
        raise  # the service's refusal of the asker or of a game that is not there
    except ServiceError as e:  # no reason, nothing changed, a newer revision: in words
        message = e.message(me.lang)
    else:
        return see_other(f"/t/{tid}/games/{code}")
    return render(request, "edit.html", status_code=422 if message is None else 409,
                  **_edit_context(svc, me, tid, code, f, base, problems, message))


@router.get("/t/{tid}/games/{code}/edit", response_class=HTMLResponse)
def edit_page(request: Request, tid: int, code: str, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    head = svc.games.head(tid, code)
    checked = svc.protocols.check(tid, code, head.game_struct(), actor=user)
    # what the judge typed and could not be read is back in its field, with its problem
    unread = [p for rf in head.typed.values() for p in rf.problems]
    return render(request, "edit.html", **_edit_context(
        svc, me, tid, code, forms.form_with_typed(checked.game, head.typed), head.number,
        unread + checked.problems, typed=frozenset(head.typed)))


@router.post("/t/{tid}/games/{code}/check", response_class=HTMLResponse)
async def check_page(request: Request, tid: int, code: str, me: Who, svc: Svc) -> Response:
    """htmx, as the judge types: every problem, each into its slot (out-of-band swaps)."""
    user = require_user(me)
    parsed = _parse(svc, tid, code, await form_fields(request))
    problems = parsed.problems + svc.protocols.check(tid, code, parsed.game,
                                                     actor=user).problems
    return render(request, "problems_oob.html", slots=forms.slots(problems), problems=problems)


def _base(text: str) -> int | None:
    """The form's base revision (ASCII digits only)."""
    return ascii_int(text, 9)


@router.post("/t/{tid}/games/{code}/draft", response_class=HTMLResponse)
async def draft_page(request: Request, tid: int, code: str, me: Who, svc: Svc) -> Response:
    """htmx autosave: a new draft revision; answers the status line and the new base.
    The autosave may go on top of the same judge's own newer drafts (one crossing his
    submit), never on top of anybody else's revision."""
    user = require_user(me)
    f = await form_fields(request)
    parsed = _parse(svc, tid, code, f)
    base = _base(f.get("base", "")) or 0
    try:
        info = svc.protocols.save_draft(tid, code, parsed.game, actor=user, base_revision=base,
                                        own_autosave=True, typed=parsed.typed)
    except ConflictError as e:
        return render(request, "saved.html", base=base, message=e.message(me.lang), error=True,
                      slots=None)
    except ProtocolRefused as e:
        problems = parsed.problems + e.problems
        return render(request, "saved.html", base=base, error=True,
                      message="; ".join(p.message(me.lang) for p in e.problems),
                      slots=forms.slots(problems), problems=problems)
    problems = parsed.problems + svc.protocols.check(tid, code, parsed.game,
                                                     actor=user).problems
    return render(request, "saved.html", base=info.number, error=False,
                  message=None, number=info.number,
                  slots=forms.slots(problems), problems=problems)


@router.post("/t/{tid}/games/{code}/submit", response_class=HTMLResponse)
async def submit_page(request: Request, tid: int, code: str, me: Who, svc: Svc) -> Response:
    """Submit the form's protocol: one service call (save and submit in one transaction).
    A value the form could not read refuses the submit; the rest is kept as a draft."""
    user = require_user(me)
    f = await form_fields(request)
    parsed = _parse(svc, tid, code, f)
    base = _base(f.get("base", "")) or 0
    try:
        svc.protocols.submit(tid, code, actor=user, base_revision=base, game=parsed.game,
                             own_autosave=True, typed=parsed.typed)
    except (ProtocolRefused, ConflictError) as e:
        message = e.message(me.lang) if isinstance(e, ConflictError) else None
        problems = parsed.problems + (e.problems if isinstance(e, ProtocolRefused) else [])
        if isinstance(e, SubmitRefused) and e.saved is not None:
            base = e.saved.number
            problems = parsed.problems + [p for p in e.problems if p not in parsed.problems]
        return render(request, "edit.html", status_code=422 if message is None else 409,
                      **_edit_context(svc, me, tid, code, f, base, problems, message,
                                      frozenset(parsed.typed)))
    return see_other(f"/t/{tid}/judge" if not me.is_staff(tid) else f"/t/{tid}/manage")


def _replace_context(svc: Services, me: Principal, tid: int, code: str, seat: int,
                     problems: list[Any], form: dict[str, str]) -> dict[str, Any]:
    t, players, _stages = svc.tournaments.context(tid)
    head = svc.games.head(tid, code)
    g = head.game_struct()
    here = {s.player for s in g.seats}
    current = next((s.player for s in g.seats if s.seat == seat), "")
    return {"t": t, "tid": tid, "code": code, "seat": seat, "g": g, "base": head.number,
            "current": current, "nick": {p.id: p.nickname for p in players},
            "choices": [p for p in players if p.id not in here], "problems": problems,
            "form": form}


@router.get("/t/{tid}/games/{code}/replace", response_class=HTMLResponse)
def replace_page(request: Request, tid: int, code: str, me: Who, svc: Svc, seat: int = 1
                 ) -> Response:
    """The form of a replacement: the seated player, the new one, the reason."""
    _editable(svc, me, tid, code)
    if not 1 <= seat <= 10:
        raise Missing("no_such_seat", seat=seat)
    return render(request, "replace.html", **_replace_context(svc, me, tid, code, seat, [], {}))


@router.post("/t/{tid}/games/{code}/replace", response_class=HTMLResponse)
async def replace_post(request: Request, tid: int, code: str, me: Who, svc: Svc) -> Response:
    """Record the replacement (one service call); refused: the form again, with why."""
    user = _editable(svc, me, tid, code)
    f = await form_fields(request)
    seat = ascii_int(f.get("seat", ""), 2) or 0
    try:
        svc.replacements.replace(tid, code, seat, f.get("player", ""),
                                 reason=f.get("reason", ""), actor=user,
                                 base_revision=_base(f.get("base", "")))
    except (ProtocolRefused, ServiceError) as e:
        return render(request, "replace.html", status_code=e.status,
                      **_replace_context(svc, me, tid, code, seat, e.errors, f))
    return see_other(f"/t/{tid}/games/{code}/edit")


def _back(tid: int, f: dict[str, str]) -> str:
    """Where a head judge's decision leads: the page it was taken on (the game page or
    the overview)."""
    nxt = safe_next(f.get("next"))
    return nxt if nxt.startswith(f"/t/{tid}/") else f"/t/{tid}/manage"


@router.post("/t/{tid}/games/{code}/confirm")
async def confirm_page(request: Request, tid: int, code: str, me: Who, svc: Svc) -> Response:
    user = require_user(me)  # the service checks the role before anything else
    f = await form_fields(request)
    base = f.get("base", "")
    svc.protocols.confirm(tid, code, actor=user,
                          base_revision=_base(base))
    return see_other(_back(tid, f))


@router.post("/t/{tid}/games/{code}/return")
async def return_page(request: Request, tid: int, code: str, me: Who, svc: Svc) -> Response:
    user = require_user(me)  # the service checks the role before anything else
    f = await form_fields(request)
    base = f.get("base", "")
    svc.protocols.send_back(tid, code, actor=user, reason=f.get("reason", ""),
                            base_revision=_base(base))
    return see_other(_back(tid, f))


# --- the JSON API -------------------------------------------------------------------------


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


def revision_json(info: RevisionInfo, lang: str = "en") -> dict[str, Any]:
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


@api.get("/t/{tid}/games")
def games(tid: int, me: Who, svc: Svc) -> list[dict[str, Any]]:
    """Every table's protocol state (staff); a judge sees his own tables; others see
    the confirmed games."""
    rows = svc.games.listed(tid, actor=me.user)
    return [{"game": g.code, "stage": g.stage, "round": g.round, "table": g.table,
             "state": g.state, "revision": g.revision, "confirmed_revision": g.confirmed_revision,
             "judge": g.judge} for g in rows]


@api.get("/t/{tid}/games/{code}")
def game(tid: int, code: str, me: Who, svc: Svc) -> dict[str, Any]:
    """The confirmed protocol (staff and the table's judge: the newest revision)."""
    if me.user is not None and (svc.protocols.may_edit(tid, code, me.user)
                                or svc.games.judge_of(tid, code) == me.user):
        return revision_json(svc.games.head(tid, code))  # the table's judge: his own, submitted too
    info, extras_hidden = svc.games.readable(tid, code, actor=me.user)
    out = revision_json(info)
    if extras_hidden:  # the extras, and the judge's explanations of them (FIIM 9.10)
        out["protocol"].pop("scores", None)
        out["protocol"].pop("explanations", None)
        for c in out["protocol"].get("corrections", []):  # what and why could tell them
            c["changes"] = [ch for ch in c.get("changes", [])
                            if not str(ch.get("path", "")).startswith(("scores", "explanations"))]
            c["reason"] = ""
    return out


@api.post("/t/{tid}/games/{code}/check")
def check(tid: int, code: str, body: Draft, me: Who, svc: Svc) -> dict[str, Any]:
    """Every rule problem of a protocol (kept in step with the stored log), unsaved."""
    user, game = _sent(svc, me, tid, code, body.protocol)
    checked = svc.protocols.check(tid, code, game, actor=user)
    return {"problems": [p.as_dict(me.lang) for p in checked.problems]}


@api.put("/t/{tid}/games/{code}/draft")
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
    return {**revision_json(saved, me.lang),
            "problems": [p.as_dict(me.lang) for p in saved.problems]}


@api.post("/t/{tid}/games/{code}/submit")
def submit(tid: int, code: str, body: Step, me: Who, svc: Svc) -> dict[str, Any]:
    """Submit the newest draft (`base_revision`: the one you saw; default the newest)."""
    user = require_user(me)
    return revision_json(svc.protocols.submit(tid, code, actor=user,
                                          base_revision=body.base_revision))


@api.post("/t/{tid}/games/{code}/confirm")
def confirm(tid: int, code: str, body: Step, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)  # the service checks the role before anything else
    return revision_json(svc.protocols.confirm(tid, code, actor=user,
                                           base_revision=body.base_revision))


@api.post("/t/{tid}/games/{code}/correct")
def correct(tid: int, code: str, body: Correction, me: Who, svc: Svc) -> dict[str, Any]:
    """The head judge's (organizer's) correction of a submitted protocol, with its reason:
    it stays submitted (waiting for confirmation) and is marked in `corrections`
    (docs/format.md). 409 on a newer revision or a protocol not submitted; 422 with every
    problem when it breaks a rule."""
    user, game = _sent(svc, me, tid, code, body.protocol, "correct")
    return revision_json(svc.protocols.correct(tid, code, game, actor=user, reason=body.reason,
                                           base_revision=body.base_revision))


@api.put("/t/{tid}/four-eyes")
def four_eyes(tid: int, body: FourEyes, me: Who, svc: Svc) -> dict[str, Any]:
    """Switch the four-eyes rule (the organizer; audited)."""
    user = require_user(me)
    svc.tournaments.set_options(tid, actor=user, confirmer_must_differ=body.on)
    return {"four_eyes": svc.tournaments.four_eyes(tid, actor=user)}


@api.get("/t/{tid}/four-eyes")
def four_eyes_state(tid: int, me: Who, svc: Svc) -> dict[str, Any]:
    return {"four_eyes": svc.tournaments.four_eyes(tid, actor=require_user(me))}


@api.post("/t/{tid}/games/{code}/return")
def send_back(tid: int, code: str, body: Step, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)  # the service checks the role before anything else
    return revision_json(svc.protocols.send_back(tid, code, actor=user, reason=body.reason or "",
                                             base_revision=body.base_revision))


__all__ = ["api", "router", "correction_marks", "revision_json"]
