"""Migration 0015_rating both ways, on SQLite and PostgreSQL: `federation_settings.min_games`
appears as 0 on an existing setting (everybody ranked, as before) and goes again."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import Engine

from mafiatab.storage.engine import current_revision, head_revision, make_engine, upgrade
from tests.storage.conftest import db_url, pg_url, sqlite_url  # noqa: F401 - fixtures


def _to(engine: Engine, revision: str, *, down: bool) -> None:
    from alembic import command

    from mafiatab.storage.engine import _alembic_config, writer  # noqa: PLC2701

    with writer(engine).begin() as conn:
        (command.downgrade if down else command.upgrade)(_alembic_config(conn), revision)


def _columns(engine: Engine) -> set[str]:
    return {c["name"] for c in sa.inspect(engine).get_columns("federation_settings")}


def test_migration_0015_rating_both_ways(db_url: str) -> None:  # noqa: F811
    engine = make_engine(db_url)
    try:
        _to(engine, "0014", down=False)
        assert "min_games" not in _columns(engine)
        with engine.begin() as c:
            c.execute(sa.text("INSERT INTO federation_settings (id, stage_kinds, unrated, elite)"
                              " VALUES (1, '[\"final\"]', '[]', '[]')"))
        upgrade(engine)
        assert current_revision(engine) == head_revision()
        with engine.connect() as c:
            assert c.scalar(sa.text("SELECT min_games FROM federation_settings")) == 0
        _to(engine, "0014", down=True)
        assert "min_games" not in _columns(engine)
        with engine.connect() as c:  # the setting itself is kept
            assert c.scalar(sa.text("SELECT count(*) FROM federation_settings")) == 1
    finally:
        engine.dispose()
