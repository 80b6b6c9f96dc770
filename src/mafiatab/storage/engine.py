"""Which database, how to connect, and its schema version (Alembic, run from the package).

SQLite is the default: a file (`mafiatab.sqlite` in the current folder) that a laptop at
the tournament hall keeps without any server. PostgreSQL serves a federation's archive;
it is chosen by a URL (`--db` or `MAFIATAB_DATABASE_URL`). The rest of the program does
not know which one it talks to.

SQLite settings, and why:
* `journal_mode=WAL`: readers (standings on a screen) never wait for a writer (a judge
  saving), and a crash mid-transaction leaves the last committed state;
* `synchronous=NORMAL`: safe with WAL (a power cut may lose the last commits, never
  corrupt the file), much faster than FULL;
* `foreign_keys=ON`: SQLite does not check them otherwise;
* `busy_timeout`: a writer waits for another instead of failing at once;
* writing transactions start with `BEGIN IMMEDIATE` (they take the write lock before
  reading), so two judges saving at once are serialised rather than one of them failing
  with "database is locked" when it turns from reading to writing.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any, Final

import msgspec
from sqlalchemy import Engine, create_engine, event, inspect
from sqlalchemy.engine import URL, make_url

from mafiatab.domain.problems import Problem, Refused
from mafiatab.texts.storage import STORAGE

DEFAULT_SQLITE_FILE: Final = "mafiatab.sqlite"
ENV_URL: Final = "MAFIATAB_DATABASE_URL"
#: the execution option that marks a connection as one that writes
WRITE_OPTION: Final = "mafiatab_write"
BUSY_TIMEOUT_MS: Final = 30_000

_MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_ENCODER = msgspec.json.Encoder(decimal_format="number")


class DatabaseError(Refused):
    """A database cannot be used as asked (bad URL, unreachable, wrong schema version)."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__([Problem(code, params=dict(params), texts=STORAGE)])


def resolve_url(db: str | None) -> URL:
    """The database URL: `--db`, else `MAFIATAB_DATABASE_URL`, else the settings file's
    `database_url` (mafiatab.settings), else `./mafiatab.sqlite`.

    A bare path means a SQLite file; `postgresql://` means psycopg 3 (the one driver the
    project ships).
    """
    from mafiatab.settings import database_url

    raw = db or database_url() or DEFAULT_SQLITE_FILE
    if "://" not in raw:
        return URL.create("sqlite+pysqlite", database=raw)
    try:
        url = make_url(raw)
    except Exception as e:  # sqlalchemy raises ArgumentError with its own text
        raise DatabaseError("bad_url", url=raw, detail=str(e)) from None
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    if url.drivername == "sqlite":
        url = url.set(drivername="sqlite+pysqlite")
    if url.drivername not in ("postgresql+psycopg", "sqlite+pysqlite"):
        raise DatabaseError("bad_url", url=raw, detail="sqlite:///FILE or postgresql://...")
    return url


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def _json_serializer(value: Any) -> str:
    """JSON columns hold Decimal points exactly (as JSON numbers), like the file does."""
    return _ENCODER.encode(value).decode("utf-8")


def _json_deserializer(text: str | bytes) -> Any:
    return json.loads(text, parse_float=Decimal)


def make_engine(db: str | URL | None = None) -> Engine:
    """An engine for the database, with the SQLite pragmas set on every connection."""
    url = db if isinstance(db, URL) else resolve_url(db)
    if is_sqlite(url):
        if url.database in (None, "", ":memory:"):
            raise DatabaseError("bad_url", url=str(url), detail="SQLite needs a file")
        engine = create_engine(
            url,
            json_serializer=_json_serializer,
            json_deserializer=_json_deserializer,
            connect_args={"timeout": BUSY_TIMEOUT_MS / 1000},
        )
        _sqlite_events(engine)
        return engine
    return create_engine(
        url,
        json_serializer=_json_serializer,
        json_deserializer=_json_deserializer,
        pool_pre_ping=True,
    )


def _sqlite_events(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # transactions are begun by us (below), not by pysqlite's guesswork
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        write = conn.get_execution_options().get(WRITE_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def writer(engine: Engine) -> Engine:
    """The same engine, marked so that its transactions take the write lock first."""
    return engine.execution_options(**{WRITE_OPTION: True})


# --- schema version -----------------------------------------------------------------


def _alembic_config(connection: Any) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(_MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to `revision` (Alembic migrations shipped in the package)."""
    from alembic import command

    with writer(engine).begin() as conn:
        command.upgrade(_alembic_config(conn), revision)


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    script = ScriptDirectory(str(_MIGRATIONS))
    head = script.get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    from alembic.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def check_schema(engine: Engine) -> None:
    """Raise `DatabaseError` unless the schema is at the newest migration."""
    try:
        current = current_revision(engine)
    except Exception as e:
        raise DatabaseError("unreachable", url=_safe(engine.url), detail=_short(e)) from None
    if current != head_revision():
        if current is None and not inspect(engine).get_table_names():
            raise DatabaseError("empty", url=_safe(engine.url))
        raise DatabaseError("old_schema", url=_safe(engine.url), current=current,
                            head=head_revision())


def _safe(url: URL) -> str:
    return url.render_as_string(hide_password=True)


def _short(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


__all__ = [
    "DEFAULT_SQLITE_FILE",
    "DatabaseError",
    "ENV_URL",
    "check_schema",
    "current_revision",
    "head_revision",
    "is_sqlite",
    "make_engine",
    "resolve_url",
    "upgrade",
    "writer",
]
