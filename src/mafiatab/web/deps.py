"""The request's dependencies, declared once for every router: the process's services and
who asks (the account or nobody, its roles per tournament, the language, the CSRF token).

There are no role dependencies: the project's rule is that the access check lives inside
the service call (one transaction with its check), so a route passes `me.user` as the
actor and the service refuses. A route decides nothing by role itself (a signed-out
visitor is only sent to sign in, `require_user`); tests/attacks/test_no_route_decides.py
keeps it so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Final, TypeVar
from urllib.parse import urlparse

from fastapi import Depends, Request
from fastapi.responses import RedirectResponse
from pydantic import Field

from mafiatab.services.facade import Services
from mafiatab.web.refusals import Unprocessable
from mafiatab.web.security import Principal, principal, read_form


def services(request: Request) -> Services:
    """The process's services, built once by `create_app` (one store, one cache)."""
    svc: Services = request.app.state.services
    return svc


#: the process's services
Svc = Annotated[Services, Depends(services)]
#: who asks: the account (or nobody), its roles per tournament, the language, the CSRF token
Who = Annotated[Principal, Depends(principal)]

#: bounds of what the JSON API reads: text fields, ids, lists, numbers
NAME: Final = 100
TEXT: Final = 2000
ID: Final = 100
BIG_LIST: Final = 2000
Int = Annotated[int, Field(ge=0, le=1_000_000)]


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


T = TypeVar("T")


def built(make: Callable[..., T], data: dict[str, Any], what: str) -> T:
    """An API body's object (a stage, a player) from its fields: fields it does not have
    are refused as unreadable, naming `what` (not a server error)."""
    try:
        return make(**data)
    except TypeError as e:
        raise Unprocessable("value_unreadable", detail=f"{what}: {e}"[:200]) from None


__all__ = ["Svc", "Who", "built", "form_fields", "safe_next", "see_other", "services"]
