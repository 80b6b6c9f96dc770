"""The game protocol and the tournament, as plain typed data (FIIM section 9, format 1).

The classes are `msgspec.Struct`s: plain typed records that the JSON reader fills directly
from the file's bytes (no intermediate dicts), which is what keeps standings of a
10,000-game file within a small multiple of `json.loads`. They hold no behaviour of the
rules. Point inputs are `Decimal`, exactly as written (scoring.md 7); scoring turns them
into integer hundredths.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Final

import msgspec

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


#: the key under which fields the program does not know are kept (never in a real file)
UNKNOWN_KEY: Final = "__unknown_fields__"


class _Record(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Base of the records: keyword construction; an unknown key makes the fast reader
    step aside for the careful one, which reports it."""


class Player(_Record):
    id: str
    nickname: str
    club: str | None = None
    #: plays and is seated, but is not ranked ("вне зачёта", `domain.standings`)
    exhibition: bool = False


class Stage(_Record):
    id: str
    name: str
    kind: str
    #: whether the stage's games pay Ci; None: the profile's default (scoring.md 5)
    compensation: bool | None = None


class Seat(_Record, gc=False):
    seat: int
    player: str
    role: str


class Penalty(_Record):
    kind: str
    critical: bool | None = None
    points: Decimal | None = None  # game_action only
    rule: str | None = None
    note: str | None = None


class ProtocolEntry(_Record, gc=False):
    seat: int
    colour: str  # "red" or "black"
    tag: str | None = None


class Version(_Record, gc=False):
    situation: str
    right: bool


class PuProtocol(_Record):
    """The first killed's written protocol (FSM 8.3.9)."""

    entries: list[ProtocolEntry] = []
    version: Version | None = None
    aside: bool = False


class SeatScores(_Record):
    """What the judge wrote for one seat: extras, evaluations, penalties."""

    extra: Decimal | None = None
    pu_extra: Decimal | None = None
    will: Decimal | None = None
    protocol: Decimal | None = None
    same_as_will: bool = False
    pu_protocol: PuProtocol | None = None
    penalties: list[Penalty] = []
    approved: bool = False


#: the kinds of a day's voting round on the paper protocol (FIIM 9.5; glossary: vote,
#: revote after a tie, the lift vote on whether all the tied leave)
VOTE_KINDS: Final = ("vote", "revote", "lift")


class Nomination(_Record, gc=False):
    """One nomination of a day: the seat `by` nominated the seat `seat` (FIIM 9.5)."""

    seat: int
    #: None when the protocol does not say who nominated
    by: int | None = None


class VoteRound(_Record):
    """One round of a day's voting: `counts` of votes per candidate (seat -> votes) for
    a vote or a revote; for the lift vote, `count`: the hands for all the tied leaving."""

    kind: str = "vote"
    counts: dict[int, int] = {}
    count: int | None = None


class Day(_Record):
    """What the paper protocol holds of one day: nominations, the voting, who left."""

    day: int
    nominations: list[Nomination] = []
    votes: list[VoteRound] = []
    #: the seats the day's vote removed
    left: list[int] = []


class Protest(_Record):
    """A protest written on the protocol (FIIM 8.9.1): by which seat, when, its text, and
    the judge's decision explained on the back (FIIM 9.10)."""

    by: int | None = None
    at: str | None = None
    text: str = ""
    decision: str | None = None


class Video(_Record):
    """The game's video (a stream's recording, docs/format.md): its http(s) link and the
    second of the video at which the game's first timed event happened; each event with
    a wall-clock time (`log[].at`) then links to its moment."""

    #: checked again by `domain.clock.check_video_url` (the careful reader says why)
    url: Annotated[str, msgspec.Meta(max_length=500, pattern=r"^https?://[^\s/@]+(/\S*)?$")]
    offset: Annotated[int, msgspec.Meta(ge=0, le=2 * 24 * 3600)] = 0


class Change(_Record, gc=False):
    """One value a head judge's correction changed: its format-1 path in the game
    (`scores.4.extra`, `seats.3.role`, `result`) and the value before and after, each as
    its JSON text (exact: `"0.8"`, `"\\"black\\""`), None where there was none."""

    path: str
    old: str | None = None
    new: str | None = None


class Correction(_Record):
    """The head judge's correction of a submitted protocol (docs/format.md): who, when
    (UTC, ISO 8601 with `Z`), why, and what changed. It stays with the protocol through
    confirmation and export, so that the page, the printout and the file say that the
    head judge changed what the table judge wrote."""

    by: str
    at: str
    reason: str
    changes: list[Change] = []


class Game(_Record, kw_only=True):
    id: str
    stage: str
    round: int
    table: int
    date: str | None = None
    judge: str | None = None
    seats: list[Seat]
    result: str
    first_killed: int | None = None
    best_move: list[int] = []
    day1_vote_left: int = 0
    broken_table: bool = False
    #: FSM 8.6.6, with `broken_table`: the seat shot in the first shooting night
    night_killed: int | None = None
    limits_approved: bool = False
    scores: dict[int, SeatScores] = {}
    #: the paper protocol's columns that nothing scores (FIIM 9.5, 9.10, 8.9.1; docs/format.md)
    fouls: dict[int, int] = {}
    days: list[Day] = []
    explanations: dict[int, str] = {}
    protest: Protest | None = None
    #: the game log, events as written; `domain.gamelog` reads and checks them
    log: list[dict[str, Any]] | None = None
    #: the game's video and where in it the game starts
    video: Video | None = None
    #: the head judge's corrections of the submitted protocol, oldest first
    corrections: list[Correction] = []
    #: fields of this game the program does not know, kept so that nothing is lost
    other: dict[str, Any] = msgspec.field(default_factory=dict, name=UNKNOWN_KEY)

    def role_of(self, seat: int) -> str:
        for s in self.seats:
            if s.seat == seat:
                return s.role
        raise KeyError(seat)

    def player_at(self, seat: int) -> str:
        # seats are usually listed in order: look where seat n would be first
        if 0 < seat <= len(self.seats):
            s = self.seats[seat - 1]
            if s.seat == seat:
                return s.player
        for s in self.seats:
            if s.seat == seat:
                return s.player
        raise KeyError(seat)


class LotDraw(_Record):
    """A recorded random draw: the seed, the tied group and the order it gave."""

    seed: str
    group: list[str]
    order: list[str]


class TeamEntry(_Record):
    """A team of a team tournament (format 1 `teams`, optional): an id, a name and its
    members' player ids (docs/teams.md)."""

    id: str
    name: str
    members: list[str]


class Tournament(_Record, kw_only=True):
    format: str = "mafiatab.tournament/1"
    name: str
    rules: str
    participants: int | None = None
    #: readings switched for this tournament (see `rules.OPTIONS`)
    rule_options: dict[str, str] = {}
    players: list[Player]
    stages: list[Stage]
    games: list[Game] = []
    lots: list[str] = []
    lot_draws: list[LotDraw] = []
    #: the teams of a team tournament (optional; docs/teams.md)
    teams: list[TeamEntry] = []
    other: dict[str, Any] = msgspec.field(default_factory=dict, name=UNKNOWN_KEY)

    @property
    def participant_count(self) -> int:
        """FIIM 8.7 counts participants; default: the players listed (exhibition players
        included: `domain.standings.participant_count` asks the profile whether they count)."""
        return self.participants if self.participants is not None else len(self.players)

    @property
    def exhibition(self) -> frozenset[str]:
        """The ids of the players who play but are not ranked."""
        return frozenset(p.id for p in self.players if p.exhibition)
