"""A decision does what it says (scoring.md section 9), through the stored service on
SQLite and PostgreSQL: an accepted appeal of a −0.4 penalty makes the revision without
it, the standings and the player's page follow, the case says «удовлетворена» with the
change in words; an accepted decision that changes nothing is refused and changes
nothing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from mafiatab.domain.appeals import (
    Change,
    Filing,
    Kind,
    Outcome,
    PenaltyEdit,
    Refused,
    SeatChange,
    Status,
    Subject,
)
from mafiatab.services.appeals import refusals_json
from mafiatab.services.checkin import CheckinService
from mafiatab.services.facade import Services
from mafiatab.services.my_page import MyPageService
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.storage.models import HEAD_JUDGE
from tests.appeals.conftest import HJ, ORG, PLAYER
from tests.helpers import dumps, game, tournament
from tests.storage.conftest import db_url, pg_url, sqlite_url  # noqa: F401  (fixtures)

PENALTY = {"kind": "game_action", "points": "-0.4", "rule": "8.5.2"}


@dataclass
class Table:
    svc: Services
    tid: int
    published: datetime


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:  # noqa: F811
    """An FSM tournament of two confirmed games; in g1 player p3 (seat 3, an account)
    has a −0.4 penalty for a game action and 2 fouls."""
    engine = make_engine(db_url)
    upgrade(engine)
    svc = Services(engine)
    games = [game("g1", rnd=1, scores={"3": {"penalties": [PENALTY]}}, fouls={"3": 2}),
             game("g2", rnd=2)]
    tid = svc.tournaments.import_file(dumps(tournament("fsm", games)), actor=ORG)
    svc.access.grant(tid, HJ, HEAD_JUDGE, actor=ORG)
    svc.appeals.link_player(tid, "p3", PLAYER, actor=ORG)
    svc.zones.set_zone(tid, "Europe/Moscow", actor=ORG)
    published = svc.appeals.game_times(tid, "g1").published
    assert published is not None
    yield Table(svc, tid, published)
    engine.dispose()


def _penalty_appeal() -> Filing:
    return Filing(kind=Kind.APPEAL, player="p3", game="g1", subject=Subject.PENALTY,
                  awarded=Decimal("-0.4"), claimed=Decimal("0"), text="no game action")


def _total(t: Table, player: str) -> Decimal:
    row = next(r for r in t.svc.standings.compute(t.tid).rows if r.player == player)
    return Decimal(row.total) / 100


def _my_page(t: Table) -> MyPageService:
    return MyPageService(t.svc, t.svc.appeals, CheckinService(t.svc.store))


REMOVE = Change(seats={3: SeatChange(penalties=[PenaltyEdit(index=0, kind="game_action",
                                                             remove=True)])})


def test_scoring_9_accepted_penalty_appeal_removes_the_penalty_everywhere(table: Table) -> None:
    svc, tid = table.svc, table.tid
    before = _total(table, "p3")
    case = svc.appeals.file(tid, _penalty_appeal(), actor=PLAYER,
                            now=table.published + timedelta(minutes=5))
    view, effect = svc.appeals.decide(tid, case.id, actor=HJ, outcome=Outcome.ACCEPTED,
                                      reason="no game action", change=REMOVE,
                                      now=table.published + timedelta(minutes=20))
    # the new confirmed revision carries it out
    assert view.case.status is Status.DECIDED and view.revision == 2
    confirmed = svc.games.confirmed(tid, "g1")
    assert confirmed is not None and confirmed.number == 2
    assert confirmed.game_struct().scores.get(3) is None or \
        confirmed.game_struct().scores[3].penalties == []
    assert confirmed.game_struct().fouls == {3: 2}  # the rest of the protocol stays
    # the standings follow
    assert _total(table, "p3") == before + Decimal("0.4")
    # the case says so, in words
    assert view.verdict() == "accepted"
    assert view.change_words("ru") == ["место 3: штраф −0,4 снят"]
    assert view.change_words("en") == ["seat 3: penalty −0.4 removed"]
    again = svc.appeals.case(tid, case.id, actor=PLAYER)
    assert again.change_words("ru") == ["место 3: штраф −0,4 снят"]
    # the player's page: the verdict, the change and his total
    page = _my_page(table).page(tid, actor=PLAYER)
    assert page.total == int((before + Decimal("0.4")) * 100)
    mine = [c for c in page.cases if c.view.id == case.id]
    assert mine and mine[0].view.verdict() == "accepted"
    assert mine[0].view.change_words("ru") == ["место 3: штраф −0,4 снят"]
    # the audit entry is the decision's, in the same transaction
    audit = [e for e in svc.tournaments.audit_log(tid, actor=ORG) if e[2] == "appeal_decide"]
    assert audit and audit[-1][3]["revision"] == 2
    assert audit[-1][3]["changes"] == ["seat 3: penalty −0.4 removed"]
    assert effect.game is not None


def test_scoring_9_accepted_decision_that_changes_nothing_is_refused(table: Table) -> None:
    svc, tid = table.svc, table.tid
    case = svc.appeals.file(tid, _penalty_appeal(), actor=PLAYER,
                            now=table.published + timedelta(minutes=5))
    audit_before = len(svc.tournaments.audit_log(tid, actor=ORG))
    revisions_before = len(svc.games.revisions(tid, "g1"))
    same = Change(seats={3: SeatChange(fouls=2, extra=None)})
    with pytest.raises(Refused) as refused:
        svc.appeals.decide(tid, case.id, actor=HJ, outcome=Outcome.ACCEPTED, reason="-",
                           change=same, now=table.published + timedelta(minutes=20))
    assert [r.code for r in refused.value.refusals if not r.warning] == ["accepted_changes_nothing"]
    assert "ничего не меняет" in refused.value.refusals[0].message("ru")
    with pytest.raises(Refused) as empty:
        svc.appeals.decide(tid, case.id, actor=HJ, outcome=Outcome.ACCEPTED, reason="-",
                           now=table.published + timedelta(minutes=20))
    assert [r.code for r in empty.value.refusals if not r.warning] == ["accepted_without_change"]
    # nothing was written: the case is open, no revision, no audit entry
    assert svc.appeals.case(tid, case.id, actor=HJ).case.status is Status.OPEN
    assert len(svc.games.revisions(tid, "g1")) == revisions_before
    assert len(svc.tournaments.audit_log(tid, actor=ORG)) == audit_before


def test_scoring_9_decision_changes_a_penalty_size_and_fouls(table: Table) -> None:
    svc, tid = table.svc, table.tid
    case = svc.appeals.file(tid, _penalty_appeal(), actor=PLAYER,
                            now=table.published + timedelta(minutes=5))
    change = Change(seats={3: SeatChange(fouls=1, penalties=[
        PenaltyEdit(index=0, kind="game_action", points=Decimal("-0.2"))])})
    view, _ = svc.appeals.decide(tid, case.id, actor=HJ, outcome=Outcome.ACCEPTED,
                                 reason="-", change=change,
                                 now=table.published + timedelta(minutes=20))
    g = svc.games.confirmed(tid, "g1").game_struct()  # type: ignore[union-attr]
    assert g.scores[3].penalties[0].points == Decimal("-0.2") and g.fouls == {3: 1}
    assert view.change_words("ru") == ["место 3: штраф −0,4 → −0,2", "место 3: фолы 2 → 1"]


def test_scoring_9_rejected_case_reads_rejected(table: Table) -> None:
    svc, tid = table.svc, table.tid
    case = svc.appeals.file(tid, _penalty_appeal(), actor=PLAYER,
                            now=table.published + timedelta(minutes=5))
    view, effect = svc.appeals.decide(tid, case.id, actor=HJ, outcome=Outcome.REJECTED,
                                      reason="the action was negative",
                                      now=table.published + timedelta(minutes=20))
    assert view.verdict() == "rejected" and view.revision is None and effect.changes == []


@pytest.fixture
def fiim_table(db_url: str) -> Iterator[Table]:  # noqa: F811
    """A FIIM tournament of one confirmed game, p3 an account, on Moscow's clock."""
    engine = make_engine(db_url)
    upgrade(engine)
    svc = Services(engine)
    tid = svc.tournaments.import_file(dumps(tournament("fiim2018", [game("g1", rnd=1)])),
                                      actor=ORG)
    svc.access.grant(tid, HJ, HEAD_JUDGE, actor=ORG)
    svc.appeals.link_player(tid, "p3", PLAYER, actor=ORG)
    svc.zones.set_zone(tid, "Europe/Moscow", actor=ORG)
    yield Table(svc, tid, datetime(2026, 3, 7, 15, 0, tzinfo=UTC))
    engine.dispose()


def test_fiim_8_9_1_protest_at_the_tenth_minute_is_filed_and_at_10_01_refused_in_the_zone(
        fiim_table: Table) -> None:
    svc, tid = fiim_table.svc, fiim_table.tid
    ended = fiim_table.published  # 15:00 UTC, 18:00 in Moscow
    svc.appeals.set_game_end(tid, "g1", ended, actor=HJ)
    protest = Filing(kind=Kind.PROTEST, player="p3", game="g1", text="the vote was miscounted")
    late = ended + timedelta(minutes=10, seconds=1)
    with pytest.raises(Refused) as refused:
        svc.appeals.file(tid, protest, actor=PLAYER, now=late)
    [message] = refusals_json(refused.value.refusals, "ru", svc.zones.zone(tid))
    assert message["code"] == "protest_too_late" and message["clause"] == "FIIM 8.9.1"
    assert "18:10" in message["message"] and "Москва, UTC+3" in message["message"]
    assert "15:10" not in message["message"]
    view = svc.appeals.file(tid, protest, actor=PLAYER, now=ended + timedelta(minutes=10))
    assert view.case.status is Status.OPEN and view.case.filed_at == ended + timedelta(minutes=10)
