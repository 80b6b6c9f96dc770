"""Whole games recorded on the live screen with the network cut from the deal to the
result, an FSM game and a FIIM game, in Debian's Chromium at 360×740: the phone's own
engine (course.js) says every next step, the last words of the player just shot and the
first killed's best move, and refuses a wrong tap at once by its clause; in the middle of
the game the page is reloaded without network (the service worker brings back the page
and the engine's files, IndexedDB the queued taps) and the game goes on; when the network
returns the queue goes out, the server checks every event again, and the protocol it keeps
is the game as tapped: the same log, result, first killed and best move.

The test plays the table from the server's `domain.course.Course`: each step the screen
must show the line that Course gives for the events so far. Screens go to test-artifacts/
(live-offline-*.png)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from mafiatab.domain.course import Course
from mafiatab.domain.problems import translate_clause
from mafiatab.sample import sample_tournament
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from mafiatab.web.app import create_app
from mafiatab.web.demo import ORGANIZER_NAME, Demo, build_demo
from tests.helpers import serving
from tests.web.test_browser import _shot, browser  # noqa: F401 (fixture)
from tests.web.test_offline_browser import PHONE

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


@pytest.fixture(scope="module", params=["fsm", "fiim2018"])
def table(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[tuple[str, Demo]]:
    """A tournament of the rule set served on 127.0.0.1 (a service worker needs a secure
    origin), with the code's judge at its first open table."""
    rules = str(request.param)
    sample = sample_tournament(rules, 20, 3, seed=2026, final_round=True, name="Offline cup")
    demo = build_demo(tmp_path_factory.mktemp(f"offline-{rules}") / "web.sqlite", sample)
    engine = make_engine(str(demo.db_path))
    Services(engine).games.assign_judge(demo.tournament, demo.open_games[0], demo.code_user,
                                        actor=ORGANIZER_NAME)
    engine.dispose()
    with serving(create_app(str(demo.db_path), secret="offline-game-test")) as base:
        yield base, demo


def _engine_ready(page: Any) -> None:
    page.wait_for_function("() => window.mafiaCourse && mafiaCourse.isReady()", timeout=START)


def test_a_whole_game_offline(table: tuple[str, Demo], browser: Any) -> None:  # noqa: F811
    base, demo = table
    tid = demo.tournament
    code = demo.open_games[0]
    api = f"{base}/api/t/{tid}/games/{code}"
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    # what the page said and what the live API answered, for a failure's report
    said: list[str] = []
    page.on("console", lambda m: said.append(f"{m.type}: {m.text}"))
    page.on("requestfailed", lambda r: said.append(f"failed {r.method} {r.url} {r.failure}"))
    page.on("response", lambda r: said.append(f"{r.request.method} {r.url} {r.status}")
            if "/live" in r.url else None)
    page.goto(f"{base}/login")
    page.fill("input[name=code]", demo.code)
    page.click("#code-btn")
    page.wait_for_url(f"**/t/{tid}/judge")
    # the service worker has kept the judge's games' pages
    page.locator("html[data-kept=yes]").wait_for(state="attached")
    page.click("a.live")
    page.wait_for_url(f"**/games/{code}/live")
    boot = json.loads(page.inner_text("#live-boot"))
    assert boot["course"] is not None, "the Pyodide runtime is missing: scripts/pyodide"
    _engine_ready(page)

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
            _shot(page, f"live-offline-night-{boot['rules']}-360", full=False)
            # a wrong tap: the sheriff checks himself; refused at once, offline, by its
            # clause (and nothing is queued)
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
            _shot(page, f"live-offline-refused-{boot['rules']}-360", full=False)
        if ("shot-screen" in seen and "reload" not in seen and view["step"]["seat"] is not None
                and view["step"]["kind"] == "speeches"
                and any(e["type"] == "last_words" for e in log)):
            # the morning after the best move and the last words: a reload without network
            # brings back the page (the service worker), the engine (its files kept) and
            # every queued tap (IndexedDB), and the game goes on where it was
            seen.add("reload")
            expect(page.locator("#lv-log .lv-queued")).to_have_count(len(log), timeout=TIMEOUT)
            page.reload()
            page.locator("#live[data-queue=ready]").wait_for(timeout=TIMEOUT)
            _engine_ready(page)
            expect(page.locator("#lv-log .lv-queued")).to_have_count(len(log), timeout=TIMEOUT)
            page.locator("#lv-status").filter(has_text="Нет связи").wait_for(timeout=TIMEOUT)
            continue
        event = _act(page, view, roles, list(course.state.nominations), done)
        assert course.apply(event) == [], event
        log.append(event)
        assert len(log) < 200
    assert seen == {"shot-screen", "reload"}
    page.locator("#lv-result").filter(has_text=view["result_text"]).wait_for(timeout=TIMEOUT)
    expect(page.locator("#lv-log .lv-queued")).to_have_count(len(log), timeout=TIMEOUT)
    _shot(page, f"live-offline-ended-{boot['rules']}-360", full=False)

    # back online: the server checks every event again and keeps the game as tapped
    ctx.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    try:
        # one batch of the whole game, replayed by a server that shares this process
        expect(page.locator("#lv-log .lv-queued")).to_have_count(0, timeout=120_000)
    except AssertionError as e:  # what the screen and the server say of the unsent taps
        _shot(page, f"live-offline-unsent-{boot['rules']}-360")
        kept = page.context.request.get(api + "/live").json()
        raise AssertionError((page.inner_text("#lv-status"), len(kept["events"]),
                              page.inner_text("#live")[:2000], said[-40:])) from e
    state = page.context.request.get(api + "/live").json()
    stored = [{k: v for k, v in e["event"].items() if k != "at"} for e in state["events"]]
    assert stored == log
    assert state["ended"] and state["result"] == view["result"]
    assert state["step"] == view["step"]
    protocol = page.context.request.get(api).json()["protocol"]
    assert [{k: v for k, v in e.items() if k != "at"} for e in protocol["log"]] == log
    assert [s["role"] for s in protocol["seats"]] == [roles[s] for s in range(1, 11)]
    bm = next(e for e in log if e["type"] == "best_move")
    assert (protocol["result"], protocol["first_killed"], protocol["best_move"]) == (
        view["result"], bm["seat"], bm["seats"])
    times = [e["at"] for e in protocol["log"]]
    assert times == sorted(times)  # each tap's own time, kept offline
    ctx.close()
