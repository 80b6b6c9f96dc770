"""The check-in desk never seats a player removed from the tournament (FIIM 7.3; FSM
8.1.1): a no-show's seat is refused to him with the rule in words, and a round seated
again for those present leaves him out — on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from mafiatab.services.checkin import CheckinService, DayRefused
from mafiatab.services.facade import Services
from tests.invariants.world import HEAD, J1, J2, PLAYERS, code_of, make_world, protocol


def _removed_in_round_1(svc: Services) -> tuple[int, CheckinService]:
    """p03 removed from the tournament in round 1 (table 1, seat 3); everyone came."""
    tid = make_world(svc)
    r1 = code_of(1, 1, svc, tid)
    svc.protocols.submit(tid, r1, actor=J1, base_revision=None,
                         game=protocol(svc, tid, r1, removed=3))
    svc.protocols.confirm(tid, r1, actor=HEAD)
    other = code_of(1, 2, svc, tid)
    svc.protocols.submit(tid, other, actor=J2, base_revision=None,
                         game=protocol(svc, tid, other))
    svc.protocols.confirm(tid, other, actor=HEAD)
    desk = CheckinService(svc.store)
    for p in PLAYERS:
        desk.set_present(tid, p.id, True, actor=HEAD)
    return tid, desk


def _round_2(svc: Services, tid: int) -> set[str]:
    return {s.player for table in (1, 2)
            for s in svc.games.head(tid, code_of(2, table, svc, tid)).game_struct().seats}


def test_fiim_7_3_removed_player_is_refused_a_no_shows_seat(service: Services) -> None:
    svc = service
    tid, desk = _removed_in_round_1(svc)
    # his own seat in round 2 goes to a reserve, then p05 does not come
    desk.set_present(tid, "p03", False, actor=HEAD)
    desk.replace(tid, "qual", 2, "p03", "p21", actor=HEAD)
    desk.set_present(tid, "p03", True, actor=HEAD)
    desk.set_present(tid, "p05", False, actor=HEAD)
    before = _round_2(svc, tid)
    with pytest.raises(DayRefused) as refused:
        desk.replace(tid, "qual", 2, "p05", "p03", actor=HEAD)
    assert refused.value.code == "removed"
    assert refused.value.message("ru") == (
        "игрок Игрок 3 снят с турнира (ФИИМ 7.3) — сажать его за стол нельзя")
    assert refused.value.message("en") == (
        "player Игрок 3 is removed from the tournament (FIIM 7.3): he may not be seated")
    assert _round_2(svc, tid) == before  # nothing moved
    # a reserve who may play takes the seat
    desk.replace(tid, "qual", 2, "p05", "p22", actor=HEAD)
    assert "p22" in _round_2(svc, tid) and "p03" not in _round_2(svc, tid)


def test_fiim_7_3_round_seated_again_leaves_the_removed_player_out(
        service: Services) -> None:
    svc = service
    tid, desk = _removed_in_round_1(svc)
    assert "p03" in _round_2(svc, tid)  # the seating was made before his removal
    plan = desk.next_round(tid, actor=HEAD)
    assert plan is not None and plan.round == 2
    assert "p03" in {n.player for n in plan.no_shows} and "p03" not in plan.reserves
    desk.reseat(tid, "qual", 2, actor=HEAD)
    seated = _round_2(svc, tid)
    assert "p03" not in seated and len(seated) == 20
    assert svc.invariants.problems(tid, confirmed=False) == []
