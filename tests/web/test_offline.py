"""The judge's phone offline, through the app: the protocol form's queued saves
applied once by their id, a second device's save a conflict with both versions, a queued
submit, a refusal with its place and rule; the installable app's manifest and service
worker; a judge's landing after signing in; the live screen of a submitted protocol; the
4th foul's line in the log; the hall's QR codes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from mafiatab.web import forms
from mafiatab.web.demo import DEMO_PASSWORD, ORGANIZER_NAME
from mafiatab.web.hall import wifi_code
from mafiatab.web.live import describe, foul_numbers
from tests.web.conftest import World, csrf_of

Clients = Callable[[str], TestClient]


def _form(world: World, c: TestClient, code: str) -> dict[str, str]:
    """The protocol form's fields as the judge left them: the stored draft's."""
    engine = make_engine(str(world.db))
    head = Services(engine).games.head(world.demo.tournament, code)
    engine.dispose()
    return forms.form_with_typed(head.game_struct(), head.typed)


def _head(world: World, code: str) -> Any:
    engine = make_engine(str(world.db))
    try:
        return Services(engine).games.head(world.demo.tournament, code)
    finally:
        engine.dispose()


def _queued(c: TestClient, world: World, code: str, fields: dict[str, str], **extra: str) -> Any:
    body = {**fields, **extra}
    return c.post(f"/t/{world.demo.tournament}/games/{code}/queued", data=body,
                  headers={"X-CSRF-Token": csrf_of(c), "Accept": "application/json"})


def test_a_queued_save_sent_twice_is_applied_once(world: World, client_for: Clients) -> None:
    c = client_for("judge1")
    code = world.demo.open_games[0]
    base = _head(world, code).number
    fields = {**_form(world, c, code), "judge": "Судья 1"}
    first = _queued(c, world, code, fields, queue_id="save-1", device="phone-a",
                    base=str(base), action="draft")
    assert first.status_code == 200, first.text
    assert first.json()["revision"] == base + 1
    again = _queued(c, world, code, fields, queue_id="save-1", device="phone-a",
                    base=str(base), action="draft")
    assert again.status_code == 200 and again.json()["revision"] == base + 1
    assert _head(world, code).number == base + 1
    # the same phone's next save goes on top of its own newer draft
    later = _queued(c, world, code, {**fields, "judge": "Судья 1 (ещё)"}, queue_id="save-2",
                    device="phone-a", base=str(base), action="draft")
    assert later.status_code == 200 and later.json()["revision"] == base + 2
    # another user's phone that made the same id makes a save of its own
    head = _queued(client_for("headjudge"), world, code, fields, queue_id="save-1",
                   device="laptop", base=str(base + 2), action="draft")
    assert head.status_code == 200 and head.json()["revision"] == base + 3


def test_a_second_phone_or_the_head_judge_meanwhile_is_a_conflict_with_both(
        world: World, client_for: Clients) -> None:
    c = client_for("judge1")
    code = world.demo.open_games[0]
    base = _head(world, code).number
    fields = _form(world, c, code)
    # the judge's other phone saves first
    r = _queued(c, world, code, {**fields, "judge": "С планшета"}, queue_id="tab-1",
                device="tablet", base=str(base), action="draft")
    assert r.status_code == 200, r.text
    # this phone's save, made on the older version, is not laid over it
    mine = _queued(c, world, code, {**fields, "judge": "С телефона"}, queue_id="ph-1",
                   device="phone", base=str(base), action="draft")
    assert mine.status_code == 409, mine.text
    data = mine.json()
    assert data["error"] == "conflict" and data["head"] == base + 1
    assert data["values"]["judge"] == "С планшета"
    assert _head(world, code).game_struct().judge == "С планшета"
    # the head judge's save is a conflict too
    head = client_for("headjudge")
    h = _queued(head, world, code, {**fields, "judge": "Главный"}, queue_id="hj-1",
                device="laptop", base=str(base + 1), action="draft")
    assert h.status_code == 200, h.text
    tablet = _queued(c, world, code, {**fields, "judge": "С планшета 2"}, queue_id="tab-2",
                     device="tablet", base=str(base + 1), action="draft")
    assert tablet.status_code == 409 and tablet.json()["author"] == "headjudge"
    # the judge chose his: sent on top of the version he saw
    kept = _queued(c, world, code, {**fields, "judge": "С телефона"}, queue_id="ph-1",
                   device="phone", base=str(base + 2), action="draft")
    assert kept.status_code == 200 and kept.json()["revision"] == base + 3
    assert _head(world, code).game_struct().judge == "С телефона"


def test_a_queued_submit_refused_with_its_place_then_submitted_once(
        world: World, client_for: Clients) -> None:
    code = world.demo.open_games[1]
    engine = make_engine(str(world.db))
    Services(engine).games.assign_judge(world.demo.tournament, code, "judge2",
                                        actor=ORGANIZER_NAME)
    engine.dispose()
    c = client_for("judge2")
    game = world.open_game(2)
    base = _head(world, code).number
    fields = _form(world, c, code)
    fields.update({f"role_{s.seat}": s.role for s in game.seats})
    fields["result"] = game.result or ""
    fields["first_killed"] = str(game.first_killed or "")
    for k, seat in enumerate(game.best_move, start=1):
        fields[f"best_move_{k}"] = str(seat)
    bad = _queued(c, world, code, {**fields, "extra_2": "0,25"}, queue_id="sub-1",
                  device="phone", base=str(base), action="submit")
    assert bad.status_code == 422, bad.text
    problem = next(p for p in bad.json()["problems"] if p["seat"] == 2 and not p["warning"])
    assert problem["slot"] == "seat-2" and "8.4.3" in problem["text"]
    kept = bad.json()["revision"]
    assert kept == base + 1 and _head(world, code).state == "draft"
    ok = _queued(c, world, code, {**fields, "extra_2": "0,3"}, queue_id="sub-2",
                 device="phone", base=str(kept), action="submit")
    assert ok.status_code == 200, ok.text
    assert ok.json()["state"] == "submitted"
    assert ok.json()["next"] == f"/t/{world.demo.tournament}/judge"
    number = ok.json()["revision"]
    again = _queued(c, world, code, {**fields, "extra_2": "0,3"}, queue_id="sub-2",
                    device="phone", base=str(kept), action="submit")
    assert again.status_code == 200 and again.json()["revision"] == number
    assert _head(world, code).number == number
    # the live screen's address of a submitted protocol shows it
    live = c.get(f"/t/{world.demo.tournament}/games/{code}/live", follow_redirects=False)
    assert live.status_code == 303
    assert live.headers["location"] == f"/t/{world.demo.tournament}/games/{code}"


def test_a_queued_save_needs_its_id(world: World, client_for: Clients) -> None:
    c = client_for("judge1")
    r = _queued(c, world, world.demo.open_games[0], {}, base="1", action="draft")
    assert r.status_code == 422
    # a table that is not his: refused in words, as JSON
    other = _queued(c, world, world.demo.open_games[1], {}, queue_id="x", base="1",
                    action="draft")
    assert other.status_code == 403 and other.json()["error"] == "not_allowed"


def test_the_installable_app(world: World, client_for: Clients) -> None:
    c = client_for("anon")
    sw = c.get("/sw.js")
    assert sw.status_code == 200
    assert sw.headers["service-worker-allowed"] == "/"
    assert sw.headers["content-type"].startswith("text/javascript")
    assert "no-cache" in sw.headers["cache-control"]
    assert "caches.delete" in sw.text  # signing out empties its caches
    m = c.get("/manifest.webmanifest")
    assert m.status_code == 200 and m.headers["content-type"].startswith(
        "application/manifest+json")
    data = m.json()
    assert data["start_url"] == "/" and data["display"] == "standalone"
    assert {i["sizes"] for i in data["icons"]} >= {"192x192", "512x512"}
    for icon in data["icons"]:
        assert c.get(icon["src"]).status_code == 200
    # a signed-in page names the manifest and registers the worker
    page = client_for("judge1").get(f"/t/{world.demo.tournament}/judge").text
    assert 'rel="manifest"' in page and "/static/offline.js" in page
    assert "data-keep" in page


@pytest.mark.parametrize(("user", "lands"), [("judge1", "judge"), ("organizer", "/")])
def test_a_judge_signing_in_lands_on_his_tables(world: World, user: str, lands: str) -> None:
    from mafiatab.web.app import create_app
    from tests.web.conftest import RELAXED

    c = TestClient(create_app(str(world.db), secret="landing", limits=RELAXED))
    page = c.get("/login")
    token = page.text.split('name="csrf" value="')[1].split('"')[0]
    r = c.post("/login", data={"csrf": token, "user": user, "password": DEMO_PASSWORD,
                               "next": "/"}, follow_redirects=False)
    assert r.status_code == 303
    want = f"/t/{world.demo.tournament}/judge" if lands == "judge" else "/"
    assert r.headers["location"] == want


def test_the_fourth_foul_says_the_player_leaves() -> None:
    log = [{"type": "foul", "seat": 6}] * 4 + [{"type": "speech", "seat": 1},
                                               {"type": "foul", "seat": 2}]
    numbers = foul_numbers(log)
    assert numbers == [1, 2, 3, 4, None, 1]
    lines = [describe(ev, "ru", n) for ev, n in zip(log, numbers, strict=True)]
    assert lines[2] == "фол месту 6"
    assert lines[3] == "место 6 удалено (4-й фол)"
    assert describe(log[3], "en", 4) == "seat 6 is removed (foul 4)"


def test_the_hall_shows_its_wifi_and_the_servers_address(world: World,
                                                         client_for: Clients) -> None:
    c = client_for("anon")
    tid = world.demo.tournament
    plain = c.get(f"/t/{tid}/hall").text
    assert "hall-qr" not in plain
    page = c.get(f"/t/{tid}/hall", params={"qr": "1", "wifi": "Зал;1", "password": "pa:ss"}).text
    assert 'id="hall-qr-wifi"' in page and 'id="hall-qr-address"' in page
    assert "Wi-Fi зала: Зал;1" in page and "пароль: pa:ss" in page
    assert "Протоколы и таблица: http://testserver/" in page
    assert page.count("<svg") == 2
    assert wifi_code("Зал;1", "pa:ss") == "WIFI:T:WPA;S:Зал\\;1;P:pa\\:ss;;"
    assert wifi_code("Open", "") == "WIFI:T:nopass;S:Open;;"
