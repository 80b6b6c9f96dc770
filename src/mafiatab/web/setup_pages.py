"""Setting a tournament up in the web app: the organizer's set-up page (rules
until the first game, players pasted or uploaded, corrected and withdrawn, stages,
seating, staff and codes), the head judge's overview with the first-run path, each
judge's sign-in as a QR code and a short code on the blank protocol of his table, the
player's page, and a global administrator's password reset.

Thin: every decision is a service's (`services.roster`, `services.setup`,
`services.account_admin`, `Services`); each route checks who asks, calls one use case
and renders.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Final
from urllib.parse import urlparse

import segno
from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from pydantic import Field
from starlette.datastructures import UploadFile

from mafiatab import i18n
from mafiatab.domain import protocol as model
from mafiatab.domain.problems import Refused
from mafiatab.rules import PROFILES
from mafiatab.services.errors import PermissionDenied
from mafiatab.services.facade import Services
from mafiatab.services.roster import MAX_CLUB, MAX_NICK, Added, RosterError
from mafiatab.services.setup import next_step, rule_options_of
from mafiatab.services.web_support import GameStatus
from mafiatab.storage.models import JUDGE, ORGANIZER, ROLES
from mafiatab.texts.pages import SETUP
from mafiatab.web.deps import BIG_LIST, ID, NAME, Svc, Who, built, form_fields, see_other
from mafiatab.web.lots import shown_lots
from mafiatab.web.pages import explain_context
from mafiatab.web.photos import photo_url
from mafiatab.web.protocol_pages import revision_json
from mafiatab.web.refusals import Missing
from mafiatab.web.rendering import render
from mafiatab.web.security import (
    Body,
    Principal,
    attachment,
    check_csrf,
    plain_http_on_lan,
    read_form,
    require_user,
)

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)


WORDS: Final = SETUP


def sw(key: str, lang: str, **params: object) -> str:
    """A word of the set-up pages (ru first, en second)."""
    pair = WORDS.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == "en" else pair[0]
    return text.format(**params) if params else text


def qr_svg(url: str) -> str:
    """A QR code of `url` as an SVG data URI (the pages' CSP allows data: images)."""
    return str(segno.make(url, error="m").svg_data_uri(scale=4, border=2))


def sign_in_url(request: Request, code: str) -> str:
    """The address a judge's QR code opens: this server as the head judge reached it."""
    return str(request.base_url).rstrip("/") + f"/c/{code}"


def _loopback(request: Request) -> str | None:
    host = (request.url.hostname or "").strip("[]")
    return host if host in ("127.0.0.1", "localhost", "::1") else None


# --- the set-up page ------------------------------------------------------------------------


def setup_context(request: Request, me: Principal, svc: Services, tid: int
                  ) -> dict[str, Any]:
    user = require_user(me)
    codes = svc.access.codes(tid, actor=user)  # the staff's page: checked first
    t, _players, stages = svc.tournaments.context(tid)
    profile = PROFILES.get(t.rules)
    lines = svc.roster.lines(tid)
    games = svc.games.overview(tid)
    rounds = sorted({(g.stage, g.round) for g in games},
                    key=lambda x: ([s.id for s in stages].index(x[0])
                                   if x[0] in [s.id for s in stages] else 99, x[1]))
    stage_names = {s.id: s.name for s in stages}
    return {
        "t": t, "tid": tid, "players": lines, "stages": stages, "staff": svc.access.staff(tid, actor=user),
        "roles": ROLES, "organizer": me.has(tid, {ORGANIZER}), "games": games,
        "codes": codes,
        "profiles": sorted(PROFILES.values(), key=lambda p: p.id),
        "federation": i18n.federation,
        "rule_options": rule_options_of(profile) if profile else [],
        "entered": svc.setup.first_entered(tid), "rounds": rounds,
        "stage_names": stage_names, "stage_kinds": model.STAGE_KINDS,
        "s": lambda k, **kw: sw(k, me.lang, **kw),
        "photos": {pid: photo_url(tid, pid, d) for pid, d in svc.photos.digests(tid).items()},
    }


def _setup(request: Request, tid: int, me: Principal, svc: Services, *,
           status: int = 200, **extra: Any) -> Response:
    context = setup_context(request, me, svc, tid)
    # what plain HTTP means is said once per session, on the organizer's page
    plain = plain_http_on_lan(request) and not request.session.get("http_notice")
    if plain:
        request.session["http_notice"] = True
    context.update(plain_http=plain, code_made=None, code_qr=None, added=None,
                   pasted="")
    context.update(extra)
    return render(request, "setup.html", status_code=status, **context)


@router.get("/t/{tid}/setup", response_class=HTMLResponse)
def setup_page(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    return _setup(request, tid, me, svc)


@router.post("/t/{tid}/setup/four-eyes")
async def four_eyes_post(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    """The four-eyes rule on or off (the organizer's; audited by the service)."""
    user = require_user(me)
    f = await form_fields(request)
    svc.tournaments.set_options(tid, actor=user, confirmer_must_differ=f.get("four_eyes") == "on")
    return see_other(f"/t/{tid}/setup#four-eyes")


@router.post("/t/{tid}/setup/rules")
async def rules_post(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    f = await form_fields(request)
    options = {k.removeprefix("opt_"): v for k, v in f.items() if k.startswith("opt_")}
    svc.setup.change_rules(tid, f.get("rules", ""), options, actor=user)
    return see_other(f"/t/{tid}/setup#rules")


def _added_page(request: Request, tid: int, me: Principal, svc: Services,
                added: Added) -> Response:
    pasted = "\n".join(r.text for r in added.refused)
    return _setup(request, tid, me, svc, status=422 if added.refused else 200,
                  added=added, pasted=pasted)


@router.post("/t/{tid}/setup/players")
async def players_post(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    """Players pasted one a line (nickname;club) or a CSV/XLSX file with a header row;
    the lines that cannot be players come back beside their reasons. The organizer
    registers; the head judge corrects and withdraws (on the day)."""
    user = require_user(me)
    form = await read_form(request)
    upload = form.get("file")
    if isinstance(upload, UploadFile) and upload.filename:
        data = await upload.read()
        name = upload.filename or ""
        added = await run_in_threadpool(
            lambda: svc.roster.add_file(tid, data, name, actor=user))
    else:
        text = form.get("players")
        added = await run_in_threadpool(
            lambda: svc.roster.add_text(tid, text if isinstance(text, str) else "", actor=user))
    return _added_page(request, tid, me, svc, added)


@router.post("/t/{tid}/setup/players/{pid}")
async def player_edit_post(request: Request, tid: int, pid: str, me: Who, svc: Svc) -> Response:
    """Correct a player's nickname and club, or withdraw him (or bring him back)."""
    user = require_user(me)
    f = await form_fields(request)
    action = f.get("action", "edit")
    if action in ("withdraw", "reinstate"):
        svc.roster.withdraw(tid, pid, actor=user, withdrawn=action == "withdraw")
    elif action in ("exhibition", "ranked"):
        svc.roster.set_exhibition(tid, pid, action == "exhibition", actor=user)
    else:
        try:
            svc.roster.edit(tid, pid, f.get("nickname", ""), f.get("club") or None, actor=user)
        except RosterError as e:
            # the page again, this player's form open with what was typed and why
            return _setup(request, tid, me, svc, status=e.status, player_typed={
                "id": pid, "nickname": f.get("nickname", "")[:MAX_NICK + 50],
                "club": f.get("club", "")[:MAX_CLUB + 50], "error": e.message(me.lang)})
    return see_other(f"/t/{tid}/setup#player-{pid}")


@router.post("/t/{tid}/setup/stages")
async def stages_post(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    """A stage by its name and kind (chosen from a list); its id is made here."""
    user = require_user(me)
    f = await form_fields(request)
    svc.tournaments.add_named_stage(tid, f.get("name", ""), f.get("kind", "qualification"),
                                    actor=user)
    return see_other(f"/t/{tid}/setup#stages")


@router.post("/t/{tid}/setup/seating")
async def seating_post(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    f = await form_fields(request)
    typed = f.get("seating", "")
    lines = [line.split() for line in typed.splitlines() if line.split()]
    try:
        svc.games.enter_seating_lines(tid, lines, actor=user)
    except PermissionDenied:
        raise
    except Refused as e:
        # the page again, with what was typed and why it was refused (nothing is lost)
        return _setup(request, tid, me, svc, status=e.status, seating_typed=typed,
                      seating_error=e.message(me.lang))
    return see_other(f"/t/{tid}/manage")


@router.post("/t/{tid}/setup/seating-file")
async def seating_file_post(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    form = await read_form(request)
    upload = form.get("file")
    data = await upload.read() if isinstance(upload, UploadFile) else b""
    await run_in_threadpool(lambda: svc.games.import_seating(tid, data, actor=user))
    return see_other(f"/t/{tid}/manage")


@router.post("/t/{tid}/setup/staff")
async def staff_post(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    user = require_user(me)  # the service asks who hands out roles before the name
    f = await form_fields(request)
    name, role = f.get("user", "").strip(), f.get("role", JUDGE)
    if f.get("action") == "code":
        code = await run_in_threadpool(lambda: svc.access.create_code(tid, name, role, actor=user))
        url = sign_in_url(request, code)
        return _setup(request, tid, me, svc, code_made=(name, role, code), code_qr=qr_svg(url),
                      code_url=url)
    if f.get("action") == "revoke":
        await run_in_threadpool(lambda: svc.access.revoke_role(tid, name, role, actor=user))
        return see_other(f"/t/{tid}/setup#staff")
    password = f.get("password") or None
    await run_in_threadpool(lambda: svc.access.grant(tid, name, role, actor=user, password=password))
    return see_other(f"/t/{tid}/setup#staff")


@router.post("/t/{tid}/setup/codes/{cid}/revoke")
def revoke_code_page(request: Request, tid: int, cid: int, me: Who, svc: Svc) -> Response:
    user = require_user(me)  # the service checks the role before anything else
    svc.access.revoke_code(tid, cid, actor=user)
    return see_other(f"/t/{tid}/setup#staff")


@router.post("/t/{tid}/setup/assign")
async def assign_post(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    f = await form_fields(request)
    svc.games.assign_judge(tid, f.get("game", ""), f.get("judge", "").strip(), actor=user)
    return see_other(f"/t/{tid}/setup#judges")


# --- judges' codes and blank protocols ----------------------------------------------------------


def _round_games(svc: Services, tid: int, stage: str, rnd: int) -> list[GameStatus]:
    return [g for g in svc.games.overview(tid) if g.stage == stage and g.round == rnd]


def _stage_round(f: dict[str, str]) -> tuple[str | None, int]:
    """The form's round ("stage|number"); (None, 0) when it names none (the service
    refuses it after checking the asker)."""
    stage, _, rnd = f.get("round", "").rpartition("|")
    if not stage or not rnd.isascii() or not rnd.isdecimal() or len(rnd) > 4:
        return None, 0
    return stage, int(rnd)


@router.post("/t/{tid}/setup/round-codes", response_class=HTMLResponse)
async def round_codes_post(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    """A new sign-in code for each table judge of a round who signs in with codes (a
    password account needs none), shown once with its QR code, and the button that
    prints them on the blank protocols."""
    user = require_user(me)
    stage, rnd = _stage_round(await form_fields(request))
    issued = await run_in_threadpool(
        lambda: svc.judge_codes.issue_for_round(tid, stage, rnd, actor=user, lang=me.lang))
    if not issued:
        raise Missing("no_codes_issued", stage=stage, round=rnd)
    rows: list[dict[str, Any]] = []
    for row in issued:
        shown: dict[str, Any] = {"table": row.table, "judge": row.judge, "code": row.code,
                                 "why": row.why}
        if row.code:
            url = sign_in_url(request, row.code)
            shown.update(url=url, qr=qr_svg(url))
        rows.append(shown)
    t, _p, stages = svc.tournaments.context(tid)
    names = {s.id: s.name for s in stages}
    return render(request, "setup_codes.html", t=t, tid=tid, stage=stage, rnd=rnd,
                  stage_name=names.get(stage or "", stage), rows=rows,
                  loopback=_loopback(request), s=lambda k, **kw: sw(k, me.lang, **kw))


@router.post("/t/{tid}/setup/blank.pdf")
async def blank_pdf_post(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    """The blank protocols of a seated round, each with its seated players, its judge
    and, where one was issued, his sign-in QR code and code. A code is printed only when
    it opens this tournament for that table's judge (checked like a sign-in)."""
    user = require_user(me)
    f = await form_fields(request)
    stage, rnd = _stage_round(f)
    # the staff's print, recorded (and the asker checked) before anything is read
    await run_in_threadpool(lambda: svc.setup.record_print(tid, stage, rnd, actor=user))
    assert stage is not None
    games = _round_games(svc, tid, stage, rnd)
    sign_in: dict[int, tuple[str, str]] = {}
    for g in games:
        code = f.get(f"code_{g.table}", "").strip()[:32]
        if code and g.judge:
            found = await run_in_threadpool(svc.accounts.sign_in_with_code, code)
            if found == (g.judge, tid):
                sign_in[g.table] = (code, sign_in_url(request, code))

    name, data = await run_in_threadpool(lambda: svc.exports.blank_pdf(
        tid, stage, rnd, None, me.lang, actor=user, sign_in=sign_in))
    return Response(data, media_type="application/pdf",
                    headers=attachment(name))


@router.get("/c/{code}", response_class=HTMLResponse)
def code_link(request: Request, code: str, me: Who) -> Response:
    """What a judge's QR code opens: the sign-in form with his code filled in (a GET
    never signs anybody in; he presses the button)."""
    clean = "".join(c for c in code.upper() if c.isalnum() or c == "-")[:32]
    return render(request, "login.html", next="/", error=None, code=clean)


# --- the head judge's overview --------------------------------------------------------------------


@router.get("/t/{tid}/manage", response_class=HTMLResponse)
def manage_page(request: Request, tid: int, me: Who, svc: Svc, message: str | None = None
                ) -> Response:
    user = require_user(me)
    steps = svc.setup.steps(tid, actor=user)
    t, _p, stages = svc.tournaments.context(tid)
    games = svc.games.overview(tid)
    # the tables waiting for him first, then the rounds in order
    waiting = [g for g in games if g.state == "submitted"]
    # a protocol the head judge corrected says so in the queue: who and why
    corrected: dict[str, tuple[str, str]] = {}
    for g in waiting:
        marks = svc.games.head(tid, g.code).game_struct().corrections
        if marks:
            corrected[g.code] = (marks[-1].by, marks[-1].reason)
    rounds: dict[tuple[str, int], list[GameStatus]] = {}
    for g in games:
        rounds.setdefault((g.stage, g.round), []).append(g)
    lot = [r for r in svc.standings.compute(tid).rows if r.lot_needed]
    plain = plain_http_on_lan(request) and not request.session.get("http_notice")
    if plain:
        request.session["http_notice"] = True
    return render(request, "manage.html", t=t, tid=tid, rounds=rounds, vis=svc.access.visibility(tid),
                  lot=lot, lots=shown_lots(svc, tid, me.lang, svc.standings.lots(tid, actor=user)),
                  message=message,
                  waiting=waiting, steps=steps, corrected=corrected,
                  four_eyes=t.confirmer_must_differ,
                  record=svc.invariants.problems(tid, confirmed=False),
                  next_step=next_step(steps), plain_http=plain,
                  stage_names={st.id: st.name for st in stages},
                  s=lambda k, **kw: sw(k, me.lang, **kw))


def _back(tid: int, f: dict[str, str]) -> str:
    nxt = f.get("next") or ""
    parsed = urlparse(nxt)
    if parsed.scheme or parsed.netloc or not nxt.startswith(f"/t/{tid}/"):
        return f"/t/{tid}/manage"
    return nxt


@router.post("/t/{tid}/manage/options")
async def options_page(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    f = await form_fields(request)
    svc.access.set_visibility(tid, actor=user, standings_hidden=f.get("standings_hidden") == "on",
                       extras_hidden=f.get("extras_hidden") == "on",
                       finished=f.get("finished") == "on")
    return see_other(_back(tid, f))


# --- the player's page ------------------------------------------------------------------------


@router.get("/t/{tid}/players/{pid}", response_class=HTMLResponse)
def player_page(request: Request, tid: int, pid: str, me: Who, svc: Svc,
                stage: str | None = None) -> Response:
    """His games with each point's clause, and his place and total in the standings
    (the main points alone while extras are hidden, as the standings show them)."""
    context = explain_context(svc, me, tid, pid, stage or None)
    rows = svc.standings.cached(tid, [stage] if stage else None).rows
    context["row"] = next((r for r in rows if r.player == pid), None)
    context["s"] = lambda k, **kw: sw(k, me.lang, **kw)
    return render(request, "player.html", **context)


# --- new tournaments and the administrator's accounts page -------------------------------------


@router.post("/new")
async def new_tournament(request: Request, me: Who, svc: Svc) -> Response:
    """A new tournament: its rules are the organizer's choice (no federation is taken
    for him)."""
    user = require_user(me)  # the service asks for the organizer right first
    f = await form_fields(request)
    tid = svc.tournaments.new_tournament(f.get("name", ""), f.get("rules", ""), actor=user, stages=[
        model.Stage(id="qual", name="Отбор" if me.lang == "ru" else "Qualification",
                    kind="qualification")])
    return see_other(f"/t/{tid}/manage")


@router.get("/admin/accounts", response_class=HTMLResponse)
def accounts_page(request: Request, me: Who, svc: Svc, done: str | None = None,
                  n: int = 0) -> Response:
    user = require_user(me)
    accounts = svc.account_admin.accounts(actor=user)
    return render(request, "accounts.html", accounts=accounts, done=done, ended=n,
                  administrator=svc.account_admin.is_administrator(user),
                  rights_done=request.query_params.get("rights", "")[:100],
                  s=lambda k, **kw: sw(k, me.lang, **kw))


@router.post("/admin/accounts/rights")
async def rights_post(request: Request, me: Who, svc: Svc) -> Response:
    """The server's administrator gives or takes an account's two global rights."""
    from urllib.parse import quote

    user = require_user(me)
    f = await form_fields(request)
    target = f.get("user", "")
    await run_in_threadpool(lambda: svc.account_admin.set_rights(
        target, actor=user, organizer=f.get("organizer") == "1", admin=f.get("admin") == "1"))
    return see_other(f"/admin/accounts?rights={quote(target.strip()[:100])}")


@router.post("/admin/accounts/reset")
async def reset_post(request: Request, me: Who, svc: Svc) -> Response:
    """A global administrator gives another account a new password; its sessions end."""
    from urllib.parse import quote

    user = require_user(me)
    f = await form_fields(request)
    target, password = f.get("user", ""), f.get("password", "")
    ended = await run_in_threadpool(
        lambda: svc.account_admin.reset_password(target, password, actor=user))
    return see_other(f"/admin/accounts?done={quote(target.strip()[:100])}&n={ended}")


# --- the JSON API: the same use cases ---------------------------------------------------------

api = APIRouter(dependencies=[Depends(check_csrf)], tags=["api"])


class PlayersBody(Body):
    text: str = Field(description="one player a line: 'nickname;club', an optional header row "
                      "'nickname;club;id' first", max_length=200_000)


class PlayerBody(Body):
    nickname: str | None = Field(None, max_length=MAX_NICK)
    club: str | None = Field(None, max_length=MAX_CLUB)
    withdrawn: bool | None = Field(None, description="withdraw (true) or bring back (false)")


class RulesBody(Body):
    rules: str = Field(max_length=20, description="a registered rule profile's id")
    options: dict[str, str] = Field(default_factory=dict, description="switched readings")


def _added_json(added: Added, lang: str) -> dict[str, Any]:
    return {"added": [{"id": p.id, "nickname": p.nickname, "club": p.club}
                      for p in added.players],
            "refused": [{"line": r.line, "text": r.text, "reason": r.code,
                         "message": r.reason(lang)} for r in added.refused]}


@api.post("/api/t/{tid}/players/paste")
def api_players(tid: int, body: PlayersBody, me: Who, svc: Svc) -> Any:
    """Register pasted players; the lines that are no player come back with reasons."""
    user = require_user(me)
    return _added_json(svc.roster.add_text(tid, body.text, actor=user), me.lang)


@api.post("/api/t/{tid}/players/{pid}")
def api_player(tid: int, pid: str, body: PlayerBody, me: Who, svc: Svc) -> Any:
    """Correct a player's nickname and club, or withdraw him (or bring him back)."""
    line = svc.roster.update(tid, pid, actor=require_user(me), nickname=body.nickname,
                             club=body.club, withdrawn=body.withdrawn)
    return {"id": line.id, "nickname": line.nickname, "club": line.club,
            "withdrawn": line.withdrawn}


@api.post("/api/t/{tid}/rules")
def api_rules(tid: int, body: RulesBody, me: Who, svc: Svc) -> Any:
    """Change the rules and their readings; 409 once a game is entered."""
    user = require_user(me)
    svc.setup.change_rules(tid, body.rules, body.options, actor=user)
    t, _p, _s = svc.tournaments.context(tid)
    return {"rules": t.rules, "options": t.rule_options}


@api.get("/api/t/{tid}/setup/steps")
def api_steps(tid: int, me: Who, svc: Svc) -> Any:
    """The first-run path: each step done or not, the next one."""
    steps = svc.setup.steps(tid, actor=require_user(me))
    return {"next": next_step(steps),
            "steps": [{"key": st.key, "done": st.done, "count": st.count, "of": st.of}
                      for st in steps]}


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



@api.post("/api/t/{tid}/players")
def players(tid: int, body: Players, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    svc.tournaments.register_players(tid, [built(model.Player, p, "player") for p in body.players],
                                     actor=user)
    return {"ok": True}


@api.post("/api/t/{tid}/seating")
def seating(tid: int, body: Seating, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    return revision_json(svc.games.enter_seating(tid, body.stage, body.round, body.table, body.players,
                                       actor=user, judge=body.judge))


@api.post("/api/t/{tid}/options")
def options(tid: int, body: Options, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    svc.access.set_visibility(tid, actor=user, standings_hidden=body.standings_hidden,
                       extras_hidden=body.extras_hidden, finished=body.finished)
    return {"ok": True}


@api.post("/api/t/{tid}/staff")
def staff(tid: int, body: Grant, me: Who, svc: Svc) -> dict[str, Any]:
    """Give a role. A password is for a new account only; with `code` a new account
    for this tournament and role is made and its sign-in code returned once."""
    user = require_user(me)  # the service asks who hands out roles first
    if body.code:
        ttl = dt.timedelta(minutes=body.ttl_minutes) if body.ttl_minutes else None
        return {"code": svc.access.create_code(tid, body.user, body.role, actor=user, ttl=ttl)}
    svc.access.grant(tid, body.user, body.role, actor=user, password=body.password)
    return {"ok": True}


@api.delete("/api/t/{tid}/staff")
def revoke_role(tid: int, body: Revoke, me: Who, svc: Svc) -> dict[str, Any]:
    """Take a role away: in force from the account's next request."""
    user = require_user(me)  # the service asks who hands out roles first
    svc.access.revoke_role(tid, body.user, body.role, actor=user)
    return {"ok": True}


@api.get("/api/t/{tid}/codes")
def codes(tid: int, me: Who, svc: Svc) -> list[dict[str, Any]]:
    """The tournament's sign-in codes (never the codes themselves; the service checks)."""
    user = require_user(me)
    return [{"id": c.id, "user": c.user, "role": c.role, "created_by": c.created_by,
             "created_at": c.created_at.isoformat(),
             "expires_at": c.expires_at.isoformat() if c.expires_at else None,
             "revoked": c.revoked, "valid": c.valid} for c in svc.access.codes(tid, actor=user)]


@api.delete("/api/t/{tid}/codes/{cid}")
def revoke_code(tid: int, cid: int, me: Who, svc: Svc) -> dict[str, Any]:
    """The code stops working, and every session made with it ends now."""
    user = require_user(me)  # the service checks the role before anything else
    svc.access.revoke_code(tid, cid, actor=user)
    return {"ok": True}


@api.post("/api/t/{tid}/assign")
def assign(tid: int, body: Assign, me: Who, svc: Svc) -> dict[str, Any]:
    user = require_user(me)
    svc.games.assign_judge(tid, body.game, body.judge, actor=user)
    return {"ok": True}


__all__ = ["api", "router", "sw", "qr_svg", "RosterError"]
