"""The judge's phone without a network, in Debian's Chromium at 360×740:

* the live screen: night 1 recorded with the network cut (the server itself stopped, as a
  hall's Wi-Fi gone), the page reloaded offline from the service worker's copy with the
  queued taps back from IndexedDB, the best move and the last words of the player just
  shot recorded offline; the network back: every tap once, in order, with its time;
* the protocol form: changed and submitted offline, reloaded offline, and submitted as
  recorded when the network returns; the live screen's address then shows it;
* two devices on one table: the head judge saves the form (or records an event on the live
  screen) while the judge's work waits on his phone; the judge sees both side by side and
  keeps his, nothing overwritten; a 4th foul is asked first and logged as a removal;
* signing out leaves none of the judge's pages in the caches;
* the hall screen's QR codes of the Wi-Fi and the server's address.

Screens: docs/screens/offline-*.png."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD, ORGANIZER_NAME
from tests.helpers import free_port, serving
from tests.web.conftest import World, make_world
from tests.web.test_browser import RU_CONTEXT, browser  # noqa: F401 (fixture)

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
         **RU_CONTEXT}


class Hall:
    """The demo tournament served by a real server that the test can stop and start again
    on the same address (the hall's network going and coming back)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.app = create_app(str(world.db), secret="offline-test")
        self.port = free_port(range(18600, 18700))
        self.stack: ExitStack | None = None
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert self.stack is None
        self.stack = ExitStack()
        self.stack.enter_context(serving(self.app, self.port))

    def stop(self) -> None:
        assert self.stack is not None
        self.stack.close()
        self.stack = None


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    world = make_world(tmp_path_factory.mktemp("offline"))
    engine = make_engine(str(world.db))
    svc = Services(engine)
    for code in world.demo.open_games[:2]:
        svc.games.assign_judge(world.demo.tournament, code, world.demo.code_user,
                               actor=ORGANIZER_NAME)
    engine.dispose()
    h = Hall(world)
    h.start()
    yield h
    if h.stack is not None:
        h.stop()


def _shot(page: Any, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=False)


def _judge(browser: Any, hall: Hall) -> Any:  # noqa: F811
    """The table's judge on his phone, signed in with his code: his tables, and the
    service worker ready with his games' pages kept."""
    page = browser.new_context(**PHONE).new_page()
    tid = hall.world.demo.tournament
    page.goto(f"{hall.base}/login")
    page.fill("input[name=code]", hall.world.demo.code)
    page.click("#code-btn")
    page.wait_for_url(f"**/t/{tid}/judge")
    page.locator("html[data-kept=yes]").wait_for(state="attached")
    return page


def _cut(page: Any, hall: Hall) -> None:
    page.context.set_offline(True)
    hall.stop()


def _restore(page: Any, hall: Hall) -> None:
    hall.start()
    page.context.set_offline(False)


def _speak(page: Any, seat: int) -> None:
    page.locator("#lv-speech h2").filter(has_text=f"Говорит место {seat}").wait_for()
    page.click("#lv-end-speech")


def _deal(page: Any) -> None:
    """Blacks 3 (don), 5, 9; sheriff 7."""
    for seat, role in ((3, "don"), (5, "black"), (7, "sheriff"), (9, "black")):
        page.click(f"#lv-role-{seat}-{role}")
    page.click("#lv-deal-btn")
    page.locator("#lv-seats").wait_for()
    page.locator("#lv-log .lv-queued").wait_for(state="detached")  # sent


def _live_dealt(hall: Hall, browser: Any) -> tuple[Any, str, dict[str, Any]]:  # noqa: F811
    """The judge's phone on the open game's live screen, its queue ready and the roles
    dealt; the live API's address and the server's state before the test's taps."""
    world = hall.world
    tid, code = world.demo.tournament, world.demo.open_games[0]
    api = f"{hall.base}/api/t/{tid}/games/{code}/live"
    judge = _judge(browser, hall)
    judge.goto(f"{hall.base}/t/{tid}/games/{code}/live")
    judge.locator("#live[data-queue=ready]").wait_for()
    if not _state(judge, api)["dealt"]:  # run by itself: the roles first
        _deal(judge)
    judge.locator("#lv-seats").wait_for()
    return judge, api, _state(judge, api)


def _state(page: Any, url: str) -> dict[str, Any]:
    r = page.context.request.get(url)
    assert r.status == 200, r.text()
    data: dict[str, Any] = r.json()
    return data


def test_night_one_offline_with_a_reload_then_sent_once(hall: Hall, browser: Any  # noqa: F811
                                                       ) -> None:
    world = hall.world
    tid, code = world.demo.tournament, world.demo.open_games[0]
    api = f"{hall.base}/api/t/{tid}/games/{code}/live"
    page = _judge(browser, hall)
    page.goto(f"{hall.base}/t/{tid}/games/{code}/live")
    page.locator("#live[data-queue=ready]").wait_for()
    # the deal, then day 1 without nominations: no vote
    _deal(page)
    for seat in range(1, 11):
        _speak(page, seat)
    page.locator("#lv-shot").wait_for()
    stored = _state(page, api)
    assert stored["step"]["kinds"] == ["shot"]

    # night 1: the network goes (the hall's Wi-Fi and the server with it)
    _cut(page, hall)
    page.click("#lv-shot-1")
    page.locator("#lv-status").filter(has_text="Нет связи").wait_for()
    page.click("#lv-don_check-7")
    page.click("#lv-sheriff_check-3")
    # the best move of the player just shot is offered offline, and his last words
    page.locator("#lv-kind").wait_for()
    assert page.input_value("#lv-kind") == "best_move"
    for s in (3, 5, 9):
        page.click(f"#lv-bm-{s}")
    page.click("#lv-record-bm")
    assert page.input_value("#lv-kind") == "last_words"
    page.locator("#lv-lw-1").wait_for()
    page.click("#lv-lw-1")
    assert page.locator("#lv-log .lv-queued").count() == 5

    # a reload without network: the page from the phone, the queue from IndexedDB
    page.reload()
    page.locator("#live[data-queue=ready]").wait_for()
    page.locator("#lv-log .lv-queued").nth(4).wait_for()
    assert page.locator("#lv-log .lv-queued").count() == 5
    assert "лучший ход места 1: 3, 5, 9" in page.inner_text("#lv-log")
    # the phone's engine starts again from the files the service worker kept, and draws
    # the morning itself (no more the guess of the select without it)
    page.wait_for_function("() => window.mafiaCourse && mafiaCourse.isReady()",
                           timeout=240_000)
    page.locator("#lv-kind").wait_for(state="detached")
    page.evaluate("document.getElementById('lv-status').scrollIntoView()")
    # the morning goes on offline: seat 2 speaks (seat 1 was shot)
    page.locator("#lv-speech h2").filter(has_text="Говорит место 2").wait_for()
    _shot(page, "offline-live-360")
    page.click("#lv-end-speech")
    page.locator("#lv-log .lv-queued").nth(5).wait_for()
    page.evaluate("document.getElementById('lv-log').scrollIntoView()")
    _shot(page, "offline-live-log-360")

    # the network back: the queue goes out in order, once, with the taps' own times
    _restore(page, hall)
    page.locator("#lv-log .lv-queued").first.wait_for(state="detached")
    page.locator("#lv-status").filter(has_text="На связи").wait_for()
    state = _state(page, api)
    n = len(stored["events"])
    sent = [{k: v for k, v in e["event"].items() if k != "at"} for e in state["events"][n:]]
    assert sent == [{"type": "shot", "target": 1}, {"type": "don_check", "target": 7},
                    {"type": "sheriff_check", "target": 3},
                    {"type": "best_move", "seat": 1, "seats": [3, 5, 9]},
                    {"type": "last_words", "seat": 1}, {"type": "speech", "seat": 2}]
    times = [e["event"]["at"] for e in state["events"]]
    assert times == sorted(times)
    # the same batch sent again (an answer lost on the way) is applied once
    ops = [{"id": e["id"], "seq": stored["seq"] + i + 1, "event": e["event"]}
           for i, e in enumerate(state["events"][n:])]
    csrf = json.loads(page.get_attribute("body", "hx-headers"))["X-CSRF-Token"]
    again = page.context.request.post(api, data=json.dumps(
        {"base_revision": stored["revision"], "events": ops}),
        headers={"Content-Type": "application/json", "X-CSRF-Token": csrf})
    assert again.status == 200, again.text()
    assert again.json()["duplicates"] == 6 and again.json()["applied"] == 0
    assert len(_state(page, api)["events"]) == n + 6
    page.context.close()


def _field(page: Any, name: str) -> str:
    value: str = page.input_value(f"[name={name}]")
    return value


def test_the_protocol_form_offline_reloaded_and_submitted_as_recorded(
        hall: Hall, browser: Any) -> None:  # noqa: F811
    world = hall.world
    tid, code = world.demo.tournament, world.demo.open_games[1]
    game = world.open_game(2)
    page = _judge(browser, hall)
    page.goto(f"{hall.base}/t/{tid}/games/{code}/edit")
    page.locator("#protocol[data-queue=ready]").wait_for()
    for s in game.seats:
        page.check(f"input[name=role_{s.seat}][value={s.role}]")
    page.check(f"input[name=result][value={game.result}]")
    page.locator("#protocol[data-queued='0']").wait_for(state="attached")

    _cut(page, hall)
    if game.first_killed is not None:
        page.select_option("#first_killed", str(game.first_killed))
    page.fill("input[name=judge]", "Судья Офлайн")
    page.locator("#protocol[data-queued='1']").wait_for(state="attached")  # kept on the phone
    assert "не отправлено: 1" in page.inner_text("#oq-status")
    page.reload()
    page.locator("#protocol[data-queue=ready]").wait_for()
    assert _field(page, "judge") == "Судья Офлайн"
    assert page.is_checked(f"input[name=result][value={game.result}]")
    page.fill("input[name=extra_2]", "0,25")
    page.click("#submit")
    page.locator("#oq-status").filter(has_text="Подача протокола в очереди").wait_for()
    page.evaluate("document.getElementById('oq-status').scrollIntoView()")
    _shot(page, "offline-form-360")

    # the network back: the server refuses the extra point, beside its seat with its rule;
    # what the judge recorded offline is kept as a draft
    _restore(page, hall)
    page.locator("#oq-status").filter(has_text="Сервер не принял").wait_for()
    assert "8.4.3" in page.inner_text("#oq-status")
    page.locator("#slot-seat-2 .problem").filter(has_text="8.4.3").first.wait_for()
    page.evaluate("document.getElementById('seat-2').scrollIntoView()")
    _shot(page, "offline-form-refused-360")
    page.fill("input[name=extra_2]", "0,3")
    page.click("#submit")
    page.wait_for_url(f"**/t/{tid}/judge")
    head = Services(make_engine(str(world.db))).games.head(tid, code)
    g = head.game_struct()
    assert head.state == "submitted"
    assert g.judge == "Судья Офлайн"
    assert {s.seat: s.role for s in g.seats} == {s.seat: s.role for s in game.seats}
    assert g.result == game.result and g.first_killed == game.first_killed
    assert str(g.scores[2].extra) == "0.3"
    # the live screen's address now shows the submitted protocol, not a refusal
    r = page.goto(f"{hall.base}/t/{tid}/games/{code}/live")
    assert r is not None and r.status == 200
    assert page.url.endswith(f"/t/{tid}/games/{code}")
    kept = "caches.keys().then(ns => Promise.all(ns.map(n => caches.open(n).then(c => c.keys())" \
           ".then(rs => rs.map(r => r.url))))).then(ls => [].concat(...ls))"
    assert any(u.endswith(f"/games/{code}/edit") for u in page.evaluate(kept))
    # signing out: none of the judge's pages stays on the phone
    page.click("header form[action='/logout'] button")
    page.wait_for_url(f"{hall.base}/")
    assert not [u for u in page.evaluate(kept) if "/judge" in u or "/games/" in u]
    page.context.close()


def test_two_devices_on_one_table_the_judge_chooses(hall: Hall, browser: Any  # noqa: F811
                                                   ) -> None:
    world = hall.world
    # the table of the live game (the tournament has two open tables)
    tid, code = world.demo.tournament, world.demo.open_games[0]
    engine = make_engine(str(world.db))
    judge = _judge(browser, hall)
    judge.goto(f"{hall.base}/t/{tid}/games/{code}/edit")
    judge.locator("#protocol[data-queue=ready]").wait_for()
    judge.fill("input[name=judge]", "Судья стола")
    judge.locator("#protocol[data-queued='0']").wait_for(state="attached")

    # the judge's phone loses the network; he changes the protocol meanwhile
    judge.context.set_offline(True)
    judge.fill("input[name=extra_4]", "0,3")
    judge.fill("input[name=judge]", "Судья стола, с телефона")
    judge.locator("#oq-status").filter(has_text="не отправлено").wait_for()

    # the head judge, on his laptop, saves the same table
    head = browser.new_context(viewport={"width": 1280, "height": 900}, **RU_CONTEXT).new_page()
    head.goto(f"{hall.base}/login?next=/t/{tid}/games/{code}/edit")
    head.fill("input[name=user]", "headjudge")
    head.fill("input[name=password]", DEMO_PASSWORD)
    head.click("#login-btn")
    head.wait_for_url(f"**/games/{code}/edit")
    head.locator("#protocol[data-queue=ready]").wait_for()
    head.fill("input[name=judge]", "Главный судья")
    head.locator("#protocol[data-queued='0']").wait_for(state="attached")
    svc = Services(engine)
    theirs = svc.games.head(tid, code).number

    # back online: nothing is overwritten, both versions side by side
    judge.context.set_offline(False)
    judge.locator("#conflict").wait_for()
    rows = judge.locator("#cf-table tbody tr")
    assert rows.count() == 2
    judge_row = judge.locator("#cf-table tr[data-field=judge]")
    assert "Судья стола, с телефона" in judge_row.locator("td.cf-mine").inner_text()
    assert "Главный судья" in judge_row.locator("td.cf-theirs").inner_text()
    assert "0,3" in judge.locator("#cf-table tr[data-field=extra_4] td.cf-mine").inner_text()
    assert svc.games.head(tid, code).number == theirs  # nothing saved on top meanwhile
    _shot(judge, "offline-conflict-360")

    # he keeps his: saved on top of the head judge's version, once
    judge.click("#cf-keep-mine")
    judge.locator("#conflict").wait_for(state="detached")
    judge.locator("#save-status").filter(has_text=str(theirs + 1)).wait_for()
    now = svc.games.head(tid, code)
    assert now.number == theirs + 1
    assert now.game_struct().judge == "Судья стола, с телефона"
    engine.dispose()
    judge.context.close()
    head.context.close()


def test_the_hall_screen_shows_the_wifi_and_the_address(hall: Hall, browser: Any  # noqa: F811
                                                        ) -> None:
    tid = hall.world.demo.tournament
    page = browser.new_context(viewport={"width": 1920, "height": 1080}, **RU_CONTEXT).new_page()
    page.goto(f"{hall.base}/t/{tid}/hall?qr=1&wifi=Mafia-Hall&password=red-black-10")
    page.locator("#hall-qr-wifi svg").wait_for()
    assert "Wi-Fi зала: Mafia-Hall" in page.inner_text("#hall-qr")
    # the two codes are whole on the screen, square and large enough to scan from a seat
    for box_id in ("#hall-qr-wifi svg", "#hall-qr-address svg"):
        box = page.locator(box_id).bounding_box()
        assert box is not None and box["width"] >= 200 and abs(box["width"] - box["height"]) < 2
        assert box["x"] + box["width"] <= 1920 and box["y"] + box["height"] <= 1080
    _shot(page, "offline-hall-qr-1920")
    page.context.close()


def test_the_live_screen_shows_another_devices_events_beside_the_queued_ones(
        hall: Hall, browser: Any) -> None:  # noqa: F811
    world = hall.world
    tid, code = world.demo.tournament, world.demo.open_games[0]
    judge, api, before = _live_dealt(hall, browser)
    # the judge's phone is offline; he records a foul
    judge.context.set_offline(True)
    judge.click("#lv-foul-8")
    judge.locator("#lv-log .lv-queued").wait_for()
    # the head judge records the same moment from his laptop
    head = browser.new_context(viewport={"width": 1280, "height": 900}, **RU_CONTEXT).new_page()
    head.goto(f"{hall.base}/login?next=/t/{tid}/games/{code}/live")
    head.fill("input[name=user]", "headjudge")
    head.fill("input[name=password]", DEMO_PASSWORD)
    head.click("#login-btn")
    head.wait_for_url(f"**/games/{code}/live")
    head.locator("#live[data-queue=ready]").wait_for()
    head.click("#lv-foul-6")
    head.locator("#lv-log .lv-queued").wait_for(state="detached")
    theirs = _state(head, api)
    assert len(theirs["events"]) == len(before["events"]) + 1

    # back online: nothing is added on top unseen; both side by side
    judge.context.set_offline(False)
    judge.locator("#conflict").wait_for()
    assert "фол месту 8" in judge.inner_text("#cf-mine")
    assert "фол месту 6 — новое" in judge.inner_text("#cf-theirs")
    assert len(_state(judge, api)["events"]) == len(theirs["events"])
    judge.evaluate("document.getElementById('conflict').scrollIntoView()")
    _shot(judge, "offline-live-conflict-360")
    # he adds his: after the head judge's, once
    judge.click("#cf-keep-mine")
    judge.locator("#conflict").wait_for(state="detached")
    judge.locator("#lv-log .lv-queued").wait_for(state="detached")
    after = _state(judge, api)
    assert [e["event"]["type"] + str(e["event"].get("seat")) for e in after["events"][-2:]] == [
        "foul6", "foul8"]

    # a 4th foul asks first (here: not yet), then is written as the removal it is
    fouls = after["fouls"].get("5", 0)
    for _ in range(3 - fouls):
        judge.click("#lv-foul-5")
    judge.locator("#lv-fouls-5").filter(has_text=re.compile(r"^3$")).wait_for()  # all sent
    asked: list[str] = []
    judge.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    judge.click("#lv-foul-5")
    assert asked == ["4-й фол месту 5: игрок будет удалён из-за стола. Записать?"]
    assert _state(judge, api)["fouls"]["5"] == 3
    judge.once("dialog", lambda d: d.accept())
    judge.click("#lv-foul-5")
    judge.locator("#lv-log li").filter(has_text="место 5 удалено (4-й фол)").wait_for()
    judge.locator("#lv-log .lv-queued").wait_for(state="detached")
    state = _state(judge, api)
    assert state["fouls"]["5"] == 4
    assert state["events"][-1]["text"] == "место 5 удалено (4-й фол)"
    judge.evaluate("document.getElementById('lv-log').scrollIntoView()")
    _shot(judge, "offline-live-4th-foul-360")
    judge.context.close()
    head.context.close()


def test_a_batch_applied_whose_answer_was_lost_is_no_conflict(hall: Hall, browser: Any  # noqa: F811
                                                             ) -> None:
    """The network goes while the server applies a batch: the phone keeps the taps, the
    server has them. When the network returns, those leave the queue (the server has them
    by their ids), the rest is sent after them, and the judge is asked nothing."""
    world = hall.world
    tid, code = world.demo.tournament, world.demo.open_games[0]
    judge, api, before = _live_dealt(hall, browser)
    judge.context.set_offline(True)
    judge.click("#lv-foul-2")
    judge.click("#lv-foul-4")
    expect(judge.locator("#lv-log .lv-queued")).to_have_count(2)
    # the batch of those two reaches the server; its answer never reaches the phone
    kept = judge.evaluate("k => mafiatabQueue.load(k)", f"mafiatab-live:{tid}:{code}")
    ops = [{"id": op["id"], "seq": op["seq"], "event": op["event"], "at": op["at"]}
           for op in kept["queue"]]
    csrf = json.loads(judge.get_attribute("body", "hx-headers"))["X-CSRF-Token"]
    lost = judge.context.request.post(api, data=json.dumps(
        {"base_revision": kept["server"]["revision"], "events": ops}),
        headers={"Content-Type": "application/json", "X-CSRF-Token": csrf})
    assert lost.status == 200, lost.text()
    judge.click("#lv-foul-10")  # and the judge goes on, offline
    expect(judge.locator("#lv-log .lv-queued")).to_have_count(3)

    judge.context.set_offline(False)
    expect(judge.locator("#lv-log .lv-queued")).to_have_count(0, timeout=60_000)
    assert judge.locator("#conflict").count() == 0
    after = _state(judge, api)
    added = [{k: v for k, v in e["event"].items() if k != "at"}
             for e in after["events"][len(before["events"]):]]
    assert added == [{"type": "foul", "seat": 2}, {"type": "foul", "seat": 4},
                     {"type": "foul", "seat": 10}]
    judge.context.close()
