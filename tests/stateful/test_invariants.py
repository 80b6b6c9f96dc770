"""The stateful test's own checker of a tournament's invariants finds each kind it knows,
and nothing in a sound tournament (a checker that cannot fail would prove nothing)."""

from __future__ import annotations

import json

import msgspec

from mafiatab.domain import protocol as model
from tests.stateful.invariants import tournament_violations
from tests.stateful.world import ROLES, removal_log


def game(code: str, rnd: int, table: int, players: list[str],
         **fields: object) -> model.Game:
    return model.Game(id=code, stage="q", round=rnd, table=table, result="red",
                      seats=[model.Seat(seat=i + 1, player=p, role=ROLES[i + 1])
                             for i, p in enumerate(players)], **fields)  # type: ignore[arg-type]


T1 = [f"p{i}" for i in range(1, 11)]
T2 = [f"p{i}" for i in range(11, 21)]


def kinds(games: list[model.Game], seated: dict[str, list[str]] | None = None) -> list[str]:
    return sorted({v.kind for v in tournament_violations(games, ["q"], seated or {})})


def test_a_sound_round_has_no_violation() -> None:
    games = [game("t1", 1, 1, T1), game("t2", 1, 2, T2), game("r2", 2, 1, T2[:5] + T1[:5])]
    assert kinds(games, {"t1": T1, "t2": list(reversed(T2))}) == []


def test_another_tables_player() -> None:
    games = [game("t1", 1, 1, ["p11", *T1[1:]]), game("t2", 1, 2, T2)]
    assert kinds(games, {"t1": T1, "t2": T2}) == ["not_seated", "two_tables"]


def test_a_removed_player_in_a_later_round() -> None:
    log = [json.loads(e) for e in removal_log("fiim2018", 10) or ()]
    assert log
    games = [game("t1", 1, 1, T1, log=log), game("r2", 2, 1, ["p10", *T2[1:]])]
    found = tournament_violations(games, ["q"], {})
    assert [(v.kind, v.player, v.game) for v in found] == [("after_removal", "p10", "r2")]


def test_a_seat_11_and_a_player_twice() -> None:
    scored = game("t1", 1, 1, T1, scores={11: model.SeatScores()})
    twice = msgspec.structs.replace(game("t2", 1, 2, T2), seats=[
        *game("t2", 1, 2, T2).seats[:9], model.Seat(seat=10, player="p11", role="red")])
    assert kinds([scored, twice]) == ["seat_range", "twice_in_game"]
