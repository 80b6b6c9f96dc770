"""Who is asking, and may they: the session, CSRF tokens, and role checks for routes.

* The session is Starlette's signed cookie (itsdangerous): HttpOnly, SameSite=Lax, and
  Secure unless the app serves loopback only (a phone on the hall's Wi-Fi must reach the
  organizer's laptop over HTTPS; the demo on 127.0.0.1 has no certificate). It holds the
  account name, the language and the CSRF token, nothing else.
* Every request that writes (POST, PUT, PATCH, DELETE) must carry the session's CSRF
  token, in the `X-CSRF-Token` header (htmx and API clients) or the `csrf` form field
  (plain forms). A token is made with the session and replaced at sign-in.
* Roles come from the service (`roles_of`), checked on every call; the web layer adds no
  roles of its own.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from fastapi import HTTPException, Request

from mafiatab.services.web_support import STAFF, WebService

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_HEADER: Final = "X-CSRF-Token"
CSRF_FIELD: Final = "csrf"
LANGS: Final = ("ru", "en")


class NeedLogin(Exception):
    """Raised by a check when nobody is signed in (pages redirect, the API says 401)."""


@dataclass(slots=True)
class Principal:
    """The one asking: an account name or None, the language, the CSRF token."""

    user: str | None
    lang: str
    csrf: str
    roles: dict[int, set[str]] = field(default_factory=dict)

    def has(self, tid: int, allowed: Iterable[str]) -> bool:
        return bool(self.roles.get(tid, set()) & set(allowed))

    def is_staff(self, tid: int) -> bool:
        return self.has(tid, STAFF)


def service(request: Request) -> WebService:
    svc: WebService = request.app.state.service
    return svc


def csrf_token(request: Request) -> str:
    token = request.session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(32)
        request.session["csrf"] = token
    return str(token)


def principal(request: Request) -> Principal:
    """The dependency every route takes: who asks and in which language."""
    cached = getattr(request.state, "principal", None)
    if isinstance(cached, Principal):
        return cached
    lang = request.session.get("lang")
    if lang not in LANGS:
        lang = "ru"
    user = request.session.get("user")
    p = Principal(user=user if isinstance(user, str) else None, lang=str(lang),
                  csrf=csrf_token(request))
    if p.user is not None:
        p.roles = service(request).tournaments_of(p.user)
    request.state.principal = p
    return p


async def check_csrf(request: Request) -> None:
    """Router dependency: a write without the session's token is refused (403)."""
    if request.method in SAFE_METHODS:
        return
    expected = request.session.get("csrf")
    sent = request.headers.get(CSRF_HEADER)
    if sent is None and request.headers.get("content-type", "").startswith(
            ("application/x-www-form-urlencoded", "multipart/form-data")):
        form = await request.form()
        value = form.get(CSRF_FIELD)
        sent = value if isinstance(value, str) else None
    if not expected or not sent or not hmac.compare_digest(str(expected), sent):
        raise HTTPException(status_code=403, detail="CSRF token missing or wrong")


def sign_in(request: Request, user: str) -> None:
    """A new session for the account: a new CSRF token, the language kept."""
    lang = request.session.get("lang", "ru")
    request.session.clear()
    request.session.update({"user": user, "lang": lang, "csrf": secrets.token_urlsafe(32)})
    request.state.principal = None


def sign_out(request: Request) -> None:
    lang = request.session.get("lang", "ru")
    request.session.clear()
    request.session.update({"lang": lang, "csrf": secrets.token_urlsafe(32)})
    request.state.principal = None


def require_user(p: Principal) -> str:
    if p.user is None:
        raise NeedLogin()
    return p.user


def require_role(p: Principal, tid: int, allowed: frozenset[str] | set[str]) -> str:
    """The account name if it holds one of the roles in the tournament; else 401/403."""
    user = require_user(p)
    if not p.has(tid, allowed):
        raise HTTPException(status_code=403, detail="not allowed")
    return user
