"""The server's rating settings are the administrator's: an organizer without
the administrator right is refused, with words, through the service and the page, and
the settings form is shown to the administrator only; the administrator changes them."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, update

from mafiatab.services.facade import Services
from mafiatab.services.people import PeopleDenied
from mafiatab.storage import models as db
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD
from tests.people.conftest import ORGANIZER
from tests.people.test_rating_page import build


def _signed_in(app: object, user: str) -> tuple[TestClient, str]:
    c = TestClient(app)  # type: ignore[arg-type]
    csrf = c.get("/api/session").json()["csrf"]
    r = c.post("/api/login", json={"user": user, "password": DEMO_PASSWORD},
               headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    return c, c.get("/api/session").json()["csrf"]


def test_an_organizer_without_the_admin_right_does_not_change_the_rating(
        sqlite_engine: Engine) -> None:
    people, tids = build(sqlite_engine)
    web = Services(sqlite_engine)
    web.accounts.add_account("org", DEMO_PASSWORD, actor="setup")
    web.accounts.add_account("boss", DEMO_PASSWORD, actor="setup")
    with people.store.write() as s:
        s.execute(update(db.User).where(db.User.name == "org").values(organizer=True))
        s.execute(update(db.User).where(db.User.name == "boss").values(admin=True))
    assert people.may_manage("org") and not people.may_administer("org")
    with pytest.raises(PeopleDenied) as refused:
        people.set_setup(actor="org", stage_kinds=["qualification"], unrated=[], elite=[])
    assert refused.value.message("ru") == (
        "org: настройки рейтинга сервера меняет только администратор сервера")
    assert refused.value.message("en") == (
        "org: only the server's administrator changes the server's rating settings")
    assert people.rating().games == 11

    app = create_app(sqlite_engine, secret="t")
    org, csrf = _signed_in(app, "org")
    assert 'action="/rating/settings"' not in org.get("/rating").text
    r = org.post("/rating/settings", data={"csrf": csrf, "kind": "qualification"},
                 follow_redirects=False)
    assert r.status_code == 403
    assert "настройки рейтинга сервера меняет только администратор сервера" in r.text
    assert people.rating().games == 11

    boss, csrf = _signed_in(app, "boss")
    assert 'action="/rating/settings"' in boss.get("/rating").text
    r = boss.post("/rating/settings", data={"csrf": csrf, "kind": "qualification",
                                            "unrated": str(tids[0])}, follow_redirects=False)
    assert r.status_code == 303
    assert people.rating().games == 5
    people.set_setup(actor=ORGANIZER, stage_kinds=["qualification", "final"], unrated=[],
                     elite=[])  # the fixture's administrator, through the service
    assert people.rating().games == 11
