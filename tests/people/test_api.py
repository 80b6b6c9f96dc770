"""The JSON API of people: the same service calls as the pages, JSON errors, the
organizer's right checked."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import Engine

from mafiatab.services.facade import Services
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD
from tests.people.test_identities import two_tournaments


def _signed_in(app: object, user: str) -> tuple[TestClient, str]:
    c = TestClient(app)  # type: ignore[arg-type]
    csrf = c.get("/api/session").json()["csrf"]
    r = c.post("/api/login", json={"user": user, "password": DEMO_PASSWORD},
               headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    return c, c.get("/api/session").json()["csrf"]


def test_merge_and_split_through_the_api(sqlite_engine: Engine) -> None:
    people, _, t1, t2, first, second = two_tournaments(sqlite_engine)
    web = Services(sqlite_engine)
    web.accounts.add_account("boss", DEMO_PASSWORD, actor="setup")
    web.accounts.add_account("visitor", DEMO_PASSWORD, actor="setup")
    web.accounts.add_account("lead", DEMO_PASSWORD, actor="setup")
    # "federation" holds the administrator right: boss gets it too, lead only the organizer
    # right (the imported tournaments have no organizer who signs in: not his to merge)
    web.account_admin.set_rights("boss", admin=True, actor="federation")
    web.access.give_organizer("lead", actor="federation")
    app = create_app(sqlite_engine, secret="t")

    anon = TestClient(app)
    page = anon.get(f"/api/people/{first}").json()
    assert page["format"] == "mafiatab.person/1" and page["all"]["games"] == 2
    assert [t["tournament"] for t in page["tournaments"]] == [t1]
    csrf = anon.get("/api/session").json()["csrf"]
    assert anon.post(f"/api/people/{first}/merge", json={"other": second},
                     headers={"X-CSRF-Token": csrf}).status_code == 401

    visitor, csrf = _signed_in(app, "visitor")
    r = visitor.post(f"/api/people/{first}/merge", json={"other": second},
                     headers={"X-CSRF-Token": csrf})
    assert r.status_code == 403 and r.json()["error"] == "not_federation_organizer"

    lead, csrf = _signed_in(app, "lead")
    r = lead.post(f"/api/people/{first}/merge", json={"other": second},
                  headers={"X-CSRF-Token": csrf})
    assert r.status_code == 403 and r.json()["error"] == "records_unowned"

    boss, csrf = _signed_in(app, "boss")
    assert boss.post(f"/api/people/{first}/merge", json={"other": second},
                     headers={}).status_code == 403  # no CSRF token
    r = boss.post(f"/api/people/{first}/merge", json={"other": second, "reason": "один"},
                  headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200
    merge = r.json()["merge"]
    merged = anon.get(f"/api/people/{first}").json()
    assert [t["tournament"] for t in merged["tournaments"]] == [t1, t2]
    assert anon.get(f"/api/people/{second}").status_code == 404
    again = boss.post(f"/api/people/{first}/merge", json={"other": second},
                      headers={"X-CSRF-Token": csrf})
    assert again.status_code == 404
    assert boss.post(f"/api/people/merges/{merge}/split",
                     headers={"X-CSRF-Token": csrf}).status_code == 200
    r = boss.post(f"/api/people/merges/{merge}/split", headers={"X-CSRF-Token": csrf})
    assert r.status_code == 400 and r.json()["error"] == "already_split"
    assert anon.get(f"/api/people/{second}").json()["all"]["games"] == 1

    rating = anon.get("/api/rating?limit=5").json()
    assert rating["format"] == "mafiatab.ratings/1" and rating["games"] == 3
    assert len(rating["players"]) == 5 and rating["total"] == 11
    assert people.rating().games == 3
