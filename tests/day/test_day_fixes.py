"""Small faults of the tournament day, each with the test that found it: the
seating page counts the players it seats (not the withdrawn), and the old blank protocols'
link prints each table's judge as assigned now (not as the protocol first said)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient

from mafiatab.domain.protocol import Stage
from tests.day.conftest import HEAD, ORGANIZER, PASSWORD, PLAYERS, Day


def test_the_seating_page_counts_the_players_it_seats(
        day: Day, client_for: Callable[[str], TestClient]) -> None:
    tid = day.tournament("Fixes: withdrawn")
    org = client_for(ORGANIZER)
    assert "Зарегистрировано игроков: 35" in org.get(f"/t/{tid}/seating").text
    day.svc.roster.withdraw(tid, "p07", actor=ORGANIZER)
    day.svc.roster.withdraw(tid, "p08", actor=ORGANIZER)
    page = org.get(f"/t/{tid}/seating").text
    assert "Зарегистрировано игроков: 33" in page and "Зарегистрировано игроков: 35" not in page
    day.svc.roster.withdraw(tid, "p08", actor=ORGANIZER, withdrawn=False)
    assert "Зарегистрировано игроков: 34" in org.get(f"/t/{tid}/seating").text


def test_the_blank_protocols_print_the_judge_assigned_now(
        day: Day, client_for: Callable[[str], TestClient], tmp_path: Path) -> None:
    tid = day.svc.tournaments.create_tournament(
        "Fixes: judges", "fsm", actor=ORGANIZER,
        stages=[Stage(id="qual", name="Отбор", kind="qualification")])
    day.svc.tournaments.register_players(tid, PLAYERS, actor=ORGANIZER)
    day.svc.access.grant(tid, HEAD, "head_judge", actor=ORGANIZER)
    for name in ("judgeold", "judgenew"):
        day.svc.accounts.add_account(name, PASSWORD, actor=ORGANIZER)
    # round 1 seated with table 2's first judge, then the table's judge is changed
    for t, seats in enumerate(day.seating.rounds[0], start=1):
        day.svc.games.enter_seating(tid, "qual", 1, t, seats, actor=ORGANIZER,
                                    judge="judgeold" if t == 2 else None)
    day.svc.games.assign_judge(tid, "qual-r1-t2", "judgenew", actor=ORGANIZER)
    assert day.svc.games.head(tid, "qual-r1-t2").game_struct().judge == "judgeold"
    r = client_for(HEAD).get(f"/t/{tid}/export/blank.pdf?stage=qual&round=1")
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    pdf = tmp_path / "blank.pdf"
    pdf.write_bytes(r.content)
    pages = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                           text=True, check=True).stdout.split("\f")
    front = pages[2]  # table 2's front (each protocol: a front, then its back)
    assert "judgenew" in front and "judgeold" not in front
