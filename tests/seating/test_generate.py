"""Seatings produced by the package, checked by the independent reference of reference.py."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiatab.seating.algebraic import GF, affine_seating, hadamard_seating
from mafiatab.seating.generate import generate, to_json
from mafiatab.seating.model import InfeasibleRequest, build_request, sum_sq_lower_bound
from tests.seating.reference import reference_metrics

ITER = 300_000


def check_bounds_and_balance(doc: dict, tables: int, rounds: int) -> dict:
    n, r = doc["players"], doc["games"]
    ref = reference_metrics(doc, tables)
    mu = 9 * r / (n - 1)
    assert ref["twice_in_round"] == 0
    assert set(ref["games"].values()) == {r}
    assert sum(ref["meet"].values()) == n * r * 9 // 2
    assert ref["max_meetings"] >= math.ceil(mu - 1e-9)
    assert ref["min_meetings"] <= math.floor(mu + 1e-9)
    assert ref["sum_sq"] >= sum_sq_lower_bound(n, r, tables, rounds)
    assert ref["seat_cells_off"] == 0
    assert ref["seat_group_cells_off"] == 0
    assert len(doc["rounds"]) == rounds
    for key in ("max_meetings", "pairs_at_max", "min_meetings", "pairs_never", "sum_sq"):
        assert doc["metrics"][key] == ref[key], key
    assert doc["metrics"]["seat_cells_off"] == ref["seat_cells_off"]
    assert doc["metrics"]["seat_group_cells_off"] == ref["seat_group_cells_off"]
    assert doc["metrics"]["table_cells_off"] == ref["table_cells_off"]
    assert doc["metrics"]["hard_violations"] == 0
    return ref


@pytest.mark.parametrize(
    ("players", "games", "tables"),
    [(10, 3, None), (20, 4, None), (20, 10, None), (25, 4, None), (30, 7, None), (36, 10, 3)],
)
def test_generated_seatings_are_balanced_and_within_bounds(
    players: int, games: int, tables: int | None
) -> None:
    req = build_request(players, games, tables, seed=1)
    doc = to_json(generate(req, iterations=ITER))
    assert doc["format"] == "mafiatab.seating/1"
    check_bounds_and_balance(doc, req.tables, req.rounds)


def test_byes_rounds_for_36_players() -> None:
    req = build_request(36, 10, 3)
    assert req.rounds == 12 and req.byes_per_round == 6


def test_same_seed_same_seating() -> None:
    req = build_request(30, 5, seed=7)
    a = to_json(generate(req, iterations=ITER))
    b = to_json(generate(req, iterations=ITER))
    assert a == b


def test_hadamard_meets_the_sum_of_squares_bound() -> None:
    rounds = hadamard_seating(10, np.random.default_rng(0))
    meet = dict.fromkeys(combinations(range(20), 2), 0)
    for rnd in rounds:
        for table in rnd:
            assert len(table) == 10
            for a, b in combinations(sorted(table), 2):
                meet[a, b] += 1
    assert sum(v * v for v in meet.values()) == 4500
    assert max(meet.values()) == 6


@pytest.mark.parametrize("q", [11, 13, 16])
def test_affine_construction_never_pairs_twice(q: int) -> None:
    rounds = affine_seating(10 * q, q, np.random.default_rng(q))
    seen: set[tuple[int, int]] = set()
    for rnd in rounds:
        assert sorted(p for table in rnd for p in table) == list(range(10 * q))
        for table in rnd:
            for pair in combinations(sorted(table), 2):
                assert pair not in seen
                seen.add(pair)


def test_galois_field_16_is_a_field() -> None:
    f = GF(16)
    for a in range(1, 16):
        assert sum(1 for b in range(16) if f.mul[a, b] == 1) == 1


@st.composite
def constrained(draw: st.DrawFn) -> dict:
    tables = draw(st.integers(1, 3))
    players = draw(st.integers(10 * tables, 10 * tables + 8))
    games = draw(st.integers(1, 5))
    n_clubs = draw(st.integers(0, 3))
    clubs = {
        p: f"c{draw(st.integers(0, 5))}"
        for p in draw(st.lists(st.integers(0, players - 1), max_size=n_clubs * 3, unique=True))
    }
    pins = {
        p: draw(st.integers(0, tables - 1))
        for p in draw(st.lists(st.integers(0, players - 1), max_size=3, unique=True))
    }
    avail_players = draw(st.lists(st.integers(0, players - 1), max_size=3, unique=True))
    return {
        "players": players,
        "games": games,
        "tables": tables,
        "clubs": clubs,
        "pins": pins,
        "avail_players": avail_players,
        "avail_seed": draw(st.integers(0, 1000)),
        "seed": draw(st.integers(0, 100)),
    }


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(constrained())
def test_hard_constraints_are_never_broken(case: dict) -> None:
    n, r, t = case["players"], case["games"], case["tables"]
    try:
        base = build_request(n, r, t)
    except InfeasibleRequest:
        return
    rng = np.random.default_rng(case["avail_seed"])
    avail = {
        p: frozenset(int(x) for x in rng.choice(base.rounds, size=rng.integers(1, base.rounds + 1),
                                                 replace=False))
        for p in case["avail_players"]
    }
    try:
        req = build_request(
            n, r, t, seed=case["seed"], clubs=case["clubs"], pins=case["pins"], availability=avail
        )
        res = generate(req, iterations=ITER)
    except InfeasibleRequest as exc:
        assert exc.reason_en and exc.reason_ru
        return
    doc = to_json(res)
    ref = check_bounds_and_balance(doc, req.tables, req.rounds)
    assert ref["games"] == dict.fromkeys(range(1, n + 1), r)
    for i, rnd in enumerate(res.seating.rounds):
        for tb, table in enumerate(rnd):
            names = [case["clubs"][p] for p in table if p in case["clubs"]]
            assert len(names) == len(set(names)), "club-mates at one table"
            for p in table:
                assert case["pins"].get(p, tb) == tb, "pinned player elsewhere"
                assert p not in avail or i in avail[p], "player seated in a round he cannot come"


def test_pins_are_kept_when_a_construction_seeds_the_search() -> None:
    """20 players use the Hadamard construction; a pin renumbers its tables, it is not
    refused (a regression: the search never moves a pinned player, so a start that broke
    the pin could not be repaired and the request was refused as impossible)."""
    for pins in ({2: 0}, {2: 1, 7: 0}):
        result = generate(build_request(20, 4, pins=pins), time_limit=10, iterations=200_000)
        assert result.metrics.hard_violations == 0
        for rnd in result.seating.rounds:
            for player, table in pins.items():
                assert player in rnd[table]
