"""A drawn lot is on the record (FIIM 8.8.5, FSM 8.7.6), on SQLite and
PostgreSQL: a drawing keeps its seed, each group's drawn order, who drew it and when, in
the audit log too; a redraw is a correction with its reason, recorded beside the drawing
it replaces (which stays on the record), repeatable from its seed; without a reason, or
by someone who may not, it is refused and changes nothing."""

from __future__ import annotations

import datetime as dt

import msgspec
import pytest

from mafiatab.domain.lots import redraw_lots
from mafiatab.formats.tournament_json import dumps_tournament
from mafiatab.sample import sample_tournament
from mafiatab.services.errors import PermissionDenied, ServiceError
from mafiatab.services.facade import Services
from mafiatab.storage.models import JUDGE

ORG = "org"


def tied_tournament(service: Services, name: str = "Lot cup") -> int:
    """Ten players after one game with nothing but its result: the two black players tie
    for place 2 and the seven red ones (the sheriff among them) for place 4."""
    sample = sample_tournament("fsm", 10, 1, seed=11)
    g = msgspec.structs.replace(sample.games[0], scores={}, best_move=[], first_killed=None,
                                fouls={}, days=[], log=None, day1_vote_left=0)
    t = msgspec.structs.replace(sample, name=name, games=[g], lots=[], lot_draws=[])
    return service.tournaments.import_file(dumps_tournament(t), actor=ORG)


def test_a_drawing_keeps_seed_order_who_and_when(service: Services) -> None:
    tid = tied_tournament(service)
    before = dt.datetime.now(dt.UTC)
    assert sum(r.lot_needed for r in service.standings.compute(tid).rows) == 9
    draws = service.standings.record_lot(tid, "Кубок-2026", actor=ORG)
    assert len(draws) == 2
    assert not any(r.lot_needed for r in service.standings.compute(tid).rows)
    [record] = service.standings.lots(tid, actor=ORG)
    assert (record.number, record.seed, record.by) == (1, "Кубок-2026", ORG)
    assert record.at is not None and before <= record.at <= dt.datetime.now(dt.UTC)
    assert [d.order for d in record.draws] == [d.order for d in draws]
    assert record.replaces is None and record.replaced_by is None
    audit = [e for e in service.tournaments.audit_log(tid, actor=ORG) if e[2] == "lots"]
    assert audit and audit[-1][1] == ORG and audit[-1][3]["seed"] == "Кубок-2026"
    assert audit[-1][3]["draws"] == [d.order for d in draws]


def test_a_redraw_is_a_correction_with_its_reason(service: Services) -> None:
    tid = tied_tournament(service)
    service.standings.record_lot(tid, "first", actor=ORG)
    # no reason: refused, nothing recorded
    with pytest.raises(ServiceError) as refused:
        service.standings.redraw_lot(tid, "second", actor=ORG, reason="  ")
    assert refused.value.code == "lot_reason_needed"
    assert len(service.standings.lots(tid, actor=ORG)) == 1
    # a table judge may not draw again
    service.access.grant_role(tid, "j", JUDGE, actor=ORG)
    with pytest.raises(PermissionDenied):
        service.standings.redraw_lot(tid, "second", actor="j", reason="ошибка")
    assert len(service.standings.lots(tid, actor=ORG)) == 1

    reason = "Объявлено зерно «second», а введено «first»"
    record = service.standings.redraw_lot(tid, "second", actor=ORG, reason=reason)
    assert (record.number, record.seed, record.reason, record.replaces) == (
        2, "second", reason, 1)
    first, second = service.standings.lots(tid, actor=ORG)
    assert first.replaced_by == 2 and first.seed == "first"  # kept on the record
    # the standings follow the redraw: the tied groups in its order
    rows = service.standings.compute(tid).rows
    order = [r.player for r in rows]
    for d in second.draws:
        assert [p for p in order if p in d.group] == d.order
    # the same seed gives the same order: anyone can repeat it
    assert [d.order for d in redraw_lots(rows, first.draws, "second")] == \
        [d.order for d in second.draws]
    assert [d.order for d in redraw_lots(rows, first.draws, "first")] == \
        [d.order for d in first.draws]
    audit = [e for e in service.tournaments.audit_log(tid, actor=ORG) if e[2] == "lot_redraw"]
    assert len(audit) == 1 and audit[0][1] == ORG
    assert audit[0][3]["reason"] == reason and audit[0][3]["replaces"] == 1
    assert audit[0][3]["before"] == [d.order for d in first.draws]
    # a replaced drawing is not drawn again
    with pytest.raises(ServiceError) as refused:
        service.standings.redraw_lot(tid, "third", actor=ORG, reason="ещё раз", number=1)
    assert refused.value.code == "no_such_lot"
