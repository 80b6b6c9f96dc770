"""The records and constants the web app's services share: who the staff are, the key of
the form's paper fields, the public stamp's rules, and the shapes the services hand out
(a game's status in the round overview, a sign-in code as listed, what is public).

The use cases themselves are composed services over the `Store` (`services.facade`
builds them once per process): `accounts`, `access`, `tournaments`, `games`,
`protocols`, `standings`, `appeals`, `screens`, `exports`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from mafiatab.domain import protocol as model
from mafiatab.services.access import CODE_ROLES, STAFF, CodeInfo, Visibility
from mafiatab.services.protocols import JUDGE_EDITABLE
from mafiatab.services.tournaments import RevisionInfo, decode_game, encode_game_dict
from mafiatab.storage.models import (
    CONFIRMED,
    DRAFT,
    RETURNED,
    SUBMITTED,
    Assignment,
    SignInCode,
    WebSettings,
)

#: the key under which the web form keeps what FIIM section 9 records but nothing scores:
#: fouls, nominations and votes per day, written explanations, a protest note
SHEET: Final = "sheet"
#: how long a tournament's stamp read from the database serves the public polls (seconds)
STAMP_MAX_AGE: Final = 1.0
#: audit actions that change nothing the public sees (standings read confirmed revisions)
PRIVATE_ACTIONS: Final = ("save", "submit", "conflict", "sign_in_code", "set_password",
                          "create_code", "grant_role", "assign_judge", "revoke_code",
                          "revoke_role", "give_organizer", "sign_out_everywhere")
#: parts of a game's points that are main points (the rest are extras, hidden from the
#: public while the tournament hides extras): scoring.md sections 2 and 5
MAIN_PARTS: Final = frozenset({"win", "compensation"})


@dataclass(frozen=True, slots=True)
class GameStatus:
    """One table of one round, as the head judge's overview shows it."""

    code: str
    stage: str
    round: int
    table: int
    state: str
    revision: int
    confirmed_revision: int
    author: str
    judge: str | None


def seating_game_id(stage: str, rnd: int, table: int) -> str:
    """The id a game entered through seating gets (format-1 ids are free text)."""
    return f"{stage}-r{rnd}-t{table}"


def game_states() -> tuple[str, ...]:
    return (DRAFT, SUBMITTED, CONFIRMED, RETURNED)


def protocol_of(info: RevisionInfo) -> model.Game:
    return decode_game(_json_text(info.protocol))


def _json_text(d: dict[str, Any]) -> str:
    return encode_game_dict(d)


__all__ = [
    "Assignment",
    "CODE_ROLES",
    "CodeInfo",
    "GameStatus",
    "JUDGE_EDITABLE",
    "MAIN_PARTS",
    "PRIVATE_ACTIONS",
    "SHEET",
    "STAFF",
    "STAMP_MAX_AGE",
    "SignInCode",
    "Visibility",
    "WebSettings",
    "game_states",
    "protocol_of",
    "seating_game_id",
]
