"""How long re-seating a round for those present takes (services/checkin.py), against
handing one no-show's seat to a reserve (`replace`), in the same run and database.

    python bench/reseat.py [--tables 3 10 20] [--rounds 8]

Each size: a tournament of 10·T + 5 players (five sit out each round), every round
published as seating drafts (random tables), two no-shows in round 1. Prints the seconds
of one `replace` and of one `reseat`, their ratio, and the metrics before and after.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from mafiatab.domain.protocol import Player, Stage
from mafiatab.services.checkin import CheckinService
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine, upgrade

ACTOR = "bench"


def one(tables: int, rounds: int, folder: Path) -> None:
    engine = make_engine(str(folder / f"reseat-{tables}.sqlite"))
    upgrade(engine)
    svc = Services(engine)
    svc.accounts.add_account(ACTOR, "bench-password", actor=ACTOR)
    players = [Player(id=f"p{i:03d}", nickname=f"P{i}", club=None) for i in range(10 * tables + 5)]
    tid = svc.tournaments.create_tournament(f"bench {tables}", "fsm", actor=ACTOR,
                                stages=[Stage(id="qual", name="Q", kind="qualification")])
    svc.tournaments.register_players(tid, players, actor=ACTOR)
    rng = random.Random(tables)
    first: list[list[str]] = []
    for r in range(1, rounds + 1):
        ids = [p.id for p in players]
        rng.shuffle(ids)
        for t in range(tables):
            seats = ids[10 * t:10 * t + 10]
            if r == 1:
                first.append(seats)
            svc.games.enter_seating(tid, "qual", r, t + 1, seats, actor=ACTOR)
    checkin = CheckinService(svc.store)
    absent = {first[0][3], first[-1][6], first[0][8]}
    for p in players:
        if p.id not in absent:
            checkin.set_present(tid, p.id, True, actor=ACTOR)
    plan = checkin.next_round(tid, actor=ACTOR)
    assert plan is not None and plan.no_shows[0].suggested is not None
    ns = plan.no_shows[0]
    assert ns.suggested is not None
    started = time.perf_counter()
    checkin.replace(tid, "qual", 1, ns.player, ns.suggested, actor=ACTOR)
    replace_s = time.perf_counter() - started
    started = time.perf_counter()
    result = checkin.reseat(tid, "qual", 1, actor=ACTOR)
    reseat_s = time.perf_counter() - started
    print(f"T={tables:>2} N={len(players):>3} R={rounds}: replace {replace_s:.3f} s, "
          f"reseat {reseat_s:.3f} s (×{reseat_s / replace_s:.0f}); Σ m² "
          f"{result.before.sum_sq} → {result.after.sum_sq}, max m {result.before.max_meetings}"
          f" → {result.after.max_meetings}, S1 {result.before.seat_cells_off} → "
          f"{result.after.seat_cells_off}, S2 {result.before.seat_group_cells_off} → "
          f"{result.after.seat_group_cells_off}")
    engine.dispose()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, nargs="+", default=[3, 10, 20])
    ap.add_argument("--rounds", type=int, default=8)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for t in args.tables:
            one(t, args.rounds, Path(folder))


if __name__ == "__main__":
    main()
