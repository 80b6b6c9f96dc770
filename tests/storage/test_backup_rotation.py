"""`mafiatab db backup DIR --keep N` and `db restore` on both databases, as an operator
runs them (subprocesses): backups rotate (the oldest of the program's own files go, an
operator's other files stay), a backup restores into a copy (a fresh SQLite file, a fresh
PostgreSQL schema) with every row as it was, the restore replaces what changed since, a
PostgreSQL dump also restores into SQLite (`--verify` does so on a throwaway file), and a
damaged or cut dump is refused with the database left as it was."""

from __future__ import annotations

import datetime as dt
import gzip
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, func, select

from mafiatab.sample import sample_tournament
from mafiatab.storage.dump import tables
from mafiatab.storage.engine import is_sqlite, make_engine, resolve_url, upgrade
from mafiatab.storage.rotation import NAME, backups
from mafiatab.web.demo import populate
from tests.storage.conftest import pg_schema
from tests.storage.test_storage_cli import run


def cli(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """`mafiatab ARGS` in this process (the refusals: quicker than a subprocess)."""
    from typer.testing import CliRunner

    from mafiatab.cli import app

    result = CliRunner().invoke(app, list(args), env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.exception)
    return result.exit_code, result.stdout, result.stderr


def _rows(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in key order: what a restore must give back."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    with engine.connect() as conn:
        for table in tables():
            order = list(table.primary_key.columns) or list(table.columns)
            out[table.name] = [tuple(r) for r in conn.execute(select(table).order_by(*order))]
    return out


def _naive_utc(rows: dict[str, list[tuple[Any, ...]]]) -> dict[str, list[tuple[Any, ...]]]:
    """SQLite keeps a time's wall clock alone (the program's times are UTC): times with
    their zone, as PostgreSQL gives them, compared as UTC wall clocks."""
    def plain(v: Any) -> Any:
        if isinstance(v, dt.datetime) and v.tzinfo is not None:
            return v.astimezone(dt.UTC).replace(tzinfo=None)
        return v

    return {name: [tuple(plain(v) for v in row) for row in rows[name]] for name in rows}


def _live(db_url: str, tmp_path: Path) -> Engine:
    """The demo tournament (accounts, sessions, protocols, audit, settings) in `db_url`."""
    engine = make_engine(db_url)
    upgrade(engine)
    populate(engine, sample_tournament(), tmp_path / "unused.sqlite")
    return engine


def _count(engine: Engine, name: str) -> int:
    table = next(t for t in tables() if t.name == name)
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def test_backup_keeps_the_newest_n_and_restores_into_a_copy(db_url: str, tmp_path: Path) -> None:
    engine = _live(db_url, tmp_path)
    before = _rows(engine)
    assert sum(len(v) for v in before.values()) > 100
    assert before["users"] and before["audit_log"] and before["protocol_revisions"]
    folder = tmp_path / "backups"
    folder.mkdir()
    mine = folder / "notes.txt"  # an operator's own file: never removed
    mine.write_text("keep me", encoding="utf-8")
    suffix = ".sqlite" if is_sqlite(resolve_url(db_url)) else ".dump.gz"
    made: list[str] = []
    for i in range(3):
        r = run("db", "backup", str(folder), "--keep", "2", "--db", db_url, "--lang", "en")
        assert r.returncode == 0, r.stderr
        assert "Backup of" in r.stdout
        assert ("Old backups removed: 1" in r.stdout) == (i == 2), r.stdout
        kept = backups(folder)
        made.append(kept[-1].name)
        assert len(kept) == min(i + 1, 2)
    kept = backups(folder)
    assert [p.name for p in kept] == made[1:]  # the oldest went
    assert all(p.name.endswith(suffix) and NAME.match(p.name) for p in kept)
    assert all(p.stat().st_mode & 0o077 == 0 for p in kept)  # the owner's only
    assert mine.read_text(encoding="utf-8") == "keep me"

    # restore into a copy: a fresh database of the same kind gets every row back
    newest = kept[-1]
    if suffix == ".sqlite":
        copy_url = str(tmp_path / "copy.sqlite")
        r = run("db", "restore", str(newest), "--db", copy_url, "--lang", "en")
        assert r.returncode == 0, r.stderr
        copy = make_engine(copy_url)
        assert _rows(copy) == before
        copy.dispose()
    else:
        with pg_schema() as copy_url:
            r = run("db", "restore", str(newest), "--db", copy_url, "--lang", "en")
            assert r.returncode == 0, r.stderr
            copy = make_engine(copy_url)
            assert _rows(copy) == before
            # the ids go on after the restored ones: a new tournament imports
            users = _count(copy, "users")
            r = run("db", "restore", str(newest), "--db", copy_url, "--lang", "en")
            assert r.returncode == 0, r.stderr  # restoring twice: the same rows, not twice
            assert _count(copy, "users") == users
            copy.dispose()

    # the live database changes; the restore brings it back to the backup
    with engine.begin() as conn:
        audit = next(t for t in tables() if t.name == "audit_log")
        conn.execute(audit.delete())
    assert _count(engine, "audit_log") == 0
    r = run("db", "restore", str(newest), "--db", db_url, "--lang", "en")
    assert r.returncode == 0, r.stderr
    assert _rows(engine) == before
    engine.dispose()


def test_a_postgres_dump_restores_into_sqlite_and_verifies(pg_url: str, tmp_path: Path) -> None:
    engine = _live(pg_url, tmp_path)
    before = _rows(engine)
    engine.dispose()
    dump = tmp_path / "federation.dump.gz"
    r = run("db", "backup", str(dump), "--verify", "--db", pg_url, "--lang", "en")
    assert r.returncode == 0, r.stderr
    assert "Backup verified" in r.stdout
    laptop = str(tmp_path / "laptop.sqlite")
    r = run("db", "restore", str(dump), "--db", laptop, "--lang", "en")
    assert r.returncode == 0, r.stderr
    copy = make_engine(laptop)
    assert _rows(copy) == _naive_utc(before)
    copy.dispose()


def test_a_cut_or_foreign_dump_is_refused_and_nothing_changes(pg_url: str, tmp_path: Path) -> None:
    engine = _live(pg_url, tmp_path)
    before = _rows(engine)
    dump = tmp_path / "whole.dump.gz"
    assert cli("db", "backup", str(dump), "--db", pg_url)[0] == 0
    lines = gzip.decompress(dump.read_bytes()).splitlines(keepends=True)
    cut = tmp_path / "cut.dump.gz"
    cut.write_bytes(gzip.compress(b"".join(lines[: len(lines) // 2])))
    code, _, err = cli("db", "restore", str(cut), "--db", pg_url, "--lang", "en")
    assert code == 1 and "cut short" in err, err
    assert _rows(engine) == before
    other = tmp_path / "other.dump.gz"
    other.write_bytes(gzip.compress(lines[0].replace(b'"schema":"', b'"schema":"x') +
                                    b"".join(lines[1:])))
    code, _, err = cli("db", "restore", str(other), "--db", pg_url, "--lang", "en")
    assert code == 1 and "its schema is version x" in err, err
    junk = tmp_path / "junk.dump.gz"
    junk.write_bytes(b"\x1f\x8bnot gzip at all")
    code, _, err = cli("db", "restore", str(junk), "--db", pg_url, "--lang", "en")
    assert code == 1 and "not a mafiatab backup" in err, err
    # a SQLite file backup goes into SQLite only
    sqlite_file = tmp_path / "b.sqlite"
    sqlite3.connect(sqlite_file).close()
    code, _, err = cli("db", "restore", str(sqlite_file), "--db", pg_url, "--lang", "en")
    assert code == 1 and "restores into SQLite only" in err, err
    assert _rows(engine) == before
    engine.dispose()


def test_backup_command_line_refusals(tmp_path: Path) -> None:
    db = str(tmp_path / "x.sqlite")
    assert cli("db", "upgrade", "--db", db)[0] == 0
    code, _, err = cli("db", "backup", str(tmp_path / "one.sqlite"), "--keep", "2", "--db", db,
                       "--lang", "en")
    assert code == 2 and "--keep needs a folder" in err, err
    code, _, err = cli("db", "backup", "--db", db, "--lang", "en")
    assert code == 2 and "Where to?" in err, err
    # the folder from the settings (MAFIATAB_BACKUP_DIR), the number kept from them too
    folder = tmp_path / "nightly"
    folder.mkdir()
    for _ in range(3):
        code, _, err = cli("db", "backup", "--db", db, env={"MAFIATAB_BACKUP_DIR": str(folder),
                                                             "MAFIATAB_BACKUP_KEEP": "1"})
        assert code == 0, err
    assert len(backups(folder)) == 1


def test_the_postgres_dump_is_one_snapshot(pg_url: str, tmp_path: Path) -> None:
    """A row committed by another connection while the dump reads (after its first table,
    before the audit log) is not in the dump: every table is read in one snapshot."""
    from sqlalchemy import event

    from mafiatab.storage.dump import dump

    engine = _live(pg_url, tmp_path)
    audit = next(t for t in tables() if t.name == "audit_log")
    first = tables()[0]
    assert tables().index(audit) > 0
    before = _count(engine, "audit_log")
    other = make_engine(pg_url)
    written: list[bool] = []

    def meanwhile(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        if written or f"FROM {first.name}" not in statement:
            return
        with other.begin() as c:  # another session commits while the dump goes on
            row = dict(c.execute(select(audit).limit(1)).mappings().one())
            row.pop("id")
            c.execute(audit.insert().values(**row))
        written.append(True)

    event.listen(engine, "after_cursor_execute", meanwhile)
    try:
        dump(engine, tmp_path / "snap.dump.gz")
    finally:
        event.remove(engine, "after_cursor_execute", meanwhile)
    assert written and _count(engine, "audit_log") == before + 1
    copy = make_engine(str(tmp_path / "snap.sqlite"))
    from mafiatab.storage.dump import restore

    restore(tmp_path / "snap.dump.gz", copy)
    assert _count(copy, "audit_log") == before
    copy.dispose()
    other.dispose()
    engine.dispose()
