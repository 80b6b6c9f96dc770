"""The global administrator right apart from the organizer right: the first
account gets both; only an administrator gives and takes the two rights (audited) and
resets any password account's password; an organizer without it keeps creating
tournaments and the resets within his own tournaments."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select

from mafiatab.domain import protocol as model
from mafiatab.services.account_admin import AdminRefused
from mafiatab.services.facade import Services
from mafiatab.services.rights import RightsDenied
from mafiatab.storage import models as db
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.web.app import create_app

PASSWORD = "admin-right-pass-1"


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    eng = make_engine(str(tmp_path / "admin.sqlite"))
    upgrade(eng)
    yield eng
    eng.dispose()


def _rights(svc: Services, user: str) -> tuple[bool, bool]:
    with svc.store.read() as s:
        u = s.scalar(select(db.User).where(db.User.name == user))
        assert u is not None
        return bool(u.organizer), bool(u.admin)


def _three(svc: Services) -> None:
    """root (the first account: both rights), org (organizer only), plain."""
    assert svc.accounts.add_account("root", PASSWORD, actor="root")
    assert not svc.accounts.add_account("org", PASSWORD, actor="org")
    svc.accounts.add_account("plain", PASSWORD, actor="plain")
    svc.access.give_organizer("org", actor="root")


def test_the_first_account_gets_both_rights_and_only_the_admin_gives_them(
        engine: Engine) -> None:
    svc = Services(engine)
    _three(svc)
    assert _rights(svc, "root") == (True, True)
    assert _rights(svc, "org") == (True, False)
    # an organizer without the administrator right gives no right
    with pytest.raises(RightsDenied) as refused:
        svc.access.give_organizer("plain", actor="org")
    assert refused.value.status == 403
    assert refused.value.message("ru") == "org: это может только администратор сервера"
    assert refused.value.message("en") == "org: only the server's administrator may do this"
    with pytest.raises(RightsDenied):
        svc.account_admin.set_rights("org", admin=True, actor="org")
    assert _rights(svc, "plain") == (False, False) and _rights(svc, "org") == (True, False)
    # the administrator gives and takes both, audited
    assert svc.account_admin.set_rights("plain", admin=True, actor="root") == (False, True)
    assert svc.account_admin.set_rights("plain", admin=False, organizer=True,
                                        actor="root") == (True, False)
    with svc.store.read() as s:
        audit = [e.detail for e in s.scalars(select(db.AuditEntry)
                                           .where(db.AuditEntry.action == "set_rights"))]
    assert audit[-1]["after"] == {"organizer": True, "admin": False}
    assert audit[-1]["before"] == {"organizer": False, "admin": True}
    with pytest.raises(RightsDenied) as own:
        svc.account_admin.set_rights("root", admin=False, actor="root")
    assert "другой администратор" in own.value.message("ru")
    # the operator (the command line) needs no account
    assert svc.account_admin.set_rights("org", admin=True, actor="org",
                                        operator=True) == (True, True)


def test_code_accounts_get_no_right(engine: Engine) -> None:
    svc = Services(engine)
    _three(svc)
    tid = svc.tournaments.new_tournament("Кубок", "fsm", actor="root", stages=[
        model.Stage(id="qual", name="Отбор", kind="qualification")])
    svc.access.grant(tid, "door-judge", "judge", actor="root")
    with pytest.raises(AdminRefused) as refused:
        svc.account_admin.set_rights("door-judge", organizer=True, actor="root")
    assert "входит по коду турнира" in refused.value.message("ru")


def test_the_admin_resets_any_password_account_an_organizer_only_his_own(
        engine: Engine) -> None:
    svc = Services(engine)
    _three(svc)
    svc.accounts.add_account("org2", PASSWORD, actor="org2")
    svc.access.give_organizer("org2", actor="root")
    t2 = svc.tournaments.new_tournament("Чужой", "fsm", actor="org2", stages=[
        model.Stage(id="qual", name="Отбор", kind="qualification")])
    svc.access.grant(t2, "judge2", "judge", actor="org2", password=PASSWORD)
    # org: neither another organizer nor another tournament's judge, nor an account with
    # no role anywhere (the administrator's: a right may be given to it later)
    assert [a[0] for a in svc.account_admin.accounts(actor="org")] == []
    with pytest.raises(RightsDenied) as vacuous:
        svc.account_admin.reset_password("plain", "taken-over-2026", actor="org")
    assert vacuous.value.code == "account_no_roles"
    with pytest.raises(RightsDenied):
        svc.account_admin.reset_password("judge2", "taken-over-2026", actor="org")
    with pytest.raises(RightsDenied):
        svc.account_admin.reset_password("org2", "taken-over-2026", actor="org")
    # the administrator: every password account but his own
    assert svc.account_admin.accounts(actor="root") == [
        ("judge2", False, False), ("org", True, False), ("org2", True, False),
        ("plain", False, False)]
    svc.account_admin.reset_password("judge2", "new-judge2-pass", actor="root")
    svc.account_admin.reset_password("org2", "new-org2-pass-1", actor="root")
    assert svc.accounts.check_password("org2", "new-org2-pass-1")
    with pytest.raises(RightsDenied) as own:
        svc.account_admin.reset_password("root", "new-root-pass-1", actor="root")
    assert own.value.code == "reset_self"


def test_the_organizer_without_admin_still_creates_tournaments(engine: Engine) -> None:
    svc = Services(engine)
    _three(svc)
    tid = svc.tournaments.new_tournament("Кубок орг", "fsm", actor="org", stages=[
        model.Stage(id="qual", name="Отбор", kind="qualification")])
    assert "organizer" in svc.access.roles_of(tid, "org")
    c = TestClient(create_app(engine, secret="t"))
    csrf = c.get("/api/session").json()["csrf"]
    assert c.post("/api/login", json={"user": "org", "password": PASSWORD},
                  headers={"X-CSRF-Token": csrf}).status_code == 200
    page = c.get("/admin/accounts")
    assert page.status_code == 200 and '<option value="plain">' not in page.text
    # nor does a role given to plain (who holds nothing anywhere) make his password
    # org's: the role is refused (the vacuous case by a detour), and the page stays so
    with pytest.raises(RightsDenied) as refused:
        svc.access.grant(tid, "plain", "judge", actor="org")
    assert refused.value.code == "grant_unowned"
    page = c.get("/admin/accounts")
    assert '<option value="plain">' not in page.text
    assert '<option value="root">' not in page.text
    # an account org's grant makes (with its password) is his to reset
    svc.access.grant(tid, "plain2", "judge", actor="org", password=PASSWORD)
    assert '<option value="plain2">' in c.get("/admin/accounts").text


def _client(engine: Engine, user: str) -> tuple[TestClient, str]:
    c = TestClient(create_app(engine, secret="t"))
    csrf = c.get("/api/session").json()["csrf"]
    assert c.post("/api/login", json={"user": user, "password": PASSWORD},
                  headers={"X-CSRF-Token": csrf}).status_code == 200
    return c, c.get("/api/session").json()["csrf"]


def test_the_rights_on_the_accounts_page(engine: Engine) -> None:
    svc = Services(engine)
    _three(svc)
    org, csrf = _client(engine, "org")
    assert 'id="rights"' not in org.get("/admin/accounts").text
    r = org.post("/admin/accounts/rights", data={"csrf": csrf, "user": "plain", "admin": "1"},
                 follow_redirects=False)
    assert r.status_code == 403 and "только администратор сервера" in r.text
    r = org.post("/api/admin/rights", json={"user": "plain", "organizer": True},
                 headers={"X-CSRF-Token": csrf})
    assert r.status_code == 403 and r.json()["error"] == "not_admin"
    assert _rights(svc, "plain") == (False, False)
    root, csrf = _client(engine, "root")
    page = root.get("/admin/accounts").text
    assert 'id="rights"' in page and "Администратор сервера" in page
    r = root.post("/admin/accounts/rights", data={"csrf": csrf, "user": "plain",
                                                  "organizer": "1", "admin": "1"})
    assert r.status_code == 200 and "Права plain сохранены." in r.text
    assert _rights(svc, "plain") == (True, True)
    r = root.post("/admin/accounts/rights", data={"csrf": csrf, "user": "org"},
                  follow_redirects=False)  # both boxes unticked: both rights taken
    assert r.status_code == 303 and _rights(svc, "org") == (False, False)
    r = root.post("/api/admin/rights", json={"user": "org", "organizer": True},
                  headers={"X-CSRF-Token": csrf})
    assert r.json() == {"ok": True, "organizer": True, "admin": False}
