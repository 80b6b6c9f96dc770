"""`mafiatab ratings` end to end: a real process, real files, a real SQLite database."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.helpers import EXAMPLES, dumps, game, tournament

BIN = Path(sys.executable).parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
               COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "mafiatab", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def _two_files(tmp_path: Path) -> tuple[Path, Path]:
    """Two tournaments sharing the players p1..p10; the second one happened first."""
    later = [game("a1", rnd=1, date="2026-05-02"), game("a2", rnd=2, date="2026-05-02",
                                                         result="black")]
    earlier = [game("b1", rnd=1, date="2026-04-10", result="black"),
               game("b2", rnd=2, date="2026-04-10", result="draw")]
    a = tmp_path / "a.json"
    b = tmp_path / "b.json"
    a.write_bytes(dumps(tournament("fsm", later, name="May Cup")))
    b.write_bytes(dumps(tournament("fsm", earlier, name="April Cup")))
    return a, b


def _json(*args: str) -> dict[str, Any]:
    p = run("ratings", *args, "--json")
    assert p.returncode == 0, p.stderr
    doc: dict[str, Any] = json.loads(p.stdout)
    return doc


def test_json_has_exactly_the_documented_format(tmp_path: Path) -> None:
    a, b = _two_files(tmp_path)
    doc = _json(str(a), str(b))
    assert set(doc) == {"format", "players", "predictions"}
    assert doc["format"] == "mafiatab.ratings/1"
    # in order of date, then round, then file order: April's games before May's
    assert [(p["tournament"], p["game"]) for p in doc["predictions"]] == [
        ("April Cup", "b1"), ("April Cup", "b2"), ("May Cup", "a1"), ("May Cup", "a2")]
    for p in doc["predictions"]:
        assert set(p) == {"tournament", "game", "p_red"}
        assert 0.0 < p["p_red"] < 1.0
    # the first game has no history: the base rate's prior of one half, even teams
    assert doc["predictions"][0]["p_red"] == 0.5
    # the same id in both files is one person: ten players, four games each
    assert len(doc["players"]) == 10
    for row in doc["players"]:
        assert {"player", "nickname", "rating", "games"} <= set(row)
        assert row["games"] == 4 and row["nickname"] == row["player"].upper()
    ratings = [row["rating"] for row in doc["players"]]
    assert ratings == sorted(ratings, reverse=True)


def test_predictions_come_before_the_game_is_rated(tmp_path: Path) -> None:
    """Changing the last game's result changes no prediction; changing the first one's
    changes the later ones."""
    a, b = _two_files(tmp_path)
    base = _json(str(a), str(b))["predictions"]
    data = json.loads(a.read_text())
    data["games"][1]["result"] = "red"
    a.write_text(json.dumps(data))
    assert _json(str(a), str(b))["predictions"] == base
    data = json.loads(b.read_text())
    data["games"][0]["result"] = "red"
    b.write_text(json.dumps(data))
    changed = _json(str(a), str(b))["predictions"]
    assert changed[0] == base[0] and changed[1:] != base[1:]


def test_file_order_does_not_matter_when_dates_are_known(tmp_path: Path) -> None:
    a, b = _two_files(tmp_path)
    assert _json(str(a), str(b)) == _json(str(b), str(a))


def test_table_in_russian_and_english_with_predictions(tmp_path: Path) -> None:
    a, b = _two_files(tmp_path)
    ru = run("ratings", str(a), str(b), "--predictions")
    assert ru.returncode == 0, ru.stderr
    assert "Рейтинг: 4 игры, 10 игроков" in ru.stdout and "Шанс красных" in ru.stdout
    assert "0,500" in ru.stdout  # decimal commas in Russian
    en = run("ratings", str(a), str(b), "--lang", "en")
    assert "Log-loss of the predictions" in en.stdout and "Red's chance" not in en.stdout


def test_the_federations_setting_of_what_counts(tmp_path: Path) -> None:
    a, b = _two_files(tmp_path)
    doc = _json(str(a), str(b), "--unrated", "April Cup")
    assert {p["tournament"] for p in doc["predictions"]} == {"May Cup"}
    doc = _json(str(EXAMPLES / "fsm-40-players-qual-semi.json"), "--stage-kind", "semifinal")
    assert len(doc["predictions"]) == 32


def test_wrong_command_lines_and_refused_files(tmp_path: Path) -> None:
    assert run("ratings").returncode == 2
    assert run("ratings", str(EXAMPLES / "fsm-20-players.json"), "--db", "x.sqlite"
               ).returncode == 2
    assert run("ratings", str(EXAMPLES / "fsm-20-players.json"), "--stage-kind", "x"
               ).returncode == 2
    bad = tmp_path / "bad.json"
    bad.write_bytes(dumps(tournament("fsm", [game("g1", result="nobody")])))
    p = run("ratings", str(EXAMPLES / "fsm-20-players.json"), str(bad), "--lang", "en")
    assert p.returncode == 1 and "bad.json" in p.stderr and "Traceback" not in p.stderr


def test_database_gives_the_files_predictions(tmp_path: Path) -> None:
    """Imported into SQLite, the two tournaments rate the same: the database's players are
    one identity across tournaments (same nickname and club)."""
    a, b = _two_files(tmp_path)
    db = tmp_path / "r.sqlite"
    for f in (a, b):
        p = run("import", str(f), "--db", str(db))
        assert p.returncode == 0, p.stderr
    from_db = _json("--db", str(db))
    from_files = _json(str(a), str(b))
    assert [(p["tournament"], p["game"]) for p in from_db["predictions"]] == \
        [(p["tournament"], p["game"]) for p in from_files["predictions"]]
    for x, y in zip(from_db["predictions"], from_files["predictions"], strict=True):
        assert math.isclose(x["p_red"], y["p_red"], rel_tol=0, abs_tol=1e-12)
    assert sorted((r["nickname"], r["rating"], r["games"]) for r in from_db["players"]) == \
        sorted((r["nickname"], r["rating"], r["games"]) for r in from_files["players"])


def test_what_if_one_game(tmp_path: Path) -> None:
    a, b = _two_files(tmp_path)
    p = run("ratings", str(a), str(b), "--what-if", "May Cup/a1", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert set(doc) == {"format", "tournament", "game", "p_red", "seats"}
    assert doc["format"] == "mafiatab.what-if/1" and doc["game"] == "a1"
    preds = _json(str(a), str(b))["predictions"]
    assert doc["p_red"] == next(x["p_red"] for x in preds if x["game"] == "a1")
    assert [s["seat"] for s in doc["seats"]] == list(range(1, 11))
    for s in doc["seats"]:
        assert set(s["after"]) == {"red", "black", "draw"}
    text = run("ratings", str(a), str(b), "--what-if", "a1")
    assert text.returncode == 0 and "Что, если" in text.stdout and "Победа чёрных" in text.stdout
    assert run("ratings", str(a), "--what-if", "zz").returncode == 2


def test_calibration_table_in_both_languages_and_in_json(tmp_path: Path) -> None:
    """`--calibration`: the reliability table (predicted and observed red-win rate by
    tenth, ours beside Elo), the calibration slopes, the experience learned; `--json`
    adds each rater's measures, the base rate's among them."""
    a, b = _two_files(tmp_path)
    ru = run("ratings", str(a), str(b), "--calibration")
    assert ru.returncode == 0, ru.stderr
    assert "Надёжность прогнозов" in ru.stdout and "Наш: вышло" in ru.stdout
    assert "50–60 %" in ru.stdout or "40–50 %" in ru.stdout
    assert "Наклон калибровки не считается: меньше 100 игр" in ru.stdout
    assert "Опыт: 100 рейтинговых игр" in ru.stdout
    en = run("ratings", str(a), str(b), "--calibration", "--lang", "en")
    assert "Reliability" in en.stdout and "No calibration slope" in en.stdout
    doc = _json(str(a), str(b), "--calibration")
    cal = doc["calibration"]
    assert set(cal) == {"ours", "elo", "base_rate"}
    assert sum(b["games"] for b in cal["ours"]["bins"]) == 4
    assert all(set(b) == {"from", "to", "games", "predicted", "observed"}
               for b in cal["elo"]["bins"])
    assert cal["ours"]["slope"] is None  # four games say nothing about it
    assert "calibration" not in _json(str(a), str(b))  # only when asked


def test_a_minimum_of_games_marks_the_others_provisional(tmp_path: Path) -> None:
    """`--min-games N`: players with fewer rated games are listed after the placed ones,
    unplaced and marked provisional (here everyone has played 4)."""
    a, b = _two_files(tmp_path)
    placed = run("ratings", str(a), str(b), "--min-games", "4")
    assert placed.returncode == 0, placed.stderr
    assert "(предварительный)" not in placed.stdout
    short = run("ratings", str(a), str(b), "--min-games", "5")
    assert short.stdout.count("(предварительный)") == 10 and "│     — │" in short.stdout
    en = run("ratings", str(a), str(b), "--min-games", "5", "--lang", "en")
    assert en.stdout.count("(provisional)") == 10
    assert run("ratings", str(a), str(b), "--min-games", "-1").returncode == 2


def test_what_a_first_killed_players_game_says_is_printed_when_games_record_him(
        tmp_path: Path) -> None:
    """The grid's learned share for the first killed (docs/ratings.md): printed only when
    some rated game records who was shot first, with the number of such games."""
    a, b = _two_files(tmp_path)
    bare = run("ratings", str(a), str(b))
    assert bare.returncode == 0, bare.stderr
    assert "Первый убитый (ПУ)" not in bare.stdout
    shot = tmp_path / "shot.json"
    shot.write_bytes(dumps(tournament("fsm", [game("s1", date="2026-06-01", first_killed=1),
                                              game("s2", rnd=2, date="2026-06-01")],
                                      name="June Cup")))
    ru = run("ratings", str(a), str(b), str(shot))
    assert ru.returncode == 0, ru.stderr
    assert "Первый убитый (ПУ): игра говорит о нём" in ru.stdout
    assert "таких игр: 1)" in ru.stdout
    en = run("ratings", str(a), str(b), str(shot), "--lang", "en")
    assert "First killed: a game tells" in en.stdout
