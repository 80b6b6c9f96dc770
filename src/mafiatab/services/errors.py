"""The errors of the services' use cases: a code, its parameters, a message in Russian or
English. Kept apart from the services so that the unit of work (`services.store`) and every
service raise the same classes without importing each other."""

from __future__ import annotations

import datetime as dt
from typing import Any

from mafiatab.storage.models import CONFIRMED, DRAFT, RETURNED, SUBMITTED

_MESSAGES: dict[str, tuple[str, str]] = {
    "no_tournament": ("турнир {ref!r} не найден", "tournament {ref!r} not found"),
    "ambiguous_tournament": (
        "турниров с названием {ref!r} несколько (id: {ids}); укажите id",
        "several tournaments are named {ref!r} (ids: {ids}); give the id",
    ),
    "no_game": ("игра {game}: не найдена в турнире", "game {game}: not in the tournament"),
    "conflict": (
        "игра {game}: пока вы правили ревизию {base}, {author} сохранил(а) ревизию {head} "
        "({at}); ваш протокол не записан, но сохранён в журнале (запись {audit}) — "
        "откройте ревизию {head} и внесите правки снова",
        "game {game}: while you edited revision {base}, {author} saved revision {head} "
        "({at}); yours was not written but is kept in the audit log (entry {audit}): "
        "open revision {head} and apply your changes again",
    ),
    "bad_state": (
        "игра {game}: нельзя {action} протокол в состоянии «{state}»",
        "game {game}: cannot {action} a protocol that is {state}",
    ),
    "same_confirmer": (
        "игра {game}: протокол подал(а) {author}; подтвердить его должен другой судья "
        "(настройка турнира)",
        "game {game}: {author} submitted this protocol; another judge must confirm it "
        "(tournament setting)",
    ),
    "not_allowed": (
        "{user}: нет прав на «{action}» в турнире {tournament} (нужна роль: {roles})",
        "{user}: not allowed to {action} in tournament {tournament} (needs: {roles})",
    ),
    "bad_role": ("неизвестная роль {role!r}: {choices}", "unknown role {role!r}: {choices}"),
    "reason_needed": (
        "игра {game}: укажите причину возврата",
        "game {game}: a reason is needed to return a protocol",
    ),
    "game_id_mismatch": (
        "протокол игры {value!r} нельзя сохранить как игру {game}",
        "the protocol of game {value!r} cannot be saved as game {game}",
    ),
    "unknown_rules": (
        "неизвестные правила {value!r}: fiim2018 или fsm",
        "unknown rules {value!r}: fiim2018 or fsm",
    ),
    "duplicate_player": ("игрок {value!r} уже зарегистрирован", "player {value!r} is already registered"),
}

_ACTIONS: dict[str, tuple[str, str]] = {
    "save": ("сохранить", "save"),
    "submit": ("подать", "submit"),
    "confirm": ("подтвердить", "confirm"),
    "return": ("вернуть", "return"),
    "manage": ("управлять турниром", "manage the tournament"),
}
_STATES: dict[str, tuple[str, str]] = {
    DRAFT: ("черновик", "a draft"),
    SUBMITTED: ("подан", "submitted"),
    CONFIRMED: ("подтверждён", "confirmed"),
    RETURNED: ("возвращён", "returned"),
}


class ServiceError(Exception):
    """A use case refused, with a message in Russian or English (`message(lang)`)."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(self.message("en"))

    def message(self, lang: str = "en") -> str:
        i = 0 if lang == "ru" else 1
        params = dict(self.params)
        if "action" in params:
            params["action"] = _ACTIONS.get(params["action"], (params["action"],) * 2)[i]
        if "state" in params:
            params["state"] = _STATES.get(params["state"], (params["state"],) * 2)[i]
        if "roles" in params:
            params["roles"] = ", ".join(params["roles"])
        return _MESSAGES[self.code][i].format(**params)


class NotFound(ServiceError):
    """No such tournament or game."""


class StateError(ServiceError):
    """The protocol is not in a state that allows the step asked for."""


class PermissionDenied(ServiceError):
    """The user's role in the tournament does not allow the step."""


class ConflictError(ServiceError):
    """Another save happened after the revision this one was based on.

    `head` is the newest revision now (who saved it and when), `yours` the protocol that
    was refused, also kept in the audit log under `audit_id`.
    """

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



__all__ = ["ConflictError", "NotFound", "PermissionDenied", "ServiceError", "StateError"]
