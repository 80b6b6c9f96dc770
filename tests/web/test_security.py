"""Security properties beyond the route × role table: CSRF, cookie flags, password hashes,
what the public may read while things are hidden, and that only staff approve."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient
from sqlalchemy import select

from mafiatab.services.facade import Services
from mafiatab.storage import models as db
from mafiatab.storage.engine import make_engine
from tests.web.conftest import World, csrf_of


def test_writes_need_the_csrf_token(world: World, client_for: Callable[[str], TestClient]) -> None:
    c = client_for("headjudge")
    tid = world.demo.tournament
    assert c.post(f"/t/{tid}/manage/options", data={}, follow_redirects=False).status_code == 403
    assert c.post(f"/api/t/{tid}/options", json={}).status_code == 403
    bad = {"X-CSRF-Token": "forged"}
    assert c.post(f"/api/t/{tid}/options", json={}, headers=bad).status_code == 403
    ok = c.post(f"/api/t/{tid}/options", json={}, headers={"X-CSRF-Token": csrf_of(c)})
    assert ok.status_code == 200


def test_session_cookie_flags(client_for: Callable[[str], TestClient]) -> None:
    c = client_for("anon")
    r = c.get("/api/session")
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    assert r.headers["x-frame-options"] == "DENY"


def test_passwords_are_argon2(world: World) -> None:
    engine = make_engine(str(world.db))
    with engine.connect() as conn:
        hashes = list(conn.scalars(select(db.User.password_hash)
                                   .where(db.User.password_hash.is_not(None))))
    engine.dispose()
    assert hashes and all(h.startswith("$argon2id$") for h in hashes)


def test_hidden_standings_and_extras(world: World, client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    head, anon = client_for("headjudge"), client_for("anon")
    h = {"X-CSRF-Token": csrf_of(head)}
    head.post(f"/api/t/{tid}/options", json={"standings_hidden": True}, headers=h)
    assert anon.get(f"/api/t/{tid}/standings").json()["hidden"] is True
    assert anon.get(f"/t/{tid}/players/{world.sample.players[0].id}").status_code == 403
    assert head.get(f"/api/t/{tid}/standings").json().get("hidden") is None
    head.post(f"/api/t/{tid}/options", json={"extras_hidden": True}, headers=h)
    rows = anon.get(f"/api/t/{tid}/standings").json()["standings"]
    assert rows and all("extra" not in r and "total" not in r for r in rows)
    head.post(f"/api/t/{tid}/options", json={"extras_hidden": True, "finished": True}, headers=h)
    rows = anon.get(f"/api/t/{tid}/standings").json()["standings"]
    assert "total" in rows[0]  # the end shows everything
    head.post(f"/api/t/{tid}/options", json={}, headers=h)


def test_a_judge_cannot_approve(world: World, client_for: Callable[[str], TestClient]) -> None:
    tid, code = world.demo.tournament, world.demo.open_games[1]
    judge = client_for("judge2")
    h = {"X-CSRF-Token": csrf_of(judge)}
    head = judge.get(f"/api/t/{tid}/games/{code}").json()
    protocol = head["protocol"]
    protocol["limits_approved"] = True
    protocol["scores"] = {"1": {"extra": 0.2, "approved": True}}
    r = judge.put(f"/api/t/{tid}/games/{code}/draft",
                  json={"base_revision": head["revision"], "protocol": protocol}, headers=h)
    assert r.status_code == 200, r.text
    saved = Services(make_engine(str(world.db))).games.head(tid, code).game_struct()
    assert saved.limits_approved is False and saved.scores[1].approved is False


def test_conflict_is_reported(world: World, client_for: Callable[[str], TestClient]) -> None:
    tid, code = world.demo.tournament, world.demo.open_games[1]
    judge = client_for("judge2")
    h = {"X-CSRF-Token": csrf_of(judge)}
    head = judge.get(f"/api/t/{tid}/games/{code}").json()
    body = {"base_revision": head["revision"] - 1, "protocol": head["protocol"]}
    r = judge.put(f"/api/t/{tid}/games/{code}/draft", json=body, headers=h)
    assert r.status_code == 409 and r.json()["error"] == "conflict"
