"""The course of the game on the phone and on the server are one: random FIIM and FSM games
(hypothesis), with wrong taps between their events, go through the server's
`domain.course.Course` here and through web/static/course.js in Debian's Chromium (the same
engine under Pyodide, loaded from our own server as the live screen loads it). At every
point both must give the same next step, the same legal events, who speaks, the same words,
and the same refusals with the same clause; a wrong tap that turns out legal is undone on
both sides (so `undo` is compared too).

Many games go to the page in one evaluation, so the browser's start (Pyodide's, a few
seconds) is paid once per module; MAFIATAB_COURSE_GAMES sets how many games in all.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from mafiatab.domain.course import Course
from mafiatab.rules import get_profile
from mafiatab.web import course_files
from tests.gamelog.strategies import PlayedGame, played_games
from tests.helpers import serving
from tests.web.test_browser import ARGS, CHROMIUM

#: the rule sets compared: FIIM with and without its optional 7.6, and FSM
RULES: list[tuple[str, dict[str, str]]] = [("fiim2018", {}), ("fiim2018", {"fiim_7_6": "on"}),
                                           ("fsm", {})]
#: games per page evaluation; evaluations (hypothesis examples) per rule set: 300 games in
#: all by default (about 30,000 points compared, a few minutes of one CI worker on a loaded
#: machine), MAFIATAB_COURSE_GAMES=3000 for a longer run
BATCH = 20
GAMES = int(os.environ.get("MAFIATAB_COURSE_GAMES", "300"))
EXAMPLES = max(1, GAMES // (BATCH * 3))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example,
                                           HealthCheck.function_scoped_fixture])
#: how many games, points and refusals each rule set compared
SEEN: dict[str, list[int]] = {}

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


def walk(g: dict[str, Any]) -> list[Any]:
    """The server's side: the same walk through `Course`'s JSON boundary."""
    roles = {n + 1: r for n, r in enumerate(g["roles"])}
    course = Course.of_rules(g["rules"], g["options"], roles, g["lang"])
    trace: list[Any] = [json.loads(course.view_json())]
    for wrong, event in g["steps"]:
        if wrong is not None:
            r = json.loads(course.apply_json(json.dumps(wrong)))
            trace.append(r)
            if r["ok"]:
                trace.append(json.loads(course.undo_json()))
        trace.append(json.loads(course.apply_json(json.dumps(event))))
    trace.append(course.log)
    return trace


KINDS = ["speech", "shot", "don_check", "sheriff_check", "last_words", "defence", "vote",
         "lift", "best_move", "foul", "deal", "bogus"]


def wrong_tap(rng: random.Random, log_so_far: int) -> dict[str, Any] | None:
    """A tap the judge may make by mistake (often illegal, now and then legal after all,
    sometimes malformed): a seat out of turn, a second shot, a vote on nobody."""
    if rng.random() < 0.5:
        return None
    kind = rng.choice(KINDS)
    seat = rng.choice([*range(1, 11), 0, 11]) if rng.random() < 0.1 else rng.randint(1, 10)
    if kind == "speech":
        ev: dict[str, Any] = {"type": "speech", "seat": seat}
        if rng.random() < 0.5:
            ev["nominates"] = rng.randint(1, 10)
        return ev
    if kind == "shot":
        return {"type": "shot", "target": None if rng.random() < 0.2 else seat}
    if kind in ("don_check", "sheriff_check"):
        return {"type": kind, "target": seat}
    if kind in ("last_words", "defence", "foul"):
        return {"type": kind, "seat": seat}
    if kind == "vote":
        return {"type": "vote", "counts": {str(seat): rng.randint(0, 11)}}
    if kind == "lift":
        return {"type": "lift", "count": rng.randint(-1, 11)}
    if kind == "best_move":
        return {"type": "best_move", "seat": seat, "seats": rng.sample(range(1, 11), 3)}
    if kind == "deal":
        return {"type": "deal"} if log_so_far else {"type": "deal", "roles": ["red"] * 10}
    return {"type": "bogus", "seat": seat} if rng.random() < 0.5 else {"type": "speech"}


def script(rules: str, options: dict[str, str], played: PlayedGame, rng: random.Random,
           lang: str) -> dict[str, Any]:
    """A game as both sides walk it: each legal event, with a wrong tap before it maybe."""
    steps = [(wrong_tap(rng, n), event) for n, event in enumerate(played.log)]
    return {"rules": rules, "options": options, "lang": lang,
            "roles": [played.roles[s] for s in range(1, 11)], "steps": steps}


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


def _compare(rules: str, options: dict[str, str], games: list[dict[str, Any]],
             page: Page) -> None:
    theirs = page.walk(games)
    key = rules + "".join(f"+{k}={v}" for k, v in options.items())
    seen = SEEN.setdefault(key, [0, 0, 0])
    assert len(theirs) == len(games)
    for g, their in zip(games, theirs, strict=True):
        ours = walk(g)
        for n, (a, b) in enumerate(zip(ours, their, strict=True)):
            assert a == b, (f"{key}, point {n} of {len(ours)}", g, a, b)
        assert len(ours) == len(their)
        seen[0] += 1
        seen[1] += len(ours)
        seen[2] += sum(1 for x in ours if isinstance(x, dict) and x.get("ok") is False)


def _check(rules: str, options: dict[str, str], page: Page) -> None:
    @SETTINGS
    @given(games=games_of(rules, options))
    def check(games: list[dict[str, Any]]) -> None:
        _compare(rules, options, games, page)

    check()


def test_the_phone_and_the_server_walk_the_same_course(course_page: Page) -> None:
    """Every rule set, with refusals among them (a walk of legal events only would compare
    no clause)."""
    for rules, options in RULES:
        _check(rules, options, course_page)
    print({k: {"games": v[0], "points": v[1], "refusals": v[2]} for k, v in SEEN.items()})
    assert set(SEEN) == {"fiim2018", "fiim2018+fiim_7_6=on", "fsm"}
    assert sum(v[0] for v in SEEN.values()) >= EXAMPLES * BATCH * len(RULES)
    assert all(v[2] > 0 for v in SEEN.values())
