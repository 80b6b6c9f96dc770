"""`mafiatab check FILE` runs the tournament-wide invariants on a file (it used to call an
exported file with one player at two tables sound); a real process, real files."""

from __future__ import annotations

import json
from pathlib import Path

from tests.core.test_cli import run
from tests.helpers import dumps, game, tournament


def test_cli_check_reports_one_player_at_two_tables(tmp_path: Path) -> None:
    a = [f"p{i}" for i in range(1, 11)]
    b = [f"p{i}" for i in range(11, 21)]
    a[0] = "p11"
    t = tournament("fiim2018", [game("r1t1", players=a), game("r1t2", players=b, table=2)],
                   n_players=20)
    f = tmp_path / "export.json"
    f.write_bytes(dumps(t))
    ru = run("check", str(f))
    assert ru.returncode == 1, ru.stdout + ru.stderr
    assert "игра r1t1, место 1, игрок: тур 1, стол 1: игрок P11 в этом туре уже записан за " \
           "столом 2 (место 1) (правило турнира: одна игра за тур)" in ru.stderr
    js = run("check", str(f), "--json", "--lang", "en")
    data = json.loads(js.stdout)
    assert js.returncode == 1 and data["sound"] is False
    assert {(p["code"], p["game"], p["seat"]) for p in data["problems"]} == {
        ("twice_in_round", "r1t1", 1), ("twice_in_round", "r1t2", 1)}


def test_cli_check_reports_a_removed_player_playing_on(tmp_path: Path) -> None:
    a = [f"p{i}" for i in range(1, 11)]
    removal = {"3": {"penalties": [{"kind": "disqualification", "critical": False,
                                    "rule": "7.3"}]}}
    t = tournament("fiim2018", [game("r1", players=a, scores=removal),
                                game("r2", players=a, rnd=2)])
    f = tmp_path / "export.json"
    f.write_bytes(dumps(t))
    p = run("check", str(f), "--lang", "en")
    assert p.returncode == 1, p.stdout + p.stderr
    assert ("game r2, seat 3, player: round 2, table 1: player P3 was removed from the "
            "tournament in game r1 (round 1, table 1) and plays no more (FIIM 7.3)") in p.stderr
