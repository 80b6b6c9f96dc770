"""Fixtures for the storage tests: a fresh database of each kind for every test.

SQLite: a file in the test's tmp folder. PostgreSQL: a schema with a unique name in the
database given by `MAFIATAB_TEST_PG_URL` (default: the local `test` database), put first
on the connection's search path and dropped afterwards, so that runs never see each
other's tables. When PostgreSQL cannot be reached, the PostgreSQL tests fail in CI
(`CI=true`) and are skipped elsewhere, with the reason.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from mafiatab.services.facade import Services
from mafiatab.storage.engine import is_sqlite, make_engine, resolve_url, upgrade

PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
EXAMPLES = Path(__file__).resolve().parents[2] / ".." / "shared" / "spec" / "examples"
BACKENDS = ["sqlite", "postgresql"]


def example_files() -> list[Path]:
    return sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".standings.json"))


def pg_base_url() -> str:
    return os.environ.get("MAFIATAB_TEST_PG_URL", PG_DEFAULT)


def _pg_admin_conninfo(url: str) -> str:
    u = make_url(url).set(drivername="postgresql")
    return u.render_as_string(hide_password=False)


def _unreachable(reason: str) -> None:
    message = (f"PostgreSQL at {pg_base_url()} is unreachable ({reason}); start it or set "
               "MAFIATAB_TEST_PG_URL")
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message)
    pytest.skip(message)


@contextmanager
def pg_schema() -> Iterator[str]:
    """A URL whose connections work in a fresh schema of their own, dropped at the end
    (`pg_url` for one test; a module-scoped fixture may hold one for its tests)."""
    import psycopg

    schema = f"mt_test_{uuid.uuid4().hex[:12]}"
    admin = _pg_admin_conninfo(pg_base_url())
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
    except psycopg.OperationalError as e:
        _unreachable(str(e).strip().splitlines()[0] if str(e).strip() else "no answer")
    url = make_url(pg_base_url()).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A URL whose connections work in a fresh schema of their own."""
    with pg_schema() as url:
        yield url


@pytest.fixture
def example_file() -> Path:
    """One small spec example (a tournament to have in the database beforehand)."""
    return example_files()[0]


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return str(tmp_path / "mafiatab.sqlite")


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest) -> str:
    """Each test that asks for it runs on SQLite and on PostgreSQL."""
    name = "sqlite_url" if request.param == "sqlite" else "pg_url"
    return str(request.getfixturevalue(name))


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file at the newest schema, migrated once per test process: a test that only
    needs a migrated database gets a copy (tests/storage/test_storage_schema.py and the
    tests that call `upgrade` themselves run the migrations)."""
    path = tmp_path_factory.mktemp("migrated") / "template.sqlite"
    eng = make_engine(str(path))
    upgrade(eng)
    eng.dispose()  # the last connection checkpoints the WAL: the one file holds it all
    assert not path.with_name(path.name + "-wal").exists()
    return path


def migrated_engine(url: str, template: Path) -> Engine:
    """An engine on `url` at the newest schema: a new SQLite file is a copy of the template
    (a file copy, where the migrations take a third of a second on a loaded machine);
    PostgreSQL's fresh schema is migrated."""
    u = resolve_url(url)
    if is_sqlite(u) and u.database and not Path(u.database).exists():
        shutil.copyfile(template, u.database)
        return make_engine(url)
    eng = make_engine(url)
    upgrade(eng)
    return eng


@pytest.fixture
def engine(db_url: str, migrated_sqlite: Path) -> Iterator[Engine]:
    eng = migrated_engine(db_url, migrated_sqlite)
    yield eng
    eng.dispose()


@pytest.fixture
def service(engine: Engine) -> Services:
    return Services(engine)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`example`: every tournament file of the spec's examples."""
    if "example" in metafunc.fixturenames:
        files = example_files()
        metafunc.parametrize("example", files, ids=[p.stem for p in files])
