"""Migration 0014 both ways, on SQLite and PostgreSQL: `users.admin` appears with the
administrator right for the organizer account with the lowest id only, and goes again."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import Engine

from mafiatab.domain import protocol as model
from mafiatab.services.facade import Services
from mafiatab.storage.engine import current_revision, head_revision, make_engine, upgrade
from tests.storage.conftest import db_url, pg_url, sqlite_url  # noqa: F401 - fixtures


def _to(engine: Engine, revision: str, *, down: bool) -> None:
    from alembic import command

    from mafiatab.storage.engine import _alembic_config, writer  # noqa: PLC2701

    with writer(engine).begin() as conn:
        (command.downgrade if down else command.upgrade)(_alembic_config(conn), revision)


def _columns(engine: Engine) -> set[str]:
    return {c["name"] for c in sa.inspect(engine).get_columns("users")}


def test_migration_0014_both_ways(db_url: str, tmp_path: Path) -> None:  # noqa: F811
    engine = make_engine(db_url)
    try:
        _to(engine, "0013", down=False)
        assert "admin" not in _columns(engine)
        users = sa.table("users", sa.column("id", sa.Integer), sa.column("name", sa.String),
                         sa.column("organizer", sa.Boolean),
                         sa.column("created_at", sa.DateTime(timezone=True)))
        at = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
        with engine.begin() as c:
            c.execute(users.insert(), [
                {"id": 3, "name": "plain", "organizer": False, "created_at": at},
                {"id": 5, "name": "first-org", "organizer": True, "created_at": at},
                {"id": 9, "name": "later-org", "organizer": True, "created_at": at}])
        upgrade(engine)
        assert current_revision(engine) == head_revision()
        with engine.connect() as c:
            rows = {n: a for n, a in c.execute(sa.text("SELECT name, admin FROM users"))}
        assert {k: bool(v) for k, v in rows.items()} == {
            "plain": False, "first-org": True, "later-org": False}
        # rows that refer to `users` (a tournament's grant) do not stop the way down
        svc = Services(engine)
        svc.accounts.add_account("first-org", "first-org-pass-1", actor="first-org")
        svc.tournaments.new_tournament("Кубок", "fsm", actor="first-org", stages=[
            model.Stage(id="qual", name="Отбор", kind="qualification")])
        _to(engine, "0013", down=True)
        assert "admin" not in _columns(engine)
        with engine.connect() as c:
            assert c.scalar(sa.text("SELECT count(*) FROM users WHERE organizer")) == 2
            assert c.scalar(sa.text("SELECT count(*) FROM user_roles")) == 1  # kept
    finally:
        engine.dispose()
