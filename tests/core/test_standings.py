"""Standings: tie-breakers (FIIM 8.8.1-8.8.5, FSM 8.7.2-8.7.6), lots, shared places, scope."""

from __future__ import annotations

from fractions import Fraction

import pytest

from mafiatab.domain.points import format_points, round_hundredths, to_decimal
from mafiatab.domain.standings import METRICS, Row, ranking_key
from mafiatab.domain.standings import rank as rank_by
from mafiatab.rules import FIIM2018, FSM
from tests.helpers import game, rows, standings, tournament


def rank(rows_: list[Row], lots: list[str]) -> list[Row]:
    """Both federations' tie-breakers are the same order (FIIM 8.8, FSM 8.7)."""
    assert FIIM2018.tie_breakers.value == FSM.tie_breakers.value
    return rank_by(rows_, lots, FSM.tie_breakers.value)


def _row(pid: str, main: int = 0, extra: int = 0, wins: int = 0, ds: int = 0,
         fk: int = 0) -> Row:
    return Row(pid, pid, games=1, wins=wins, wins_don_sheriff=ds, first_killed=fk, main=main,
               extra=extra)


def _order(rows_: list[Row]) -> list[tuple[str, int, bool]]:
    return [(r.player, r.place, r.lot_needed) for r in rows_]


def test_fiim_8_8_1_fsm_8_7_2_more_extra_points_first() -> None:
    ranked = rank([_row("a", main=100, extra=50), _row("b", main=50, extra=100)], [])
    assert _order(ranked) == [("b", 1, False), ("a", 2, False)]


def test_fiim_8_8_2_fsm_8_7_3_more_wins_first() -> None:
    ranked = rank([_row("a", main=100, wins=1), _row("b", main=100, wins=2)], [])
    assert _order(ranked) == [("b", 1, False), ("a", 2, False)]


def test_fiim_8_8_3_fsm_8_7_4_more_wins_as_don_or_sheriff_first() -> None:
    ranked = rank([_row("a", main=200, wins=2, ds=0), _row("b", main=200, wins=2, ds=1)], [])
    assert _order(ranked) == [("b", 1, False), ("a", 2, False)]


def test_fiim_8_8_4_fsm_8_7_5_more_first_night_deaths_first() -> None:
    ranked = rank([_row("a", main=100, wins=1, fk=0), _row("b", main=100, wins=1, fk=2)], [])
    assert _order(ranked) == [("b", 1, False), ("a", 2, False)]


def test_fiim_8_8_5_fsm_8_7_6_still_tied_share_the_place_and_need_a_lot() -> None:
    ranked = rank([_row("a", main=300), _row("b", main=100), _row("c", main=100),
                   _row("d", main=50)], [])
    assert _order(ranked) == [("a", 1, False), ("b", 2, True), ("c", 2, True), ("d", 4, False)]


def test_fiim_8_8_5_recorded_lot_orders_the_group_it_names_whole() -> None:
    players = [_row("a", main=300), _row("b", main=100), _row("c", main=100), _row("d", main=50)]
    ranked = rank(players, ["c", "b"])
    assert _order(ranked) == [("a", 1, False), ("c", 2, False), ("b", 3, False), ("d", 4, False)]


def test_fiim_8_8_5_lot_naming_part_of_a_group_does_not_order_it() -> None:
    players = [_row("b", main=100), _row("c", main=100), _row("e", main=100)]
    ranked = rank(players, ["c", "b"])
    assert [r.place for r in ranked] == [1, 1, 1] and all(r.lot_needed for r in ranked)


def test_lot_only_orders_players_still_tied() -> None:
    # the lot names a, b; but a has more extra points: the lot changes nothing
    ranked = rank([_row("a", main=50, extra=50), _row("b", main=100)], ["b", "a"])
    assert _order(ranked) == [("a", 1, False), ("b", 2, False)]


def test_tie_breakers_in_a_whole_tournament() -> None:
    # p1 and p2 red and both win; p2 gets a best move's extra instead of p1's judge extra
    # (FIIM: no Ci when red wins, so the totals can be equal)
    g1 = game("g1", result="red", first_killed=2, best_move=[4, 6],
              scores={"1": {"extra": 0.25}})
    t = tournament("fiim2018", [g1], participants=30)
    r = rows(t)
    assert r["p1"].total == r["p2"].total == 125
    assert r["p1"].extra == r["p2"].extra == 25
    # equal extra and wins and don/sheriff wins; p2 died on the first night: p2 first
    assert r["p2"].place < r["p1"].place
    assert not r["p1"].lot_needed


