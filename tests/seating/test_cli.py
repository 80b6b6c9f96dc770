"""`mafiatab seating` end to end, as an organizer runs it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.seating.reference import reference_metrics

# The installed console script, as organizers run it (next to the interpreter in a venv).
_SCRIPT = Path(sys.executable).parent / "mafiatab"
EXE = [str(_SCRIPT) if _SCRIPT.exists() else shutil.which("mafiatab") or "mafiatab", "seating"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*EXE, *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_json_output_is_the_documented_format() -> None:
    out = run("--players", "20", "--games", "4", "--seed", "3", "--json", "--iterations", "200000")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["format"] == "mafiatab.seating/1"
    assert doc["players"] == 20 and doc["games"] == 4
    assert [r["round"] for r in doc["rounds"]] == [1, 2, 3, 4]
    assert [t["table"] for t in doc["rounds"][0]["tables"]] == [1, 2]
    ref = reference_metrics(doc, 2)
    for key in ("max_meetings", "pairs_at_max", "min_meetings", "pairs_never", "sum_sq",
                "seat_cells_off", "seat_group_cells_off", "table_cells_off"):
        assert doc["metrics"][key] == ref[key]
    assert set(ref["games"].values()) == {4}


def test_text_output_russian_and_english() -> None:
    ru = run("-n", "10", "-r", "2", "--iterations", "1000")
    assert ru.returncode == 0, ru.stderr
    assert "Тур" in ru.stdout and "Σ m²" in ru.stdout
    en = run("-n", "10", "-r", "2", "--iterations", "1000", "--lang", "en")
    assert "Round" in en.stdout


def test_impossible_request_is_refused_with_reason() -> None:
    out = run("-n", "30", "-r", "10", "--tables", "4")
    assert out.returncode == 1
    assert "30" in out.stderr
    out = run("-n", "30", "-r", "7", "--tables", "2", "--lang", "en")
    assert out.returncode == 1
    assert "not a multiple" in out.stderr
    assert "Traceback" not in out.stderr


def test_clubs_pins_and_availability(tmp_path: Path) -> None:
    clubs = tmp_path / "clubs.json"
    clubs.write_text(json.dumps({"1": "A", "2": "A", "3": "A", "4": "B", "5": "B"}))
    out = run("-n", "30", "-r", "3", "--json", "--clubs", str(clubs), "--pin", "7:2",
              "--availability", "9:1-3", "--iterations", "200000")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    for rnd in doc["rounds"]:
        for tb in rnd["tables"]:
            seats = tb["seats"]
            assert sum(p in (1, 2, 3) for p in seats) <= 1
            assert sum(p in (4, 5) for p in seats) <= 1
            if 7 in seats:
                assert tb["table"] == 2
    too_big = tmp_path / "big.json"
    too_big.write_text(json.dumps({str(p): "X" for p in range(1, 5)}))
    out = run("-n", "30", "-r", "3", "--clubs", str(too_big), "--lang", "en")
    assert out.returncode == 1 and "The club 'X' has 4 players" in out.stderr
    out = run("-n", "30", "-r", "3", "--availability", "9:1-2", "--lang", "en")
    assert out.returncode == 1 and "Player 9" in out.stderr


def test_wrong_command_line_exits_2(tmp_path: Path) -> None:
    assert run("-n", "30", "-r", "3", "--pin", "x").returncode == 2
    assert run("-n", "30", "-r", "3", "--pin", "31:1").returncode == 2
    assert run("-n", "30").returncode == 2
    assert run("-n", "30", "-r", "3", "--lang", "de").returncode == 2
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    assert run("-n", "30", "-r", "3", "--clubs", str(bad)).returncode == 2
