"""A whole short game run from the judge's live screen in Debian's Chromium at 360×740:
the deal, speeches with nominations and the timer, votes, night actions, a foul, part of
day 2 recorded with the connection down and sent once when it returns, then the
protocol form showing the result and the first killed that the log gave.
Screens go to test-artifacts/ (live-*.png)."""

from __future__ import annotations

import re
from typing import Any

from tests.web.conftest import World
from tests.web.test_browser import _shot, browser, live  # noqa: F401 (fixtures)

TIMEOUT = 10_000


def _speaker(page: Any, seat: int) -> None:
    page.locator("#lv-speech h2").filter(has_text=f"Говорит место {seat}").wait_for(
        timeout=TIMEOUT)


def _speak(page: Any, seat: int, nominate: int | None = None) -> None:
    _speaker(page, seat)
    if nominate is not None:
        page.click(f"#lv-nom-{nominate}")
    page.click("#lv-end-speech")


def _queued(page: Any, n: int) -> None:
    """Wait until the log shows `n` taps not yet confirmed by the server: the phone's engine
    checks a tap before it queues it, and draws the course before the server has it."""
    from playwright.sync_api import expect

    expect(page.locator("#lv-log .lv-queued")).to_have_count(n, timeout=TIMEOUT)


def _state(page: Any, api: str) -> dict[str, Any]:
    r = page.context.request.get(api)
    assert r.status == 200, r.text()
    data: dict[str, Any] = r.json()
    return data


def test_a_whole_game_from_the_live_screen(live: tuple[str, World],  # noqa: F811
                                           browser: Any) -> None:  # noqa: F811
    base, world = live
    tid = world.demo.tournament
    code = world.demo.open_games[0]
    api = f"{base}/api/t/{tid}/games/{code}/live"
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                              has_touch=True)
    page = ctx.new_page()
    page.goto(f"{base}/login")
    page.fill("input[name=code]", world.demo.code)
    page.click("#code-btn")
    page.wait_for_url(f"**/t/{tid}/judge")
    page.click("a.live")
    page.wait_for_url(f"**/games/{code}/live")

    # the deal: blacks 3 (don), 5, 9; sheriff 7
    for seat, role in ((3, "don"), (5, "black"), (7, "sheriff"), (9, "black")):
        page.click(f"#lv-role-{seat}-{role}")
    _shot(page, "live-deal-360", full=False)
    page.click("#lv-deal-btn")
    page.locator("#lv-next").filter(has_text="ночь 0").wait_for(timeout=TIMEOUT)

    # day 1: the timer runs during seat 1's speech; 1 nominates 5, 2 nominates 9
    _speaker(page, 1)
    assert page.inner_text("#lv-clock") == "1:00"
    page.click("#lv-start")
    page.locator("#lv-clock").filter(has_text="0:5").wait_for(timeout=TIMEOUT)  # it runs
    page.click("#lv-nom-5")
    _shot(page, "live-speech-360", full=False)
    page.click("#lv-end-speech")
    _speak(page, 2, 9)
    for seat in range(3, 11):
        _speak(page, seat)
    page.locator("#lv-vote").wait_for(timeout=TIMEOUT)
    for voter in (1, 2, 3, 4, 6, 7):
        page.click(f"#lv-v5-{voter}")
    _shot(page, "live-vote-360", full=False)
    page.click("#lv-record-vote")
    page.click("#lv-lw-5")
    page.locator("#lv-shot").wait_for(timeout=TIMEOUT)
    page.click("#lv-shot-1")
    page.locator("#lv-best-move").wait_for(timeout=TIMEOUT)
    page.click("#lv-bm-3")
    page.click("#lv-bm-9")
    page.click("#lv-record-bm")
    page.locator("#lv-best-move").wait_for(state="detached", timeout=TIMEOUT)
    page.click("#lv-foul-8")
    page.locator("#lv-fouls-8").filter(has_text=re.compile(r"^1$")).wait_for(timeout=TIMEOUT)
    _queued(page, 0)
    stored = len(_state(page, api)["events"])

    # the connection drops: day 2's first speeches and a foul are queued on the phone
    ctx.set_offline(True)
    _speak(page, 2, 9)
    page.locator("#lv-status").filter(has_text="Нет связи").wait_for(timeout=TIMEOUT)
    _speak(page, 3)
    _speak(page, 4, 3)
    page.click("#lv-foul-10")
    _speaker(page, 6)
    _queued(page, 4)
    assert "не проверено" in page.inner_text("#lv-log")
    # (the page re-renders the banner as the queue grows: scroll by id, not by a handle
    # that a re-render may have detached)
    page.evaluate("document.getElementById('lv-status').scrollIntoView()")
    _shot(page, "live-offline-360", full=False)

    # back online: the queue goes out in order, once
    import time

    time.sleep(1.1)  # the taps were made a second before the connection returns
    back_online = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    ctx.set_offline(False)
    page.locator("#lv-log .lv-queued").first.wait_for(state="detached", timeout=15_000)
    page.locator("#lv-status").filter(has_text="На связи").wait_for(timeout=TIMEOUT)
    state = _state(page, api)
    events = [{k: v for k, v in e["event"].items() if k != "at"} for e in state["events"]]
    assert len(events) == stored + 4
    # the queued taps keep the moments they were made, not the moment they were sent
    sent = [e["event"]["at"] for e in state["events"]]
    assert sent == sorted(sent) and sent[stored + 3] < back_online
    assert events[stored:] == [{"type": "speech", "seat": 2, "nominates": 9},
                               {"type": "speech", "seat": 3},
                               {"type": "speech", "seat": 4, "nominates": 3},
                               {"type": "foul", "seat": 10}]
    assert len({e["id"] for e in state["events"]}) == len(events)
    assert state["fouls"] == {"8": 1, "10": 1}

    # the rest of the game, online
    for seat in (6, 7, 8, 9, 10):
        _speak(page, seat)
    page.locator("#lv-vote h2").filter(has_text="9, 3").wait_for(timeout=TIMEOUT)
    for voter in (2, 4, 6, 7, 8):
        page.click(f"#lv-v9-{voter}")
    page.click("#lv-record-vote")
    page.locator("#lv-shot").wait_for(timeout=TIMEOUT)
    page.click("#lv-shot-2")
    _speak(page, 3)
    _speak(page, 4, 3)
    for seat in (6, 7, 8, 10):
        _speak(page, seat)
    page.locator("#lv-result").filter(has_text="победа красных").wait_for(timeout=TIMEOUT)
    _shot(page, "live-ended-360")
    _shot(page, "live-ended-360-screen", full=False)
    _queued(page, 0)
    assert _state(page, api)["result"] == "red"

    # the protocol form opens with what the log gave, read-only
    page.click("#lv-to-protocol")
    page.wait_for_url(f"**/games/{code}/edit")
    assert "победа красных" in page.inner_text("#result")
    assert page.inner_text("#first_killed") == "1"
    assert page.inner_text("#best_move") == "3, 9"
    assert page.locator("input[name=result]").count() == 0
    # the log's deal, read-only: the radio is checked and disabled, the role sent hidden
    assert page.is_checked("#seat-3 .pf-roles input[value=don]")
    assert page.is_disabled("#seat-3 .pf-roles input[value=don]")
    assert page.input_value("input[type=hidden][name=role_3]") == "don"
    _shot(page, "live-protocol-360")
    ctx.close()
