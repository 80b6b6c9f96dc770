"""A use case composed of services' calls is one transaction (services/store.py): a
`write()` or `read()` inside a `write()` on the same engine joins it, on both databases."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from mafiatab.services.store import Store, record_audit
from mafiatab.storage import models as db
from tests.storage.conftest import db_url, migrated_engine, pg_url, sqlite_url  # noqa: F401


class Boom(Exception):
    pass


def _actions(store: Store) -> list[str]:
    with store.read() as s:
        return list(s.scalars(select(db.AuditEntry.action).order_by(db.AuditEntry.id)))


def test_a_write_inside_a_write_is_one_transaction(db_url: str,  # noqa: F811
                                                   migrated_sqlite: Path) -> None:
    engine = migrated_engine(db_url, migrated_sqlite)
    try:
        outer, inner = Store(engine), Store(engine)
        ran: list[str] = []
        outer.on_write(lambda: ran.append("outer"))
        inner.on_write(lambda: ran.append("inner"))
        # the whole fails: nothing of it is stored, no hook runs
        with pytest.raises(Boom), outer.write() as s:
            record_audit(s, "u", None, "first", {})
            with inner.write() as s2:
                record_audit(s2, "u", None, "second", {})
            raise Boom
        assert _actions(outer) == [] and ran == []
        # the whole commits: both steps, each store's hooks once, after the commit
        with outer.write() as s:
            record_audit(s, "u", None, "first", {})
            with inner.write() as s2:
                record_audit(s2, "u", None, "second", {})
            with inner.read() as s3:  # a read inside sees the uncommitted steps
                assert len(list(s3.scalars(select(db.AuditEntry.id)))) == 2
            assert ran == []
        assert _actions(outer) == ["first", "second"] and ran == ["outer", "inner"]
        # a step that fails and is caught takes back its own writes only
        with outer.write() as s:
            record_audit(s, "u", None, "third", {})
            with pytest.raises(Boom), inner.write() as s2:
                record_audit(s2, "u", None, "lost", {})
                s2.flush()
                raise Boom
        assert _actions(outer) == ["first", "second", "third"]
    finally:
        engine.dispose()
