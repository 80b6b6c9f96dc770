"""The per-instance objective, the exact lexicographic cost and the exact table numbering."""

from __future__ import annotations

import numpy as np
import pytest

from mafiatab.seating.generate import generate, to_json
from mafiatab.seating.model import build_request
from mafiatab.seating.optimize import (
    Objective,
    lex_key,
    lex_table,
    meeting_matrix,
    objective_for,
    random_start,
)
from mafiatab.seating.seats import _relabel_exact, relabel_tables
from tests.seating.reference import reference_metrics


@pytest.mark.parametrize(
    ("players", "games", "cap", "zero_first"),
    [(30, 10, 4, False), (40, 10, 4, False), (50, 10, 3, True), (60, 12, 3, True),
     (100, 12, 2, True), (200, 15, 1, True)],
)
def test_objective_follows_the_targets_of_seating_md(
    players: int, games: int, cap: int, zero_first: bool
) -> None:
    """30/10 counts its pairs at 5, 40/10 does not count its pairs at 4 (Σm² decides there)."""
    obj = objective_for(build_request(players, games))
    assert (obj.cap, obj.zero_first) == (cap, zero_first)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _lex_sign(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return (b > a) - (b < a)


@pytest.mark.parametrize(("players", "games", "zero_first"), [(30, 10, False), (50, 10, True)])
def test_one_move_changes_the_lexicographic_cost_with_the_sign_of_the_key(
    players: int, games: int, zero_first: bool
) -> None:
    """The weights of lex_table make a sum of f(m) order single moves exactly as lex_key does
    (a low cap puts many pairs above it, so the upper levels are exercised; levels more than
    four above the cap share a weight by design, and a random start stays below them)."""
    req = build_request(players, games, seed=3)
    rng = np.random.default_rng(5)
    mem, _ = random_start(req, rng)
    cap = int(meeting_matrix(req, mem.tolist()).max()) - 2
    obj = Objective(cap=cap, zero_first=zero_first, top=games)
    f, _ = lex_table(req, obj)
    iu = np.triu_indices(players, 1)
    changed = 0
    for _ in range(300):
        meet = meeting_matrix(req, mem.tolist())
        assert int(meet.max()) <= cap + 4
        before_cost, before_key = int(f[meet[iu]].sum()), lex_key(meet, obj)
        r = int(rng.integers(req.rounds))
        t1, t2 = (int(x) for x in rng.choice(req.tables, 2, replace=False))
        k1, k2 = (int(x) for x in rng.integers(10, size=2))
        mem[r, t1, k1], mem[r, t2, k2] = mem[r, t2, k2], mem[r, t1, k1]
        meet = meeting_matrix(req, mem.tolist())
        after_cost, after_key = int(f[meet[iu]].sum()), lex_key(meet, obj)
        assert _sign(after_cost - before_cost) == _lex_sign(before_key, after_key)
        changed += after_key[: len(after_key) - 3] != before_key[: len(before_key) - 3]
    assert changed > 0, "no move touched the levels above the cap"


def test_affine_seating_gets_balanced_table_numbers() -> None:
    """110/11: every player at every table number exactly once (T1 = 0), found exactly."""
    req = build_request(110, 11, seed=2)
    res = generate(req)
    assert res.method == "affine"
    doc = to_json(res)
    ref = reference_metrics(doc, req.tables)
    assert ref["table_cells_off"] == 0 == doc["metrics"]["table_cells_off"]
    assert ref["max_meetings"] == 1


def test_impossible_table_balance_is_refused_by_the_exact_model() -> None:
    """Two tables, two rounds that split players differently: a player of table A who meets
    players of both tables of round 2 cannot sit at both numbers once each; the exact model
    says so and the fallback still returns a numbering of the same tables."""
    req = build_request(20, 2, seed=0)
    tables = [[list(range(10)), list(range(10, 20))],
              [list(range(5, 15)), [*range(5), *range(15, 20)]]]
    assert _relabel_exact(req, tables, 2.0) is None
    out = relabel_tables(req, tables)
    for rnd_in, rnd_out in zip(tables, out, strict=True):
        assert sorted(map(sorted, rnd_in)) == sorted(map(sorted, rnd_out))


def test_table_numbering_keeps_pins() -> None:
    """Player 0 is pinned to table 2 (index 1); the exact model fixes that table's number."""
    req = build_request(30, 3, seed=0, pins={0: 1})
    rng = np.random.default_rng(0)
    mem, _ = random_start(req, rng)
    out = relabel_tables(req, mem.tolist())
    assert all(0 in rnd[1] for rnd in out)
    exact = _relabel_exact(req, mem.tolist(), 2.0)
    assert exact is None or all(0 in rnd[1] for rnd in exact)
