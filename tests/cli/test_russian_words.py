"""Every CLI command, run in Russian (the default) on the spec's examples as a user runs
it, shows the glossary's words: no internal code (`red`, `pu_extra`, `scoring.md`, a
snake_case name) and no English word; the same for the text of the PDFs (pdftotext) and
the cells of the XLSX.

What a tournament names itself (nicknames, the tournament's and stages' names, which are
English in the spec's examples), file paths, the demo's account names and command lines
quoted as hints (`mafiatab lots ФАЙЛ --seed ЗЕРНО`) are the user's data, not words of the
program: they are cut out before the check.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from mafiatab.web.demo import DEMO_PASSWORD
from tests.helpers import EXAMPLES, dumps, game, tournament

BIN = Path(sys.executable).parent
EXAMPLE_FILES = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".standings.json"))

#: the program's own codes, never shown to a person
CODES = re.compile(
    r"\b(?:red|black|draw|sheriff|don|pu_extra|near_reliable|from_version|game_action|team_loss|"
    r"role_player|qualification|semifinal|by_scale|by_team|step_0_2|lot_needed)\b"
    r"|scoring\.md|\b[a-z]+_[a-z_0-9]+\b")
#: Latin words a Russian reader meets and may: the program's and formats' names, the
#: points' letters of the rules (Ci, K), the terminal's key
ALLOWED = {"mafiatab", "ci", "sqlite", "postgresql", "pdf", "xlsx", "csv", "json", "ctrl",
           "svg", "png"}
LATIN = re.compile(r"[A-Za-z]{2,}")


def run(*args: str, cwd: Path | None = None,
        env_lang: str | None = None) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it (`env_lang`: with `MAFIATAB_LANG` set)."""
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
               COLUMNS="200")
    env.pop("MAFIATAB_DATABASE_URL", None)
    if env_lang is not None:
        env["MAFIATAB_LANG"] = env_lang
    return subprocess.run([sys.executable, "-m", "mafiatab", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=300)


def data_of(files: Iterable[Path]) -> set[str]:
    """The names a tournament file gives: these are the user's words."""
    names: set[str] = set()
    for f in files:
        d = json.loads(f.read_text(encoding="utf-8"))
        names.add(d["name"])
        names |= {p["nickname"] for p in d["players"]} | {p["id"] for p in d["players"]}
        names |= {s["name"] for s in d["stages"]} | {s["id"] for s in d["stages"]}
        names |= {g["id"] for g in d["games"]}
        names |= {g.get("judge") or "" for g in d["games"]}
    return {n for n in names if n}


def foreign_words(text: str, data: set[str], paths: Iterable[Path] = ()) -> list[str]:
    """Codes and English words in `text` once the user's data are cut out."""
    for p in sorted({str(x) for x in paths}, key=len, reverse=True):
        text = text.replace(p, " ")
    text = re.sub(r"mafiatab [^)\n»]*", " ", text)  # a command line quoted as a hint
    text = re.sub(r"(?<!\w)--[a-z-]+", " ", text)
    text = re.sub(r"\S+\.(?:json|pdf|xlsx|csv|sqlite|png|svg)\b", " ", text)
    text = re.sub(r"https?://\S+", " ", text)
    for name in sorted(data, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", text)
    found = [m.group(0) for m in CODES.finditer(text)]
    found += [w for w in LATIN.findall(text) if w.casefold() not in ALLOWED]
    return found


def assert_russian(p: subprocess.CompletedProcess[str], data: set[str],
                   paths: Iterable[Path] = ()) -> None:
    assert "Traceback" not in p.stderr, p.stderr
    bad = foreign_words(p.stdout + "\n" + p.stderr, data, paths)
    assert not bad, f"{bad[:20]} in:\n{p.stdout[-3000:]}\n{p.stderr[-2000:]}"


@pytest.fixture(scope="module")
def tied(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tournament whose places a lot must decide, in a qualification and a final."""
    folder = tmp_path_factory.mktemp("tied")
    t = tournament("fsm", [game(result="red"), game("f1", stage="final", result="black")],
                   stages=[{"id": "qual", "name": "Отбор", "kind": "qualification"},
                           {"id": "final", "name": "Финал", "kind": "final"}])
    t["name"] = "Кубок"
    f = folder / "tied.json"
    f.write_bytes(dumps(t))
    return f


def test_the_checker_catches_codes_and_english() -> None:
    """The check itself can fail: what the issue saw in the old output is caught."""
    assert foreign_words("Игрок: red, pu_extra (scoring.md 1)", set())
    assert foreign_words("Жребий (seed 7) для мест 2", set())
    assert foreign_words("SQLite: x (tournament 1; open tables: q1)", set())
    assert foreign_words("Правила: FSM", set())
    assert not foreign_words("Игрок Player 19: 0,25 (ФСМ 8.4.3)", {"Player 19"})


@pytest.mark.parametrize("example", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_file_commands_speak_russian(example: Path) -> None:
    data = data_of([example])
    d = json.loads(example.read_text(encoding="utf-8"))
    stage = d["stages"][-1]["id"]
    player = d["players"][0]["id"]
    for args in (["standings", str(example)], ["standings", str(example), "--stage", stage],
                 ["check", str(example)], ["explain", str(example), player],
                 ["lots", str(example), "--seed", "кубок", "--stage", stage]):
        p = run(*args)
        assert p.returncode == 0, p.stderr
        assert_russian(p, data, [example])


def test_lots_and_a_lot_written_speak_russian(tied: Path, tmp_path: Path) -> None:
    f = tmp_path / "t.json"
    shutil.copy(tied, f)
    data = data_of([f])
    for args in (["standings", str(f)], ["standings", str(f), "--stage", "final"],
                 ["lots", str(f), "--seed", "кубок", "--stage", "final"],
                 ["lots", str(f), "--seed", "кубок", "--write"], ["standings", str(f)],
                 ["lots", str(f), "--seed", "кубок"]):
        p = run(*args)
        assert p.returncode == 0, p.stderr
        assert_russian(p, data, [f])


@pytest.mark.parametrize("profile", ["fsm", "fiim2018"])
def test_rules_speak_russian(profile: str) -> None:
    p = run("rules", profile)
    assert p.returncode == 0
    assert_russian(p, set())


def test_seating_speaks_russian() -> None:
    p = run("seating", "--players", "20", "--games", "2", "--iterations", "1000")
    assert p.returncode == 0, p.stderr
    assert_russian(p, set())
    for args, code in ((["--pin", "x"], 2), (["--availability", "7:1-x"], 2),
                       (["--tables", "4"], 1), (["--availability", "9:1-2"], 1)):
        p = run("seating", "--players", "30", "--games", "3", *args)
        assert p.returncode == code, p.stderr
        assert_russian(p, set())


def test_printouts_and_spreadsheets_speak_russian(tied: Path, tmp_path: Path) -> None:
    import openpyxl

    f = tmp_path / "t.json"
    shutil.copy(tied, f)
    assert run("lots", str(f), "--seed", "кубок", "--write").returncode == 0
    # an FSM file with the first killed's protocols, a FIIM one with K and a final, lots
    files = [EXAMPLES / "fsm-20-players-with-lots.json",
             EXAMPLES / "fiim2018-30-players-with-final.json", f]
    data = data_of(files)
    for example in files:
        d = json.loads(example.read_text(encoding="utf-8"))
        stage = d["stages"][0]["id"]
        out = {k: tmp_path / f"{example.stem}-{k}.{ext}" for k, ext in (
            ("pdf", "pdf"), ("blank", "pdf"), ("st", "pdf"), ("xlsx", "xlsx"), ("csv", "csv"),
            ("games", "csv"))}
        for args in (["print", "protocol", str(example), "-o", str(out["pdf"])],
                     ["print", "protocol", str(example), "-o", str(out["blank"]),
                      "--blank", "2", "--stage", stage, "--round", "1"],
                     ["print", "standings", str(example), "-o", str(out["st"])],
                     ["export-standings", str(example), "--xlsx", str(out["xlsx"]),
                      "--csv", str(out["csv"]), "--games-csv", str(out["games"])],
                     ["charts", str(example), "--out", str(tmp_path / "charts")]):
            p = run(*args)
            assert p.returncode == 0, p.stderr
            assert_russian(p, data, [example, tmp_path])
        for key in ("pdf", "blank", "st"):
            text = subprocess.run(["pdftotext", "-layout", str(out[key]), "-"],
                                  capture_output=True, text=True, check=True).stdout
            bad = foreign_words(text, data)
            assert not bad, f"{key} of {example.name}: {bad[:20]}"
        book = openpyxl.load_workbook(out["xlsx"])
        cells = " | ".join(str(v) for ws in book.worksheets for row in ws.iter_rows(values_only=True)
                           for v in row if v is not None)
        assert not foreign_words(cells, data), foreign_words(cells, data)[:20]
        for key in ("csv", "games"):
            assert not foreign_words(out[key].read_text(encoding="utf-8-sig"), data)


def test_appeal_check_speaks_russian() -> None:
    fsm, fiim = EXAMPLES / "fsm-20-players.json", EXAMPLES / "fiim2018-20-players.json"
    data = data_of([fsm, fiim])
    for args in (["appeal-check", str(fsm), "--game", "g1", "--player", "p001",
                  "--now", "2026-03-07T12:30"],
                 ["appeal-check", str(fiim), "--game", "g1", "--player", "p001",
                  "--now", "2026-03-07T12:30", "--protest", "--ended", "2026-03-07T12:25"]):
        assert_russian(run(*args), data)


def test_database_commands_speak_russian(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    example = EXAMPLES / "fiim2018-30-players-with-final.json"
    data = data_of([example])
    for args in (["db", "upgrade", "--db", db], ["import", str(example), "--db", db],
                 ["tournaments", "--db", db], ["standings", "--db", db, "--tournament", "1"],
                 ["export", "1", "--db", db, "-o", str(tmp_path / "e.json")],
                 ["backup", str(tmp_path / "b.sqlite"), "--db", db],
                 ["restore", str(tmp_path / "b.sqlite"), "--db", db]):
        p = run(*args)
        assert p.returncode == 0, p.stderr
        assert_russian(p, data, [tmp_path])


def test_demo_speaks_russian(tmp_path: Path) -> None:
    p = run("demo", "--no-serve", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    d = json.loads((tmp_path / "mafiatab-demo.json").read_text(encoding="utf-8"))
    accounts = {"organizer", "headjudge", "viewer", DEMO_PASSWORD, "judge1", "judge2", "reserve-judge"}
    code = re.findall(r"[0-9A-Z]{4}(?:-[0-9A-Z]{4})+", p.stdout)
    assert_russian(p, data_of([tmp_path / "mafiatab-demo.json"]) | accounts | set(code),
                   [tmp_path])
    assert d["name"] in p.stdout


def _command_paths() -> list[list[str]]:
    """Every command and subcommand of the CLI, as its words on the command line."""
    import typer
    from typer import _click as click

    from mafiatab.cli import app

    found: list[list[str]] = []

    def walk(command: object, path: list[str]) -> None:
        found.append(path)
        if hasattr(command, "list_commands"):
            ctx = click.Context(command)  # type: ignore[arg-type]
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), [*path, name])  # type: ignore[attr-defined]

    walk(typer.main.get_command(app), [])
    return found


COMMAND_PATHS = _command_paths()


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=lambda p: " ".join(p) or "mafiatab")
def test_help_speaks_russian_and_english(path: list[str]) -> None:
    """`--help` of the main command and of each subcommand: Click's and Typer's own words
    («Использование:», «Параметры», «Показать эту справку и выйти.»), the command's and
    options' help and the values' placeholders in Russian; in English, English only."""
    p = run(*path, "--help")
    assert p.returncode == 0, p.stderr
    assert "Использование:" in p.stdout and "Показать эту справку и выйти." in p.stdout
    # the commands' names are what a user types, as are the options (cut out already)
    typed = {n for other in COMMAND_PATHS for n in other} | {"python"}
    # and the values an option takes as typed (a language, the rules, a choice's code)
    typed |= {"ru", "en", "fsm", "fiim2018", "positive_extra", "mafiaratings", "polemica", "id",
              "Excel", "HTTPS", "mafiatab-secret.key", "no-absent"}
    assert_russian(p, typed)
    en = run(*path, "--help", env_lang="en")
    assert en.returncode == 0, en.stderr
    assert "Usage:" in en.stdout and "Show this message and exit." in en.stdout
    assert not CYRILLIC.findall(en.stdout), CYRILLIC.findall(en.stdout)[:10]


CYRILLIC = re.compile(r"[А-Яа-яЁё]{3,}")


@pytest.mark.parametrize("args", [["standings", "--bogus"], ["nosuch"], ["explain"],
                                  ["seating", "--players", "x", "--games", "2"],
                                  ["seating", "--players", "0", "--games", "2"],
                                  ["standings", "--stage"]])
def test_a_usage_error_speaks_russian(args: list[str]) -> None:
    p = run(*args)
    assert p.returncode == 2, p.stderr
    assert "Ошибка" in p.stderr, p.stderr
    assert_russian(p, {n for other in COMMAND_PATHS for n in other} | {"python", "nosuch"})
    en = run(*args, env_lang="en")
    assert en.returncode == 2 and "Error" in en.stderr, en.stderr
    assert not CYRILLIC.findall(en.stderr), en.stderr


def test_the_click_catalogue_is_compiled_from_its_table() -> None:
    """The shipped .mo is what `python -m mafiatab.cli.words` writes from CLICK_RU."""
    from babel.messages.mofile import read_mo

    from mafiatab.cli import words

    shipped = words.LOCALE_DIR / "ru" / "LC_MESSAGES" / "messages.mo"
    with shipped.open("rb") as f:
        catalog = read_mo(f)
    assert {m.id: m.string for m in catalog if m.id} == words.CLICK_RU
