"""The set-up's stage form and the appeals page's schedule speak words: a
stage is given by its name and a kind chosen from a list (its id is made for it), the
schedule is a row per round («Отбор, тур 1», its day, its start) and the time zone a
list of places; what reaches the services is the same stage and the same schedule."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from zoneinfo import ZoneInfo

from fastapi.testclient import TestClient

from mafiatab.services.facade import Services
from mafiatab.services.tournaments import stage_code
from mafiatab.storage.engine import make_engine
from tests.web.conftest import World, csrf_of


def test_a_stage_is_a_name_and_a_kind_from_a_list(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    hj = client_for("headjudge")
    page = hj.get(f"/t/{tid}/setup").text
    assert re.search(r'<select name="kind"[^>]*>\s*<option value="qualification">отбор</option>'
                     r'<option value="semifinal">полуфинал</option>', page)
    assert "qualification|semifinal|final" not in page
    r = hj.post(f"/t/{tid}/setup/stages", data={"csrf": csrf_of(hj), "name": "Полуфинал А",
                                                "kind": "semifinal"}, follow_redirects=False)
    assert r.status_code == 303
    hj.post(f"/t/{tid}/setup/stages", data={"csrf": csrf_of(hj), "name": "Полуфинал Б",
                                            "kind": "semifinal"})
    stages = Services(make_engine(f"sqlite:///{world.db}")).tournaments.context(tid)[2]
    semis = [(st.id, st.name, st.kind) for st in stages if st.kind == "semifinal"]
    assert semis == [("semi", "Полуфинал А", "semifinal"), ("semi2", "Полуфинал Б", "semifinal")]
    listed = hj.get(f"/t/{tid}/setup").text
    assert "Полуфинал А — полуфинал" in listed and "(semi)" not in listed
    assert stage_code("final", {"final"}) == "final2"


def test_the_schedule_is_rows_of_rounds_and_reaches_the_service_the_same(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    hj = client_for("headjudge")
    page = hj.get(f"/t/{tid}/appeals").text
    assert "Отбор, тур 1" in page and "Финал, тур 1" in page
    assert not re.search(r">[^<]*\bqual \d", page)  # no "qual 1 1 2026-..." lines to read
    r = hj.post(f"/t/{tid}/appeals-schedule", data={
        "csrf": csrf_of(hj),
        "day|qual|1": "1", "starts|qual|1": "2026-03-07T10:00",
        "day|qual|2": "1", "starts|qual|2": "2026-03-07T12:00",
        "day|qual|3": "2", "starts|qual|3": "",  # no start: left out
        "new_stage": "final", "new_round": "1", "new_day": "2", "new_starts": "2026-03-08T15:30",
        "tables_closed_at": "2026-03-08T14:00"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    svc = Services(make_engine(f"sqlite:///{world.db}"))
    zone = svc.zones.zone(tid)
    got = svc.appeals.schedule(tid, actor="headjudge")
    rows = {(x.stage, x.round): (x.day, x.starts) for x in got.rounds}
    assert {k: rows[k] for k in (("qual", 1), ("qual", 2), ("final", 1))} == {
        ("qual", 1): (1, dt.datetime(2026, 3, 7, 10, tzinfo=zone)),
        ("qual", 2): (1, dt.datetime(2026, 3, 7, 12, tzinfo=zone)),
        ("final", 1): (2, dt.datetime(2026, 3, 8, 15, 30, tzinfo=zone))}
    assert got.tables_closed_at == dt.datetime(2026, 3, 8, 14, tzinfo=zone)
    shown = hj.get(f"/t/{tid}/appeals").text
    assert 'name="starts|final|1" type="datetime-local" value="2026-03-08T15:30"' in shown


def test_the_time_zone_is_a_place_in_the_readers_words(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    hj = client_for("headjudge")
    page = hj.get(f"/t/{tid}/appeals").text
    assert re.search(r'<option value="Europe/Moscow">Россия, Москва \(UTC\+3\)</option>', page)
    hj.post(f"/t/{tid}/time-zone", data={"csrf": csrf_of(hj), "time_zone": "Asia/Yekaterinburg"})
    svc = Services(make_engine(f"sqlite:///{world.db}"))
    assert svc.zones.zone(tid) == ZoneInfo("Asia/Yekaterinburg")
    assert '<option value="Asia/Yekaterinburg" selected>' in hj.get(f"/t/{tid}/appeals").text
    hj.post(f"/t/{tid}/time-zone", data={"csrf": csrf_of(hj), "time_zone": ""})
