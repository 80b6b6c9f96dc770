"""Odd values that SQLite stores or looks up quietly and PostgreSQL refuses outright, on
both databases: a NUL character in an account name (PostgreSQL's text holds no NUL) and
an id past PostgreSQL's integer. Either must be answered before it reaches a query.

Found by bench/attack.py's sweep against `serve --workers 2` on PostgreSQL: on main the
accounts page's password reset (`/admin/accounts/reset`) looked a name with a NUL up as
typed, and the code revocation (`/t/{tid}/setup/codes/{cid}/revoke`, and its API twin)
looked up an id of 23 digits: both answered 500."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from mafiatab.services.errors import ServiceError
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.web.app import create_app
from tests.attacks.conftest import RELAXED, csrf_of
from tests.storage.conftest import db_url, pg_url, sqlite_url  # noqa: F401 - fixtures

ADMIN = "root"
ORGANIZER = "boss"
PASSWORD = "nul-names-pass-2026"
NAMES = ["\x00", "ro\x00ot", "root\x00"]


@pytest.fixture
def services(db_url: str) -> Iterator[Services]:  # noqa: F811 - the imported fixture
    engine = make_engine(db_url)
    upgrade(engine)
    svc = Services(engine)
    svc.accounts.add_account(ADMIN, PASSWORD, actor=ADMIN)
    svc.account_admin.set_rights(ADMIN, admin=True, actor=ADMIN, operator=True)
    svc.accounts.add_account(ORGANIZER, PASSWORD, actor=ORGANIZER)
    svc.account_admin.set_rights(ORGANIZER, admin=False, organizer=True, actor=ADMIN)
    yield svc
    engine.dispose()


def _signed_in(db: str, who: str) -> TestClient:
    c = TestClient(create_app(db, secret="nul-secret", limits=RELAXED),
                   base_url="http://testserver", raise_server_exceptions=False)
    r = c.post("/api/login", json={"user": who, "password": PASSWORD},
               headers={"X-CSRF-Token": csrf_of(c)})
    assert r.status_code == 200, r.text
    return c


@pytest.mark.parametrize("actor", [ADMIN, ORGANIZER])
def test_a_nul_in_an_account_name_is_refused_not_a_server_error(
        services: Services, db_url: str, actor: str) -> None:  # noqa: F811
    c = _signed_in(db_url, actor)
    for name in NAMES:
        for path, data in (("/admin/accounts/reset", {"user": name, "password": "x" * 12}),
                           ("/admin/accounts/rights", {"user": name, "admin": "1"})):
            r = c.post(path, data={**data, "csrf": csrf_of(c)}, follow_redirects=False)
            assert r.status_code < 500, (path, repr(name), r.status_code, r.text[:200])
        r = c.post("/api/admin/rights", json={"user": name, "admin": True},
                   headers={"X-CSRF-Token": csrf_of(c)})
        assert r.status_code < 500, (repr(name), r.status_code, r.text[:200])
        # the service itself refuses with words, and "ro\0ot" is not root
        with pytest.raises(ServiceError):
            services.account_admin.reset_password(name, "x" * 12, actor=actor)
    assert services.accounts.check_password(ADMIN, PASSWORD)


def test_a_code_id_past_the_databases_integer_is_no_code(
        services: Services, db_url: str) -> None:  # noqa: F811
    from mafiatab.domain.protocol import Stage

    tid = services.tournaments.create_tournament(
        "Кубок", "fsm", actor=ORGANIZER, stages=[Stage(id="q", name="Отбор",
                                                      kind="qualification")])
    c = _signed_in(db_url, ORGANIZER)
    for cid in ("99999999999999999999999", str(2**31), str(2**63), "-1", "0"):
        r = c.post(f"/t/{tid}/setup/codes/{cid}/revoke", data={"csrf": csrf_of(c)},
                   follow_redirects=False)
        assert r.status_code < 500, (cid, r.status_code, r.text[:200])
        r = c.delete(f"/api/t/{tid}/codes/{cid}", headers={"X-CSRF-Token": csrf_of(c)})
        assert r.status_code in (404, 422), (cid, r.status_code, r.text[:200])
