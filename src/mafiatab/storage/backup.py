"""Backup and restore of a SQLite database with SQLite's online backup API.

Why the backup API and not a file copy: the database may be open (a judge saving, the
web app reading) and in WAL mode, where the newest commits may still be in the `-wal`
file; the API copies a consistent snapshot of everything committed.

Neither operation can leave half a file behind:
* a backup is written to a temporary file in the target's folder, checked, flushed to
  disk and then renamed over the target;
* a restore checks the backup first (`PRAGMA integrity_check`, and that it is a mafiatab
  database), then copies it into the live database in one step, which SQLite does in one
  write transaction: killed in the middle, the database is as it was before.

A backup holds every account's password hash and the tournaments' unpublished protocols:
it is written readable by its owner only (0600). A restore takes only a backup of the
schema the program runs (its Alembic revision); an older one is upgraded first when asked
(`upgrade=True`), on a temporary copy, so the live database is replaced all or nothing.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from pathlib import Path

from mafiatab.domain.problems import Problem, Refused
from mafiatab.storage.engine import BUSY_TIMEOUT_MS
from mafiatab.texts.storage import STORAGE


class BackupError(Refused):
    """A backup or restore refused; `code` and `params` for the message."""

    def __init__(self, code: str, **params: str) -> None:
        self.code = code
        self.params = params
        super().__init__([Problem(code, params=dict(params), texts=STORAGE)])


def _connect(path: Path, read_only: bool = False) -> sqlite3.Connection:
    if read_only:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                               timeout=BUSY_TIMEOUT_MS / 1000)
    else:
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000)
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    return conn


def integrity(conn: sqlite3.Connection) -> str:
    """`ok`, or the first problem `PRAGMA integrity_check` reports."""
    rows = conn.execute("PRAGMA integrity_check").fetchall()
    return "ok" if rows == [("ok",)] else "; ".join(str(r[0]) for r in rows[:3])


def _check_mafiatab(conn: sqlite3.Connection, path: Path) -> None:
    try:
        check = integrity(conn)
    except sqlite3.DatabaseError as e:
        raise BackupError("not_sqlite", file=str(path), detail=str(e)) from None
    if check != "ok":
        raise BackupError("corrupt", file=str(path), detail=check)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not {"alembic_version", "tournaments", "protocol_revisions"} <= tables:
        raise BackupError("not_mafiatab", file=str(path))


def backup_sqlite(database: Path, target: Path) -> None:
    """Copy the live database `database` to the file `target`, atomically."""
    if not database.exists():
        raise BackupError("no_database", file=str(database))
    target = target.resolve()
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                    dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        src = _connect(database)
        try:
            dst = sqlite3.connect(str(tmp))
            try:
                src.backup(dst)
                # a backup is one self-contained file, whatever mode the source was in
                dst.execute("PRAGMA journal_mode=DELETE")
                _check_mafiatab(dst, database)
            finally:
                dst.close()
        finally:
            src.close()
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        tmp.chmod(0o600)  # password hashes and unpublished protocols: the owner's only
        os.replace(tmp, target)
    except sqlite3.Error as e:
        raise BackupError("failed", file=str(target), detail=str(e)) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def schema_version(conn: sqlite3.Connection) -> str | None:
    row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    return None if row is None else str(row[0])


def restore_sqlite(backup: Path, database: Path, *, upgrade: bool = False) -> None:
    """Replace the contents of `database` by those of the file `backup`, all or nothing.
    A backup of another schema version is refused; with `upgrade` an older one is
    migrated first (on a temporary copy; the backup file is left as it is)."""
    if not backup.is_file():
        raise BackupError("no_backup", file=str(backup))
    from mafiatab.storage.engine import head_revision

    try:
        src = _connect(backup, read_only=True)
    except sqlite3.Error as e:
        raise BackupError("not_sqlite", file=str(backup), detail=str(e)) from None
    try:
        _check_mafiatab(src, backup)
        version, head = schema_version(src), head_revision()
    except (sqlite3.Error, BackupError) as e:
        src.close()
        if isinstance(e, BackupError):
            raise
        raise BackupError("failed", file=str(backup), detail=str(e)) from None
    if version == head:
        _restore_checked(src, database)
        return
    src.close()
    if not upgrade or version is None or version > head:
        raise BackupError("other_version", file=str(backup), version=str(version), head=head)
    _restore_upgraded(backup, database)


def _restore_upgraded(backup: Path, database: Path) -> None:
    from mafiatab.storage.engine import make_engine
    from mafiatab.storage.engine import upgrade as migrate

    fd, tmp_name = tempfile.mkstemp(prefix=f".{database.name}.", suffix=".restore",
                                    dir=database.resolve().parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        with contextlib.closing(_connect(backup, read_only=True)) as src, \
                contextlib.closing(sqlite3.connect(str(tmp))) as dst:
            src.backup(dst)
        engine = make_engine(str(tmp))
        try:
            migrate(engine)
        finally:
            engine.dispose()
        _restore_checked(_connect(tmp, read_only=True), database)
    finally:
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                Path(str(tmp) + suffix).unlink()


def _restore_checked(src: sqlite3.Connection, database: Path) -> None:
    """Copy the checked source into the live database in one step; closes `src`."""
    try:
        dst = _connect(database)
        try:
            # one step (pages=-1): one write transaction on the destination
            src.backup(dst, pages=-1)
            check = integrity(dst)
            if check != "ok":  # pragma: no cover - the source was checked just before
                raise BackupError("corrupt", file=str(database), detail=check)
        finally:
            dst.close()
    except sqlite3.Error as e:
        raise BackupError("failed", file=str(database), detail=str(e)) from None
    finally:
        src.close()