def test_lots_in_the_file_order_the_standings() -> None:
    g = game("g1", result="red")
    base = tournament("fsm", [g])
    tied = rows(base)
    assert all(tied[f"p{i}"].lot_needed for i in (1, 2, 5, 7, 9, 10))
    lots = ["p9", "p1", "p10", "p2", "p7", "p5"]
    ordered = rows(tournament("fsm", [g], lots=lots))
    assert [ordered[p].place for p in lots] == [2, 3, 4, 5, 6, 7]  # p3 (sheriff win) is 1st
    assert ordered["p3"].place == 1


def test_scope_by_stage_counts_only_its_games_and_lists_its_players() -> None:
    stages = [{"id": "qual", "name": "Q", "kind": "qualification"},
              {"id": "final", "name": "F", "kind": "final"}]
    others = [f"p{i}" for i in range(11, 21)]
    games = [game("q1", result="red"), game("q2", players=others, result="black"),
             game("f1", stage="final", result="black")]
    t = tournament("fsm", games, stages=stages, n_players=20)
    final = standings(t, ["final"])
    assert final.stages == ["final"]
    assert {r.player for r in final.rows} == {f"p{i}" for i in range(1, 11)}
    assert {r.player: r.main for r in final.rows}["p1"] == 0
    whole = rows(t)
    assert len(whole) == 20 and whole["p1"].main == 100 and whole["p4"].main == 100


def test_players_without_games_are_not_listed() -> None:
    t = tournament("fsm", [game()], n_players=12)
    assert "p11" not in rows(t)


# --- section 7: numbers ---------------------------------------------------------------


@pytest.mark.parametrize(("value", "expected"), [
    (Fraction(25, 2), 13), (Fraction(-25, 2), -13), (Fraction(49, 4), 12), (Fraction(40, 3), 13),
    (Fraction(1, 2), 1), (Fraction(-1, 2), -1), (7, 7), (Fraction(200, 3), 67)])
def test_section_7_round_half_up_to_two_places(value: Fraction | int, expected: int) -> None:
    assert round_hundredths(value) == expected


def test_section_7_display() -> None:
    assert str(to_decimal(Fraction(40, 3))) == "0.13"
    assert format_points(Fraction(40, 3), "ru") == "0,13"
    assert format_points(-150, "en", sign=True) == "-1.5"
    assert format_points(40, "ru", sign=True) == "+0,4"
    assert format_points(500, "en", fixed=True) == "5.00"
    assert format_points(0, "ru", fixed=True) == "0,00"


def test_section_7_ranking_uses_exact_values_not_rounded_ones() -> None:
    # 0.4/3 (0.1333...) vs 0.13: equal when rounded, different exactly
    a = _row("a", main=Fraction(40, 3))  # type: ignore[arg-type]
    b = _row("b", main=13)
    ranked = rank([b, a], [])
    assert _order(ranked) == [("a", 1, False), ("b", 2, False)]


def test_tie_break_order_is_read_from_the_profile() -> None:
    """The order of the tie-breakers is the profile's `tie_breakers`, not the code's: the
    same rows rank the other way round when a profile puts wins before extra points."""
    a = _row("a", main=100, extra=50, wins=1)
    b = _row("b", main=50, extra=100, wins=2)
    assert [r.player for r in rank_by([a, b], [], ("total", "extra", "wins"))] == ["b", "a"]
    a, b = _row("a", main=100, extra=50, wins=1), _row("b", main=50, extra=100, wins=2)
    assert [r.player for r in rank_by([a, b], [], ("total", "wins", "extra"))] == ["b", "a"]
    a, b = _row("a", main=100, extra=50, wins=3), _row("b", main=50, extra=100, wins=2)
    assert [r.player for r in rank_by([a, b], [], ("total", "wins", "extra"))] == ["a", "b"]
    a, b = _row("a", main=100, extra=50, wins=3), _row("b", main=50, extra=100, wins=2)
    assert [r.player for r in rank_by([a, b], [], ("total", "extra", "wins"))] == ["b", "a"]


def test_tie_break_metric_direction_comes_from_the_registry() -> None:
    """A metric where less is better (fewer games) ranks the smaller value first."""
    assert METRICS["games"].higher_is_better is False
    few, many = Row("few", "few", games=1, main=100), Row("many", "many", games=3, main=100)
    assert [r.player for r in rank_by([many, few], [], ("total", "games"))] == ["few", "many"]
    key = ranking_key(("total", "games"))
    assert key(few) > key(many)


def test_every_profile_tie_breaker_is_a_known_metric() -> None:
    for profile in (FIIM2018, FSM):
        assert all(name in METRICS for name in profile.tie_breakers.value)
        assert profile.tie_breakers.value[0] == "total"
