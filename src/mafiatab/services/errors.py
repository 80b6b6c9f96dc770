"""The refusals of the services' use cases: a code, its parameters, a message in Russian
or English; each a `Refused` (domain.problems), the one family the web app and the CLI
answer with one handler each. Kept apart from the services so that the unit of work
(`services.store`) and every service raise the same classes without importing each other."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any, ClassVar

from mafiatab.domain.problems import Problem, Refused, Word
from mafiatab.texts.service import ACTIONS, ROLES, SERVICE, STATES


class ServiceError(Refused):
    """A use case refused: one problem, its code a key of the class's section of the
    catalogue (`texts`: the services' `texts.service` unless a subclass names its own, as
    `texts.refusals`' sections), its parameters; `message(lang)` in Russian or English.
    A code missing from the section is a bug the catalogue's test finds, not words a
    subclass may give past the catalogue."""

    status = 400
    #: the catalogue's section of this family's codes
    texts: ClassVar[Mapping[str, tuple[str, str]]] = SERVICE

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__([Problem(code, params=_words(params), texts=self.texts)])

    @property
    def error(self) -> str:  # type: ignore[override]
        """The API's `error` field: the code itself."""
        return self.code


def _word(table: Mapping[str, tuple[str, str]], code: Any) -> Any:
    pair = table.get(code) if isinstance(code, str) else None
    return code if pair is None else Word(code, *pair)


def _words(params: dict[str, Any]) -> dict[str, Any]:
    """Codes among the parameters (an action, a state, roles) as words with their code."""
    shown = dict(params)
    if "action" in shown:
        shown["action"] = _word(ACTIONS, shown["action"])
    if "state" in shown:
        shown["state"] = _word(STATES, shown["state"])
    if "role" in shown:
        shown["role"] = _word(ROLES, shown["role"])
    if "roles" in shown:
        shown["roles"] = [_word(ROLES, r) for r in shown["roles"]]
    return shown


class NotFound(ServiceError):
    """No such tournament or game."""

    status = 404


class StateError(ServiceError):
    """The protocol is not in a state that allows the step asked for."""

    status = 409


class Unreadable(ServiceError):
    """What was sent could not be read as the use case's input (422); refused after the
    asker is checked, so that a refusal for the role comes first."""

    status = 422


class PermissionDenied(ServiceError):
    """The user's role in the tournament does not allow the step."""

    status = 403


class ConflictError(ServiceError):
    """Another save happened after the revision this one was based on.

    `head` is the newest revision now (who saved it and when), `yours` the protocol that
    was refused, also kept in the audit log under `audit_id`.
    """

    status = 409

    def __init__(self, *, game: str, base: int, head: int, author: str, at: dt.datetime,
                 yours: dict[str, Any] | None, audit_id: int | None) -> None:
        self.game = game
        self.base = base
        self.head = head
        self.author = author
        self.at = at
        self.yours = yours
        self.audit_id = audit_id
        super().__init__("conflict", game=game, base=base, head=head, author=author,
                         at=at.strftime("%Y-%m-%d %H:%M:%S UTC"), audit=audit_id)



__all__ = ["ConflictError", "NotFound", "PermissionDenied", "Refused", "ServiceError", "StateError",
           "Unreadable"]
