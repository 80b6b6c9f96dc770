"""The seating's rules inside the optimizer: every hard rule (clubs, teams, pairs kept apart,
a judge's conflict, pins) holds in every seating the generator hands out, the seats stay
perfectly balanced with them, and a rule that cannot be kept is refused in words that name
it. Checked by the independent reference of reference.py."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiatab.seating.generate import generate, to_json
from mafiatab.seating.model import (
    CLUB,
    TEAM,
    GroupRule,
    InfeasibleRequest,
    PairRule,
    build_request,
)
from tests.seating.test_generate import check_bounds_and_balance

ITER = 150_000


@st.composite
def ruled(draw: st.DrawFn) -> dict:
    tables = draw(st.integers(1, 3))
    players = draw(st.integers(10 * tables, 10 * tables + 6))
    games = draw(st.integers(1, 4))
    who = st.integers(0, players - 1)
    clubs = {p: f"c{draw(st.integers(0, 4))}"
             for p in draw(st.lists(who, max_size=8, unique=True))}
    teams = {p: f"t{draw(st.integers(0, 3))}"
             for p in draw(st.lists(who, max_size=8, unique=True))}
    pairs = [PairRule(a, b, draw(st.booleans()), draw(st.sampled_from([-4, -1, 2, 7])))
             for a, b in draw(st.lists(st.tuples(who, who), max_size=5)) if a != b]
    forbidden = {p: frozenset(draw(st.lists(st.integers(0, tables - 1), min_size=1,
                                            max_size=tables, unique=True)))
                 for p in draw(st.lists(who, max_size=3, unique=True))}
    pins = {p: draw(st.integers(0, tables - 1))
            for p in draw(st.lists(who, max_size=2, unique=True))}
    return {"players": players, "games": games, "tables": tables,
            "groups": (GroupRule(CLUB, clubs, draw(st.booleans()), 3),
                       GroupRule(TEAM, teams, draw(st.booleans()), 5)),
            "pairs": tuple(pairs), "forbidden": forbidden, "pins": pins,
            "seed": draw(st.integers(0, 50))}


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(ruled())
def test_every_hard_rule_holds_and_seats_stay_balanced(case: dict) -> None:
    n, r, t = case["players"], case["games"], case["tables"]
    try:
        req = build_request(n, r, t, seed=case["seed"], groups=case["groups"],
                            pairs=case["pairs"], forbidden=case["forbidden"],
                            pins=case["pins"])
        res = generate(req, iterations=ITER)
    except InfeasibleRequest as exc:
        assert exc.reason("ru") and exc.reason("en")
        return
    doc = to_json(res)
    check_bounds_and_balance(doc, req.tables, req.rounds)  # S1 = S2 = 0, bounds, R games
    apart: set[tuple[int, int]] = set()
    for g in case["groups"]:
        if g.hard:
            apart |= {(a, b) for a, b in combinations(sorted(g.members), 2)
                      if g.members[a] == g.members[b]}
    apart |= {(min(p.a, p.b), max(p.a, p.b)) for p in case["pairs"] if p.hard}
    for rnd in res.seating.rounds:
        for tb, table in enumerate(rnd):
            for a, b in combinations(sorted(table), 2):
                assert (a, b) not in apart, "a pair kept apart shares a table"
            for p in table:
                assert tb not in case["forbidden"].get(p, ()), "a player at a judge's table"
                assert case["pins"].get(p, tb) == tb, "a pinned player elsewhere"


def test_soft_rules_move_the_seating_without_breaking_its_targets() -> None:
    """Two players to be avoided meet less often, two welcomed more often, than the same
    seating without the rules; the seats stay perfect."""
    base = generate(build_request(30, 10, seed=3), iterations=400_000)
    ruled_ = generate(build_request(30, 10, seed=3, pairs=(
        PairRule(0, 1, False, 10), PairRule(2, 3, False, -10))), iterations=400_000)

    def met(seating: list[list[list[int]]], a: int, b: int) -> int:
        return sum(1 for rnd in seating for tb in rnd if a in tb and b in tb)

    assert met(ruled_.seating.rounds, 0, 1) < met(base.seating.rounds, 0, 1) or \
        met(ruled_.seating.rounds, 0, 1) == 0
    assert met(ruled_.seating.rounds, 2, 3) > met(base.seating.rounds, 2, 3)
    assert ruled_.metrics.seat_cells_off == 0 and ruled_.metrics.hard_violations == 0


def test_a_club_too_big_for_one_a_table_is_refused_naming_the_club_and_the_rule() -> None:
    clubs = {p: "Полночь" for p in range(8)}
    with pytest.raises(InfeasibleRequest) as e:
        build_request(36, 10, 3, groups=(GroupRule(CLUB, clubs, True),))
    ru = e.value.reason("ru")
    assert ru.startswith("8 игроков клуба «Полночь» × 10 игр не разместить по одному за стол")
    assert "12 туров × 3 стола дают только 36 мест" in ru
    assert e.value.as_dict("en")["problems"][0]["params"]["rule"] == "club"
    # the same club as a soft rule is seated
    req = build_request(36, 10, 3, groups=(GroupRule(CLUB, clubs, False, 5),))
    assert generate(req, iterations=ITER).metrics.hard_violations == 0


def test_a_judges_conflict_is_refused_when_no_table_is_left() -> None:
    with pytest.raises(InfeasibleRequest) as e:
        build_request(20, 2, forbidden={4: frozenset({0, 1})})
    assert "Игроку 5 нельзя ни за один стол" in e.value.reason("ru")
    with pytest.raises(InfeasibleRequest) as e:
        build_request(20, 2, pins={4: 1}, forbidden={4: frozenset({1})})
    assert "судья этого стола заявил конфликт" in e.value.reason("ru")


def test_two_pinned_players_kept_apart_are_refused() -> None:
    with pytest.raises(InfeasibleRequest) as e:
        build_request(20, 2, pins={0: 1, 1: 1}, pairs=(PairRule(0, 1, True),))
    assert "правило «развести пару игроков»" in e.value.reason("ru")


def test_breaches_are_counted_per_rule() -> None:
    from mafiatab.seating.metrics import compute_metrics
    from mafiatab.seating.model import Seating

    req = build_request(20, 1, groups=(GroupRule(TEAM, {0: "A", 1: "A"}, True),),
                        pairs=(PairRule(2, 3, True),), forbidden={4: frozenset({0})})
    rounds = [[list(range(10)), list(range(10, 20))]]
    m = compute_metrics(req, Seating(20, 1, rounds))
    assert m.hard_by_rule == {"conflict": 1, "pair": 1, "team": 1}
    assert m.hard_violations == 3
    assert np.sum([len(t) for t in rounds[0]]) == 20
