"""Printouts, spreadsheets and charts: read back, they hold what the standings hold."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import msgspec
import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from mafiatab.cli import app
from mafiatab.domain.points import format_points, to_decimal
from mafiatab.domain.progress import places_by_round, round_keys, up_to_round, win_rates
from mafiatab.domain.protocol import Game
from mafiatab.domain.standings import compute_standings
from mafiatab.formats.charts import all_charts
from mafiatab.formats.csv_export import games_csv, standings_csv
from mafiatab.formats.pdf import (
    blank_sheets,
    font_dir,
    protocols_pdf,
    sheet_of_game,
    standings_pdf,
)
from mafiatab.formats.xlsx import workbook_bytes
from mafiatab.services.tournament_file import LoadedTournament, load_tournament_file, standings_of
from tests.helpers import EXAMPLES

EXAMPLE_FILES = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".standings.json"))
runner = CliRunner()


@pytest.fixture(scope="module", params=EXAMPLE_FILES, ids=lambda p: p.stem)
def loaded(request: pytest.FixtureRequest) -> LoadedTournament:
    return load_tournament_file(request.param)


def pdf_text(data: bytes, tmp_path: Path) -> str:
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext is missing: scripts/test installs poppler-utils")
    path = tmp_path / "x.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout


def test_font_is_shipped_inside_the_package() -> None:
    """The printouts need no charting library for their font (the light install)."""
    import mafiatab

    assert (font_dir() / "DejaVuSans.ttf").is_file()
    assert (font_dir() / "LICENSE_DEJAVU").is_file()
    assert font_dir().parent == Path(mafiatab.__file__).resolve().parent


# --- PDF ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_filled_protocols_hold_every_nickname_and_number(loaded: LoadedTournament, lang: str,
                                                         tmp_path: Path) -> None:
    t = loaded.tournament
    games = t.games[:6]
    sheets = [sheet_of_game(t, loaded.profile, g, lang) for g in games]
    text = pdf_text(protocols_pdf(sheets, lang), tmp_path)
    pages = text.split("\f")
    assert len([p for p in pages if p.strip()]) == 2 * len(games)  # front and back each
    names = {p.id: p.nickname for p in t.players}
    for g, sheet, front in zip(games, sheets, pages[0::2], strict=False):
        assert g.id in front and str(g.table) in front
        for s in g.seats:
            assert names[s.player] in front
        for line in sheet.seats:
            assert line.points in front and line.extra in front
        for n in g.best_move:
            assert str(n) in front
    if lang == "ru":
        assert "ПРОТОКОЛ ИГРЫ" in text and "Подпись судьи" in text and "Пояснения судьи" in text


def test_protocol_back_explains_extras_with_their_clause(tmp_path: Path) -> None:
    loaded = load_tournament_file(EXAMPLES / "fsm-20-players.json")
    g = loaded.tournament.games[0]
    sheet = sheet_of_game(loaded.tournament, loaded.profile, g, "ru")
    back = pdf_text(protocols_pdf([sheet], "ru"), tmp_path).split("\f")[1]
    assert sheet.explanations
    for line in sheet.explanations:
        assert line.split(" — ")[0] in back
    assert "ФСМ 8.4.3" in back


def test_protocol_reads_fouls_nominations_and_votes_from_the_log(tmp_path: Path) -> None:
    loaded = load_tournament_file(EXAMPLES / "fiim2018-20-players.json")
    g = loaded.tournament.games[0]
    log = [{"type": "deal"}, {"type": "foul", "seat": 3}, {"type": "foul", "seat": 3},
           {"type": "speech", "seat": 1, "nominates": 7}, {"type": "speech", "seat": 2, "nominates": 9},
           *({"type": "speech", "seat": n} for n in range(3, 11)),
           {"type": "vote", "counts": {"7": 6, "9": 4}}]
    with_log = msgspec.structs.replace(g, log=log)
    sheet = sheet_of_game(loaded.tournament, loaded.profile, with_log, "en")
    # who nominated whom (FIIM 9.5), as the log replayed by the rules says
    assert sheet.seats[2].fouls == 2 and sheet.days[0].nominated == ["1→7", "2→9"]
    text = pdf_text(protocols_pdf([sheet], "en"), tmp_path)
    assert "1→7, 2→9" in text and "7: 6, 9: 4" in text


def test_blank_protocols_for_a_round(tmp_path: Path) -> None:
    loaded = load_tournament_file(EXAMPLES / "fiim2018-30-players-with-final.json")
    sheets = blank_sheets(loaded.tournament, loaded.profile, "qual", 3, 4, "ru")
    text = pdf_text(protocols_pdf(sheets, "ru"), tmp_path)
    pages = [p for p in text.split("\f") if p.strip()]
    assert len(pages) == 8
    assert "ФИИМ 8.9.1" in pages[0] and loaded.tournament.name in pages[0]
    for table, front in enumerate(pages[0::2], start=1):
        assert f"Стол: {table}" in " ".join(front.split()) and "Тур: 3" in " ".join(front.split())


def test_standings_pdf_holds_every_row(loaded: LoadedTournament, tmp_path: Path) -> None:
    s = standings_of(loaded)
    text = pdf_text(standings_pdf(s, loaded.profile.title, "ru"), tmp_path)
    flat = " ".join(text.split())
    for r in s.rows:
        assert r.nickname in text
        assert format_points(r.total, "ru", fixed=True) in flat


# --- XLSX and CSV ------------------------------------------------------------------------


def test_xlsx_read_back_equals_the_standings(loaded: LoadedTournament) -> None:
    s = standings_of(loaded)
    data = workbook_bytes(s, loaded.tournament, loaded.profile, "ru")
    wb = load_workbook(io.BytesIO(data))
    sheet = wb["Таблица"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:3] == ("Место", "Код игрока", "Игрок")
    assert len(rows) == len(s.rows) + 1
    for got, r in zip(rows[1:], s.rows, strict=True):
        assert got[0] == r.place and got[1] == r.player and got[2] == r.nickname
        assert got[3:7] == (r.games, r.wins, r.wins_don_sheriff, r.first_killed)
        for value, expected in zip(got[7:13], (r.main, r.extra, r.total, r.best_move,
                                               r.compensation, r.penalties), strict=True):
            assert isinstance(value, int | float)
            assert Decimal(str(value)) == to_decimal(expected)
    games = list(wb["Игры"].iter_rows(values_only=True))
    assert len(games) == 1 + 10 * len(loaded.tournament.games)
    # every player's game totals add up to his total (within the rounding of Ci and K)
    by_player: dict[str, Decimal] = {}
    for row in games[1:]:
        by_player[str(row[5])] = by_player.get(str(row[5]), Decimal(0)) + Decimal(str(row[-1]))
    for r in s.rows:
        assert abs(by_player[r.player] - to_decimal(r.total)) <= Decimal("0.01") * r.games


def test_csv_has_a_bom_and_the_standings(loaded: LoadedTournament) -> None:
    s = standings_of(loaded)
    data = standings_csv(s, "en")
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0][0] == "Place" and len(rows) == len(s.rows) + 1
    for got, r in zip(rows[1:], s.rows, strict=True):
        assert got[1] == r.player and Decimal(got[9]) == to_decimal(r.total)
    ru = standings_csv(s, "ru", decimal_comma=True).decode("utf-8-sig")
    assert ";" in ru.splitlines()[0]
    games = games_csv(loaded.tournament, loaded.profile, "en").decode("utf-8-sig").splitlines()
    assert len(games) == 1 + 10 * len(loaded.tournament.games)


# --- charts ------------------------------------------------------------------------------


def test_places_after_each_round_end_with_the_standings(loaded: LoadedTournament) -> None:
    t, p = loaded.tournament, loaded.profile
    progress = places_by_round(t, p)
    assert progress.rounds == round_keys(t)
    final = {r.player: r.place for r in compute_standings(t, p).rows}
    assert {pid: places[-1] for pid, places in progress.places.items()} == final
    first = up_to_round(t, progress.rounds[0])
    assert all((g.stage, g.round) == progress.rounds[0] for g in first.games)


def test_win_rates_count_every_seat(loaded: LoadedTournament) -> None:
    by_role, by_seat = win_rates(loaded.tournament)
    n = len(loaded.tournament.games)
    assert all(rate.games == n for rate in by_seat.values())
    assert sum(rate.games for rate in by_role.values()) == 10 * n
    assert by_role["red"].games == 6 * n


def test_a_chart_is_made_for_every_example(loaded: LoadedTournament) -> None:
    made = all_charts(loaded.tournament, loaded.profile, "ru", "png")
    assert set(made) == {"places.png", "roles.png", "seats.png"}
    for data in made.values():
        assert data.startswith(b"\x89PNG") and len(data) > 5000


# --- the CLI -----------------------------------------------------------------------------


def test_cli_print_export_charts(tmp_path: Path) -> None:
    f = str(EXAMPLES / "fsm-20-players.json")
    out = tmp_path / "p.pdf"
    r = runner.invoke(app, ["print", "protocol", f, "--game", "g1", "--game", "g2", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_bytes().startswith(b"%PDF")
    r = runner.invoke(app, ["print", "protocol", f, "--blank", "5", "--stage", "qual", "--round", "2",
                            "-o", str(tmp_path / "b.pdf"), "--lang", "en"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["print", "standings", f, "-o", str(tmp_path / "s.pdf")])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["export-standings", f, "--xlsx", str(tmp_path / "s.xlsx"),
                            "--csv", str(tmp_path / "s.csv"), "--games-csv", str(tmp_path / "g.csv")])
    assert r.exit_code == 0, r.output
    assert all((tmp_path / n).stat().st_size > 0 for n in ("s.xlsx", "s.csv", "g.csv"))
    r = runner.invoke(app, ["charts", f, "--out", str(tmp_path / "ch"), "--svg"])
    assert r.exit_code == 0, r.output
    svg = (tmp_path / "ch" / "places.svg").read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg


def test_cli_wrong_command_lines_exit_2(tmp_path: Path) -> None:
    f = str(EXAMPLES / "fsm-20-players.json")
    cases = [
        ["print", "protocol", f, "--blank", "3", "-o", str(tmp_path / "x.pdf")],
        ["print", "protocol", f, "--game", "nope", "-o", str(tmp_path / "x.pdf")],
        ["print", "protocol", f, "--blank", "2", "--stage", "nope", "--round", "1",
         "-o", str(tmp_path / "x.pdf")],
        ["export-standings", f],
        ["appeal-check", f, "--game", "g1", "--player", "p012", "--now", "soon"],
    ]
    for args in cases:
        r = runner.invoke(app, args)
        assert r.exit_code == 2, (args, r.output)


def test_cli_refused_file_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "mafiatab.tournament/1"}', encoding="utf-8")
    for args in (["print", "standings", str(bad), "-o", str(tmp_path / "s.pdf")],
                 ["export-standings", str(bad), "--xlsx", str(tmp_path / "s.xlsx")],
                 ["charts", str(bad), "--out", str(tmp_path / "c")]):
        r = runner.invoke(app, args)
        assert r.exit_code == 1, (args, r.output)
        assert "Traceback" not in r.output


def test_cli_appeal_check(tmp_path: Path) -> None:
    f = str(EXAMPLES / "fsm-20-players.json")
    sched = tmp_path / "s.json"
    sched.write_text('{"rounds": [' + ",".join(
        f'{{"stage": "qual", "round": {r}, "day": 1, "starts": "2026-03-07T{9 + r:02d}:00:00+00:00"}}'
        for r in range(1, 7)) + "]}", encoding="utf-8")
    base = ["appeal-check", f, "--game", "g1", "--player", "p012", "--schedule", str(sched),
            "--published", "2026-03-07T10:55+00:00", "--awarded", "0.8"]
    ok = runner.invoke(app, [*base, "--claimed", "1", "--now", "2026-03-07T11:30+00:00"])
    assert ok.exit_code == 0 and "ФСМ 8.9.1" in ok.output
    refused = runner.invoke(app, [*base, "--claimed", "0.9", "--now", "2026-03-07T11:30+00:00",
                                  "--lang", "en"])
    assert refused.exit_code == 1 and "FSM 8.9.5" in refused.output


def test_game_struct_untouched_by_printing() -> None:
    loaded = load_tournament_file(EXAMPLES / "fsm-20-players.json")
    before = msgspec.json.encode(loaded.tournament.games[0])
    sheet_of_game(loaded.tournament, loaded.profile, loaded.tournament.games[0], "ru")
    assert msgspec.json.encode(loaded.tournament.games[0]) == before
    assert isinstance(loaded.tournament.games[0], Game)
