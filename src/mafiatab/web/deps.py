"""The request's dependencies, declared once for every router: the process's services,
who asks (and in which language), the signed-in account, and the tournament-scoped role
checks. A route names what it needs in its signature:

    @router.post("/t/{tid}/visibility")
    def visibility(tid: int, svc: Svc, staff: Staff) -> Response: ...

so that the check runs before the route's body, the same way on every page and API call.
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlparse

from fastapi import Depends, Request
from fastapi.responses import RedirectResponse

from mafiatab.services.access import STAFF
from mafiatab.services.facade import Services
from mafiatab.web.security import Principal, principal, read_form, require_role, require_user


def services(request: Request) -> Services:
    """The process's services, built once by `create_app` (one store, one cache)."""
    svc: Services = request.app.state.services
    return svc


def language(p: Annotated[Principal, Depends(principal)]) -> str:
    """The asker's language ("ru" first, "en")."""
    return p.lang


def current_user(p: Annotated[Principal, Depends(principal)]) -> str:
    """The signed-in account (a page asks for a sign-in, the API answers 401)."""
    return require_user(p)


def staff_of(tid: int, p: Annotated[Principal, Depends(principal)]) -> str:
    """The account, when it is the tournament's organizer or head judge; else 403."""
    return require_role(p, tid, STAFF)


#: the process's services
Svc = Annotated[Services, Depends(services)]
#: who asks: the account (or nobody), its roles per tournament, the language, the CSRF token
Who = Annotated[Principal, Depends(principal)]
#: the asker's language
Lang = Annotated[str, Depends(language)]
#: the signed-in account's name
User = Annotated[str, Depends(current_user)]
#: the account of the tournament `{tid}`'s staff (organizer or head judge)
Staff = Annotated[str, Depends(staff_of)]



# --- what every page route does the same way -------------------------------------------


def see_other(url: str) -> RedirectResponse:
    """After a form's write: the browser GETs `url` (303)."""
    return RedirectResponse(url, status_code=303)


def safe_next(value: str | None) -> str:
    """Only a path on this site (no open redirect)."""
    if not value:
        return "/"
    parsed = urlparse(value)
    if parsed.scheme or parsed.netloc or not value.startswith("/") or value.startswith("//"):
        return "/"
    return value


async def form_fields(request: Request) -> dict[str, str]:
    """The posted form's text fields (bounded by `read_form`)."""
    data = await read_form(request)
    return {k: v for k, v in data.items() if isinstance(v, str)}


__all__ = ["Lang", "Staff", "Svc", "User", "Who", "current_user", "form_fields", "language",
           "safe_next", "see_other", "services", "staff_of"]
