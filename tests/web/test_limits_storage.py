"""The sign-in limits' storage: counts in the database are one for
every process (two guards on one database stand for two processes; test_workers.py runs
real ones), and a limited address is refused before its request's body is read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from mafiatab.services.rate_limits import DatabaseStorage
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.web.app import create_app
from mafiatab.web.security import Guard, SignInLimits, TooMany, rate_storage
from tests.storage.conftest import db_url, pg_url, sqlite_url  # noqa: F401 - fixtures


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:  # noqa: F811 - the imported fixture
    eng = make_engine(db_url)
    upgrade(eng)
    yield eng
    eng.dispose()


def test_two_processes_share_one_count(engine: Engine) -> None:
    limits = SignInLimits(per_code="5/minute")
    one, two = (Guard(limits, DatabaseStorage(engine)) for _ in range(2))
    for n in range(5):
        guard = (one, two)[n % 2]
        guard.attempt("10.0.0.1", code="AB12")
        guard.failed("10.0.0.1", code="AB12")
    for guard in (two, one):
        with pytest.raises(TooMany) as e:
            guard.attempt("10.0.0.2", code="AB12")  # another address: the code's own limit
        assert 1 <= e.value.retry_after <= 60
    one.attempt("10.0.0.1", code="CD34")  # another code is free


def test_the_default_storage_follows_the_database(engine: Engine,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MAFIATAB_LIMITS", raising=False)
    storage = rate_storage(engine)
    expected = "DatabaseStorage" if engine.dialect.name == "postgresql" else "MemoryStorage"
    assert type(storage).__name__ == expected
    assert type(rate_storage(engine, "database")).__name__ == "DatabaseStorage"
    assert type(rate_storage(engine, "memory")).__name__ == "MemoryStorage"


def test_a_limited_address_is_refused_before_its_body_is_read(tmp_path: Path) -> None:
    db = tmp_path / "limits.sqlite"
    upgrade(make_engine(str(db)))
    app = create_app(str(db), secret="s", limits=SignInLimits(per_address="3/minute"))
    c = TestClient(app)
    csrf = c.get("/api/session").json()["csrf"]
    answers = [c.post("/api/login", json={"user": "nobody", "password": f"x{n}"},
                      headers={"X-CSRF-Token": csrf}).status_code for n in range(4)]
    assert answers == [401, 401, 401, 429]
    # no CSRF token and a body that is no JSON: refused for the limit, not read at all
    r = c.post("/api/login", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    r = c.post("/login", content=b"user=a&password=b",
               headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 429 and "Too many sign-in attempts" in r.text
    assert c.get("/api/session").status_code == 200  # other requests are not limited
