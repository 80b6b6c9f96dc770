"""The head judge's blank protocols of the seated round (FIIM 9.2-9.3): each table's sheet
carries the seated nicknames and its judge, as the seating in the database says."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient

from tests.web.conftest import World


def test_blank_protocols_of_the_open_round_carry_players_and_judge(
        world: World, client_for: Callable[[str], TestClient], tmp_path: Path) -> None:
    tid = world.demo.tournament
    r = client_for("headjudge").get(f"/t/{tid}/export/blank.pdf")
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    pdf = tmp_path / "blank.pdf"
    pdf.write_bytes(r.content)
    pages = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                           text=True, check=True).stdout.split("\f")
    names = {p.id: p.nickname for p in world.sample.players}
    for table in (1, 2):
        front = pages[2 * (table - 1)]  # each protocol: a front, then its back
        seated = world.open_game(table)
        assert f"judge{table}" in front
        for seat in seated.seats:
            assert names[seat.player] in front, (table, seat.seat)
