"""The command line end to end, as a user runs it: a real process, real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import EXAMPLES, SHARED, dumps, game, tournament

BIN = Path(sys.executable).parent


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
               COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "mafiatab", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=120)


def _no_traceback(p: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout


def test_check_examples_tool_passes() -> None:
    """../shared/tools/check-examples, as the spec gives it, is part of the suite."""
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    p = subprocess.run([sys.executable, str(SHARED / "tools" / "check-examples")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.strip().splitlines()[-1].endswith("passed, 0 failed")


def test_standings_table_russian_by_default_and_english() -> None:
    f = EXAMPLES / "fsm-20-players.json"
    ru = run("standings", str(f))
    assert ru.returncode == 0
    assert "Место" in ru.stdout and "Итого" in ru.stdout and "Player 19" in ru.stdout
    assert "7,30" in ru.stdout  # decimal comma
    en = run("standings", str(f), "--lang", "en")
    assert "Place" in en.stdout and "7.30" in en.stdout


def test_standings_json_matches_the_spec_example() -> None:
    f = EXAMPLES / "fiim2018-30-players-with-final.json"
    p = run("standings", str(f), "--json")
    assert p.returncode == 0
    got = json.loads(p.stdout)
    want = json.loads(f.with_name(f.stem + ".standings.json").read_text())
    assert got["format"] == "mafiatab.standings/1"
    assert [(r["player"], r["place"], r["total"]) for r in got["standings"]] == \
        [(r["player"], r["place"], r["total"]) for r in want["standings"]]


def test_standings_by_stage() -> None:
    f = EXAMPLES / "fiim2018-30-players-with-final.json"
    p = run("standings", str(f), "--json", "--stage", "final")
    got = json.loads(p.stdout)
    assert got["stages"] == ["final"] and 0 < len(got["standings"]) <= 10
    bad = run("standings", str(f), "--stage", "nope")
    assert bad.returncode == 2 and "nope" in bad.stderr
    _no_traceback(bad)


@pytest.mark.parametrize("args", [["standings"], ["standings", "/no/such/file.json"],
                                  ["standings", "x.json", "--lang", "de"], ["frobnicate"],
                                  ["lots", str(EXAMPLES / "fsm-20-players.json")]])
def test_wrong_command_line_exits_2(args: list[str]) -> None:
    p = run(*args)
    assert p.returncode == 2
    _no_traceback(p)


def test_check_sound_file() -> None:
    p = run("check", str(EXAMPLES / "fsm-40-players-qual-semi.json"), "--lang", "en")
    assert p.returncode == 0 and "sound" in p.stdout


def test_check_refused_file_lists_every_problem(tmp_path: Path) -> None:
    t = tournament("fsm", [game("a1", scores={"2": {"extra": 1.2}}),
                           game("a2", rnd=2, result="draw", scores={"5": {"extra": 0.2}})])
    f = tmp_path / "bad.json"
    f.write_bytes(dumps(t))
    p = run("check", str(f), "--lang", "en")
    assert p.returncode == 1
    assert "game a1, seat 2, extra: +1.2 needs the head judge's approval (FSM 8.4.3)" in p.stderr
    assert "game a2, seat 5, extra:" in p.stderr
    ru = run("check", str(f))
    assert "игра a1, место 2" in ru.stderr and "ФСМ 8.4.3" in ru.stderr
    js = run("check", str(f), "--json")
    assert js.returncode == 1
    problems = json.loads(js.stdout)["problems"]
    assert {(x["game"], x["seat"], x["field"], x["clause"]) for x in problems} >= {
        ("a1", 2, "extra", "FSM 8.4.3"), ("a2", 5, "extra", "FSM 8.4.8")}
    std = run("standings", str(f))
    assert std.returncode == 1 and std.stdout == ""


@pytest.mark.parametrize("content", [b"not json at all", b"", b"\x00\xff", b"[1,2,3]",
                                     b'{"format": "mafiatab.tournament/1"}'])
def test_garbage_file_is_refused_without_traceback(tmp_path: Path, content: bytes) -> None:
    f = tmp_path / "x.json"
    f.write_bytes(content)
    for cmd in ("check", "standings", "explain"):
        args = [cmd, str(f)] + (["p1"] if cmd == "explain" else [])
        p = run(*args)
        assert p.returncode == 1, (cmd, p.stdout, p.stderr)
        _no_traceback(p)
        assert p.stderr.strip()


def test_explain_every_point_with_its_clause() -> None:
    f = EXAMPLES / "fsm-20-players.json"
    p = run("explain", str(f), "p000", "--lang", "en")
    assert p.returncode == 0
    assert "(FSM 8.2.1-8.2.2)" in p.stdout
    assert "compensation Ci" in p.stdout and "B = 4" in p.stdout
    assert "Total for Player 0: main 4.1 + extra 2.2 = 6.3" in p.stdout
    by_nick = run("explain", str(f), "Player 0", "--lang", "en")
    assert by_nick.stdout == p.stdout
    ru = run("explain", str(f), "p000")
    assert "победа команды" in ru.stdout and "ФСМ 8.2.1-8.2.2" in ru.stdout


def test_explain_one_game_and_unknown_player() -> None:
    f = EXAMPLES / "fsm-20-players.json"
    p = run("explain", str(f), "p012", "--game", "g1", "--lang", "en")
    assert p.returncode == 0 and p.stdout.count("Game g1") == 1
    assert run("explain", str(f), "nobody").returncode == 2
    assert run("explain", str(f), "p012", "--game", "g2").returncode == 2


def test_explain_shows_k(tmp_path: Path) -> None:
    f = EXAMPLES / "fiim2018-20-players.json"
    p = run("explain", str(f), "p009", "--lang", "en")
    assert p.returncode == 0
    assert "× K = 1.67" in p.stdout and "(FIIM 8.7.2-8.7.3)" in p.stdout


def test_lots_draw_write_and_repeat(tmp_path: Path) -> None:
    f = tmp_path / "t.json"
    f.write_bytes(dumps(tournament("fsm", [game(result="red")])))
    first = run("lots", str(f), "--seed", "cup-2026", "--lang", "en")
    assert first.returncode == 0 and "Not written" in first.stdout
    again = run("lots", str(f), "--seed", "cup-2026", "--lang", "en")
    assert again.stdout == first.stdout  # the same seed, the same draw
    written = run("lots", str(f), "--seed", "cup-2026", "--write", "--lang", "en")
    assert written.returncode == 0 and "Written to" in written.stdout
    data = json.loads(f.read_text())
    assert len(data["lots"]) == 9 and data["lot_draws"][0]["seed"] == "cup-2026"
    st = json.loads(run("standings", str(f), "--json").stdout)
    assert not any(r["lot_needed"] for r in st["standings"])
    assert sorted(r["place"] for r in st["standings"]) == list(range(1, 11))
    none_left = run("lots", str(f), "--seed", "x", "--lang", "en")
    assert "No lot is needed" in none_left.stdout


def test_demo_and_rules(tmp_path: Path) -> None:
    p = run("demo", "--lang", "en", "--no-serve", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "mafiatab-demo.json").exists() and "Place" in p.stdout
    r = run("rules", "fsm", "--markdown")
    assert r.returncode == 0 and "best_move_points" in r.stdout and "FSM 8.3.5" in r.stdout


def test_written_file_keeps_its_mode(tmp_path: Path) -> None:
    f = tmp_path / "t.json"
    f.write_bytes(dumps(tournament("fsm", [game(result="red")])))
    f.chmod(0o644)
    assert run("lots", str(f), "--seed", "s", "--write").returncode == 0
    assert f.stat().st_mode & 0o777 == 0o644
