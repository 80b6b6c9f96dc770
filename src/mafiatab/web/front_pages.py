"""The front door's pages: the list of tournaments, the language, signing in (password or
code) and out, one's own password, and new or imported tournaments (the organizer right).
Each route checks who asks, calls the services, renders or redirects."""

from __future__ import annotations

import datetime as dt

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import UploadFile  # what request.form() gives (FastAPI's subclasses it)

from mafiatab import i18n, texts
from mafiatab.rules import PROFILES
from mafiatab.services.access import STAFF
from mafiatab.services.facade import Services
from mafiatab.storage.models import JUDGE, PLAYER
from mafiatab.texts.register import REGISTER_PAGE
from mafiatab.web.deps import Svc, Who, form_fields, safe_next, see_other
from mafiatab.web.rendering import render
from mafiatab.web.security import (
    LANGS,
    change_password,
    check_csrf,
    code_sign_in,
    password_sign_in,
    read_form,
    require_user,
    sign_in,
    sign_out,
)

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)


# --- public ---------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
def index(request: Request, me: Who, svc: Svc) -> Response:
    lang = me.lang
    return render(request, "index.html", tournaments=svc.tournaments.list_tournaments(),
                  calendar=svc.registrations.calendar(dt.datetime.now(dt.UTC).date()),
                  cw=lambda key, **kw: texts.say(REGISTER_PAGE, key, lang, **kw),
                  rules=sorted(PROFILES.values(), key=lambda p: p.id),
                  rule_titles={p.id: p.title for p in PROFILES.values()},
                  federation=i18n.federation)


@router.get("/lang/{lang}")
def set_lang(request: Request, lang: str, next: str | None = None) -> Response:
    if lang in LANGS:
        request.session["lang"] = lang
    return see_other(safe_next(next))


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, me: Who, next: str | None = None) -> Response:
    return render(request, "login.html", next=safe_next(next), error=None)


@router.post("/login")
async def login(request: Request, me: Who, svc: Svc) -> Response:
    f = await form_fields(request)
    nxt = safe_next(f.get("next"))
    name = await password_sign_in(request, f.get("user", ""), f.get("password", ""))
    if name is not None:
        await run_in_threadpool(sign_in, request, name)
        if nxt == "/":
            nxt = await run_in_threadpool(landing, svc, name)
        return see_other(nxt)
    return render(request, "login.html", status_code=401, next=nxt, error="bad_login")


def landing(svc: Services, user: str) -> str:
    """Where a sign-in without a page to return to leads: a judge to his tables (the
    newest tournament still going on where he judges), anybody else to the front page."""
    roles = svc.access.tournaments_of(user)
    judged = sorted((tid for tid, r in roles.items() if JUDGE in r and not r & STAFF),
                    reverse=True)
    going = [tid for tid in judged if not svc.access.visibility(tid).finished]
    return f"/t/{going[0]}/judge" if going else "/"


@router.post("/login/code")
async def login_code(request: Request, me: Who, svc: Svc) -> Response:
    f = await form_fields(request)
    code = f.get("code", "")
    found = await code_sign_in(request, code)
    if found is None:
        return render(request, "login.html", status_code=401, next="/", error="bad_code")
    user, tid = found
    await run_in_threadpool(lambda: sign_in(request, user, code=code))
    # a player's code opens his own page (his table, games, appeals), a judge's his tables
    return see_other(f"/t/{tid}/me" if svc.access.roles_of(tid, user) == {PLAYER} else f"/t/{tid}/judge")


@router.post("/logout")
def logout(request: Request, me: Who) -> Response:
    sign_out(request)
    return see_other("/")


@router.post("/logout/everywhere")
def logout_everywhere(request: Request, me: Who) -> Response:
    """"Sign out everywhere": every session of the account ends, this one too."""
    require_user(me)
    sign_out(request, everywhere=True)
    return see_other("/")


@router.post("/account/password")
async def password_page(request: Request, me: Who, svc: Svc) -> Response:
    """The owner changes his password; every session of the account ends, this browser
    gets a new one."""
    user = require_user(me)
    f = await form_fields(request)
    await change_password(request, user, f.get("old", ""), f.get("new", ""))
    await run_in_threadpool(sign_in, request, user)
    return see_other("/")


# --- new tournaments ------------------------------------------------------------------------


@router.post("/import")
async def import_post(request: Request, me: Who, svc: Svc) -> Response:
    user = require_user(me)  # the service asks for the organizer right first
    form = await read_form(request)
    upload = form.get("file")
    data = await upload.read() if isinstance(upload, UploadFile) else b""
    tid = await run_in_threadpool(lambda: svc.tournaments.import_as_organizer(data, actor=user))
    return see_other(f"/t/{tid}/manage")


__all__ = ["landing", "router"]
