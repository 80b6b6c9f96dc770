"""The seating page in Debian's Chromium: the organizer generates a seating (progress by
htmx polling, then metrics and the grid), publishes round 1 with a judge, and the judge
finds his table; on a phone (360×740) and on a laptop (1280×800). Screens go to
test-artifacts/seating-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from mafiatab.web.demo import DEMO_PASSWORD
from tests.web.conftest import World
from tests.web.test_browser import _shot, browser, live  # noqa: F401  (fixtures)


def _sign_in(ctx: Any, base: str, user: str, nxt: str) -> Any:
    page = ctx.new_page()
    page.goto(f"{base}/login?next={nxt}")
    page.fill("input[name=user]", user)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("#login-btn")
    page.wait_for_url(f"**{nxt}")
    return page


@pytest.mark.parametrize(("width", "height", "first_round"), [(360, 740, 4), (1280, 800, 6)])
def test_generate_and_publish(live: tuple[str, World], browser: Any,  # noqa: F811
                              width: int, height: int, first_round: int) -> None:
    base, world = live
    tid = world.demo.tournament
    ctx = browser.new_context(viewport={"width": width, "height": height})
    org = _sign_in(ctx, base, "organizer", f"/t/{tid}/seating")
    if org.locator("#seating-form-box[open]").count() == 0:
        org.click("#seating-form-box summary")
    org.fill("input[name=games]", "2")
    org.fill("input[name=first_round]", str(first_round))
    assert org.input_value("#rule-clubs") == "off"  # the demo's clubs outgrow 2 tables
    org.fill("input[name=time_limit]", "10")
    org.click("#generate-btn")
    org.wait_for_url(f"**/t/{tid}/seating")
    org.locator("#seating-metrics").wait_for(timeout=60_000)  # htmx polled it in
    assert org.get_attribute("#hard-violations", "data-n") == "0"
    assert org.locator("#seating-grid ol").count() == 4  # 2 rounds × 2 tables
    org.fill("input[name=judge_1]", "judge1")
    org.click("#publish-btn")
    org.wait_for_url("**published=1")
    assert org.locator("#published-now").is_visible()
    _shot(org, f"seating-{width}")
    org.goto(f"{base}/t/{tid}/seating/print?round=1")
    assert org.locator(".ptable").count() == 2
    _shot(org, f"seating-print-{width}")
    org.emulate_media(media="print")  # what the printer gets: no header, no links
    assert not org.locator("header").is_visible()
    _shot(org, f"seating-print-{width}-media")
    ctx.close()

    judge = browser.new_context(viewport={"width": width, "height": height})
    page = _sign_in(judge, base, "judge1", f"/t/{tid}/judge")
    assert f"qual-r{first_round}-t1" in page.content()
    judge.close()
