"""A whole database as one file of its rows (`mafiatab.dump/1`), and back: the backup
of a PostgreSQL database (SQLite's is a file copy by its online backup API, `backup.py`).

Why our own dump and not pg_dump:
* consistent the same way: every table is read in one `REPEATABLE READ, READ ONLY`
  transaction, one snapshot of everything committed, as pg_dump reads it;
* no client program to match: pg_dump refuses a server of a newer major version, and the
  container image and a bare server would need the right `postgresql-client`; this needs
  only the program itself;
* it restores all or nothing (one transaction) after checking the schema version, as the
  SQLite restore does, into a database or a schema (`search_path`) of any name;
* the rows are the program's, not the server's: a dump restores into SQLite as well
  (a federation's archive onto a laptop, or `db backup --verify` on a throwaway copy).
What it does not keep: what the program did not create (other schemas, roles, grants).

The file: gzip of JSON lines. The first line says the format, the schema version
(Alembic's revision), the tables and their columns; then one line per row (`[table,
values]`); the last line counts the rows of each table, so a cut file is refused. Values
are JSON with exact decimals; times as ISO text, bytes as base64. Written to a temporary
file beside the target, flushed and renamed: never half a file under the target's name.
Readable by its owner only (0600): it holds password hashes and unpublished protocols.
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import gzip
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any, Final

import msgspec
from sqlalchemy import Column, Engine, Table, delete, insert, select, text
from sqlalchemy.types import JSON, Boolean, DateTime, Float, Integer, LargeBinary

from mafiatab.storage.backup import BackupError
from mafiatab.storage.engine import check_schema, current_revision, head_revision, writer
from mafiatab.storage.models import Base

FORMAT: Final = "mafiatab.dump/1"
#: rows read from the server and written to it at a time
BATCH: Final = 1000
GZIP_MAGIC: Final = b"\x1f\x8b"

_ENCODER = msgspec.json.Encoder(decimal_format="number")


def tables() -> list[Table]:
    """Every table of the program, parents before children."""
    return list(Base.metadata.sorted_tables)


def _encoder(column: Column[Any]) -> Callable[[Any], Any]:
    kind = column.type
    if isinstance(kind, DateTime):
        return _time_text
    if isinstance(kind, LargeBinary):
        return lambda v: None if v is None else base64.b64encode(v).decode("ascii")
    return lambda v: v


def _time_text(value: dt.datetime | None) -> str | None:
    """ISO text; a time with its zone in UTC (PostgreSQL hands them in the session's
    zone; SQLite keeps the wall time alone, and the program's times are UTC)."""
    if value is None:
        return None
    if value.tzinfo is not None:
        value = value.astimezone(dt.UTC)
    return value.isoformat()


def _decoder(column: Column[Any]) -> Callable[[Any], Any]:
    kind = column.type
    if isinstance(kind, DateTime):
        return lambda v: None if v is None else dt.datetime.fromisoformat(v)
    if isinstance(kind, LargeBinary):
        return lambda v: None if v is None else base64.b64decode(v)
    if isinstance(kind, Float):
        return lambda v: None if v is None else float(v)
    if isinstance(kind, (Integer, Boolean, JSON)):
        return lambda v: v
    return lambda v: v


# --- dump ------------------------------------------------------------------------------


def dump(engine: Engine, target: Path) -> dict[str, int]:
    """Write every row of the database to `target` (atomically); the rows per table."""
    check_schema(engine)
    target = target.resolve()
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        with open(tmp, "wb") as raw:
            with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6) as out:
                counts = _write(engine, out)
            raw.flush()
            os.fsync(raw.fileno())
        tmp.chmod(0o600)
        os.replace(tmp, target)
        return counts
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _snapshot(engine: Engine) -> Any:
    """A connection whose one transaction sees one snapshot of the whole database."""
    if engine.dialect.name == "postgresql":
        return engine.connect().execution_options(isolation_level="REPEATABLE READ",
                                                  postgresql_readonly=True)
    return engine.connect()  # SQLite: one read transaction is one snapshot (WAL)


def _write(engine: Engine, out: gzip.GzipFile) -> dict[str, int]:
    every = tables()
    counts: dict[str, int] = {}
    with _snapshot(engine) as conn, conn.begin():
        head = {"format": FORMAT, "schema": current_revision_in(conn),
                "made": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                "from": engine.dialect.name,
                "tables": {str(t.name): [str(c.name) for c in t.columns] for t in every}}
        out.write(_ENCODER.encode(head) + b"\n")
        for table in every:
            encoders = [_encoder(c) for c in table.columns]
            order = list(table.primary_key.columns) or list(table.columns)
            rows = conn.execution_options(yield_per=BATCH).execute(
                select(*table.columns).order_by(*order))
            n = 0
            for row in rows:
                values = [enc(v) for enc, v in zip(encoders, row, strict=True)]
                out.write(_ENCODER.encode([str(table.name), values]) + b"\n")
                n += 1
            counts[str(table.name)] = n
        out.write(_ENCODER.encode({"end": FORMAT, "rows": counts}) + b"\n")
    return counts


