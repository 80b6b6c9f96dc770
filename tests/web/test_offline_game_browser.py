"""A whole game recorded on the live screen with the connection down from the deal to the
result, in Debian's Chromium at 360×740: the phone's own engine (course.js) says every
next step, the last words of the player just shot and the first killed's best move, and
refuses a wrong tap at once by its clause; when the connection returns the queue goes out
and the server, checking every event again, stores the same game.

The test plays the table from the server's `domain.course.Course`: each step the screen
must show the line that Course gives for the events so far. Screens go to test-artifacts/
(live-offline-*.png)."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect

from mafiatab.domain.course import Course
from mafiatab.domain.problems import translate_clause
from tests.web.conftest import World
from tests.web.test_browser import _shot, browser, live  # noqa: F401 (fixtures)

TIMEOUT = 30_000
ROLES = {3: "don", 5: "black", 7: "sheriff", 9: "black"}
#: Pyodide's first start on a loaded machine (compiling 10 MB of WebAssembly)
START = 240_000


def _seat_of(view: dict[str, Any], roles: dict[int, str], colour: str) -> int:
    """The lowest seat at the table of a colour ("black": the don too)."""
    blacks = ("don", "black")
    return min(s for s in view["step"]["at_table"]
               if (roles[s] in blacks) == (colour == "black"))


def _act(page: Any, view: dict[str, Any], roles: dict[int, str], noms: list[int],
         done: set[str]) -> dict[str, Any]:
    """Tap the next event on the screen as a judge would, and return it: the best move
    and the last words when due, a black nominated first each day, all hands for him."""
    step = view["step"]
    kinds = step["kinds"]
    if "best_move" in kinds or (view["ended"] and view["best_move_open"]):
        seat = view["first_killed"]
        page.click("#lv-bm-3")
        page.click("#lv-bm-9")
        page.click("#lv-record-bm")
        return {"type": "best_move", "seat": seat, "seats": [3, 9]}
    if "last_words" in kinds and step["last_words"]:
        seat = step["last_words"][0]
        page.click(f"#lv-lw-{seat}")
        return {"type": "last_words", "seat": seat}
    if "sheriff_check" in kinds and "sheriff" not in done:
        done.add("sheriff")
        page.click("#lv-sheriff_check-3")
        return {"type": "sheriff_check", "target": 3}
    if "shot" in kinds:
        target = _seat_of(view, roles, "red")
        page.click(f"#lv-shot-{target}")
        return {"type": "shot", "target": target}
    if "vote" in kinds:
        cands = step["candidates"]
        for voter in step["at_table"] if len(cands) > 1 else []:
            page.click(f"#lv-v{cands[0]}-{voter}")
        page.click("#lv-record-vote")
        if len(cands) > 1:
            return {"type": "vote", "votes": {str(cands[0]): list(step["at_table"])}}
        return {"type": "vote", "votes": {}}
    if "speech" in kinds and step["seat"] is not None:
        seat = step["seat"]
        event: dict[str, Any] = {"type": "speech", "seat": seat}
        if len(noms) < 2:  # a black first, then a red: two candidates, the black leaves
            nominee = _seat_of(view, roles, "black" if not noms else "red")
            if nominee != seat:
                page.click(f"#lv-nom-{nominee}")
                event["nominates"] = nominee
        page.click("#lv-end-speech")
        return event
    raise AssertionError(f"no tap for {step}")


def test_a_whole_game_offline(live: tuple[str, World], browser: Any) -> None:  # noqa: F811
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
    boot = json.loads(page.inner_text("#live-boot"))
    assert boot["course"] is not None, "the Pyodide runtime is missing: scripts/pyodide"
    page.wait_for_function("() => window.mafiaCourse && mafiaCourse.isReady()",
                           timeout=START)

    ctx.set_offline(True)
    roles = {s: ROLES.get(s, "red") for s in range(1, 11)}
    for seat, role in ROLES.items():
        page.click(f"#lv-role-{seat}-{role}")
    page.click("#lv-deal-btn")
    course = Course.of_rules(boot["rules"], boot["options"], roles, "ru")
    log: list[dict[str, Any]] = [{"type": "deal", "roles": [roles[s] for s in range(1, 11)]}]
    assert course.apply(log[0]) == []
    page.locator("#lv-status").filter(has_text="Нет связи").wait_for(timeout=TIMEOUT)

    done: set[str] = set()
    seen: set[str] = set()
    while True:
        view = course.view()
        line = view["step"]["line"]
        page.locator("#lv-next").filter(has_text=line).wait_for(timeout=TIMEOUT)
        if view["ended"] and not view["step"]["last_words"] and not view["best_move_open"]:
            break
        if "best_move" in view["step"]["kinds"] and "shot-screen" not in seen:
            # night 1 after the shot: the last words of the player just shot and the
            # first killed's best move, both offered by the phone itself
            seen.add("shot-screen")
            shot = view["first_killed"]
            assert view["step"]["last_words"] == [shot]
            page.locator(f"#lv-lw-{shot}").wait_for(timeout=TIMEOUT)
            page.locator("#lv-best-move").wait_for(timeout=TIMEOUT)
            _shot(page, "live-offline-night-360", full=False)
            # a wrong tap: the sheriff checks himself; refused at once, offline, by its
            # clause (and nothing is queued)
            # every tap so far queued (the phone's engine checks each before it queues it)
            queued = len(log)
            expect(page.locator("#lv-log .lv-queued")).to_have_count(queued, timeout=TIMEOUT)
            page.click("#lv-sheriff_check-7")
            notice = page.locator("#lv-notice")
            notice.wait_for(timeout=TIMEOUT)
            wrong = course.apply({"type": "sheriff_check", "target": 7})
            assert wrong and wrong[0].code == "log_check_self"
            assert wrong[0].clause
            assert translate_clause(wrong[0].clause, "ru") in notice.inner_text()
            expect(page.locator("#lv-log .lv-queued")).to_have_count(queued, timeout=TIMEOUT)
            _shot(page, "live-offline-refused-360", full=False)
        event = _act(page, view, roles, list(course.state.nominations), done)
        assert course.apply(event) == [], event
        log.append(event)
        assert len(log) < 200
    page.locator("#lv-result").filter(has_text=view["result_text"]).wait_for(timeout=TIMEOUT)
    expect(page.locator("#lv-log .lv-queued")).to_have_count(len(log), timeout=TIMEOUT)
    _shot(page, "live-offline-ended-360", full=False)

    # back online: the server checks every event again and stores the same game
    ctx.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.locator("#lv-log .lv-queued").first.wait_for(state="detached", timeout=60_000)
    state = page.context.request.get(api).json()
    stored = [{k: v for k, v in e["event"].items() if k != "at"} for e in state["events"]]
    assert stored == log
    assert state["ended"] and state["result"] == view["result"]
    assert state["step"] == view["step"]
    ctx.close()
