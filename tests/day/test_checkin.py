"""Check-in and no-shows, through the service and the pages.

The seating is the real generator's (clubs apart, p01 pinned to table 1), stored as every
round's seating drafts; the metrics are recomputed here from the stored seating with
`stage_metrics` (seating.md's definitions) and compared before and after each change.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mafiatab.services.checkin import CheckinService, DayRefused, stage_metrics
from mafiatab.services.errors import PermissionDenied
from tests.day.conftest import HEAD, ORGANIZER, PINS, PLAYERS, Day, code_client, csrf_of

CLUBS = {p.id: p.club for p in PLAYERS}
NAMES = {p.id: p.nickname for p in PLAYERS}


def _rounds(day: Day, tid: int) -> dict[int, list[list[str]]]:
    """The stored seating: round -> tables -> player ids by seat (each game's newest
    revision, read through the public service API)."""
    out: dict[int, dict[int, list[str]]] = {}
    for g in day.svc.games.overview(tid):
        seats = sorted(day.svc.games.head(tid, g.code).game_struct().seats, key=lambda s: s.seat)
        out.setdefault(g.round, {})[g.table] = [s.player for s in seats]
    return {r: [tables[t] for t in sorted(tables)] for r, tables in out.items()}


def _check_in_all_but(svc: CheckinService, tid: int, absent: set[str]) -> None:
    for p in PLAYERS:
        if p.id not in absent:
            svc.set_present(tid, p.id, True, actor=ORGANIZER)


def _metrics(rounds: dict[int, list[list[str]]], rnd: int, absent: frozenset[str]) -> object:
    order = sorted(rounds)
    return stage_metrics([rounds[r] for r in order], CLUBS, True, PINS, absent,
                         order.index(rnd))


def test_reseat_after_two_no_shows_keeps_metrics_and_rules(day: Day) -> None:
    tid = day.tournament("Reseat cup")
    svc = CheckinService(day.svc.store)
    before = _rounds(day, tid)
    # two players of round 1, neither the pinned one, do not come
    absent = {p for p in before[1][1][3:5]} | {before[1][2][6]}
    absent = set(sorted(absent)[:2])
    _check_in_all_but(svc, tid, absent)
    plan = svc.next_round(tid, actor=ORGANIZER, pins=PINS)
    assert plan is not None and (plan.stage, plan.round) == ("qual", 1)
    assert {n.player for n in plan.no_shows} == absent
    assert plan.separate_clubs
    # the simplest fix as a baseline: each no-show's seat to the suggested reserve
    naive = {r: [list(t) for t in tables] for r, tables in before.items()}
    for n in plan.no_shows:
        assert n.suggested is not None
        naive[1][n.table - 1][n.seat - 1] = n.suggested
    baseline = stage_metrics([naive[r] for r in sorted(naive)], CLUBS, True, PINS,
                             frozenset(absent), 0)
    result = svc.reseat(tid, "qual", 1, actor=ORGANIZER, pins=PINS)
    after = _rounds(day, tid)
    seated = [p for t in after[1] for p in t]
    m_after = stage_metrics([after[r] for r in sorted(after)], CLUBS, True, PINS,
                            frozenset(absent), 0)
    m_before = stage_metrics([before[r] for r in sorted(before)], CLUBS, True, PINS,
                             frozenset(absent), 0)
    # the rules: nobody absent, nobody twice, clubs apart, the pin kept, tables full
    assert not absent & set(seated) and len(seated) == len(set(seated)) == 30
    assert all(len(t) == 10 for t in after[1])
    for t in after[1]:
        clubs = [CLUBS[p] for p in t]
        assert len(clubs) == len(set(clubs)), t
    # the pinned player plays at his table whenever he plays
    assert all("p01" not in tb for i, tb in enumerate(after[1]) if i != PINS["p01"] - 1)
    assert ("p01" in seated) == ("p01" in {p for t in before[1] for p in t})
    assert m_after.hard == 0 and m_before.absent_seated == 2
    # the metrics: none worse than handing each seat to the suggested reserve, and the
    # largest meeting count no higher than that or the published seating's
    assert m_after.sum_sq <= baseline.sum_sq and m_after.seat_cells_off <= baseline.seat_cells_off
    assert m_after.seat_group_cells_off <= baseline.seat_group_cells_off
    assert m_after.max_meetings <= max(baseline.max_meetings, m_before.max_meetings)
    assert result.after == m_after and result.before == m_before
    # other rounds untouched
    assert all(after[r] == before[r] for r in before if r != 1)
    # the audit entry says what happened, with both sets of metrics
    entry = next(d for _at, _u, action, d in reversed(day.svc.tournaments.audit_log(tid, actor=ORGANIZER))
                 if action == "reseat_round")
    assert entry["absent"] == sorted(absent) and entry["round"] == 1
    assert entry["before"]["sum_sq"] == m_before.sum_sq
    assert entry["after"]["sum_sq"] == m_after.sum_sq
    assert sorted(entry["came_in"]) == sorted(set(seated) - {p for t in before[1] for p in t})
    # the round is still its seating: the next round is round 1, nobody missing now
    plan = svc.next_round(tid, actor=ORGANIZER, pins=PINS)
    assert plan is not None and plan.round == 1 and plan.no_shows == []


def test_replacing_a_no_show_by_a_reserve(day: Day) -> None:
    tid = day.tournament("Replace cup")
    svc = CheckinService(day.svc.store)
    before = _rounds(day, tid)
    absent = before[1][1][4]
    _check_in_all_but(svc, tid, {absent})
    plan = svc.next_round(tid, actor=ORGANIZER, pins=PINS)
    assert plan is not None
    (ns,) = plan.no_shows
    assert (ns.player, ns.table, ns.seat) == (absent, 2, 5)
    reserve = ns.suggested
    assert reserve is not None and reserve in plan.reserves
    # the suggestion keeps clubs apart at that table
    assert CLUBS[reserve] not in {CLUBS[p] for p in before[1][1] if p != absent}
    svc.replace(tid, "qual", 1, absent, reserve, actor=ORGANIZER, pins=PINS)
    after = _rounds(day, tid)
    expected = [list(t) for t in before[1]]
    expected[1][4] = reserve
    assert after[1] == expected  # only that seat changed
    entry = next(d for _at, _u, action, d in reversed(day.svc.tournaments.audit_log(tid, actor=ORGANIZER))
                 if action == "replace_no_show")
    assert entry == {"stage": "qual", "round": 1, "table": 2, "seat": 5, "absent": absent,
                     "reserve": reserve, "game": entry["game"]}
    plan = svc.next_round(tid, actor=ORGANIZER, pins=PINS)
    assert plan is not None and plan.no_shows == []


def test_a_replacement_that_breaks_a_rule_is_refused(day: Day) -> None:
    tid = day.tournament("Refusals cup")
    svc = CheckinService(day.svc.store)
    before = _rounds(day, tid)
    seated = {p for t in before[1] for p in t}
    absent = before[1][0][5] if before[1][0][5] != "p01" else before[1][0][6]
    _check_in_all_but(svc, tid, {absent})
    table = before[1][0]
    clash = next((p.id for p in PLAYERS if p.id not in seated
                  and CLUBS[p.id] in {CLUBS[q] for q in table if q != absent}), None)
    if clash is not None:
        with pytest.raises(DayRefused) as e:
            svc.replace(tid, "qual", 1, absent, clash, actor=ORGANIZER)
        assert e.value.code == "breaks_rule"
    other = next(p for p in before[1][1])
    with pytest.raises(DayRefused) as e:
        svc.replace(tid, "qual", 1, other, next(p.id for p in PLAYERS if p.id not in seated),
                    actor=ORGANIZER)
    assert e.value.code == "present" and "на месте" in e.value.message("ru")
    with pytest.raises(PermissionDenied):
        svc.set_present(tid, absent, True, actor="nobody")
    # a started round keeps its seating: once every table of it has started
    for table in (1, 2, 3):
        game = next(g for g in day.svc.games.overview(tid) if g.round == 1 and g.table == table)
        g = day.svc.games.head(tid, game.code).game_struct()
        day.svc.protocols.save_draft(tid, game.code, g, actor=ORGANIZER,
                                     base_revision=game.revision)
    with pytest.raises(DayRefused) as e:
        svc.reseat(tid, "qual", 1, actor=ORGANIZER)
    assert e.value.code == "round_started"
    plan = svc.next_round(tid, actor=ORGANIZER)
    assert plan is not None and plan.round == 2


def test_the_desk_page_qr_check_in_and_blank_protocols(day: Day, tmp_path: Path,
                                                      client_for: Callable[[str], TestClient]
                                                      ) -> None:
    tid = day.tournament("Desk cup")
    before = _rounds(day, tid)
    org = client_for(ORGANIZER)
    page = org.get(f"/t/{tid}/checkin")
    assert page.status_code == 200 and "<svg" in page.text and "Регистрация игроков" in page.text
    # the head judge ticks players at the desk: one form per player
    head = client_for(HEAD)
    absent = sorted({before[1][0][2], before[1][2][7]} - {"p01"})
    for p in PLAYERS:
        if p.id not in absent and p.id != "p35":
            r = head.post(f"/t/{tid}/checkin/player/{p.id}",
                          data={"present": "1", "csrf": csrf_of(head)}, follow_redirects=False)
            assert r.status_code == 303
    # p35 checks himself in: his code, then the desk's QR link
    code = org.post(f"/t/{tid}/checkin/player/p35/code", data={"csrf": csrf_of(org)})
    assert code.status_code == 200 and "<svg" in code.text
    secret = code.text.split('id="player-code">', 1)[1].split("<", 1)[0]
    phone = code_client(client_for, secret)
    link = page.text.split(f"/t/{tid}/here/", 1)[1].split("<", 1)[0]
    assert phone.get(f"/t/{tid}/here/wrong-key").status_code == 404
    here = phone.get(f"/t/{tid}/here/{link}")
    assert here.status_code == 200 and "Вы отмечены" in here.text
    h = {"X-CSRF-Token": csrf_of(org)}
    here_one = next(p.id for p in PLAYERS if p.id not in absent and p.id != "p35")
    assert org.post(f"/api/t/{tid}/checkin/{here_one}", json={"present": False},
                    headers=h).json() == {"player": here_one, "present": False}
    assert org.post(f"/api/t/{tid}/checkin/{here_one}", content=b"{", headers={
        **h, "content-type": "application/json"}).status_code == 422
    assert org.post(f"/api/t/{tid}/checkin/{here_one}", json={"present": "yes"},
                    headers=h).status_code == 422
    assert org.post(f"/api/t/{tid}/checkin/{here_one}", json={"present": True},
                    headers=h).status_code == 200
    status = org.get(f"/api/t/{tid}/checkin").json()
    assert "p35" in status["present"]
    assert {n["player"] for n in status["next_round"]["no_shows"]} == set(absent)
    # a player may not tick anyone
    assert phone.post(f"/t/{tid}/checkin/player/p02",
                      data={"present": "0", "csrf": csrf_of(phone)}).status_code == 403
    # the page: one button per no-show, then the whole round re-seated
    page = org.get(f"/t/{tid}/checkin")
    assert page.text.count('class="big replace"') == len(absent)
    # the round's seating metrics in words, the sum of squares in the tooltip
    plan = CheckinService(day.svc.store).next_round(tid, actor=ORGANIZER)
    assert plan is not None
    m = plan.metrics
    assert (f'title="Сумма квадратов встреч всех пар (Σ m²): {m.sum_sq}; чем меньше, тем ровнее'
            in page.text)
    assert (f">Самое большее встреч одной пары: {m.max_meetings}; перекосов по местам: "
            f"{m.seat_cells_off}</p>") in page.text
    org.get("/lang/en")
    en = org.get(f"/t/{tid}/checkin").text
    assert (f">Most meetings of one pair: {m.max_meetings}; seats out of balance: "
            f"{m.seat_cells_off}</p>") in en and "Sum of the squares of all pairs" in en
    org.get("/lang/ru")
    r = org.post(f"/t/{tid}/checkin/reseat", data={"stage": "qual", "round": "1",
                                                   "csrf": csrf_of(org)})
    assert r.status_code == 200 and "Тур пересажен" in r.text
    after = _rounds(day, tid)
    # the blank protocols print the new seating
    pdf = tmp_path / "blank.pdf"
    pdf.write_bytes(org.get(f"/t/{tid}/export/blank.pdf?stage=qual&round=1").content)
    pages = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                           text=True, check=True).stdout.split("\f")
    for t, seats in enumerate(after[1]):
        printed = set(re.findall(r"Игрок \d+", pages[2 * t]))
        assert printed == {NAMES[p] for p in seats}, t + 1
        assert not printed & {NAMES[p] for p in absent}
