"""The database commands end to end: the main flows as a user runs them (subprocesses),
the many small refusals in-process (Typer's runner), to keep the suite quick."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mafiatab.cli import app
from mafiatab.formats.tournament_json import read_tournament, tournament_to_dict
from mafiatab.storage.engine import head_revision

CLI = [sys.executable, "-c", "from mafiatab.cli import main; main()"]


def run(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    """`mafiatab ARGS` in a subprocess; without `env`, MAFIATAB_DATABASE_URL is unset."""
    full_env = dict(os.environ)
    full_env.pop("MAFIATAB_DATABASE_URL", None)
    full_env.update(env or {})
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env=full_env)


def invoke(*args: str) -> tuple[int, str, str]:
    """`mafiatab ARGS` in this process: exit code, stdout, stderr."""
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.exception)
    return result.exit_code, result.stdout, result.stderr


def _same_tournament(a: bytes, b: bytes) -> bool:
    ta, _ = read_tournament(a)
    tb, _ = read_tournament(b)
    assert ta is not None and tb is not None
    return tournament_to_dict(ta) == tournament_to_dict(tb)


def test_import_export_standings(db_url: str, example_file: Path, tmp_path: Path) -> None:
    up = run("db", "upgrade", "--db", db_url, "--lang", "en")
    assert up.returncode == 0, up.stderr
    assert f"schema {head_revision()}" in up.stdout
    imp = run("import", str(example_file), "--db", db_url)
    assert imp.returncode == 0, imp.stderr
    assert "Импортирован турнир №1" in imp.stdout
    out = tmp_path / "out.json"
    exp = run("export", "1", "--db", db_url, "-o", str(out))
    assert exp.returncode == 0, exp.stderr
    assert _same_tournament(out.read_bytes(), example_file.read_bytes())
    from_db = run("standings", "--db", db_url, "--tournament", "1", "--json")
    assert from_db.returncode == 0, from_db.stderr
    from_file = invoke("standings", str(example_file), "--json")[1]
    assert json.loads(from_db.stdout) == json.loads(from_file)
    # the smaller commands, in-process
    code, listed, _ = invoke("tournaments", "--db", db_url, "--lang", "en")
    assert code == 0 and example_file.stem in listed
    code, text, _ = invoke("export", example_file.stem, "--db", db_url)
    assert code == 0 and _same_tournament(text.encode(), example_file.read_bytes())
    code, table, _ = invoke("standings", "--db", db_url, "--tournament", "1", "--lang", "en")
    assert code == 0 and "standings" in table
    stage = json.loads(from_file)["stages"][0]
    scoped = invoke("standings", "--db", db_url, "--tournament", "1", "--json", "--stage", stage)
    assert json.loads(scoped[1]) == json.loads(
        invoke("standings", str(example_file), "--json", "--stage", stage)[1])


def test_command_line_mistakes_exit_2(sqlite_url: str, example_file: Path) -> None:
    r = run("standings")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert invoke("standings", str(example_file), "--tournament", "1",
                  "--db", sqlite_url)[0] == 2
    assert invoke("standings", "--db", sqlite_url)[0] == 2
    assert invoke("import")[0] == 2
    assert invoke("import", str(example_file), "--lang", "xx")[0] == 2
    assert invoke("db", "upgrade", "--db", sqlite_url)[0] == 0
    assert invoke("import", str(example_file), "--db", sqlite_url)[0] == 0
    assert invoke("standings", "--db", sqlite_url, "--tournament", "1",
                  "--stage", "nope")[0] == 2


def test_refused_file_changes_nothing(db_url: str, example_file: Path, tmp_path: Path) -> None:
    assert invoke("import", str(example_file), "--db", db_url)[0] == 0
    data = json.loads(example_file.read_text())
    game = data["games"][0]
    game["seats"][0]["role"] = "don"  # two dons
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    check = run("check", str(bad), "--lang", "en")
    refused = run("import", str(bad), "--db", db_url, "--lang", "en")
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert refused.stderr == check.stderr  # the problems, printed as `check` prints them
    assert f"game {game['id']}" in refused.stderr
    listed = invoke("tournaments", "--db", db_url, "--lang", "en")[1]
    assert listed.count(example_file.stem) == 1
    not_json = tmp_path / "x.json"
    not_json.write_text("{", encoding="utf-8")
    assert invoke("import", str(not_json), "--db", db_url)[0] == 1


def test_failures_exit_1(tmp_path: Path) -> None:
    empty = str(tmp_path / "empty.sqlite")
    code, _, err = invoke("standings", "--db", empty, "--tournament", "1", "--lang", "en")
    assert code == 1 and "db upgrade" in err
    assert invoke("db", "upgrade", "--db", empty)[0] == 0
    code, _, err = invoke("export", "7", "--db", empty, "--lang", "en")
    assert code == 1 and "not found" in err
    code, _, err = invoke("tournaments", "--db", "postgresql://nobody@127.0.0.1:1/none")
    assert code == 1
    code, _, err = invoke("tournaments", "--db", "mysql://x/y", "--lang", "en")
    assert code == 1 and "Bad database URL" in err
    sqlite_backup = tmp_path / "b.sqlite"
    sqlite3.connect(sqlite_backup).close()
    code, _, err = invoke("restore", str(sqlite_backup), "--db",
                          "postgresql://postgres@127.0.0.1/test", "--lang", "en")
    assert code == 1 and "restores into SQLite only" in err


def test_default_database_and_env(tmp_path: Path, example_file: Path) -> None:
    """No --db: `./mafiatab.sqlite`; MAFIATAB_DATABASE_URL overrides it."""
    r = run("import", str(example_file), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "mafiatab.sqlite").exists()
    other = tmp_path / "other.sqlite"
    r = run("import", str(example_file), cwd=tmp_path,
            env={"MAFIATAB_DATABASE_URL": f"sqlite:///{other}"})
    assert r.returncode == 0 and other.exists()
    with sqlite3.connect(tmp_path / "mafiatab.sqlite") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_backup_and_restore(tmp_path: Path, example_file: Path) -> None:
    db = str(tmp_path / "live.sqlite")
    assert invoke("import", str(example_file), "--db", db)[0] == 0
    backup = tmp_path / "copy.sqlite"
    r = run("backup", str(backup), "--db", db, "--lang", "en")
    assert r.returncode == 0, r.stderr
    with sqlite3.connect(backup) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT count(*) FROM tournaments").fetchone() == (1,)
    assert invoke("import", str(example_file), "--db", db)[0] == 0
    r = run("restore", str(backup), "--db", db, "--lang", "en")
    assert r.returncode == 0, r.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM tournaments").fetchone() == (1,)
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    code, text, _ = invoke("export", "1", "--db", db)
    assert code == 0 and _same_tournament(text.encode(), example_file.read_bytes())
    # a file that is not a mafiatab database is refused and the database is untouched
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    code, _, err = invoke("restore", str(junk), "--db", db, "--lang", "en")
    assert code == 1
    with sqlite3.connect(tmp_path / "plain.sqlite") as conn:
        conn.execute("CREATE TABLE t (x)")
    code, _, err = invoke("restore", str(tmp_path / "plain.sqlite"), "--db", db, "--lang", "en")
    assert code == 1 and "not a mafiatab database" in err
    assert invoke("export", "1", "--db", db)[0] == 0


@pytest.mark.parametrize("lang, word", [("ru", "Игрок"), ("en", "Player")])
def test_standings_file_unchanged(example_file: Path, lang: str, word: str) -> None:
    code, out, _ = invoke("standings", str(example_file), "--lang", lang)
    assert code == 0 and word in out
