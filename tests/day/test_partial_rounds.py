"""No-shows in a round some of whose tables have started: the started tables keep their
seating and their players; the others
take a reserve or are re-seated among themselves, every rule kept (clubs apart, the pin),
audited, and their blank protocols follow. A hypothesis property over which tables have
started and who stayed away."""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiatab.services.checkin import CheckinService, DayRefused
from tests.day.conftest import HEAD, ORGANIZER, PINS, PLAYERS, Day, csrf_of

CLUBS = {p.id: p.club for p in PLAYERS}
NAMES = {p.id: p.nickname for p in PLAYERS}


def printed(name: str, page: str) -> bool:
    """`name` on the page as a whole name («Игрок 3» is not in «Игрок 31»)."""
    return re.search(rf"{re.escape(name)}(?!\d)", page) is not None
COUNTER = iter(range(10**6))


def _rounds(day: Day, tid: int) -> dict[int, list[list[str]]]:
    out: dict[int, dict[int, list[str]]] = {}
    for g in day.svc.games.overview(tid):
        seats = sorted(day.svc.games.head(tid, g.code).game_struct().seats, key=lambda s: s.seat)
        out.setdefault(g.round, {})[g.table] = [s.player for s in seats]
    return {r: [t[k] for k in sorted(t)] for r, t in out.items()}


def _start(day: Day, tid: int, rnd: int, table: int) -> None:
    """The table's judge saves the protocol's first draft: its game has started."""
    game = next(g for g in day.svc.games.overview(tid) if g.round == rnd and g.table == table)
    g = day.svc.games.head(tid, game.code).game_struct()
    day.svc.protocols.save_draft(tid, game.code, g, actor=ORGANIZER, base_revision=game.revision)


def _present_all_but(svc: CheckinService, tid: int, absent: set[str]) -> None:
    for p in PLAYERS:
        if p.id not in absent:
            svc.set_present(tid, p.id, True, actor=ORGANIZER)


def test_started_tables_keep_theirs_the_others_take_reserves_or_are_reseated(
        day: Day, client_for: Callable[[str], TestClient], tmp_path: Path) -> None:
    tid = day.tournament("Partly started cup")
    svc = CheckinService(day.svc.store)
    before = _rounds(day, tid)
    _start(day, tid, 1, 1)
    playing = before[1][0][4]  # at the started table: he plays, ticked or not
    late = [before[1][1][3], before[1][2][6]]
    _present_all_but(svc, tid, {playing, *late})
    plan = svc.next_round(tid, actor=ORGANIZER, pins=PINS)
    assert plan is not None and plan.round == 1 and plan.started == [1]
    assert {n.player for n in plan.no_shows} == set(late)
    with pytest.raises(DayRefused) as e:
        svc.replace(tid, "qual", 1, playing, plan.reserves[0], actor=ORGANIZER)
    assert e.value.code == "table_started" and "стол" in e.value.message("ru")
    # one no-show takes a reserve, then the round is re-seated for the other
    first = next(n for n in plan.no_shows if n.player == late[0])
    assert first.suggested is not None
    svc.replace(tid, "qual", 1, late[0], first.suggested, actor=ORGANIZER)
    result = svc.reseat(tid, "qual", 1, actor=ORGANIZER, pins=PINS, seed=3, moves=5000)
    after = _rounds(day, tid)
    assert after[1][0] == before[1][0]  # the started table, seat by seat
    assert 1 not in result.changed_tables and result.dropped_tables == []
    seated = [p for t in after[1] for p in t]
    assert len(seated) == 30 == len(set(seated)) and not set(late) & set(seated)
    for t in after[1]:
        assert len({CLUBS[p] for p in t}) == 10
    assert "p01" in after[1][0]
    assert result.after.hard == 0
    assert all(after[r] == before[r] for r in before if r != 1)
    # both changes are in the audit, and the blank protocols print the new seating
    log = day.svc.tournaments.audit_log(tid, actor=ORGANIZER)
    entries = {action: detail for _at, _user, action, detail in log}
    assert entries["replace_no_show"]["absent"] == late[0]
    assert entries["reseat_round"]["changed_tables"] == result.changed_tables
    head = client_for(HEAD)
    r = head.get(f"/t/{tid}/export/blank.pdf?stage=qual&round=1")
    pdf = tmp_path / "blank.pdf"
    pdf.write_bytes(r.content)
    pages = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                           text=True, check=True).stdout.split("\f")
    for table in (2, 3):
        front = pages[2 * (table - 1)]
        assert all(printed(NAMES[p], front) for p in after[1][table - 1]), table
        assert not any(printed(NAMES[p], front) for p in late), table


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(rnd=st.integers(1, 6), started=st.sets(st.integers(1, 3), min_size=1, max_size=2),
       picks=st.lists(st.integers(0, 29), min_size=1, max_size=5, unique=True),
       seed=st.integers(0, 1000))
