"""A tournament's sign-ups and its awards: the public sign-up page with the organizer's
decisions on it, the JSON API of both (an external registration form posts to
`/api/t/{tid}/registrations`), and the head judge's awards page.

* `GET /t/{tid}/register`: the registration's state, the accepted, the waiting list and
  the sign-up form; the staff also see the sign-ups awaiting them, with accept/decline.
* `GET /t/{tid}/awards`: the awards; the head judge names them there.

Each action is one call of `services.registration` or `services.awards`, which check who
asks. A refused form comes back with what was typed in it.

The public calls (a sign-up, a withdrawal with its key) use no session, so they have no
CSRF token either: they act with nobody's rights (a sign-up is rate-limited per address;
a withdrawal needs the registration's key), which a forged request could not borrow.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from pydantic import Field

from mafiatab import texts
from mafiatab.services.awards import Named
from mafiatab.services.errors import ServiceError
from mafiatab.services.facade import Services
from mafiatab.services.registration import MAX_CLUB, MAX_KEY, MAX_NICK, Board, Line, SignedUp
from mafiatab.texts.register import AWARD, REG_STATE, REGISTER_PAGE
from mafiatab.web.deps import Svc, Who, form_fields, see_other
from mafiatab.web.rendering import render
from mafiatab.web.security import Body, Principal, address, check_csrf, require_user

pages = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)
public = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", dependencies=[Depends(check_csrf)], tags=["registration"])
public_api = APIRouter(prefix="/api", tags=["registration"])

#: the longest decimal number a form's number field is read as
_DIGITS = 9


def rw(name: str, lang: str, **params: object) -> str:
    """A word of the registration's pages."""
    return texts.say(REGISTER_PAGE, name, lang, **params)


def _int(value: str | None) -> int | None:
    """A form's whole number (ASCII digits only: "²" is no digit here), or None."""
    text = (value or "").strip()
    if not text or len(text) > _DIGITS or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


