"""The invariants' service helpers on SQLite and PostgreSQL: the head judge's view of the
record (`TournamentCheck.problems`), a replacement as a recorded step (who, when, why)
that the invariants then accept, and a withdrawn player in a later round."""

from __future__ import annotations

import pytest

from mafiatab.domain.problems import ProtocolRefused
from mafiatab.services.errors import PermissionDenied, ServiceError
from mafiatab.services.facade import Services
from mafiatab.services.protocols import SubmitRefused
from tests.invariants.world import (
    HEAD,
    J1,
    J2,
    ORG,
    SEATING,
    code_of,
    make_world,
    protocol,
)


def test_head_judges_view_names_the_wrong_table(service: Services) -> None:
    svc = service
    tid = make_world(svc)
    t1, t2 = code_of(1, 1, svc, tid), code_of(1, 2, svc, tid)
    typed = list(SEATING[1][1])
    typed[0] = "p11"
    with pytest.raises(SubmitRefused):
        svc.protocols.submit(tid, t1, actor=J1, base_revision=None,
                             game=protocol(svc, tid, t1, typed))
    svc.protocols.submit(tid, t2, actor=J2, base_revision=None, game=protocol(svc, tid, t2))
    svc.protocols.confirm(tid, t2, actor=HEAD)
    assert svc.invariants.problems(tid) == []  # nothing wrong is confirmed
    # the newest revisions: the draft kept at table 1 is its judge's unfinished typing, it
    # counts with the players seated there (it refuses nobody else's step)
    assert svc.invariants.problems(tid, confirmed=False) == []
    checked = svc.protocols.check(tid, t1, protocol(svc, tid, t1, typed), actor=J1)
    assert {(p.code, p.seat) for p in checked.errors} == {("not_seated_here", 1),
                                                          ("twice_in_round", 1)}


def test_fiim_7_3_removed_player_replaced_on_record(service: Services) -> None:
    svc = service
    tid = make_world(svc)
    r1, r2 = code_of(1, 1, svc, tid), code_of(2, 1, svc, tid)
    svc.protocols.submit(tid, r1, actor=J1, base_revision=None,
                         game=protocol(svc, tid, r1, removed=3))
    svc.protocols.confirm(tid, r1, actor=HEAD)
    # a replacement by the removed player himself is refused too
    with pytest.raises(ProtocolRefused):
        svc.replacements.replace(tid, code_of(2, 2, svc, tid), 5, "p03", reason="замена",
                                 actor=HEAD)
    # his seat replaced on record (who, when, why): the protocol goes through
    svc.replacements.replace(tid, r2, 3, "p21", reason="игрок 3 удалён с турнира", actor=J1)
    svc.protocols.submit(tid, r2, actor=J1, base_revision=None,
                         game=protocol(svc, tid, r2, players=[
                             "p21" if p == "p03" else p for p in SEATING[2][1]]))
    svc.protocols.confirm(tid, r2, actor=HEAD)
    assert svc.invariants.problems(tid) == []
    entry = next(d for _at, who, action, d in svc.tournaments.audit_log(tid, actor=ORG)
                 if action == "replace_player")
    assert entry == {"game": r2, "seat": 3, "before": "p03", "after": "p21",
                     "reason": "игрок 3 удалён с турнира"}


def test_replacement_is_a_recorded_step(service: Services) -> None:
    svc = service
    tid = make_world(svc)
    t1 = code_of(1, 1, svc, tid)
    # not another table's player of the round
    with pytest.raises(ProtocolRefused) as refused:
        svc.replacements.replace(tid, t1, 1, "p11", reason="заболел", actor=J1)
    assert [p.code for p in refused.value.errors] == ["twice_in_round"]
    # a reason is needed; the other table's judge may not
    with pytest.raises(ServiceError) as no_reason:
        svc.replacements.replace(tid, t1, 1, "p21", reason="  ", actor=J1)
    assert no_reason.value.code == "replacement_reason"
    with pytest.raises(PermissionDenied):
        svc.replacements.replace(tid, t1, 1, "p21", reason="заболел", actor=J2)
    before = len(svc.tournaments.audit_log(tid, actor=ORG))
    info = svc.replacements.replace(tid, t1, 1, "p21", reason="заболел", actor=J1)
    assert info.state == "draft" and info.game_struct().player_at(1) == "p21"
    assert len(svc.tournaments.audit_log(tid, actor=ORG)) == before + 1
    svc.protocols.submit(tid, t1, actor=J1, base_revision=info.number,
                         game=protocol(svc, tid, t1))
    svc.protocols.confirm(tid, t1, actor=HEAD)
    assert svc.invariants.problems(tid) == []


def test_withdrawn_player_refused_in_a_later_round(service: Services) -> None:
    svc = service
    tid = make_world(svc)
    r1, r2 = code_of(1, 1, svc, tid), code_of(2, 1, svc, tid)
    svc.protocols.submit(tid, r1, actor=J1, base_revision=None, game=protocol(svc, tid, r1))
    svc.roster.withdraw(tid, "p04", actor=ORG)
    with pytest.raises(SubmitRefused) as refused:
        svc.protocols.submit(tid, r2, actor=J1, base_revision=None,
                             game=protocol(svc, tid, r2))
    assert [(p.code, p.seat) for p in refused.value.errors] == [("withdrawn_plays", 4)]
    svc.protocols.confirm(tid, r1, actor=HEAD)  # his game before withdrawing stays


def test_removed_player_is_not_seated_again(service: Services) -> None:
    from mafiatab.services.seating_web import SeatingDesk, SeatingParams

    svc = service
    tid = make_world(svc)
    r1 = code_of(1, 1, svc, tid)
    svc.protocols.submit(tid, r1, actor=J1, base_revision=None,
                         game=protocol(svc, tid, r1, removed=3))
    assert svc.invariants.removed(tid) == {"p03"}
    players, _inputs = SeatingDesk(svc).build(tid, SeatingParams(stage="qual", games=20,
                                                                 tables=2), actor=ORG)
    assert "p03" not in {p.id for p in players} and len(players) == 21


def test_a_step_on_one_game_sees_what_the_whole_record_says(service: Services) -> None:
    """The check of one game reads only its round and the removals; it finds what the
    check of the whole record finds for that game (removal in round 1, double in round 2)."""
    from mafiatab.domain.invariants import CODES

    svc = service
    tid = make_world(svc)
    r1, r2, r2t2 = code_of(1, 1, svc, tid), code_of(2, 1, svc, tid), code_of(2, 2, svc, tid)
    svc.protocols.submit(tid, r1, actor=J1, base_revision=None,
                         game=protocol(svc, tid, r1, removed=3))
    players = list(SEATING[2][1])
    players[0] = "p11"
    game = protocol(svc, tid, r2, players)
    with pytest.raises(SubmitRefused) as refused:
        svc.protocols.submit(tid, r2, actor=J1, base_revision=None, game=game)
    step = sorted((p.code, p.seat) for p in refused.value.errors if p.code in CODES)
    assert step == [("not_seated_here", 1), ("removed_plays", 3), ("twice_in_round", 1)]
    whole = sorted((p.code, p.seat) for p in svc.invariants.of_game(tid, r2, actor=HEAD))
    assert whole == step
    assert svc.invariants.of_game(tid, r2t2, actor=HEAD) == []
