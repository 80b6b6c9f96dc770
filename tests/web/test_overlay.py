"""The stream overlay and the hall's screen, through the app:
roles and checks are not in the page, the JSON or the stream's payload before the head
judge's delay has passed (or the game ended); the overlay link is made, checked and
revoked; the operator's options are checked; the hall shows only what the public sees."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mafiatab.services.facade import Services
from tests.web.conftest import World, csrf_of
from tests.web.test_live import ROLES, Table, table  # noqa: F401 (the fixture)

BLACK = {3, 5, 9}


def _screens(c: TestClient) -> Services:
    svc: Services = c.app.state.services  # type: ignore[attr-defined]
    return svc


def _boot(html: str, name: str = "ov-boot") -> dict[str, Any]:
    m = re.search(rf'<script type="application/json" id="{name}">(.*?)</script>', html, re.S)
    assert m, html[:500]
    data: dict[str, Any] = json.loads(m.group(1))
    return data


def _roles_in(state: dict[str, Any]) -> list[str | None]:
    return [s["role"] for s in state["seats"]]


@pytest.fixture()
def head(client_for: Callable[[str], TestClient]) -> Iterator[TestClient]:
    c = client_for("headjudge")
    yield c
    _screens(c).screens.clock = lambda: dt.datetime.now(dt.UTC)


def _set(c: TestClient, tid: int, **body: Any) -> dict[str, Any]:
    r = c.post(f"/api/t/{tid}/screens", json=body, headers={"X-CSRF-Token": csrf_of(c)})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _night_one(t: Table) -> None:
    """Deal, day 1 (5 leaves), night 1: 1 is shot, the don checks 7, the sheriff 3."""
    t.send(type="deal", roles=ROLES)
    t.speeches({1: 5, 2: 9})
    t.send(type="vote", votes={"5": [1, 2, 3, 4, 6, 7], "9": [5, 8]})
    t.send(type="last_words", seat=5)
    t.send(type="shot", target=1)
    t.send(type="don_check", target=7)
    t.send(type="sheriff_check", target=3)
    t.send(type="best_move", seat=1, seats=[3, 9])


def test_roles_and_checks_stay_on_the_server_until_the_delay_passes(
        table: Table, world: World, head: TestClient,  # noqa: F811
        client_for: Callable[[str], TestClient]) -> None:
    tid, code = world.demo.tournament, world.demo.open_games[0]
    _set(head, tid, roles_delay=600)
    key = head.post(f"/api/t/{tid}/screens/overlay-key",
                    headers={"X-CSRF-Token": csrf_of(head)}).json()["key"]
    _night_one(table)
    anon = client_for("anon")
    svc = _screens(anon)
    state = anon.get(f"/t/{tid}/overlay/{code}/state", params={"key": key}).json()
    assert state["dealt"] and not state["roles_shown"]
    assert _roles_in(state) == [None] * 10 and state["checks"] == []
    # what the table saw is there: who left and how, the vote's count, the best move
    assert {d["seat"]: d["how"] for d in state["departures"]} == {5: "voted", 1: "killed"}
    assert state["vote"] == {"phase": 1, "counts": {"5": 6, "9": 2}}
    assert state["best_move"] == {"seat": 1, "seats": [3, 9]}
    assert state["seats"][4]["out_text"] == "заголосован, день 1"
    # the page's HTML carries the same state: no role, no check, anywhere in it
    page = anon.get(f"/t/{tid}/overlay/{code}", params={"key": key})
    assert page.status_code == 200
    boot = _boot(page.text)
    assert _roles_in(boot["state"]) == [None] * 10 and boot["state"]["checks"] == []
    for secret in ('"role": "don"', '"role": "sheriff"', '"role": "black"', "Дон → 7"):
        assert secret not in page.text and secret not in json.dumps(state, ensure_ascii=False)
    # the stream renders the same function: its payload has none either
    payload = json.loads(json.dumps(svc.screens.overlay_state(tid, code, verified=True,
                                                              keyed=True)))
    assert _roles_in(payload) == [None] * 10 and payload["checks"] == []
    dealt = svc.screens.dealt_at(tid, code)
    assert dealt is not None and state["reveal_at"] == (
        dealt + dt.timedelta(seconds=600)).isoformat()
    # a second before the delay ends: still nothing; when it has passed: the roles
    svc.screens.clock = lambda: dealt + dt.timedelta(seconds=599)
    state_url = f"/t/{tid}/overlay/{code}/state"
    assert _roles_in(anon.get(state_url, params={"key": key}).json()) == [None] * 10
    svc.screens.clock = lambda: dealt + dt.timedelta(seconds=600)
    # the delay is the streamer's: without the key, still nothing (the standings are
    # public, so anyone could read it: the roles come at the game's end)
    keyless = anon.get(state_url).json()
    assert _roles_in(keyless) == [None] * 10 and keyless["checks"] == []
    assert keyless["reveal_at"] is None
    shown = anon.get(state_url, params={"key": key}).json()
    assert shown["roles_shown"] and _roles_in(shown) == ROLES
    assert [(c["kind"], c["target"], c["answer"]) for c in shown["checks"]] == [
        ("don_check", 7, True), ("sheriff_check", 3, True)]
    assert shown["checks"][0]["text"] == "ночь 1: Дон → 7: шериф"
    assert {s["seat"] for s in shown["seats"] if s["role"] in ("black", "don")} == BLACK


def test_without_a_delay_the_roles_come_at_the_games_end(
        table: Table, world: World, head: TestClient,  # noqa: F811
        client_for: Callable[[str], TestClient]) -> None:
    tid, code = world.demo.tournament, world.demo.open_games[0]
    _set(head, tid, roles_delay=None)
    anon = client_for("anon")
    _screens(anon).screens.clock = lambda: dt.datetime.now(dt.UTC) + dt.timedelta(days=1)
    _night_one(table)
    state = anon.get(f"/t/{tid}/overlay/{code}/state").json()
    assert not state["roles_shown"] and _roles_in(state) == [None] * 10
    table.send(type="foul", seat=8)
    table.speeches({2: 9, 4: 3})
    table.send(type="vote", counts={"9": 5})
    table.send(type="shot", target=2)
    table.speeches({4: 3})
    end = anon.get(f"/t/{tid}/overlay/{code}/state").json()
    assert end["ended"] and end["result"] == "red" and end["roles_shown"]
    assert _roles_in(end) == ROLES and end["result_text"].startswith("победа красных")
    assert end["seats"][7]["fouls"] == 1


def test_the_overlay_link_is_made_checked_and_revoked(
        world: World, head: TestClient, client_for: Callable[[str], TestClient]) -> None:
    tid, code = world.demo.tournament, world.demo.open_games[1]
    h = {"X-CSRF-Token": csrf_of(head)}
    url = f"/t/{tid}/overlay/{code}"
    anon = client_for("anon")
    judge = client_for("judge1")
    # a judge may not make a link; nobody may without the CSRF token
    assert judge.post(f"/api/t/{tid}/screens/overlay-key",
                      headers={"X-CSRF-Token": csrf_of(judge)}).status_code == 403
    assert head.post(f"/api/t/{tid}/screens/overlay-key").status_code == 403
    assert head.post(f"/api/t/{tid}/options", json={"standings_hidden": True},
                     headers=h).status_code == 200
    try:
        assert anon.get(url).status_code == 403
        assert anon.get(f"{url}/state").status_code == 403
        assert anon.get(f"{url}/events").status_code == 403
        key = head.post(f"/api/t/{tid}/screens/overlay-key", headers=h).json()["key"]
        assert len(key) >= 32
        assert anon.get(url, params={"key": key}).status_code == 200
        assert anon.get(f"{url}/state", params={"key": key}).status_code == 200
        assert anon.get(url, params={"key": key[:-1] + ("A" if key[-1] != "A" else "B")}
                        ).status_code == 403
        # only the digest is stored; a new key replaces the old one
        assert key not in json.dumps(head.get(f"/api/t/{tid}/screens").json())
        second = head.post(f"/api/t/{tid}/screens/overlay-key", headers=h).json()["key"]
        assert anon.get(url, params={"key": key}).status_code == 403
        assert anon.get(url, params={"key": second}).status_code == 200
        assert head.delete(f"/api/t/{tid}/screens/overlay-key", headers=h).status_code == 200
        assert anon.get(url, params={"key": second}).status_code == 403
        assert head.get(url).status_code == 200  # staff signed in still see it
    finally:
        head.post(f"/api/t/{tid}/options", json={}, headers=h)
    assert anon.get(url).status_code == 200  # public standings: public overlay


def test_the_operators_options_are_checked(world: World,
                                           client_for: Callable[[str], TestClient]) -> None:
    tid, code = world.demo.tournament, world.demo.open_games[1]
    anon = client_for("anon")
    url = f"/t/{tid}/overlay/{code}"
    page = anon.get(url, params={"hide": "roles,checks", "fg": "00ff00", "font": "500",
                                 "lang": "en"})
    assert page.status_code == 200
    boot = _boot(page.text)
    assert "roles" not in boot["parts"] and "checks" not in boot["parts"]
    assert "seats" in boot["parts"] and boot["lang"] == "en"
    assert "--fg: #00ff00" in page.text and "--font: 64px" in page.text
    only = _boot(anon.get(url, params={"parts": "seats,names,evil"}).text)
    assert only["parts"] == ["names", "seats"]
    for bad in ({"fg": "red;}</style><script>"}, {"bg": "12345"}, {"font": "x"}):
        assert anon.get(url, params=bad).status_code == 400, bad
    assert "transparent" in anon.get("/static/overlay.css").text


def test_the_roles_delay_is_bounded_and_staff_only(
        world: World, head: TestClient, client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    h = {"X-CSRF-Token": csrf_of(head)}
    for bad in (-1, 4 * 3600 + 1):
        r = head.post(f"/api/t/{tid}/screens", json={"roles_delay": bad}, headers=h)
        assert r.status_code == 422, r.text
    viewer = client_for("viewer")
    r = viewer.post(f"/api/t/{tid}/screens", json={"roles_delay": 0},
                    headers={"X-CSRF-Token": csrf_of(viewer)})
    assert r.status_code == 403
    assert _set(head, tid, roles_delay=90)["roles_delay"] == 90
    page = head.get(f"/t/{tid}/screens")
    assert page.status_code == 200 and 'value="1.5"' in page.text
    _set(head, tid, roles_delay=None)


def test_the_hall_shows_what_the_public_sees(world: World, head: TestClient,
                                             client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    h = {"X-CSRF-Token": csrf_of(head)}
    _set(head, tid, announcements="Перерыв 15 минут\n\nФинал в 18:00")
    anon = client_for("anon")
    state = anon.get(f"/t/{tid}/hall/state").json()
    assert state["announcements"] == ["Перерыв 15 минут", "Финал в 18:00"]
    assert state["title"] == "Отбор · после 2-го тура"
    last = max(g.round for g in world.sample.games if g.stage == "qual")
    assert state["next"] == f"Отбор, тур {last}"
    open_tables = sorted(g.table for g in world.sample.games
                         if g.stage == "qual" and g.round == last)
    assert [t["table"] for t in state["tables"]] == open_tables
    names = {p.id: p.nickname for p in world.sample.players}
    first = world.open_game(open_tables[0])
    assert state["tables"][0]["seats"] == [[s.seat, names[s.player]] for s in
                                           sorted(first.seats, key=lambda x: x.seat)]
    assert state["rows"] and "," in state["rows"][0]["total"]  # a decimal comma
    page = anon.get(f"/t/{tid}/hall")
    assert page.status_code == 200 and _boot(page.text, "hall-boot")["state"] == state
    # closed standings stay closed on the hall's screen, even on the organizer's laptop
    head.post(f"/api/t/{tid}/options", json={"standings_hidden": True}, headers=h)
    try:
        assert head.get(f"/t/{tid}/hall/state").json()["rows"] is None
        assert head.get(f"/t/{tid}/standings").status_code == 200
    finally:
        head.post(f"/api/t/{tid}/options", json={}, headers=h)
        _set(head, tid, announcements="")
    assert "role" not in json.dumps(state)


def test_a_game_seated_again_is_dealt_anew(table: Table, world: World,  # noqa: F811
                                           client_for: Callable[[str], TestClient]) -> None:
    """A replay (the head judge drops the log and the roles: a new deal) starts the delay
    again: the first deal's time must not show the replayed game's roles early."""
    tid, code = world.demo.tournament, world.demo.open_games[0]
    svc = _screens(client_for("anon"))
    table.send(type="deal", roles=ROLES)
    first = svc.screens.dealt_at(tid, code)
    assert first is not None and svc.screens.dealt_at(tid, code) == first
    hj = client_for("headjudge")
    head = hj.get(f"/api/t/{tid}/games/{code}").json()
    protocol = head["protocol"]
    protocol["log"] = None  # only a head judge removes a log (audited)
    protocol.pop("live", None)
    for s in protocol["seats"]:
        s["role"] = ""
    r = hj.put(f"/api/t/{tid}/games/{code}/draft", headers={"X-CSRF-Token": csrf_of(hj)},
               json={"base_revision": head["revision"], "protocol": protocol})
    assert r.status_code == 200, r.text
    assert svc.screens.dealt_at(tid, code) is None
    table.send(type="deal", roles=ROLES)
    second = svc.screens.dealt_at(tid, code)
    assert second is not None and second > first