def test_any_no_shows_in_a_partly_started_round_keep_every_rule(
        day: Day, rnd: int, started: set[int], picks: list[int], seed: int) -> None:
    tid = day.tournament(f"Partly started property {next(COUNTER)}")
    svc = CheckinService(day.svc.store)
    for table in sorted(started):
        _start(day, tid, rnd, table)
    before = _rounds(day, tid)
    flat = [p for t in before[rnd] for p in t]
    absent = {flat[i] for i in picks}
    _present_all_but(svc, tid, absent)
    at_open = {p for i, t in enumerate(before[rnd]) if i + 1 not in started for p in t}
    try:
        result = svc.reseat(tid, "qual", rnd, actor=ORGANIZER, pins=PINS, seed=seed, moves=4000)
    except DayRefused as e:
        assert e.code in ("breaks_rule", "too_few_present")
        assert _rounds(day, tid) == before  # refused: nothing written
        return
    after = _rounds(day, tid)
    for table in started:
        assert after[rnd][table - 1] == before[rnd][table - 1]
        assert table not in result.changed_tables and table not in result.dropped_tables
    seated = [p for t in after[rnd] for p in t]
    assert len(seated) == len(set(seated)) and all(len(t) == 10 for t in after[rnd])
    assert not (absent & at_open) & set(seated)  # nobody absent at a re-seated table
    for t in after[rnd]:
        assert len({CLUBS[p] for p in t}) == 10
    assert all("p01" not in t for i, t in enumerate(after[rnd]) if i != PINS["p01"] - 1)
    assert all(after[r] == before[r] for r in before if r != rnd)
    assert result.after.hard == 0


def test_a_round_not_yet_published_is_published_for_those_present(
        day: Day, client_for: Callable[[str], TestClient]) -> None:
    """The seating page's proposal, its round 1 not entered yet: the desk sees its
    no-shows and publishes it for those present in one step (rules kept, audited)."""
    from mafiatab.domain.protocol import Stage

    tid = day.svc.tournaments.create_tournament(
        "Draft round cup", "fsm", actor=ORGANIZER,
        stages=[Stage(id="qual", name="Отбор", kind="qualification")])
    day.svc.tournaments.register_players(tid, PLAYERS, actor=ORGANIZER)
    day.svc.access.grant(tid, HEAD, "head_judge", actor=ORGANIZER)
    org = client_for(ORGANIZER)
    h = {"X-CSRF-Token": csrf_of(org)}
    r = org.post(f"/api/t/{tid}/seating/generate", headers=h, json={
        "games": 6, "tables": 3, "iterations": 50_000, "time_limit": 20,
        "pins": {"p01": 1}, "separate_clubs": True})
    assert r.status_code == 202, r.text
    deadline = time.monotonic() + 600  # only a search that never ends
    while (state := org.get(f"/api/t/{tid}/seating/status").json()["state"]) in (
            "waiting", "running"):
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert state == "done"
    proposal = org.get(f"/api/t/{tid}/seating").json()
    # its seats are the players' numbers in registration order (1-based)
    first = [PLAYERS[i - 1].id for table in proposal["rounds"][0]["tables"]
             for i in table["seats"]]
    late = {first[3], first[17]} - {"p01"}
    svc = CheckinService(day.svc.store)
    _present_all_but(svc, tid, late)
    page = org.get(f"/t/{tid}/checkin")
    assert 'id="draft-round"' in page.text and all(f'data-absent="{p}"' in page.text for p in late)
    done = org.post(f"/t/{tid}/checkin/publish", data={"round": "1", "csrf": csrf_of(org)},
                    follow_redirects=False)
    assert done.status_code == 303 and "message=" in done.headers["location"]
    after = _rounds(day, tid)
    seated = [p for t in after[1] for p in t]
    assert len(after[1]) == 3 and len(seated) == 30 == len(set(seated))
    assert not late & set(seated)
    for t in after[1]:
        assert len({CLUBS[p] for p in t}) == 10
    assert "p01" in after[1][0]
    actions = [a for _at, _u, a, _d in day.svc.tournaments.audit_log(tid, actor=ORGANIZER)]
    assert "reseat_round" in actions
    # the next round waits now as a published one
    plan = svc.next_round(tid, actor=ORGANIZER)
    assert plan is not None and plan.round == 1 and plan.no_shows == []
