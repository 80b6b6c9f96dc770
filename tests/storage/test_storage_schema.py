"""The migrations and the models agree, and the migrations run both ways."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, inspect

from mafiatab.storage.engine import current_revision, head_revision, upgrade
from mafiatab.storage.models import Base


def test_models_match_migrations(engine: Engine) -> None:
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []
    assert current_revision(engine) == head_revision()


def test_downgrade_and_upgrade_again(engine: Engine) -> None:
    upgrade(engine, "head")  # idempotent
    from alembic import command

    from mafiatab.storage.engine import _alembic_config, writer

    with writer(engine).begin() as conn:
        command.downgrade(_alembic_config(conn), "base")
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    upgrade(engine)
    assert "protocol_revisions" in inspect(engine).get_table_names()


def test_sqlite_pragmas(sqlite_url: str) -> None:
    from mafiatab.storage.engine import make_engine

    engine = make_engine(sqlite_url)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000


def test_participants_are_indexed_by_player_both_ways(engine: Engine) -> None:
    """Migration 0011: a person's tournaments are found by `player_id` alone (an index
    of its own), and its downgrade takes the index away again."""
    from alembic import command

    from mafiatab.storage.engine import _alembic_config, writer

    def indexed() -> list[list[str | None]]:
        return [list(ix["column_names"])
                for ix in inspect(engine).get_indexes("tournament_participants")]

    assert ["player_id"] in indexed()
    with writer(engine).begin() as conn:
        command.downgrade(_alembic_config(conn), "0010")
    assert ["player_id"] not in indexed()
    upgrade(engine)
    assert ["player_id"] in indexed()
