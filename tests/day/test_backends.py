"""The day's writes on both databases (SQLite and PostgreSQL at 127.0.0.1:5432, for
real): check-in, a replacement, a re-seating and teams, each in its one transaction."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from mafiatab.services.checkin import CheckinService
from mafiatab.services.facade import Services
from mafiatab.services.teams import TeamService
from mafiatab.storage.engine import make_engine, upgrade
from tests.day.conftest import ORGANIZER, PASSWORD, PINS, PLAYERS, Day, Seated
from tests.helpers import EXAMPLES
from tests.storage.conftest import db_url, pg_url, sqlite_url  # noqa: F401 - fixtures


@pytest.fixture
def backend(db_url: str, seating: Seated) -> Iterator[Day]:  # noqa: F811
    engine = make_engine(db_url)
    upgrade(engine)
    svc = Services(engine)
    svc.accounts.add_account(ORGANIZER, PASSWORD, actor=ORGANIZER)
    yield Day(db_url, svc, seating)  # type: ignore[arg-type]
    engine.dispose()


def test_check_in_replace_reseat_and_teams(backend: Day) -> None:
    tid = backend.tournament("Backends cup")
    svc = CheckinService(backend.svc.store)
    first = [g for g in backend.svc.games.overview(tid) if g.round == 1]
    seats = {g.table: [s.player for s in sorted(backend.svc.games.head(tid, g.code).game_struct().seats,
                                                key=lambda s: s.seat)] for g in first}
    absent = [seats[1][8] if seats[1][8] != "p01" else seats[1][7], seats[3][2]]
    for p in PLAYERS:
        if p.id not in absent:
            svc.set_present(tid, p.id, True, actor=ORGANIZER)
    svc.set_present(tid, PLAYERS[-1].id, True, actor=ORGANIZER)  # twice: still one row
    assert len(svc.presence(tid)) == len(PLAYERS) - 2
    plan = svc.next_round(tid, actor=ORGANIZER, pins=PINS)
    assert plan is not None and len(plan.no_shows) == 2
    ns = plan.no_shows[0]
    assert ns.suggested is not None
    svc.replace(tid, "qual", 1, ns.player, ns.suggested, actor=ORGANIZER, pins=PINS)
    result = svc.reseat(tid, "qual", 1, actor=ORGANIZER, pins=PINS)
    assert result.after.hard == 0 and result.after.max_meetings <= result.before.max_meetings
    after = svc.next_round(tid, actor=ORGANIZER, pins=PINS)
    assert after is not None and after.no_shows == [] and after.metrics.hard == 0
    # teams through an import, ranked from the stored games
    data = json.loads((EXAMPLES / "fsm-40-players-qual-semi.json").read_text())
    ids = [p["id"] for p in data["players"]]
    data["teams"] = [{"id": "n", "name": "Север", "members": ids[:20]},
                     {"id": "s", "name": "Юг", "members": ids[20:]}]
    tid2 = backend.svc.tournaments.import_file(json.dumps(data, ensure_ascii=False).encode(),
                                   actor=ORGANIZER)
    rows = TeamService(backend.svc.store, backend.svc.standings.compute).standings(tid2)
    assert sorted(r.team for r in rows) == ["n", "s"] and [r.place for r in rows] == [1, 2]
