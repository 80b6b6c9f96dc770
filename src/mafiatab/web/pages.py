"""The HTML pages: public standings and players, the judge's protocol form, the head
judge's overview and set-up. Each route checks who asks, calls the service, renders."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response

from mafiatab.domain import protocol as model
from mafiatab.domain.corrections import seat_changes, what_words
from mafiatab.domain.numbers import ascii_int
from mafiatab.domain.paper import dealt_roles
from mafiatab.domain.problems import Problem, ProtocolRefused, translate_clause
from mafiatab.domain.provenance import import_source
from mafiatab.domain.published import ordered, published_table
from mafiatab.domain.scoring import Part, score_game
from mafiatab.domain.validation import validate_game
from mafiatab.i18n import federation, local_time
from mafiatab.rules import PROFILES
from mafiatab.services.errors import NotFound, PermissionDenied, ServiceError
from mafiatab.services.facade import Services
from mafiatab.services.protocols import SubmitRefused, profile_of, returned_reason
from mafiatab.services.tournaments import ConflictError
from mafiatab.services.web_support import (
    MAIN_PARTS,
    GameStatus,
)
from mafiatab.storage.models import CONFIRMED
from mafiatab.texts import pick, say
from mafiatab.texts.register import AWARD, REGISTER_PAGE
from mafiatab.web import forms, offline, texts
from mafiatab.web.deps import Svc, Who, form_fields, safe_next, see_other
from mafiatab.web.lots import shown_lots
from mafiatab.web.public_cache import PLACEHOLDER, cache_of, page_bytes
from mafiatab.web.refusals import Missing
from mafiatab.web.rendering import TEMPLATES, render
from mafiatab.web.security import (
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


# --- head judge -------------------------------------------------------------------------


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


__all__ = ["router", "standings_context", "explain_context", "CONFIRMED"]
