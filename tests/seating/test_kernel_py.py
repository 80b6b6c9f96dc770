"""The plain-Python kernel of the table-composition search (seating/_kernel_py.py) makes
the very same moves as the numba kernel: same seed and moves, same seating, with byes,
clubs and pins. That is what lets bench/seating.py measure it with numba's speed."""

from __future__ import annotations

import pytest

from mafiatab.seating import optimize
from mafiatab.seating._kernel_py import anneal as python_anneal
from mafiatab.seating.model import build_request

pytest.importorskip("numba", reason="the numba kernel is the reference (mafiatab[seating])")


@pytest.mark.parametrize(("players", "games", "tables", "clubs", "pins"), [
    (20, 10, None, {}, {}),
    (36, 10, 3, {0: "A", 1: "A", 5: "B", 6: "B"}, {7: 2}),
])
def test_the_python_kernel_seats_as_the_numba_kernel(
        monkeypatch: pytest.MonkeyPatch, players: int, games: int, tables: int | None,
        clubs: dict[int, str], pins: dict[int, int]) -> None:
    from mafiatab.seating._kernel import anneal as numba_anneal

    request = build_request(players, games, tables, seed=3, clubs=clubs, pins=pins)
    seated = []
    for kernel in (numba_anneal, python_anneal):
        monkeypatch.setattr(optimize, "anneal", kernel)
        seated.append(optimize.compose(request, iterations=20_000, time_limit=1e9,
                                       runs=1).tables)
    assert seated[0] == seated[1]
    meet = optimize.meeting_matrix(request, seated[1])
    assert int(meet.sum()) == players * games * 9  # every player plays all his games
