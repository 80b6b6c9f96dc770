"""The phone's engine in the browser is the one the differential test compares: random FIIM
and FSM games (hypothesis), with wrong taps between their events, go through the server's
`domain.course.Course` here and through web/static/course.js in Debian's Chromium (the same
engine under Pyodide, in its worker, loaded from our own server as the live screen loads
it). At every point both must give the same next step, the same legal events, who speaks,
the same words, and the same refusals with the same clause; a wrong tap that turns out
legal is undone on both sides (so `undo` is compared too).

Thousands of games are compared under Node (test_course_node.py, the same runtime and
bundle, without a browser to pay for); here a few games per rule set show that the
browser loads and runs the same code. All go to the page in one evaluation per rule set,
so Pyodide's start (a few seconds) is paid once; MAFIATAB_COURSE_BROWSER_GAMES sets how
many games in all.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from mafiatab.rules import get_profile
from mafiatab.web import course_files
from tests.gamelog.strategies import played_games
from tests.helpers import serving
from tests.web.course_walk import RULES, Seen, rules_key, script
from tests.web.test_browser import ARGS, CHROMIUM

#: games per rule set, in one page evaluation (one hypothesis example) each
BATCH = max(1, int(os.environ.get("MAFIATAB_COURSE_BROWSER_GAMES", "24")) // len(RULES))
SETTINGS = settings(max_examples=1, deadline=None, database=None,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example,
                                           HealthCheck.function_scoped_fixture])
#: how many games, points and refusals each rule set compared
SEEN = Seen()

#: the page's side: the same walk through the API of course.js
WALK_JS = """
async text => {
  const out = [];
  for (const g of JSON.parse(text)) {
    const game = await mafiaCourse.open({rules: g.rules, options: g.options, roles: g.roles,
                                         lang: g.lang, log: []});
    const trace = [await game.view()];
    for (const [wrong, event] of g.steps) {
      if (wrong !== null) {
        const r = await game.apply(wrong);
        trace.push(r);
        if (r.ok) { trace.push(await game.undo()); }
      }
      trace.push(await game.apply(event));
    }
    trace.push(await game.log());
    await game.close();
    out.push(trace);
  }
  return JSON.stringify(out);
}
"""


def games_of(rules: str, options: dict[str, str]) -> st.SearchStrategy[list[dict[str, Any]]]:
    profile = get_profile(rules, options)
    one = st.builds(lambda p, rng, lang: script(rules, options, p, rng, lang),
                    played_games(profile), st.randoms(use_true_random=True),
                    st.sampled_from(["ru", "en"]))
    return st.lists(one, min_size=BATCH, max_size=BATCH)


class Page:
    """The page that runs course.js, started once."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def walk(self, games: list[dict[str, Any]]) -> list[list[Any]]:
        # JSON text both ways: Playwright's own serialisation of megabytes of nested
        # objects takes longer than the walk itself
        out: list[list[Any]] = json.loads(self.page.evaluate(WALK_JS, json.dumps(games)))
        return out


@pytest.fixture(scope="module")
def course_page() -> Iterator[Page]:
    if not course_files.available():
        if os.environ.get("CI"):
            pytest.fail("the Pyodide runtime is missing: scripts/pyodide puts it in place")
        pytest.skip("the Pyodide runtime is missing here: run scripts/pyodide")
    from playwright.sync_api import sync_playwright

    app = FastAPI()
    app.mount("/static", StaticFiles(directory=str(course_files.PACKAGE / "web" / "static")))
    app.include_router(course_files.router)

    @app.get("/", response_class=HTMLResponse)
    def index() -> str:
        return '<!doctype html><html><body><script src="/static/course.js"></script></body></html>'

    with serving(app) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.set_default_timeout(180_000)
        page.goto(base + "/")
        started = page.evaluate("s => mafiaCourse.ready(s)", course_files.setup())
        assert started is True, "the engine did not start in the browser"
        yield Page(page)
        browser.close()


def _compare(games: list[dict[str, Any]], page: Page) -> None:
    SEEN.compare(games, page.walk(games))


def _check(rules: str, options: dict[str, str], page: Page) -> None:
    @SETTINGS
    @given(games=games_of(rules, options))
    def check(games: list[dict[str, Any]]) -> None:
        _compare(games, page)

    check()


def test_the_phone_and_the_server_walk_the_same_course(course_page: Page) -> None:
    """Every rule set, with refusals among them (a walk of legal events only would compare
    no clause)."""
    for rules, options in RULES:
        _check(rules, options, course_page)
    report = SEEN.report()
    print(report)
    assert set(report) == {rules_key({"rules": r, "options": o}) for r, o in RULES}
    assert all(v["games"] >= BATCH for v in report.values())
    assert sum(v["refusals"] for v in report.values()) > 0
