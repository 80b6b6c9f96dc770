"""Invariants of standings and of the file format, over random sound tournaments."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from fractions import Fraction

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiatab.domain.protocol import Tournament
from mafiatab.domain.scoring import MAIN_KINDS
from mafiatab.domain.standings import Standings, compute_standings, explain_player
from mafiatab.formats.standings_json import standings_to_dict
from mafiatab.formats.tournament_json import (
    dumps_tournament,
    read_tournament,
    tournament_from_dict,
)
from mafiatab.rules import get_profile
from mafiatab.sample import sample_tournament
from mafiatab.services.tournament_file import load_tournament

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

tournaments = st.builds(
    sample_tournament,
    rules=st.sampled_from(["fsm", "fiim2018"]),
    players=st.sampled_from([10, 20, 30]),
    rounds=st.integers(1, 8),
    seed=st.integers(0, 10**6),
    final_round=st.booleans(),
)


def _standings(t: Tournament, stages: list[str] | None = None) -> Standings:
    return compute_standings(t, get_profile(t.rules), stages)


def _json(s: Standings) -> dict[str, object]:
    return standings_to_dict(s)


def _comparable(s: Standings) -> list[tuple[object, ...]]:
    """Rows as (place, player, exact values), sorted: shared places may come in any order."""
    return sorted((r.place, r.player, r.games, r.wins, r.wins_don_sheriff, r.first_killed,
                   r.main, r.extra, r.best_move, r.compensation, r.penalties, r.lot_needed)
                  for r in s.rows)


@SETTINGS
@given(tournaments)
def test_sample_tournaments_are_sound(t: Tournament) -> None:
    load_tournament(dumps_tournament(t))  # raises if the generator made a bad protocol


@SETTINGS
@given(tournaments, st.randoms(use_true_random=False))
def test_standings_do_not_depend_on_order_of_games_seats_players(t: Tournament,
                                                                 rnd: random.Random) -> None:
    before = _comparable(_standings(t))
    shuffled = msgspec.structs.replace(
        t, games=[msgspec.structs.replace(g, seats=rnd.sample(g.seats, len(g.seats)))
                  for g in rnd.sample(t.games, len(t.games))],
        players=rnd.sample(t.players, len(t.players)))
    assert _comparable(_standings(shuffled)) == before


@SETTINGS
@given(tournaments)
def test_explanations_add_up_to_the_row_and_total_is_main_plus_extra(t: Tournament) -> None:
    p = get_profile(t.rules)
    s = _standings(t)
    for row in s.rows[:6]:
        games = explain_player(t, p, row.player)
        main = sum((x.points for g in games for x in g.parts if x.kind in MAIN_KINDS), start=0)
        extra = sum((x.points for g in games for x in g.parts if x.kind not in MAIN_KINDS),
                    start=0)
        assert (main, extra) == (row.main, row.extra)
        assert row.total == main + extra
        assert len(games) == row.games
    out = _json(s)["standings"]
    assert isinstance(out, list)
    for r in out:
        assert abs(Decimal(str(r["total"])) - Decimal(str(r["main"])) - Decimal(str(r["extra"]))) \
            <= Decimal("0.01")


@SETTINGS
@given(tournaments)
def test_ci_between_0_and_0_4_per_game(t: Tournament) -> None:
    p = get_profile(t.rules)
    for row in _standings(t).rows:
        if not row.compensation:
            continue
        for g in explain_player(t, p, row.player):
            for part in g.parts:
                if part.kind == "compensation":
                    assert 0 < part.points <= 40
                    assert isinstance(part.points, Fraction | int)


@SETTINGS
@given(tournaments)
def test_a_place_is_shared_only_when_every_criterion_is_equal(t: Tournament) -> None:
    rows = _standings(t).rows

    def key(r: object) -> tuple[object, ...]:
        return (r.total, r.extra, r.wins, r.wins_don_sheriff, r.first_killed)  # type: ignore[attr-defined]

    for a, b in zip(rows, rows[1:], strict=False):
        if a.place == b.place:
            assert key(a) == key(b) and a.lot_needed and b.lot_needed
        else:
            assert key(a) > key(b) or (key(a) == key(b) and t.lots)
    for i, r in enumerate(rows):
        assert r.place <= i + 1


@SETTINGS
@given(tournaments, st.text(min_size=1, max_size=8))
def test_a_recorded_lot_leaves_no_one_needing_a_lot(t: Tournament, seed: str) -> None:
    from mafiatab.domain.lots import draw_lots, record_draws

    s = _standings(t)
    draws = draw_lots(s.rows, seed)
    record_draws(t, draws)
    after = _standings(t)
    assert not any(r.lot_needed for r in after.rows)
    assert sorted(r.place for r in after.rows) == list(range(1, len(after.rows) + 1))
    # a lot changes nothing else
    assert {r.player: r.total for r in after.rows} == {r.player: r.total for r in s.rows}


@SETTINGS
@given(tournaments)
def test_reading_and_writing_a_file_loses_nothing(t: Tournament) -> None:
    text = dumps_tournament(t)
    again, problems = read_tournament(text.encode())
    assert not [x for x in problems if not x.warning]
    assert again == t
    assert dumps_tournament(again) == text


@SETTINGS
@given(tournaments)
def test_careful_reader_agrees_with_fast_reader(t: Tournament) -> None:
    data = dumps_tournament(t).encode()
    fast, _ = read_tournament(data)
    careful, problems = tournament_from_dict(json.loads(data, parse_float=Decimal))
    assert problems == []
    assert careful == fast


@SETTINGS
@given(tournaments, st.data())
def test_scope_sums_to_the_whole(t: Tournament, data: st.DataObject) -> None:
    """Points of a player over all stages equal the sum over each stage alone."""
    whole = {r.player: r for r in _standings(t).rows}
    parts: dict[str, list[object]] = {}
    for stage in t.stages:
        for r in _standings(t, [stage.id]).rows:
            parts.setdefault(r.player, []).append(r)
    for pid, row in whole.items():
        assert sum((r.total for r in parts[pid]), start=0) == row.total  # type: ignore[attr-defined]
        assert sum(r.games for r in parts[pid]) == row.games  # type: ignore[attr-defined]


def test_free_form_numbers_are_equal_on_both_read_paths() -> None:
    t = sample_tournament("fsm", 10, 1, seed=5)
    data = json.loads(dumps_tournament(t))
    data["games"][0]["log"] = [{"kind": "shot", "night": 1, "at": 12.5}]
    data["games"][0]["note"] = {"x": 0.1}
    data["sponsor"] = [1.5, {"y": 2.25}]
    raw = json.dumps(data).encode()
    fast, _ = read_tournament(raw)  # unknown fields: the careful path
    data_known = dict(data)
    del data_known["sponsor"]
    data_known["games"] = [dict(g) for g in data["games"]]
    del data_known["games"][0]["note"]
    fast_known, _ = read_tournament(json.dumps(data_known).encode())  # the fast path
    assert fast is not None and fast_known is not None
    assert fast.games[0].log == fast_known.games[0].log == [{"kind": "shot", "night": 1, "at": 12.5}]
    assert fast.other == {"sponsor": [1.5, {"y": 2.25}]}
    assert fast.games[0].other == {"note": {"x": 0.1}}


@pytest.mark.parametrize("rules", ["fsm", "fiim2018"])
def test_the_quick_look_at_a_plain_extra_agrees_with_the_full_check(rules: str) -> None:
    """validation's shortcut for the commonest seat (an extra alone) finds what the full
    check of the seat finds: every value of both scales and around them, on winners and
    losers, on a draw, on the first killed, with and without approval."""
    from mafiatab.domain import validation
    from mafiatab.domain.points import decimal_of
    from mafiatab.domain.protocol import Game, SeatScores
    from tests.helpers import game

    values = [-150, -120, -100, -60, -50, -40, -30, -20, 0, 10, 20, 25, 30, 40, 41, 50, 59, 60,
              70, 71, 80, 100, 120, 150, 200]
    p = get_profile(rules)
    players, stages = {f"p{i}" for i in range(1, 11)}, {"qual"}
    original = validation._GameChecker.plain_extra
    checked = 0
    for result in ("red", "black", "draw"):
        for approved in (False, True):
            for value in values:
                g = msgspec.convert(game(result=result, first_killed=4), type=Game)
                g.scores = {seat: SeatScores(extra=decimal_of(value), approved=approved)
                            for seat in (1, 4, 6)}  # a red, the first killed, the don
                quick = validation.validate_game(g, p, players, stages)
                try:
                    validation._GameChecker.plain_extra = (  # type: ignore[method-assign]
                        lambda self, seat, sc, roles: None)
                    full = validation.validate_game(g, p, players, stages)
                finally:
                    validation._GameChecker.plain_extra = original  # type: ignore[method-assign]
                assert [(x.code, x.seat) for x in quick] == [(x.code, x.seat) for x in full], (
                    result, approved, value)
                checked += 1
    assert checked == 3 * 2 * len(values)
