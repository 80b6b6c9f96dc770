"""The web layer's own refusals: a request that cannot be read as its use case's input, an
address that names nothing, a form without its CSRF token, a failed sign-in. They are of
the `Refused` family (a code of the catalogue's `web_refusal` section, its parameters),
so the app's one handler answers them as it answers the services': a page in words, or
the API's problem shape (`problem_body`). Route modules raise these, never a bare
`HTTPException` (tests/attacks/test_web_shape.py keeps it so)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from mafiatab.domain.problems import Problem, Refused
from mafiatab.services.errors import ServiceError
from mafiatab.texts.refusals import WEB_REFUSAL

#: the code of one value the framework could not read (a key of `WEB_REFUSAL`)
VALUE_UNREADABLE: Final = "value_unreadable"


class WebRefused(ServiceError):
    """A refusal of the web layer itself; its code is a key of `WEB_REFUSAL`."""

    texts: ClassVar[Mapping[str, tuple[str, str]]] = WEB_REFUSAL


class BadInput(WebRefused):
    """A value of the request is not what the page's form or the API asks for."""

    status = 400


class SignInFailed(WebRefused):
    """A name and password, or a code, that opens no account."""

    status = 401


class Forbidden(WebRefused):
    """A write without the session's CSRF token."""

    status = 403


class Missing(WebRefused):
    """The address names nothing (no such stage, player, seat, page)."""

    status = 404


class Stale(WebRefused):
    """Somebody else changed what the request was based on."""

    status = 409


class Unprocessable(WebRefused):
    """The body cannot be read as the use case's input."""

    status = 422


class Throttled(WebRefused):
    """Too many sign-ins: `retry_after` seconds until the next is let through."""

    status = 429

    def __init__(self, retry_after: int) -> None:
        self.retry_after = retry_after
        super().__init__("rate_limited", seconds=retry_after)


class Unreadable(Unprocessable):
    """The framework's check of a JSON body or a query failed: each failing value a
    problem with its place (`field`, the value's path)."""

    def __init__(self, errors: Sequence[Mapping[str, Any]]) -> None:
        super().__init__("body_unreadable")
        found = [Problem(VALUE_UNREADABLE, field=_path(e.get("loc", ())),
                         params={"detail": str(e.get("msg", ""))[:200]},
                         texts=WEB_REFUSAL)
                 for e in list(errors)[:50]]
        self.problems = [*self.problems, *found]


def _path(loc: Sequence[Any]) -> str:
    """`("body", "events", 0, "id")` as `events.0.id` (where the value sits, not how)."""
    parts = [str(p) for p in loc if p not in ("body", "query", "path")]
    return ".".join(parts) or "body"


def problem_body(e: Refused, lang: str, problems: list[dict[str, Any]] | None = None,
                 **extra: Any) -> dict[str, Any]:
    """The API's one shape of a refusal: `error` (the code), `message` (every reason in
    the reader's words), `problems` (each reason: code, params, message, clause, its
    place), and what the one endpoint adds beside them (`retry_after`, `head`, ...)."""
    body = e.as_dict(lang)
    if problems is not None:
        body["problems"] = problems
    body.update(extra)
    return body


__all__ = ["BadInput", "Forbidden", "Missing", "SignInFailed", "Stale", "Throttled",
           "Unprocessable", "Unreadable", "WebRefused", "problem_body"]
