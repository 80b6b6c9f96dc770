"""Re-seating for any no-shows (hypothesis): whoever stays away from whichever round, the
new round keeps every rule (or, when the search finds no such seating, it is refused and
nothing is written) — nobody absent or twice seated, club-mates apart, the pinned
player at his table, full tables — and changes nothing outside that round."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiatab.services.checkin import CheckinService, DayRefused
from tests.day.conftest import ORGANIZER, PINS, PLAYERS, Day

CLUBS = {p.id: p.club for p in PLAYERS}
COUNTER = iter(range(10**6))


def _rounds(day: Day, tid: int) -> dict[int, list[list[str]]]:
    out: dict[int, dict[int, list[str]]] = {}
    for g in day.svc.games.overview(tid):
        seats = sorted(day.svc.games.head(tid, g.code).game_struct().seats, key=lambda s: s.seat)
        out.setdefault(g.round, {})[g.table] = [s.player for s in seats]
    return {r: [t[k] for k in sorted(t)] for r, t in out.items()}


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(rnd=st.integers(1, 7), picks=st.lists(st.integers(0, 29), min_size=1, max_size=5,
                                             unique=True), seed=st.integers(0, 1000))
def test_any_no_shows_reseated_keep_every_rule(day: Day, rnd: int, picks: list[int],
                                              seed: int) -> None:
    tid = day.tournament(f"Property cup {next(COUNTER)}")
    svc = CheckinService(day.svc.store)
    before = _rounds(day, tid)
    flat = [p for t in before[rnd] for p in t]
    absent = {flat[i] for i in picks}
    for p in PLAYERS:
        if p.id not in absent:
            svc.set_present(tid, p.id, True, actor=ORGANIZER)
    present = {p.id for p in PLAYERS} - absent
    try:
        result = svc.reseat(tid, "qual", rnd, actor=ORGANIZER, pins=PINS, seed=seed,
                            moves=5000)
    except DayRefused as e:
        # no rule-keeping seating found: refused, and nothing written
        assert e.code == "breaks_rule"
        assert _rounds(day, tid) == before
        return
    after = _rounds(day, tid)
    seated = [p for t in after[rnd] for p in t]
    assert not absent & set(seated) and len(seated) == len(set(seated))
    assert all(len(t) == 10 for t in after[rnd])
    # five sit out each round: up to five no-shows are all replaced, tables kept
    assert len(after[rnd]) == 3 and set(seated) <= present
    for t in after[rnd]:
        assert len({CLUBS[p] for p in t}) == 10
    assert all("p01" not in t for i, t in enumerate(after[rnd]) if i != PINS["p01"] - 1)
    assert all(after[r] == before[r] for r in before if r != rnd)
    assert result.after.hard == 0 and absent & set(flat) <= set(result.left)
