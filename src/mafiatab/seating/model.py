"""Seating problem model: the request, the result, and the checks that refuse impossible input.

Pure (no I/O). Players, rounds and tables are 0-based inside the package; the CLI and the
JSON format translate to the 1-based numbers organizers see.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from mafiatab import i18n
from mafiatab.domain.problems import Problem, Refused, Word
from mafiatab.texts.seating import SEATING_REQUEST


def _n(n: int, word: str, lang: str = "ru") -> str:
    """A count with its word in the form the number asks for (`2 стола`, `5 игроков`)."""
    return i18n.count(n, word, lang)


def counted(n: int, word: str) -> Word:
    """A count as a refusal's parameter: the number for the API, `2 стола` / `2 tables`
    for people."""
    return Word(str(n), _n(n, word), _n(n, word, "en"))

TABLE_SIZE = 10


class InfeasibleRequest(Refused):
    """A request that no seating can satisfy; the message says why (shown to the organizer):
    a code of the catalogue's `seating_request` section and its parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__([Problem(code, params=params, texts=SEATING_REQUEST)])
        self.reason_ru = self.message("ru")
        self.reason_en = self.message("en")

    def reason(self, lang: str) -> str:
        return self.reason_en if lang == "en" else self.reason_ru


def require_generator() -> None:
    """Refuse, in words with the install command, when the generator's extra
    (`mafiatab[seating]`: numba and OR-Tools) is not installed; checked before the search's
    modules are imported, so the rest of mafiatab works without them."""
    from mafiatab import extras

    if extras.missing("seating"):
        raise InfeasibleRequest("seating_not_installed",
                                command=extras.install_command("seating"))


@dataclass(frozen=True)
class SeatingRequest:
    """What the organizer asks for.

    `clubs[p]` is a club id (players sharing one must never share a table), `pins[p]` the table
    player p must sit at whenever p plays, `availability[p]` the rounds p can come to (players
    not listed can come to every round).
    """

    players: int
    games: int
    tables: int
    rounds: int
    seed: int = 0
    clubs: dict[int, str] = field(default_factory=dict)
    pins: dict[int, int] = field(default_factory=dict)
    availability: dict[int, frozenset[int]] = field(default_factory=dict)

    @property
    def byes_per_round(self) -> int:
        return self.players - TABLE_SIZE * self.tables

    def available(self, player: int, rnd: int) -> bool:
        avail = self.availability.get(player)
        return avail is None or rnd in avail


@dataclass
class Seating:
    """rounds[r][t] is the list of 10 players of table t in round r, in seat order."""

    players: int
    games: int
    rounds: list[list[list[int]]]


def mean_meetings(players: int, games: int) -> float:
    """μ = 9R/(N-1): the average number of games a pair shares."""
    return (TABLE_SIZE - 1) * games / (players - 1)


