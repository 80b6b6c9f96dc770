"""Seating problem model: the request, the result, and the checks that refuse impossible input.

Pure (no I/O). Players, rounds and tables are 0-based inside the package; the CLI and the
JSON format translate to the 1-based numbers organizers see.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from mafiatab import i18n
from mafiatab.domain.problems import Refused, stated


def _n(n: int, word: str, lang: str = "ru") -> str:
    """A count with its word in the form the number asks for (`2 стола`, `5 игроков`)."""
    return i18n.count(n, word, lang)

TABLE_SIZE = 10


class InfeasibleRequest(Refused):
    """A request that no seating can satisfy; the message says why (shown to the organizer)."""

    def __init__(self, reason_ru: str, reason_en: str) -> None:
        super().__init__([stated(reason_ru, reason_en)])
        self.reason_ru = reason_ru
        self.reason_en = reason_en

    def reason(self, lang: str) -> str:
        return self.reason_en if lang == "en" else self.reason_ru


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
        raise InfeasibleRequest(
            f"Нужно хотя бы {_n(TABLE_SIZE, 'player')}, а их {players}.",
            f"At least {TABLE_SIZE} players are needed, got {players}.",
        )
    if games < 1:
        raise InfeasibleRequest(
            "Каждый игрок должен сыграть хотя бы одну игру.",
            "Every player must play at least one game.",
        )
    if tables is None:
        tables = default_tables(players, games)
    if tables < 1 or tables * TABLE_SIZE > players:
        raise InfeasibleRequest(
            f"{_n(tables, 'table')} по {_n(TABLE_SIZE, 'seat')} не заполнить, когда игроков {players}.",
            f"{_n(tables, 'table', 'en')} of {TABLE_SIZE} cannot be filled by {players} players.",
        )
    seats = players * games
    if seats % (TABLE_SIZE * tables) != 0:
        raise InfeasibleRequest(
            f"{_n(players, 'player')} × {_n(games, 'game')} = {_n(seats, 'seat')}, это не "
            f"кратно {TABLE_SIZE * tables} (столов в туре: {tables}); выберите другое --tables "
            "или число игр.",
            f"{players} players × {games} games = {seats} seats, not a multiple of "
            f"{TABLE_SIZE * tables} ({tables} tables a round); choose another --tables "
            "or number of games.",
        )
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
            raise InfeasibleRequest(
                f"Игрока {p + 1} нет: игроки пронумерованы 1…{n}.",
                f"There is no player {p + 1}: players are numbered 1…{n}.",
            )
    for p, tb in req.pins.items():
        if not 0 <= tb < t:
            raise InfeasibleRequest(
                f"Игрок {p + 1} закреплён за столом {tb + 1}, а столов в туре {t}.",
                f"Player {p + 1} is pinned to table {tb + 1}, but there are {t} tables a round.",
            )
    for p, rounds in req.availability.items():
        bad = [r for r in rounds if not 0 <= r < g]
        if bad:
            raise InfeasibleRequest(
                f"У игрока {p + 1} указан тур {bad[0] + 1}, а туров {g}.",
                f"Player {p + 1} lists round {bad[0] + 1}, but there are {g} rounds.",
            )
        if len(rounds) < req.games:
            raise InfeasibleRequest(
                f"Игрок {p + 1} может прийти только на {_n(len(rounds), 'round')}, а должен "
                f"сыграть {_n(req.games, 'game')}.",
                f"Player {p + 1} can come to {_n(len(rounds), 'round', 'en')} only but must "
                f"play {_n(req.games, 'game', 'en')}.",
            )
    for r in range(g):
        here = sum(1 for p in range(n) if req.available(p, r))
        if here < TABLE_SIZE * t:
            raise InfeasibleRequest(
                f"В туре {r + 1} могут играть только {_n(here, 'player')}, а нужно {TABLE_SIZE * t}.",
                f"Only {here} players can play in round {r + 1}, {TABLE_SIZE * t} are needed.",
            )
    # Pins: at most 10 per table in a round, never two club-mates at one table.
    for tb in range(t):
        pinned = [p for p, x in req.pins.items() if x == tb]
        for r in range(g):
            at_table = [p for p in pinned if req.available(p, r)]
            if len(at_table) > TABLE_SIZE and req.byes_per_round == 0:
                k = len(at_table)
                raise InfeasibleRequest(
                    f"За столом {tb + 1} закреплено {_n(k, 'player')}, а мест {TABLE_SIZE}.",
                    f"{k} players are pinned to table {tb + 1}, it has {TABLE_SIZE} seats.",
                )
        if req.byes_per_round == 0:
            seen: dict[str, int] = {}
            for p in pinned:
                club = req.clubs.get(p)
                if club is None:
                    continue
                if club in seen:
                    raise InfeasibleRequest(
                        f"Игроки {seen[club] + 1} и {p + 1} из одного клуба «{club}» закреплены "
                        f"за одним столом {tb + 1}.",
                        f"Players {seen[club] + 1} and {p + 1} of club '{club}' are both pinned "
                        f"to table {tb + 1}.",
                    )
                seen[club] = p
    # Clubs: at most one member per table in a round.
    members: dict[str, list[int]] = {}
    for p, club in req.clubs.items():
        members.setdefault(club, []).append(p)
    for club, ps in members.items():
        if req.byes_per_round == 0 and len(ps) > t:
            raise InfeasibleRequest(
                f"В клубе «{club}» {_n(len(ps), 'player')}, а столов в туре {t}: развести их нельзя.",
                f"Club '{club}' has {len(ps)} players but there are {t} tables a round: "
                "they cannot be kept apart.",
            )
        if len(ps) * req.games > t * g:
            raise InfeasibleRequest(
                f"Клуб «{club}»: {_n(len(ps), 'player')} × {_n(req.games, 'game')} не "
                f"уместить по одному за стол: туров {g}, столов в туре {t}.",
                f"Club '{club}': {len(ps)} players × {req.games} games do not fit one a table "
                f"into {g} rounds of {t} tables.",
            )
        for r in range(g):
            must = [
                p for p in ps if req.byes_per_round == 0 and req.available(p, r)
            ]
            if len(must) > t:
                raise InfeasibleRequest(
                    f"Клуб «{club}»: в туре {r + 1} играют {_n(len(must), 'player')}, а столов {t}.",
                    f"Club '{club}': {len(must)} players play round {r + 1}, there are {t} "
                    "tables.",
                )


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
