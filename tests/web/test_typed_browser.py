"""Nothing the judge typed is dropped, in Debian's Chromium: a seat 11
among the nominations and a Cyrillic «о,3» in an extra are still in their fields after a
reload, each with its message beside it, quoting exactly what was typed, naming the field
in words and its rule; the submit is refused while they are there. The JSON API keeps the
same typing with a draft and refuses the submit the same way.
Screens: docs/screens/typed-reload-{360,1280}.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mafiatab.web.demo import DEMO_PASSWORD
from tests.web.conftest import World
from tests.web.test_browser import browser, live  # noqa: F401 (fixtures)

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"


def _sign_in(browser: Any, base: str, user: str, nxt: str, width: int,  # noqa: F811
             height: int) -> Any:
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(f"{base}/login?next={nxt}")
    page.fill("input[name=user]", user)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("#login-btn")
    page.wait_for_url(f"**{nxt}")
    return page


def _saved_past(page: Any, base: int) -> int:
    """Wait until the autosave has stored a revision after `base`; its number."""
    page.wait_for_function(
        "(b) => Number(document.getElementById('base').value) > b", arg=base)
    return int(page.input_value("#base"))


def _seen(page: Any) -> None:
    """The typed fields and their messages after a reload."""
    assert page.input_value("input[name=day_1_nominated]") == "11"
    assert page.input_value("#extra_3") == "о,3"
    days = page.locator("#slot-days .problem").first
    assert days.is_visible() or page.locator("#days").get_attribute("open") is not None
    days_text = page.inner_text("#slot-days")
    assert "«11»" in days_text, days_text
    extra_text = page.inner_text("#slot-seat-3")
    assert "«о,3»" in extra_text and "о.3" not in extra_text, extra_text
    assert page.locator("#slot-seat-3 .problem").first.is_visible()
    # the list at the top names the field in words and the rule
    listed = page.inner_text("#problem-list")
    assert "доп. балл" in listed and "ФСМ" in listed, listed
    assert "день 1, выставления" in listed, listed


def test_what_the_judge_typed_survives_a_reload(live: tuple[str, World],  # noqa: F811
                                                browser: Any) -> None:  # noqa: F811
    base, world = live
    tid = world.demo.tournament
    code = world.demo.open_games[1]
    url = f"/t/{tid}/games/{code}/edit"
    judge = _sign_in(browser, base, "judge2", url, 360, 740)
    start = int(judge.input_value("#base"))
    judge.click("#days summary")
    judge.fill("input[name=day_1_nominated]", "11")
    judge.press("input[name=day_1_nominated]", "Tab")
    judge.fill("#extra_3", "о,3")
    judge.press("#extra_3", "Tab")
    # beside the fields while typing, quoting what was typed
    judge.locator("#slot-seat-3 .problem").filter(has_text="«о,3»").wait_for()
    # the autosave has stored both (the second change may come in a later save)
    rev = _saved_past(judge, start)
    judge.wait_for_function(
        "() => document.getElementById('save-status').textContent.includes('"
        "ревизия ' + document.getElementById('base').value)")
    assert rev > start
    judge.reload()
    _seen(judge)
    judge.locator("#slot-seat-3").scroll_into_view_if_needed()
    SCREENS.mkdir(parents=True, exist_ok=True)
    judge.screenshot(path=str(SCREENS / "typed-reload-360.png"), full_page=False)
    judge.screenshot(path=str(SCREENS / "typed-reload-360-full.png"), full_page=True)

    # the head judge, on a laptop, opens the same draft: the same values and messages
    head = _sign_in(browser, base, "headjudge", url, 1280, 800)
    _seen(head)
    head.locator("#days").scroll_into_view_if_needed()
    head.screenshot(path=str(SCREENS / "typed-reload-1280.png"), full_page=False)

    # the submit is refused while they are there, and they stay
    judge.click("#submit")
    judge.wait_for_url(f"**{url.rsplit('/', 1)[0]}/submit")
    assert "«о,3»" in judge.inner_text("#slot-seat-3")
    judge.goto(f"{base}{url}")
    _seen(judge)
    # fixed: the messages go and the autosave forgets the typing
    before = int(judge.input_value("#base"))
    judge.fill("input[name=day_1_nominated]", "")
    judge.fill("#extra_3", "0,3")
    judge.press("#extra_3", "Tab")
    _saved_past(judge, before)
    judge.locator("#slot-seat-3 .problem").filter(has_text="«о,3»").wait_for(state="detached")
    judge.reload()
    assert judge.input_value("#extra_3") == "0,3"
    assert judge.input_value("input[name=day_1_nominated]") == ""
    assert "«" not in judge.inner_text("#slot-days")
