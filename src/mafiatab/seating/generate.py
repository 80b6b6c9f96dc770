"""The whole pipeline: tables (construction or search), table numbers, then seats."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mafiatab.seating.algebraic import (
    affine_applies,
    affine_seating,
    hadamard_applies,
    hadamard_seating,
)
from mafiatab.seating.metrics import Metrics, compute_metrics
from mafiatab.seating.model import InfeasibleRequest, Seating, SeatingRequest, breaches_word
from mafiatab.seating.optimize import compose
from mafiatab.seating.seats import balance_seats, relabel_tables

Progress = Callable[[float, str], None]


@dataclass
class Result:
    seating: Seating
    metrics: Metrics
    method: str
    interrupted: bool


def generate(
    request: SeatingRequest,
    *,
    time_limit: float = 55.0,
    iterations: int | None = None,
    progress: Progress | None = None,
) -> Result:
    """A seating for the request. Constructions are used as they are when nothing constrains
    them (they are optimal for pairs); otherwise they seed the search, which repairs them."""
    rng = np.random.default_rng(request.seed)
    start = None
    method = "search"
    n, r, t = request.players, request.games, request.tables
    if affine_applies(n, r, t):
        start, method = affine_seating(n, r, rng), "affine"
    elif hadamard_applies(n, r, t):
        start, method = hadamard_seating(r, rng), "hadamard"
    if start is not None and request.pins:
        start = _honour_pins(request, start)
        if start is None:
            method = "search"
    interrupted = False
    if start is not None and not request.constrained:
        tables = start
        if progress is not None:
            progress(1.0, method)
    else:
        comp = compose(
            request, iterations=iterations, time_limit=time_limit, progress=progress, start=start
        )
        tables, interrupted = comp.tables, comp.interrupted
        if start is not None:
            method += "+search"
    tables = relabel_tables(request, tables)
    tables = balance_seats(request, tables)
    seating = Seating(players=n, games=r, rounds=tables)
    metrics = compute_metrics(request, seating)
    if metrics.hard_violations:
        # The checks of model.py are necessary conditions only; when the search cannot meet
        # the constraints we refuse rather than hand out a seating that breaks them.
        raise InfeasibleRequest("seating_constraints_unmet",
                                which=breaches_word(metrics.hard_by_rule))
    return Result(
        seating=seating,
        metrics=metrics,
        method=method,
        interrupted=interrupted,
    )


def _honour_pins(request: SeatingRequest,
                 start: list[list[list[int]]]) -> list[list[list[int]]] | None:
    """A construction's tables renumbered, round by round, so that pinned players sit at
    their tables (a table's number is only a label). The search never moves a pinned player,
    so a start that breaks a pin could not be repaired. None when the pins of some round
    cannot all be kept by renumbering (two pins at one table, or two tables wanting one
    number): then the search starts from scratch."""
    out: list[list[list[int]]] = []
    for rnd in start:
        wanted: dict[int, int] = {}  # table index -> number
        for t, table in enumerate(rnd):
            labels = {request.pins[p] for p in table if p in request.pins}
            if len(labels) > 1:
                return None
            if labels:
                wanted[t] = labels.pop()
        if len(set(wanted.values())) != len(wanted):
            return None
        free = iter(sorted(set(range(len(rnd))) - set(wanted.values())))
        new: list[list[int]] = [[] for _ in rnd]
        for t, table in enumerate(rnd):
            new[wanted[t] if t in wanted else next(free)] = list(table)
        out.append(new)
    return out


def to_json(result: Result) -> dict[str, object]:
    """The mafiatab.seating/1 document (players 1-based, seats[k] is seat k + 1)."""
    s = result.seating
    return {
        "format": "mafiatab.seating/1",
        "players": s.players,
        "games": s.games,
        "rounds": [
            {
                "round": i + 1,
                "tables": [
                    {"table": t + 1, "seats": [p + 1 for p in table]}
                    for t, table in enumerate(rnd)
                ],
            }
            for i, rnd in enumerate(s.rounds)
        ],
        "metrics": result.metrics.as_json(),
    }