def default_tables(players: int, games: int) -> int:
    """The most tables per round that give a whole number of rounds (fewest byes per round)."""
    for t in range(players // TABLE_SIZE, 0, -1):
        if (players * games) % (TABLE_SIZE * t) == 0:
            return t
    return 0


def build_request(
    players: int,
    games: int,
    tables: int | None = None,
    seed: int = 0,
    clubs: dict[int, str] | None = None,
    pins: dict[int, int] | None = None,
    availability: dict[int, frozenset[int]] | None = None,
) -> SeatingRequest:
    """Check the numbers and the constraints; raise InfeasibleRequest with the reason."""
    if players < TABLE_SIZE:
        raise InfeasibleRequest("seating_too_few_players",
                                need=counted(TABLE_SIZE, "player"), players=players)
    if games < 1:
        raise InfeasibleRequest("seating_no_games")
    if tables is None:
        tables = default_tables(players, games)
    if tables < 1 or tables * TABLE_SIZE > players:
        raise InfeasibleRequest("seating_tables_unfilled", tables=counted(tables, "table"),
                                size=counted(TABLE_SIZE, "seat"), players=players)
    seats = players * games
    if seats % (TABLE_SIZE * tables) != 0:
        raise InfeasibleRequest("seating_not_multiple", players=counted(players, "player"),
                                games=counted(games, "game"), seats=counted(seats, "seat"),
                                multiple=TABLE_SIZE * tables, tables=tables)
    rounds = seats // (TABLE_SIZE * tables)
    req = SeatingRequest(
        players=players,
        games=games,
        tables=tables,
        rounds=rounds,
        seed=seed,
        clubs=dict(clubs or {}),
        pins=dict(pins or {}),
        availability={p: frozenset(r) for p, r in (availability or {}).items()},
    )
    _check_constraints(req)
    return req


def _check_constraints(req: SeatingRequest) -> None:
    """Necessary conditions, each with a reason an organizer understands."""
    n, g, t = req.players, req.rounds, req.tables
    for p in list(req.clubs) + list(req.pins) + list(req.availability):
        if not 0 <= p < n:
            raise InfeasibleRequest("seating_no_such_player", player=p + 1, n=n)
    for p, tb in req.pins.items():
        if not 0 <= tb < t:
            raise InfeasibleRequest("seating_pin_table", player=p + 1, table=tb + 1, tables=t)
    for p, rounds in req.availability.items():
        bad = [r for r in rounds if not 0 <= r < g]
        if bad:
            raise InfeasibleRequest("seating_avail_round", player=p + 1, round=bad[0] + 1,
                                    rounds=g)
        if len(rounds) < req.games:
            raise InfeasibleRequest("seating_avail_few", player=p + 1,
                                    rounds=counted(len(rounds), "round"),
                                    games=counted(req.games, "game"))
    for r in range(g):
        here = sum(1 for p in range(n) if req.available(p, r))
        if here < TABLE_SIZE * t:
            raise InfeasibleRequest("seating_round_few", round=r + 1,
                                    here=counted(here, "player"), need=TABLE_SIZE * t)
    # Pins: at most 10 per table in a round, never two club-mates at one table.
    for tb in range(t):
        pinned = [p for p, x in req.pins.items() if x == tb]
        for r in range(g):
            at_table = [p for p in pinned if req.available(p, r)]
            if len(at_table) > TABLE_SIZE and req.byes_per_round == 0:
                k = len(at_table)
                raise InfeasibleRequest("seating_pinned_many", table=tb + 1,
                                        pinned=counted(k, "player"), size=TABLE_SIZE)
        if req.byes_per_round == 0:
            seen: dict[str, int] = {}
            for p in pinned:
                club = req.clubs.get(p)
                if club is None:
                    continue
                if club in seen:
                    raise InfeasibleRequest("seating_pinned_clubmates", first=seen[club] + 1,
                                            second=p + 1, club=club, table=tb + 1)
                seen[club] = p
    # Clubs: at most one member per table in a round.
    members: dict[str, list[int]] = {}
    for p, club in req.clubs.items():
        members.setdefault(club, []).append(p)
    for club, ps in members.items():
        if req.byes_per_round == 0 and len(ps) > t:
            raise InfeasibleRequest("seating_club_too_big", club=club,
                                    members=counted(len(ps), "player"), tables=t)
        if len(ps) * req.games > t * g:
            raise InfeasibleRequest("seating_club_no_fit", club=club,
                                    members=counted(len(ps), "player"),
                                    games=counted(req.games, "game"), rounds=g, tables=t)
        for r in range(g):
            must = [
                p for p in ps if req.byes_per_round == 0 and req.available(p, r)
            ]
            if len(must) > t:
                raise InfeasibleRequest("seating_club_round", club=club, round=r + 1,
                                        members=counted(len(must), "player"), tables=t)


def sum_sq_lower_bound(players: int, games: int, tables: int, rounds: int) -> int:
    """The bound of seating.md: Σm² = 2·ΣC(m,2) + Σm with ΣC(m,2) ≥ C(rounds,2)·ω(T).

    ω is only stated for N = 10T (no byes); with byes the bound is only Σm (every m ≤ 1).
    """
    omega = {2: 40, 3: 36, 4: 32, 5: 25, 6: 24, 7: 21, 8: 16, 9: 9}
    total = players * games * (TABLE_SIZE - 1) // 2
    if players != TABLE_SIZE * tables:
        return total
    w = omega.get(tables, 0)
    return 2 * math.comb(rounds, 2) * w + total
