"""The game protocol and the tournament, as plain typed data (FIIM section 9, format 1).

Points are integers in hundredths of a point (`0.4` -> `40`): every value the rules allow
has at most two decimal places, so sums and comparisons are exact without Decimal on the
hot path. `points.py` turns them into Decimal for display.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

RED: Final = "red"
SHERIFF: Final = "sheriff"
BLACK: Final = "black"
DON: Final = "don"
ROLES: Final = (RED, SHERIFF, BLACK, DON)
#: Roles per game: 6 red, 1 sheriff, 2 black, 1 don (scoring.md section 1).
ROLE_COUNTS: Final = {RED: 6, SHERIFF: 1, BLACK: 2, DON: 1}
BLACK_ROLES: Final = frozenset({BLACK, DON})
RED_ROLES: Final = frozenset({RED, SHERIFF})
#: The team a role plays for; a game's result names the winning team.
TEAM_OF: Final = {RED: RED, SHERIFF: RED, BLACK: BLACK, DON: BLACK}
RESULTS: Final = ("red", "black", "draw")
DRAW: Final = "draw"
SEATS: Final = tuple(range(1, 11))
STAGE_KINDS: Final = ("qualification", "semifinal", "final")
ENTRY_TAGS: Final = ("reliable", "near_reliable", "from_version", "checked")
#: Tags whose correct entry scores nothing and takes no place in the count (FSM 8.3.9.6,
#: 8.3.9.7, 8.3.9.9).
ZERO_TAGS: Final = frozenset({"reliable", "from_version", "checked"})
PENALTY_KINDS: Final = ("disqualification", "team_loss", "game_action", "revealed_sheriff_no_will")
VERSION_SITUATIONS: Final = (
    "sheriff_don",
    "sheriff_don_vs_red",
    "red_vs_red",
    "black_vs_black",
    "second_claim_after_leaving",
    "single_claim",
    "sheriff_hides",
    "unreliable_sheriff_info",
)


@dataclass(slots=True)
class Player:
    id: str
    nickname: str
    club: str | None = None


@dataclass(slots=True)
class Stage:
    id: str
    name: str
    kind: str
    #: whether the stage's games pay Ci; None: the profile's default (scoring.md 5)
    compensation: bool | None = None


@dataclass(slots=True)
class Seat:
    seat: int
    player: str
    role: str


@dataclass(slots=True)
class Penalty:
    kind: str
    critical: bool | None = None
    points: int | None = None  # hundredths; game_action only
    rule: str | None = None
    note: str | None = None


@dataclass(slots=True)
class ProtocolEntry:
    seat: int
    colour: str  # "red" or "black"
    tag: str | None = None


@dataclass(slots=True)
class Version:
    situation: str
    right: bool


@dataclass(slots=True)
class PuProtocol:
    """The first killed's written protocol (FSM 8.3.9)."""

    entries: list[ProtocolEntry] = field(default_factory=list)
    version: Version | None = None
    aside: bool = False


@dataclass(slots=True)
class SeatScores:
    """What the judge wrote for one seat: extras, evaluations, penalties."""

    extra: int | None = None
    pu_extra: int | None = None
    will: int | None = None
    protocol: int | None = None
    same_as_will: bool = False
    pu_protocol: PuProtocol | None = None
    penalties: list[Penalty] = field(default_factory=list)
    approved: bool = False


@dataclass(slots=True)
class Game:
    id: str
    stage: str
    round: int
    table: int
    seats: list[Seat]
    result: str
    first_killed: int | None = None
    best_move: list[int] = field(default_factory=list)
    day1_vote_left: int = 0
    broken_table: bool = False
    limits_approved: bool = False
    scores: dict[int, SeatScores] = field(default_factory=dict)
    date: str | None = None
    judge: str | None = None
    #: fields of this game the program does not know, kept so that nothing is lost
    other: dict[str, Any] = field(default_factory=dict)

    def role_of(self, seat: int) -> str:
        for s in self.seats:
            if s.seat == seat:
                return s.role
        raise KeyError(seat)

    def player_at(self, seat: int) -> str:
        for s in self.seats:
            if s.seat == seat:
                return s.player
        raise KeyError(seat)


@dataclass(slots=True)
class LotDraw:
    """A recorded random draw: the seed, the tied group and the order it gave."""

    seed: str
    group: list[str]
    order: list[str]


@dataclass(slots=True)
class Tournament:
    name: str
    rules: str
    players: list[Player]
    stages: list[Stage]
    games: list[Game]
    participants: int | None = None
    lots: list[str] = field(default_factory=list)
    lot_draws: list[LotDraw] = field(default_factory=list)
    #: readings switched for this tournament (see `rules.OPTIONS`)
    rule_options: dict[str, str] = field(default_factory=dict)
    other: dict[str, Any] = field(default_factory=dict)

    @property
    def participant_count(self) -> int:
        """FIIM 8.7 counts participants; default: the players listed."""
        return self.participants if self.participants is not None else len(self.players)
