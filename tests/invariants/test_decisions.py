"""A decision on an appeal or a protest meets the tournament's invariants as any other
write of a protocol does, on SQLite and PostgreSQL: an accepted decision that would break
one (a removal from the tournament, FIIM 7.3, of a player who has played a later round;
a change to a protocol whose players are not the ones seated at its table) is refused
with the problems, and nothing is written."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest

from mafiatab.domain.appeals import Change, Filing, Kind, Outcome, SeatChange, Status
from mafiatab.domain.problems import ProtocolRefused
from mafiatab.domain.protocol import Penalty, SeatScores
from mafiatab.services.facade import Services
from tests.invariants.world import (
    HEAD,
    J1,
    ORG,
    SEATING,
    code_of,
    errors_of,
    make_world,
    protocol,
)

REMOVAL = Change(scores={3: SeatScores(penalties=[
    Penalty(kind="disqualification", critical=False, rule="7.3")])})


def _confirmed(svc: Services, tid: int, code: str, players: list[str] | None = None) -> None:
    svc.protocols.submit(tid, code, actor=J1, base_revision=None,
                         game=protocol(svc, tid, code, players))
    svc.protocols.confirm(tid, code, actor=HEAD)


def _protest(svc: Services, tid: int, code: str, player: str) -> str:
    published = svc.appeals.game_times(tid, code).published
    assert published is not None
    filing = Filing(kind=Kind.PROTEST, player=player, game=code, text="пересмотреть")
    return svc.appeals.file(tid, filing, actor=HEAD, now=published + timedelta(minutes=1)).id


def _written(svc: Services, tid: int, code: str) -> tuple[int, int]:
    return (len(svc.games.revisions(tid, code)), len(svc.tournaments.audit_log(tid, actor=ORG)))


def test_fiim_7_3_decision_removing_a_player_who_played_on_is_refused(
        service: Services) -> None:
    svc = service
    tid = make_world(svc)
    r1, r2 = code_of(1, 1, svc, tid), code_of(2, 1, svc, tid)
    _confirmed(svc, tid, r1)
    _confirmed(svc, tid, r2)  # p03 played round 2 at table 1
    case = _protest(svc, tid, r1, "p03")
    before = _written(svc, tid, r1)
    now = svc.appeals.game_times(tid, r1).published
    assert now is not None
    with pytest.raises(ProtocolRefused) as refused:
        svc.appeals.decide(tid, case, actor=HEAD, outcome=Outcome.ACCEPTED,
                           reason="оскорбление судьи", change=REMOVAL,
                           now=now + timedelta(minutes=5))
    assert ("removed_plays", r2, 3) in errors_of(refused.value)
    # nothing was written: the case is open, no revision, no audit entry
    assert svc.appeals.case(tid, case, actor=HEAD).case.status is Status.OPEN
    assert _written(svc, tid, r1) == before
    assert svc.invariants.problems(tid) == []


def test_decision_on_a_protocol_whose_player_sat_elsewhere_is_refused(
        service: Services) -> None:
    svc = service
    tid = make_world(svc)
    r1 = code_of(1, 1, svc, tid)
    _confirmed(svc, tid, r1)
    # the seat's player as the seating had him is changed under the confirmed protocol
    # (seat 1 now holds p11, who sits at table 2 in round 1)
    from sqlalchemy import select

    from mafiatab.services.tournaments import encode_game
    from mafiatab.storage import models as db

    typed = list(SEATING[1][1])
    typed[0] = "p11"
    wrong = protocol(svc, tid, r1, typed)
    with svc.store.write() as s:
        row = s.scalar(select(db.Game).where(db.Game.tournament_id == tid, db.Game.code == r1))
        assert row is not None
        rev = s.scalar(select(db.ProtocolRevision).where(
            db.ProtocolRevision.game_id == row.id,
            db.ProtocolRevision.number == row.confirmed_revision))
        assert rev is not None
        rev.protocol = encode_game(wrong)
    case = _protest(svc, tid, r1, "p02")
    before = _written(svc, tid, r1)
    now = svc.appeals.game_times(tid, r1).published
    assert now is not None
    with pytest.raises(ProtocolRefused) as refused:
        svc.appeals.decide(tid, case, actor=HEAD, outcome=Outcome.ACCEPTED, reason="доп",
                           change=Change(seats={2: SeatChange(extra=Decimal("0.3"))}),
                           now=now + timedelta(minutes=5))
    assert ("not_seated_here", r1, 1) in errors_of(refused.value)
    assert svc.appeals.case(tid, case, actor=HEAD).case.status is Status.OPEN
    assert _written(svc, tid, r1) == before


def test_decision_that_keeps_the_invariants_is_written(service: Services) -> None:
    svc = service
    tid = make_world(svc)
    r1, r2 = code_of(1, 1, svc, tid), code_of(2, 1, svc, tid)
    _confirmed(svc, tid, r1)
    _confirmed(svc, tid, r2)
    case = _protest(svc, tid, r1, "p02")
    now = svc.appeals.game_times(tid, r1).published
    assert now is not None
    view, _ = svc.appeals.decide(tid, case, actor=HEAD, outcome=Outcome.ACCEPTED, reason="доп",
                                 change=Change(seats={2: SeatChange(extra=Decimal("0.3"))}),
                                 now=now + timedelta(minutes=5))
    assert view.case.status is Status.DECIDED and view.revision is not None
    assert svc.invariants.problems(tid) == []
