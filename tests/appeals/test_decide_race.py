"""Two decisions of one case at the same moment, on PostgreSQL and on SQLite: on main the second one's
transaction met the first one's row of `appeal_decisions` (one decision per case) and the
server answered 500 (the data stayed right). Now it is refused as a conflict (409) that
names who decided first and keeps his decision.

The race is made, not hoped for: a third connection holds `appeal_decisions` locked while
the two head judges decide, and lets go only once both transactions are waiting for it
(a state read from `pg_stat_activity`, not a time). SQLite's writes take turns, so there
the second decision reads the first one's: the same 409 naming the winner, never the
core's "case closed" (422)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from mafiatab.domain.appeals import Filing, Kind, Outcome, Subject
from mafiatab.services.appeals import DecidedMeanwhile
from mafiatab.services.errors import ConflictError
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.storage.models import HEAD_JUDGE
from tests.appeals.conftest import HJ, ORG, PLAYER, Cup, make_cup
from tests.storage.conftest import pg_url  # noqa: F401 - the fixture

SECOND = "hj2"

#: backends waiting, directly or through another, on the connection `me`
WAITING = text("""
    SELECT count(*) FROM pg_stat_activity a
    WHERE :me = ANY(pg_blocking_pids(a.pid))
       OR EXISTS (SELECT 1 FROM pg_stat_activity b
                  WHERE :me = ANY(pg_blocking_pids(b.pid))
                    AND b.pid = ANY(pg_blocking_pids(a.pid)))""")


#: every backend's state, for a race that could not be set up
STATES = text("""
    SELECT pid, state, wait_event_type, wait_event, pg_blocking_pids(pid)::text,
           left(query, 80) FROM pg_stat_activity WHERE datname = current_database()""")


@pytest.fixture
def pg_cup(pg_url: str) -> Iterator[tuple[Cup, Engine]]:  # noqa: F811 - the fixture
    engine = make_engine(pg_url)
    upgrade(engine)
    cup = make_cup(engine)
    cup.svc.access.grant(cup.tid, SECOND, HEAD_JUDGE, actor=ORG)
    yield cup, engine
    engine.dispose()


def test_two_decisions_at_once_give_a_conflict_naming_the_first(
        pg_cup: tuple[Cup, Engine]) -> None:
    cup, engine = pg_cup
    svc = cup.svc
    soon = cup.published + timedelta(minutes=5)
    filing = Filing(kind=Kind.APPEAL, player="p3", game="g1", subject=Subject.POSITIVE_EXTRA,
                    awarded=Decimal("0"), claimed=Decimal("0.4"), text="my extra")
    case = svc.appeals.file(cup.tid, filing, actor=PLAYER, now=soon)
    outcomes: dict[str, object] = {}

    def decide(who: str) -> None:
        try:
            outcomes[who] = svc.appeals.decide(cup.tid, case.id, actor=who,
                                               outcome=Outcome.REJECTED, reason=f"by {who}",
                                               now=soon + timedelta(minutes=1))
        except Exception as e:  # what each got is compared below
            outcomes[who] = e

    with engine.connect() as hold:
        hold.execute(text("LOCK TABLE appeal_decisions IN SHARE ROW EXCLUSIVE MODE"))
        me = hold.execute(text("SELECT pg_backend_pid()")).scalar_one()
        threads = [threading.Thread(target=decide, args=(who,)) for who in (HJ, SECOND)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 300
        met = True
        with engine.connect() as look:
            while look.execute(WAITING, {"me": me}).scalar_one() < 2:
                assert all(t.is_alive() for t in threads), outcomes
                if time.monotonic() > deadline:  # the race could not be set up: say why
                    met = False
                    states = look.execute(STATES).all()
                    break
                time.sleep(0.05)
        hold.rollback()  # both wait on the lock: let them go at once
    if not met:
        for t in threads:
            t.join(120)
        # seen once in a full parallel run on a loaded machine; the state of every
        # backend is printed so that the next time says what held the second decision
        pytest.skip(f"the two decisions never both waited on the lock: {states}")
    for t in threads:
        t.join(120)
    lost = [who for who, got in outcomes.items() if isinstance(got, Exception)]
    assert len(lost) == 1, outcomes
    loser = lost[0]
    winner = SECOND if loser == HJ else HJ
    error = outcomes[loser]
    assert isinstance(error, ConflictError), repr(error)  # main: IntegrityError, a 500
    assert error.status == 409 and error.author == winner
    assert winner in error.message("ru") and winner in error.message("en")
    assert case.id in error.message("ru")
    decided = svc.appeals.case(cup.tid, case.id, actor=HJ)
    assert decided.case.decision is not None and decided.case.decision.by == winner


def _filed(cup: Cup) -> tuple[str, datetime]:
    soon = cup.published + timedelta(minutes=5)
    filing = Filing(kind=Kind.APPEAL, player="p3", game="g1", subject=Subject.POSITIVE_EXTRA,
                    awarded=Decimal("0"), claimed=Decimal("0.4"), text="my extra")
    return cup.svc.appeals.file(cup.tid, filing, actor=PLAYER, now=soon).id, soon


def test_two_decisions_at_once_on_sqlite_give_the_same_conflict(tmp_path: Path) -> None:
    engine = make_engine(str(tmp_path / "race.sqlite"))
    upgrade(engine)
    try:
        cup = make_cup(engine)
        svc = cup.svc
        svc.access.grant(cup.tid, SECOND, HEAD_JUDGE, actor=ORG)
        case, soon = _filed(cup)
        start = threading.Barrier(2)
        outcomes: dict[str, object] = {}

        def decide(who: str) -> None:
            start.wait(60)
            try:
                outcomes[who] = svc.appeals.decide(
                    cup.tid, case, actor=who, outcome=Outcome.REJECTED, reason=f"by {who}",
                    now=soon + timedelta(minutes=1))
            except Exception as e:  # what each got is compared below
                outcomes[who] = e

        threads = [threading.Thread(target=decide, args=(who,)) for who in (HJ, SECOND)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        lost = [who for who, got in outcomes.items() if isinstance(got, Exception)]
        assert len(outcomes) == 2 and len(lost) == 1, outcomes
        winner = SECOND if lost[0] == HJ else HJ
        error = outcomes[lost[0]]
        assert isinstance(error, DecidedMeanwhile), repr(error)  # was: Refused, 422
        assert error.status == 409 and error.author == winner
        assert winner in error.message("ru") and case in error.message("en")
        # a decision asked for later still meets the winner's, by name
        with pytest.raises(DecidedMeanwhile) as again:
            svc.appeals.decide(cup.tid, case, actor=lost[0], outcome=Outcome.REJECTED,
                               reason="again", now=soon + timedelta(minutes=2))
        assert again.value.author == winner
    finally:
        engine.dispose()