def _date(value: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat((value or "").strip()[:10]) if value else None
    except ValueError:
        return None


def _page(request: Request, svc: Services, me: Principal, tid: int, *, status_code: int = 200,
          **extra: Any) -> HTMLResponse:
    board = svc.registrations.board(tid)
    lang = me.lang
    return render(request, "register.html", status_code=status_code, tid=tid, t=board,
                  board=board, staff=svc.registrations.may_decide(tid, me.user),
                  state=lambda code: texts.pick(REG_STATE, code, lang),
                  rw=lambda k, **kw: rw(k, lang, **kw), typed=extra.pop("typed", {}),
                  **extra)


@pages.get("/t/{tid}/register", response_class=HTMLResponse)
def register_page(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    return _page(request, svc, me, tid)


@public.post("/t/{tid}/register", response_class=HTMLResponse)
async def sign_up_form(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    f = await form_fields(request)
    typed = {k: f.get(k, "")[:200] for k in ("nickname", "club", "person")}
    person = _int(typed["person"])
    try:
        done: SignedUp = await run_in_threadpool(
            lambda: svc.registrations.sign_up(
                tid, nickname=typed["nickname"][:MAX_NICK + 1] or None,
                club=typed["club"][:MAX_CLUB + 1] or None, person=person,
                address=address(request)))
    except ServiceError as e:
        if e.status == 404 and e.code == "no_tournament":
            raise
        return _page(request, svc, me, tid, status_code=e.status, error=e.message(me.lang),
                     typed=typed)
    message = rw("signed_up", me.lang, registration=done.id,
                 state=texts.pick(REG_STATE, done.state, me.lang), secret=done.key)
    return _page(request, svc, me, tid, message=message, key=done.key, signed=done.id)


@public.post("/t/{tid}/register/withdraw", response_class=HTMLResponse)
async def withdraw_form(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    f = await form_fields(request)
    number = _int(f.get("registration"))
    key = f.get("key", "")[:MAX_KEY]
    try:
        line: Line = await run_in_threadpool(
            lambda: svc.registrations.withdraw(tid, number or 0, key=key))
    except ServiceError as e:
        if e.status == 404 and e.code == "no_tournament":
            raise
        return _page(request, svc, me, tid, status_code=e.status, error=e.message(me.lang),
                     typed={"registration": f.get("registration", "")[:20]})
    return _page(request, svc, me, tid,
                 message=rw("line_state", me.lang, registration=line.id,
                            state=texts.pick(REG_STATE, line.state, me.lang)))


@pages.post("/t/{tid}/register/{rid}/{action}")
async def decide_form(request: Request, tid: int, rid: int, action: str, me: Who,
                      svc: Svc) -> Response:
    user = require_user(me)
    if action not in ("accept", "decline", "withdraw"):
        return _page(request, svc, me, tid, status_code=404)

    def call() -> Line:
        if action == "accept":
            return svc.registrations.accept(tid, rid, actor=user)
        if action == "decline":
            return svc.registrations.decline(tid, rid, actor=user)
        return svc.registrations.withdraw(tid, rid, actor=user)
    try:
        await run_in_threadpool(call)
    except ServiceError as e:
        if e.status == 404 and e.code == "no_tournament":
            raise
        return _page(request, svc, me, tid, status_code=e.status, error=e.message(me.lang))
    return see_other(f"/t/{tid}/register")


@pages.post("/t/{tid}/register/promote")
async def promote_form(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    try:
        await run_in_threadpool(lambda: svc.registrations.promote(tid, actor=user))
    except ServiceError as e:
        if e.status == 404 and e.code == "no_tournament":
            raise
        return _page(request, svc, me, tid, status_code=e.status, error=e.message(me.lang))
    return see_other(f"/t/{tid}/register")


@pages.post("/t/{tid}/register/settings")
async def settings_form(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    f = await form_fields(request)
    cap_text = f.get("cap", "").strip()
    # an unreadable number is the service's refusal of the cap (0 is out of its bounds)
    cap = (_int(cap_text) or 0) if cap_text else None
    try:
        await run_in_threadpool(lambda: svc.registrations.configure(
            tid, open=f.get("open") == "on", cap=cap, starts_on=_date(f.get("starts_on")),
            actor=user))
    except ServiceError as e:
        if e.status == 404 and e.code == "no_tournament":
            raise
        return _page(request, svc, me, tid, status_code=e.status, error=e.message(me.lang),
                     typed={k: f.get(k, "")[:20] for k in ("cap", "starts_on", "open")})
    return see_other(f"/t/{tid}/register")


# --- awards --------------------------------------------------------------------------------


def _awards_page(request: Request, svc: Services, me: Principal, tid: int, *,
                 status_code: int = 200, error: str | None = None) -> HTMLResponse:
    t, players, _stages = svc.tournaments.context(tid)
    lang = me.lang
    return render(request, "awards.html", status_code=status_code, tid=tid, t=t,
                  awards=svc.awards.named(tid), error=error,
                  players=[p for p in players if not p.exhibition],
                  judge=me.has(tid, {"head_judge"}),
                  award=lambda code: texts.pick(AWARD, code, lang),
                  rw=lambda k, **kw: rw(k, lang, **kw))


@pages.get("/t/{tid}/awards", response_class=HTMLResponse)
def awards_page(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    return _awards_page(request, svc, me, tid)


@pages.post("/t/{tid}/awards")
async def awards_form(request: Request, tid: int, me: Who, svc: Svc) -> Response:
    user = require_user(me)
    f = await form_fields(request)
    try:
        await run_in_threadpool(lambda: svc.awards.name(
            tid, f.get("award", "")[:40], f.get("player", "")[:100] or None, actor=user))
    except ServiceError as e:
        if e.status == 404 and e.code == "no_tournament":
            raise
        return _awards_page(request, svc, me, tid, status_code=e.status,
                            error=e.message(me.lang))
    return see_other(f"/t/{tid}/awards")


# --- the JSON API ----------------------------------------------------------------------------


class SignUp(Body):
    nickname: str | None = Field(None, max_length=MAX_NICK)
    club: str | None = Field(None, max_length=MAX_CLUB)
    person: int | None = Field(None, ge=1, le=2**31 - 1,
                               description="a known person's number (his page /people/N)")


class Withdrawal(Body):
    key: str = Field(min_length=1, max_length=MAX_KEY,
                     description="the key the sign-up answered with")


class Settings(Body):
    open: bool
    cap: int | None = Field(None, ge=1, le=1000)
    starts_on: dt.date | None = None


class AwardBody(Body):
    player: str | None = Field(None, max_length=100,
                               description="a player's id in the tournament; null: nobody")


def line_json(x: Line) -> dict[str, Any]:
    return {"id": x.id, "nickname": x.nickname, "club": x.club, "state": x.state,
            "queued": x.queued, "player": x.code}


def board_json(b: Board) -> dict[str, Any]:
    return {"tournament": b.tournament, "open": b.open, "cap": b.cap,
            "starts_on": b.starts_on.isoformat() if b.starts_on else None,
            "accepted": [line_json(x) for x in b.accepted],
            "waiting": [line_json(x) for x in b.waiting],
            "applied": [line_json(x) for x in b.applied],
            "others": [line_json(x) for x in b.others]}


def awards_json(named: list[Named]) -> list[dict[str, Any]]:
    return [{"award": a.award, "player": a.player, "nickname": a.nickname} for a in named]


@public_api.get("/t/{tid}/registrations")
def registrations_api(tid: int, svc: Svc) -> dict[str, Any]:
    """The registration: its settings, the accepted, the waiting list in its order, the
    sign-ups awaiting a decision and the others."""
    return board_json(svc.registrations.board(tid))


@public_api.post("/t/{tid}/registrations", status_code=201)
def sign_up_api(request: Request, tid: int, body: SignUp, svc: Svc) -> dict[str, Any]:
    """Sign up (an external registration form posts here; no session needed): a known
    person or a new nickname and club. The answer's `key` withdraws it."""
    done = svc.registrations.sign_up(tid, nickname=body.nickname, club=body.club,
                                     person=body.person, address=address(request))
    return {"id": done.id, "state": done.state, "key": done.key}


@public_api.post("/t/{tid}/registrations/{rid}/withdraw")
def withdraw_api(tid: int, rid: int, body: Withdrawal, svc: Svc) -> dict[str, Any]:
    """Withdraw a registration with its key (the waiting list moves up)."""
    return line_json(svc.registrations.withdraw(tid, rid, key=body.key))


@api.post("/t/{tid}/registrations/{rid}/accept")
def accept_api(tid: int, rid: int, me: Who, svc: Svc) -> dict[str, Any]:
    """Accept a sign-up (the staff): a player while there is room, else the waiting list."""
    return line_json(svc.registrations.accept(tid, rid, actor=require_user(me)))


@api.post("/t/{tid}/registrations/{rid}/decline")
def decline_api(tid: int, rid: int, me: Who, svc: Svc) -> dict[str, Any]:
    """Decline a sign-up or take one off the waiting list (the staff)."""
    return line_json(svc.registrations.decline(tid, rid, actor=require_user(me)))


@api.delete("/t/{tid}/registrations/{rid}")
def staff_withdraw_api(tid: int, rid: int, me: Who, svc: Svc) -> dict[str, Any]:
    """Withdraw a registration (the staff; the waiting list moves up)."""
    return line_json(svc.registrations.withdraw(tid, rid, actor=require_user(me)))


@api.post("/t/{tid}/registration/promote")
def promote_api(tid: int, me: Who, svc: Svc) -> dict[str, Any]:
    """Accept the first on the waiting list into a free place."""
    return line_json(svc.registrations.promote(tid, actor=require_user(me)))


@api.put("/t/{tid}/registration")
def settings_api(tid: int, body: Settings, me: Who, svc: Svc) -> dict[str, Any]:
    """Open or close the registration, its cap and start date (the staff)."""
    svc.registrations.configure(tid, open=body.open, cap=body.cap, starts_on=body.starts_on,
                                actor=require_user(me))
    return board_json(svc.registrations.board(tid))


@public_api.get("/t/{tid}/awards")
def awards_api(tid: int, svc: Svc) -> list[dict[str, Any]]:
    """The tournament's awards and who got them."""
    return awards_json(svc.awards.named(tid))


@api.put("/t/{tid}/awards/{award}")
def award_api(tid: int, award: str, body: AwardBody, me: Who, svc: Svc
              ) -> list[dict[str, Any]]:
    """Name a player for an award (the head judge)."""
    return awards_json(svc.awards.name(tid, award[:40], body.player, actor=require_user(me)))


def install(app: FastAPI) -> None:
    for router in (public, pages, public_api, api):
        app.include_router(router)


__all__ = ["awards_json", "board_json", "install", "rw"]
