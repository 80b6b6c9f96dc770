"""The day's writes on both databases (SQLite and PostgreSQL at 127.0.0.1:5432, for
real): check-in, a replacement, a re-seating and teams, each in its one transaction."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from mafiatab.services.checkin import CheckinService, DayRefused
from mafiatab.services.errors import PermissionDenied
from mafiatab.services.facade import Services
from mafiatab.services.seating_web import SeatingDesk, SeatingParams
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


# --- a draft round published for those present: one call, one transaction ---------------


def _draft_tournament(backend: Day, name: str) -> tuple[int, SeatingDesk]:
    """A tournament with the seating page's proposal done, none of its rounds entered."""
    from mafiatab.domain.protocol import Stage

    svc = backend.svc
    tid = svc.tournaments.create_tournament(name, "fsm", actor=ORGANIZER, stages=[
        Stage(id="qual", name="Отбор", kind="qualification")])
    svc.tournaments.register_players(tid, PLAYERS, actor=ORGANIZER)
    desk = SeatingDesk(svc)
    desk.start_runner()
    try:
        desk.start(tid, SeatingParams(stage="qual", games=6, tables=3, seed=3,
                                      pins=dict(PINS), time_limit=10, iterations=30_000),
                   actor=ORGANIZER)
        job = desk.wait(tid, 60, actor=ORGANIZER)
    finally:
        desk.stop_runner()
    assert job.state == "done"
    return tid, desk


def _first_round(desk: SeatingDesk, tid: int) -> list[str]:
    return [p.id for tb in desk.require_job(tid, actor=ORGANIZER).rounds()[0] for p in tb]


def _audit(backend: Day, tid: int) -> list[tuple[str, dict[str, object]]]:
    return [(a, d) for _at, _u, a, d in backend.svc.tournaments.audit_log(tid, actor=ORGANIZER)]


def test_a_draft_round_is_published_re_seated_for_those_present(backend: Day) -> None:
    tid, desk = _draft_tournament(backend, "Present cup")
    checkin = CheckinService(backend.svc.store)
    first = _first_round(desk, tid)
    late = {first[3], first[17]} - {"p01"}
    for p in PLAYERS:
        if p.id not in late:
            checkin.set_present(tid, p.id, True, actor=ORGANIZER)
    done = desk.publish_present(tid, 1, actor=ORGANIZER)
    assert done.round == 1 and len(done.games) == 3 and done.reseated is not None
    assert done.reseated.after.hard == 0
    seated = [s.player for g in backend.svc.games.overview(tid)
              for s in backend.svc.games.head(tid, g.code).game_struct().seats]
    assert len(seated) == 30 == len(set(seated)) and not late & set(seated)
    assert desk.require_job(tid, actor=ORGANIZER).published.keys() == {1}
    entries = [d for a, d in _audit(backend, tid) if a == "publish_present"]
    assert len(entries) == 1
    assert entries[0]["absent"] == sorted(late)
    assert entries[0]["before"] == done.reseated.before.as_json()
    assert entries[0]["after"] == done.reseated.after.as_json()
    plan = checkin.next_round(tid, actor=ORGANIZER)
    assert plan is not None and plan.round == 1 and plan.no_shows == []


def test_a_refused_re_seat_publishes_nothing(backend: Day) -> None:
    tid, desk = _draft_tournament(backend, "Empty hall cup")
    checkin = CheckinService(backend.svc.store)
    for p in PLAYERS[:5]:  # five present: not one table can be filled
        checkin.set_present(tid, p.id, True, actor=ORGANIZER)
    before = _audit(backend, tid)
    with pytest.raises(DayRefused) as e:
        desk.publish_present(tid, 1, actor=ORGANIZER)
    assert e.value.code == "too_few_present"
    assert backend.svc.games.overview(tid) == []  # the round is still a draft
    assert desk.require_job(tid, actor=ORGANIZER).published == {}
    assert _audit(backend, tid) == before


def test_publishing_for_those_present_is_staff_s_own(backend: Day) -> None:
    tid, desk = _draft_tournament(backend, "Guarded cup")
    svc = backend.svc
    svc.accounts.add_account("watcher", PASSWORD, actor=ORGANIZER)
    svc.access.grant(tid, "watcher", "viewer", actor=ORGANIZER)
    svc.accounts.add_account("other_org", PASSWORD, actor=ORGANIZER)
    other = svc.tournaments.create_tournament("Other cup", "fsm", actor="other_org")
    assert other != tid
    for who in ("watcher", "other_org"):
        with pytest.raises(PermissionDenied):
            desk.publish_present(tid, 1, actor=who)
    assert svc.games.overview(tid) == []
    assert desk.require_job(tid, actor=ORGANIZER).published == {}
