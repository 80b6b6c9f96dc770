"""A tournament round by round: standings after each round, win rates by role and by seat.

Charts and the web pages show how the places moved. Standings are a pure function of the
games in scope (design.md point 2), so "after round N" is simply the standings of the
games played up to it: the tournament with its later games left out, recomputed (Ci and K
of that moment, not of the end).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import msgspec

from mafiatab.domain.protocol import ROLES, SEATS, TEAM_OF, Tournament
from mafiatab.domain.standings import compute_standings
from mafiatab.rules.profile import RuleProfile

#: a round of the tournament: (stage id, round number)
RoundKey = tuple[str, int]


def round_keys(t: Tournament) -> list[RoundKey]:
    """The rounds that have games, in playing order: stages as listed, then round number."""
    order = {s.id: i for i, s in enumerate(t.stages)}
    keys = {(g.stage, g.round) for g in t.games}
    return sorted(keys, key=lambda k: (order.get(k[0], len(order)), k[1]))


def up_to_round(t: Tournament, key: RoundKey) -> Tournament:
    """The tournament with only the games played up to and including round `key`."""
    order = {s.id: i for i, s in enumerate(t.stages)}
    limit = (order.get(key[0], len(order)), key[1])
    games = [g for g in t.games if (order.get(g.stage, len(order)), g.round) <= limit]
    return msgspec.structs.replace(t, games=games)


@dataclass(slots=True)
class Progress:
    """Each player's place after each round (None before his first game)."""

    rounds: list[RoundKey]
    names: dict[str, str]
    places: dict[str, list[int | None]]


def places_by_round(t: Tournament, p: RuleProfile,
                    stages: Iterable[str] | None = None) -> Progress:
    """Standings recomputed after every round (of `stages`, default all)."""
    scope = set(stages) if stages is not None else None
    keys = [k for k in round_keys(t) if scope is None or k[0] in scope]
    names = {pl.id: pl.nickname for pl in t.players}
    places: dict[str, list[int | None]] = {}
    for i, key in enumerate(keys):
        rows = compute_standings(up_to_round(t, key), p, scope).rows
        for row in rows:
            places.setdefault(row.player, [None] * len(keys))[i] = row.place
    return Progress(keys, names, places)


@dataclass(slots=True)
class Rate:
    games: int = 0
    wins: int = 0

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0


def win_rates(t: Tournament, stages: Iterable[str] | None = None
              ) -> tuple[dict[str, Rate], dict[int, Rate]]:
    """How often each role's team and each seat's player won (draws count as games)."""
    scope = set(stages) if stages is not None else None
    by_role = {r: Rate() for r in ROLES}
    by_seat = {s: Rate() for s in SEATS}
    for g in t.games:
        if scope is not None and g.stage not in scope:
            continue
        for s in g.seats:
            won = TEAM_OF.get(s.role) == g.result
            for rate in (by_role[s.role], by_seat[s.seat]):
                rate.games += 1
                rate.wins += won
    return by_role, by_seat
