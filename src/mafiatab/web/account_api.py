"""The JSON API's accounts: who is signed in (and the CSRF token for writes), signing in
with a password or a code, signing out (here or everywhere), one's own password, and
giving another account the organizer right. The same checks as the pages' front door."""

from __future__ import annotations

from typing import Any, Final

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import Field

from mafiatab.web.deps import Svc, Who
from mafiatab.web.refusals import SignInFailed
from mafiatab.web.security import (
    Body,
    check_csrf,
    code_sign_in,
    password_sign_in,
    principal,
    require_user,
    sign_in,
    sign_out,
)
from mafiatab.web.security import change_password as owner_changes_password

router = APIRouter(prefix="/api", dependencies=[Depends(check_csrf)], tags=["api"])

#: the longest account name the API reads
NAME: Final = 100


class Organizer(Body):
    user: str = Field(min_length=1, max_length=NAME)


class Rights(Body):
    user: str = Field(min_length=1, max_length=NAME)
    organizer: bool | None = Field(None, description="give (true) or take (false) the right "
                                   "to create tournaments; absent: as it is")
    admin: bool | None = Field(None, description="the server's administrator right likewise")


class PasswordChange(Body):
    old: str = Field(max_length=256)
    new: str = Field(max_length=256)


class Login(Body):
    user: str | None = Field(None, max_length=NAME)
    password: str | None = Field(None, max_length=256)
    code: str | None = Field(None, max_length=64,
                             description="a per-tournament code instead of user/password")








@router.get("/session")
def session(me: Who) -> dict[str, Any]:
    """Who is signed in, their roles per tournament, and the CSRF token for writes."""
    return {"user": me.user, "lang": me.lang, "csrf": me.csrf,
            "roles": {str(k): sorted(v) for k, v in me.roles.items()}}


@router.post("/login")
async def login(body: Login, request: Request, me: Who, svc: Svc) -> dict[str, Any]:
    """Sign in with a name and password, or with a code. Rate-limited (429 with
    Retry-After); a code opens its own account in its one tournament only."""
    if body.code:
        code = body.code
        found = await code_sign_in(request, code)
        if found is None:
            raise SignInFailed("bad_code")
        user = found[0]
        await run_in_threadpool(lambda: sign_in(request, user, code=code))
    elif body.user and body.password is not None:
        name = await password_sign_in(request, body.user, body.password)
        if name is None:
            raise SignInFailed("bad_login")
        await run_in_threadpool(sign_in, request, name)
    else:
        raise SignInFailed("bad_login")
    return await run_in_threadpool(lambda: session(principal(request)))


@router.post("/logout")
def logout(request: Request, me: Who) -> dict[str, Any]:
    sign_out(request)
    return {"ok": True}


@router.post("/logout/everywhere")
def logout_everywhere(request: Request, me: Who) -> dict[str, Any]:
    """Every session of the account ends (this one too)."""
    require_user(me)
    sign_out(request, everywhere=True)
    return {"ok": True}


@router.post("/account/password")
async def change_password(body: PasswordChange, request: Request, me: Who,
                          svc: Svc) -> dict[str, Any]:
    """The owner's password change: every other session of the account ends."""
    user = require_user(me)
    await owner_changes_password(request, user, body.old, body.new)
    await run_in_threadpool(sign_in, request, user)
    return await run_in_threadpool(lambda: session(principal(request)))


@router.post("/organizers")
def organizers(body: Organizer, me: Who, svc: Svc) -> dict[str, Any]:
    """An administrator gives another account the right to create tournaments."""
    svc.access.give_organizer(body.user, actor=require_user(me))
    return {"ok": True}


@router.post("/admin/rights")
def rights(body: Rights, me: Who, svc: Svc) -> dict[str, Any]:
    """An administrator gives or takes an account's global rights (audited)."""
    organizer, admin = svc.account_admin.set_rights(
        body.user, actor=require_user(me), organizer=body.organizer, admin=body.admin)
    return {"ok": True, "organizer": organizer, "admin": admin}


__all__ = ["router"]