def current_revision_in(conn: Any) -> str | None:
    row = conn.execute(text("SELECT version_num FROM alembic_version")).first()
    return None if row is None else str(row[0])


# --- restore ---------------------------------------------------------------------------


def is_dump(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(2) == GZIP_MAGIC
    except OSError:
        return False


def _lines(path: Path) -> Iterator[Any]:
    with gzip.open(path, "rb") as fh:
        for line in fh:
            yield json.loads(line, parse_float=Decimal)


def read_head(path: Path) -> dict[str, Any]:
    """The dump's first line, checked: the format and the schema version the program
    runs (`BackupError` otherwise)."""
    if not path.is_file():
        raise BackupError("no_backup", file=str(path))
    try:
        head = next(_lines(path))
    except (OSError, EOFError, ValueError, StopIteration, gzip.BadGzipFile) as e:
        raise BackupError("not_dump", file=str(path), detail=str(e) or type(e).__name__) \
            from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise BackupError("not_dump", file=str(path), detail="format")
    if head.get("schema") != head_revision():
        raise BackupError("other_version_dump", file=str(path), version=str(head.get("schema")),
                          head=head_revision())
    return head


def restore(path: Path, engine: Engine) -> dict[str, int]:
    """Replace every row of the database by the dump's, in one transaction: a dump cut
    short, of another schema, or refused by the database leaves it as it was. The
    database is created or upgraded to the newest schema first."""
    from mafiatab.storage.engine import upgrade

    head = read_head(path)
    upgrade(engine)
    every = {t.name: t for t in tables()}
    columns: dict[str, list[str]] = head["tables"]
    if set(columns) != set(every) or any(
            columns[name] != [c.name for c in every[name].columns] for name in every):
        raise BackupError("not_dump", file=str(path), detail="tables")
    decoders = {name: [_decoder(c) for c in t.columns] for name, t in every.items()}
    counts = {name: 0 for name in every}
    try:
        with writer(engine).begin() as conn:
            _empty(conn, list(every.values()))
            end: dict[str, Any] | None = None
            pending: list[dict[str, Any]] = []
            table_of_pending = ""
            lines = _lines(path)
            next(lines)
            for item in lines:
                if isinstance(item, dict):
                    end = item
                    break
                name, values = item
                if name != table_of_pending and pending:
                    conn.execute(insert(every[table_of_pending]), pending)
                    pending = []
                table_of_pending = name
                pending.append({col: dec(v) for col, dec, v in
                                zip(columns[name], decoders[name], values, strict=True)})
                counts[name] += 1
                if len(pending) >= BATCH:
                    conn.execute(insert(every[name]), pending)
                    pending = []
            if pending:
                conn.execute(insert(every[table_of_pending]), pending)
            if end is None or end.get("rows") != counts:
                raise BackupError("not_dump", file=str(path), detail="cut short")
            _restart_counters(conn, list(every.values()))
    except (OSError, EOFError, ValueError, KeyError, gzip.BadGzipFile) as e:
        raise BackupError("not_dump", file=str(path), detail=str(e) or type(e).__name__) \
            from None
    if current_revision(engine) != head_revision():  # pragma: no cover - upgraded above
        raise BackupError("failed", file=str(path), detail="schema")
    return counts


def _empty(conn: Any, every: list[Table]) -> None:
    if conn.dialect.name == "postgresql":
        names = ", ".join(conn.dialect.identifier_preparer.quote(t.name) for t in every)
        conn.execute(text(f"TRUNCATE {names}"))
        return
    for table in reversed(every):
        conn.execute(delete(table))


def _restart_counters(conn: Any, every: list[Table]) -> None:
    """PostgreSQL's sequences go on after the restored ids (SQLite takes the next id
    from the rows themselves)."""
    if conn.dialect.name != "postgresql":
        return
    for table in every:
        for column in table.primary_key.columns:
            if not (isinstance(column.type, Integer) and column.autoincrement in (True, "auto")):
                continue
            name = conn.dialect.identifier_preparer.quote(table.name)
            sequence = conn.execute(text("SELECT pg_get_serial_sequence(:t, :c)"),
                                    {"t": name, "c": column.name}).scalar()
            if sequence is None:
                continue
            conn.execute(text(f"SELECT setval(:s, coalesce((SELECT max({column.name}) FROM "
                              f"{name}), 0) + 1, false)"), {"s": sequence})
