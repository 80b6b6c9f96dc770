"""The appeals schedule (one row per round: the round, its day, its start) on a 360 px
phone and a laptop, in Debian's Chromium: nothing scrolls sideways, every field is whole
inside the screen, in Russian and in English. Screens go to docs/screens/zone-schedule-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import DEMO_PASSWORD, HEAD_JUDGE_NAME, ORGANIZER_NAME
from tests.web.conftest import World
from tests.web.test_browser import browser, live  # noqa: F401 (fixtures)

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
SIZES = {"360": {"width": 360, "height": 740}, "1280": {"width": 1280, "height": 800}}

#: what sticks out: every field of the schedule box whose right edge passes the box's (or
#: the screen's), and whether the box's table scrolls sideways
OVERFLOW = """() => {
  const box = document.querySelector('#schedule');
  const right = Math.min(box.getBoundingClientRect().right, document.documentElement.clientWidth);
  const cut = [...box.querySelectorAll('input, select, button')]
    .filter(e => e.getBoundingClientRect().right > right + 0.5)
    .map(e => (e.name || e.tagName) + ':' + Math.round(e.getBoundingClientRect().right));
  const scroll = [...box.querySelectorAll('.scroll')]
    .filter(e => e.scrollWidth > e.clientWidth + 1)
    .map(e => e.scrollWidth + '>' + e.clientWidth);
  return {cut, scroll, page: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}"""


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_schedule_fits_a_phone(live: tuple[str, World], browser: Any,  # noqa: F811
                                   lang: str) -> None:
    base, world = live
    tid = world.demo.tournament
    svc = Services(make_engine(str(world.db)))
    svc.zones.set_zone(tid, "Europe/Moscow", actor=ORGANIZER_NAME)  # the zone's words show
    for size, viewport in SIZES.items():
        page = browser.new_context(viewport=viewport,
                                   locale="ru-RU" if lang == "ru" else "en-US").new_page()
        page.goto(f"{base}/lang/{lang}?next=/login")
        page.fill("input[name=user]", HEAD_JUDGE_NAME)
        page.fill("input[name=password]", DEMO_PASSWORD)
        page.click("#login-btn")
        page.wait_for_load_state()
        page.goto(f"{base}/t/{tid}/appeals")
        box = page.locator("#schedule")
        assert box.locator("tr[data-round]").count() >= 2  # the seating's rounds are rows
        SCREENS.mkdir(parents=True, exist_ok=True)
        box.scroll_into_view_if_needed()
        box.screenshot(path=str(SCREENS / f"zone-schedule-{lang}-{size}.png"))
        found = page.evaluate(OVERFLOW)
        assert found == {"cut": [], "scroll": [], "page": 0}, (size, found)
        hint = ("время — Москва (UTC+3)" if lang == "ru" else "times: Moscow (UTC+3)")
        assert hint in box.inner_text()
        page.context.close()
