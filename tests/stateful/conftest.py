"""The stateful test's databases: SQLite (a file in the test's tmp folder) and PostgreSQL
(a fresh schema of its own, dropped afterwards: tests/storage/conftest.py), each migrated
to the newest schema once per test; the state machine empties it before each example."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from mafiatab.storage.engine import make_engine, upgrade
from tests.storage.conftest import BACKENDS, pg_schema


@pytest.fixture(params=BACKENDS)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "sqlite":
        eng = make_engine(str(tmp_path / "stateful.sqlite"))
        upgrade(eng)
        yield eng
        eng.dispose()
        return
    with pg_schema() as url:
        eng = make_engine(url)
        upgrade(eng)
        yield eng
        eng.dispose()
