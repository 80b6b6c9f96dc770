"""The commands and the printouts, end to end through the command line:
`rules` in Russian with points as points, `lots --stage`, `seating` in 80 columns, the
lot column after a lot, blank protocols of a seated round, and a demo whose terminal
standings are the web database's."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mafiatab import i18n
from tests.helpers import dumps, game, tournament

BIN = Path(sys.executable).parent


def run(*args: str, cwd: Path | None = None, columns: int = 200
        ) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
               COLUMNS=str(columns))
    return subprocess.run([sys.executable, "-m", "mafiatab", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=300)


def pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                          text=True, check=True).stdout


@pytest.mark.parametrize(("n", "ru", "en"), [
    (1, "1 стол", "1 table"), (2, "2 стола", "2 tables"), (4, "4 стола", "4 tables"),
    (5, "5 столов", "5 tables"), (11, "11 столов", "11 tables"), (21, "21 стол", "21 tables"),
    (22, "22 стола", "22 tables"), (112, "112 столов", "112 tables")])
def test_counts_agree_with_their_number(n: int, ru: str, en: str) -> None:
    assert i18n.count(n, "table", "ru") == ru and i18n.count(n, "table", "en") == en


def test_rules_in_russian_with_points_and_clauses_of_the_federation() -> None:
    """FIIM 8.3.1: the best move pays 0,25 for two blacks and 0,4 for three."""
    fiim = run("rules", "fiim2018")
    assert fiim.returncode == 0
    assert "0; 0; 0,25; 0,4" in fiim.stdout and "ФИИМ 8.3.1" in fiim.stdout
    assert "FIIM" not in fiim.stdout and "ФСМ" not in fiim.stdout
    fsm = run("rules", "fsm")
    assert "−1,5" in fsm.stdout and "ФСМ 8.2.5" in fsm.stdout  # the penalty of FSM 8.2.5
    assert "ФИИМ" not in fsm.stdout  # FSM readings "as FIIM 7.1" name no FIIM clause
    en = run("rules", "fiim2018", "--lang", "en")
    assert "0; 0; 0.25; 0.4" in en.stdout and "FIIM 8.3.1" in en.stdout
    # the developers' Markdown keeps the profile's names and hundredths (docs/rules.md)
    md = run("rules", "fiim2018", "--markdown")
    assert "| `best_move_points` | (0, 0, 25, 40) | FIIM 8.3.1 |" in md.stdout


@pytest.fixture
def with_final(tmp_path: Path) -> Path:
    """Ten players tied in a one-game final (FSM 8.7.6: a lot decides)."""
    t = tournament("fsm", [game(result="red"), game("f1", stage="final", result="black",
                                                    players=[f"p{i}" for i in range(1, 11)])],
                   stages=[{"id": "qual", "name": "Отбор", "kind": "qualification"},
                           {"id": "final", "name": "Финал", "kind": "final"}])
    f = tmp_path / "t.json"
    f.write_bytes(dumps(t))
    return f


def test_lots_by_stage_as_standings_by_stage(with_final: Path) -> None:
    """FSM 8.7.6: `standings --stage final` says a lot is needed; `lots --stage final`
    draws it among the final's tied players, and the final's standings are then whole."""
    before = run("standings", str(with_final), "--stage", "final")
    assert "нужен жребий" in before.stdout and "--stage final" in before.stdout
    drawn = run("lots", str(with_final), "--seed", "финал", "--stage", "final", "--write")
    assert drawn.returncode == 0, drawn.stderr
    # the black team won; the don is first alone (wins as don, FSM 8.7.4)
    assert "Жребий на места 2–3" in drawn.stdout and "Жребий на места 4–10" in drawn.stdout
    st = json.loads(run("standings", str(with_final), "--stage", "final", "--json").stdout)
    assert not any(r["lot_needed"] for r in st["standings"])
    assert sorted(r["place"] for r in st["standings"]) == list(range(1, 11))
    assert run("lots", str(with_final), "--seed", "x", "--stage", "nope").returncode == 2


def test_lot_column_is_filled_after_a_lot(with_final: Path, tmp_path: Path) -> None:
    """FIIM 8.8.5 / FSM 8.7.6: after a lot, the table, PDF, XLSX and CSV say which places
    it decided; before it, which need it."""
    import openpyxl

    pdf, book, csv = tmp_path / "s.pdf", tmp_path / "s.xlsx", tmp_path / "s.csv"

    def lot_cells() -> tuple[str, str, list[str], str]:
        table = run("standings", str(with_final), "--stage", "final").stdout
        assert run("print", "standings", str(with_final), "--stage", "final",
                   "-o", str(pdf)).returncode == 0
        assert run("export-standings", str(with_final), "--stage", "final", "--xlsx",
                   str(book), "--csv", str(csv)).returncode == 0
        ws = openpyxl.load_workbook(book).worksheets[0]
        column = [str(r[-1] or "") for r in ws.iter_rows(min_row=2, values_only=True)]
        return table, pdf_text(pdf), column, csv.read_text(encoding="utf-8-sig")

    table, text, column, csv_text = lot_cells()
    # the don is first alone; the two blacks and the seven reds tie
    assert "по жребию" not in table + text + csv_text and column == [""] + ["нужен"] * 9
    run("lots", str(with_final), "--seed", "финал", "--stage", "final", "--write")
    table, text, column, csv_text = lot_cells()
    assert table.count("по жребию") == 9 and text.count("по жребию") == 9
    assert column == [""] + ["по жребию"] * 9 and csv_text.count("по жребию") == 9


def test_seating_fits_80_columns_one_line_a_table() -> None:
    p = run("seating", "--players", "30", "--games", "3", "--iterations", "2000", columns=80)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    # 3 rounds of 3 tables: each table is one line of its ten seats
    rows = [line for line in lines if re.fullmatch(r"\s*(\d+\s+)?[1-3](\s+\d+){10}\s*", line)]
    assert len(rows) == 9
    seated = sorted(int(x) for line in rows[:3] for x in line.split()[-10:])
    assert seated == list(range(1, 31))  # round 1: every player once


def test_blank_protocols_of_a_played_round_carry_players(tmp_path: Path) -> None:
    """FIIM 9.2-9.3: the header and the seated nicknames are on the blank."""
    f = tmp_path / "t.json"
    t = tournament("fsm", [game(judge="Судья Иванов", date="2026-03-07")])
    f.write_bytes(dumps(t))
    out = tmp_path / "b.pdf"
    p = run("print", "protocol", str(f), "-o", str(out), "--blank", "2", "--stage", "qual",
            "--round", "1")
    assert p.returncode == 0, p.stderr
    first, *_rest = pdf_text(out).split("\f")
    assert "Судья Иванов" in first and "07.03.2026" in first and "g1" in first
    assert all(f"P{i}" in first for i in range(1, 11))
    table_two = pdf_text(out).split("\f")[2]
    assert "P1 " not in table_two and "Иванов" not in table_two  # table 2 is not seated


def _rows(table: str) -> list[tuple[str, str]]:
    """(nickname, total) of every row of a printed standings table."""
    out = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.split("│")]
        if len(cells) > 10 and cells[1].isdigit():
            out.append((cells[2], cells[9]))
    return out


def test_demo_prints_the_standings_the_web_database_serves(tmp_path: Path) -> None:
    from mafiatab.domain.points import format_points
    from mafiatab.services.facade import Services
    from mafiatab.storage.engine import make_engine

    p = run("demo", "--no-serve", "--lang", "en", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    engine = make_engine(str(tmp_path / "mafiatab-demo.sqlite"))
    try:
        svc = Services(engine)
        served = svc.standings.compute(1)
        games = len(svc.tournaments.tournament(1).games)
    finally:
        engine.dispose()
    assert _rows(p.stdout) == [(r.nickname, format_points(r.total, "en", fixed=True))
                               for r in served.rows]
    assert f"{games} games" in p.stdout
    file = json.loads((tmp_path / "mafiatab-demo.json").read_text(encoding="utf-8"))
    assert len(file["games"]) == games  # the file is the database's tournament too


def test_every_setting_of_every_profile_is_named_in_words() -> None:
    """A setting added to a profile without its words would show its code in `rules`."""
    from mafiatab.formats.rules_doc import SETTINGS
    from mafiatab.rules import PROFILES

    for profile in PROFILES.values():
        missing = sorted(set(profile.settings()) - set(SETTINGS))
        assert not missing, f"{profile.id}: add {missing} to formats/rules_doc.SETTINGS"
