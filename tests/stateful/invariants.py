"""A tournament's invariants over its confirmed games, checked by the
stateful test until the domain has its own check.

This is the test's own small checker, kept apart and pure so that it can be swapped for
the domain's function when that lands: `tournament_violations` takes the confirmed games,
the stages' order and each game's seated players, and returns every violation with the
rule, the stage, the round, the table, the seat and the player. The kinds:

* `two_tables`: a player recorded in two games of one round of one stage;
* `not_seated`: a player recorded at a table where the seating (its newest seating draft,
  which a check-in replacement or a re-seating also writes) did not seat him (at any
  seat: the judge writes who sat where);
* `after_removal`: a player recorded in a game after the game whose log removed him from
  the tournament (FIIM 7.3: `disqualify` with `tournament: true`);
* `seat_range`: a confirmed protocol naming a seat outside 1..10 (a scored seat 11);
* `twice_in_game`: one player in two seats of one game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mafiatab.domain.protocol import SEATS, Game

#: the kinds of violation this checker knows
KINDS = ("two_tables", "not_seated", "after_removal", "seat_range", "twice_in_game")


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken invariant: which, where, who."""

    kind: str
    rule: str
    stage: str
    round: int
    table: int
    seat: int | None
    player: str | None
    game: str

    def __str__(self) -> str:
        return (f"{self.kind} ({self.rule}): {self.game} stage {self.stage} round "
                f"{self.round} table {self.table} seat {self.seat} player {self.player}")


def removed_by(game: Game) -> list[int]:
    """The seats the game's log removes from the tournament (FIIM 7.3)."""
    return [int(e["seat"]) for e in game.log or []
            if e.get("type") == "disqualify" and e.get("tournament") is True
            and isinstance(e.get("seat"), int)]


def tournament_violations(games: Sequence[Game], stage_order: Sequence[str],
                          seated: Mapping[str, Sequence[str]]) -> list[Violation]:
    """Every violation among the confirmed `games`. `stage_order`: the stages' codes in
    their order; `seated`: a game's code -> its seated players by seat (games without a
    recorded seating, e.g. imported whole, are not checked against one)."""
    out: list[Violation] = []
    order = {code: i for i, code in enumerate(stage_order)}

    def when(g: Game) -> tuple[int, int]:
        return order.get(g.stage, len(order)), g.round

    removed: dict[str, tuple[tuple[int, int], str]] = {}
    for g in games:
        for seat in removed_by(g):
            for s in g.seats:
                if s.seat == seat:
                    moment = when(g)
                    if s.player not in removed or moment < removed[s.player][0]:
                        removed[s.player] = (moment, g.id)
    by_round: dict[tuple[str, int], dict[str, Game]] = {}
    for g in sorted(games, key=lambda x: (when(x), x.table, x.id)):
        players = [s.player for s in g.seats]
        for s in g.seats:
            if players.count(s.player) > 1:
                out.append(Violation("twice_in_game", "format 1: a seat each", g.stage,
                                     g.round, g.table, s.seat, s.player, g.id))
            first = by_round.setdefault((g.stage, g.round), {})
            if s.player in first and first[s.player].id != g.id:
                out.append(Violation("two_tables", "one game per round", g.stage, g.round,
                                     g.table, s.seat, s.player, g.id))
            else:
                first.setdefault(s.player, g)
            gone = removed.get(s.player)
            if gone is not None and when(g) > gone[0]:
                out.append(Violation("after_removal", "FIIM 7.3", g.stage, g.round, g.table,
                                     s.seat, s.player, g.id))
        seats = seated.get(g.id)
        if seats is not None:
            for s in g.seats:
                if s.player not in seats:
                    out.append(Violation("not_seated", "seating.md", g.stage, g.round,
                                         g.table, s.seat, s.player, g.id))
        named = ([s.seat for s in g.seats] + list(g.scores) + list(g.fouls)
                 + list(g.explanations) + list(g.best_move)
                 + ([g.first_killed] if g.first_killed is not None else [])
                 + [n.seat for d in g.days for n in d.nominations])
        for seat in named:
            if seat not in SEATS:
                out.append(Violation("seat_range", "FIIM 9 / format 1: seats 1..10",
                                     g.stage, g.round, g.table, seat, None, g.id))
    return out


__all__ = ["KINDS", "Violation", "removed_by", "tournament_violations"]
