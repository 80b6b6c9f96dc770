"""Times in Debian's Chromium, at 360×740 and 1280×800: the live screen's
journal shows each event's time; the game page lists the moments on the tournament's
clock with timecode links into the game's video, and the head judge sets the video from
it; an appeal's thread links its game's moments; the cases' page says the zone and lets
the organizer set it. Screens go to docs/screens/time-*.png."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from mafiatab.domain.appeals import Filing, Kind
from mafiatab.services.facade import Services
from mafiatab.services.live_log import Op, apply_ops, load
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import DEMO_PASSWORD, HEAD_JUDGE_NAME, ORGANIZER_NAME
from tests.web.conftest import World
from tests.web.test_browser import browser, live  # noqa: F401 (fixtures)
from tests.web.test_live import ROLES

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
VIDEO = "https://video.example.org/watch?v=cup-final"
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}


def _shot(page: Any, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"time-{name}.png"), full_page=True)


def _prepare(world: World) -> str:
    """Moscow time; the open table's deal and day-1 speeches tapped a minute apart (the
    screen's times); a protest on the game, filed by the head judge for its seat 1."""
    engine = make_engine(str(world.db))
    svc = Services(engine)
    tid, code = world.demo.tournament, world.demo.open_games[0]
    svc.zones.set_zone(tid, "Europe/Moscow", actor=ORGANIZER_NAME)
    start = dt.datetime.now(dt.UTC).replace(microsecond=0) - dt.timedelta(minutes=30)
    events: list[dict[str, Any]] = [{"type": "deal", "roles": ROLES}]
    events += [{"type": "speech", "seat": s, **({"nominates": 5} if s == 1 else {})}
               for s in range(1, 6)]
    for i, event in enumerate(events):
        game = load(svc.games, tid, code)
        at = (start + dt.timedelta(seconds=65 * i)).strftime("%Y-%m-%dT%H:%M:%SZ")
        apply_ops(svc.games, svc.protocols, tid, code,
                  [Op(id=f"b-{i}", seq=game.seq + 1, event=event, at=at)],
                  actor=world.demo.code_user, base_revision=game.revision.number)
    player = next(s.player for s in load(svc.games, tid, code).game.seats if s.seat == 1)
    case = svc.appeals.file(tid, Filing(kind=Kind.PROTEST, player=player, game=code,
                                text="Голосование на 3:15 — прошу посмотреть запись"),
                    actor=HEAD_JUDGE_NAME).id
    engine.dispose()
    return case


def _head_judge(browser: Any, base: str, viewport: dict[str, int]) -> Any:  # noqa: F811
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{base}/login")
    page.fill("input[name=user]", HEAD_JUDGE_NAME)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("#login-btn")
    page.wait_for_load_state()
    return page


def test_moments_video_and_zone_in_the_browser(live: tuple[str, World],  # noqa: F811
                                               browser: Any) -> None:  # noqa: F811
    base, world = live
    tid, code = world.demo.tournament, world.demo.open_games[0]
    case = _prepare(world)

    # the head judge, on a laptop, sets the video from the game page
    head = _head_judge(browser, base, LAPTOP)
    head.goto(f"{base}/t/{tid}/games/{code}")
    assert "время — Москва (UTC+3)" in head.inner_text("#moments")
    head.fill("#video-form input[name=url]", VIDEO)
    head.fill("#video-form input[name=offset]", "1:23:45")
    head.click("#video-form button")
    head.wait_for_url(f"**/t/{tid}/games/{code}*")
    links = head.locator("#moments-table a.tc")
    assert links.count() == 6
    assert links.nth(0).inner_text() == "1:23:45" and links.nth(1).inner_text() == "1:24:50"
    assert links.nth(1).get_attribute("href") == VIDEO + "&t=5090s"
    _shot(head, "game-1280")

    # the thread of the protest links the same moments
    head.goto(f"{base}/t/{tid}/appeals/{case}")
    assert head.locator("#moments-table a.tc").count() == 6
    assert "(Москва, UTC+3)" in head.inner_text("#status")
    _shot(head, "appeal-1280")
    head.goto(f"{base}/t/{tid}/appeals")
    assert head.inner_text("#zone-note") == "Время — Москва (UTC+3)"
    assert head.input_value("#time-zone-select") == "Europe/Moscow"
    assert "Россия, Москва" in head.inner_text("#time-zone-select option:checked")
    _shot(head, "appeals-1280")

    # a phone: the game page and the thread fit 360 px
    phone = _head_judge(browser, base, PHONE)
    phone.goto(f"{base}/t/{tid}/games/{code}")
    phone.locator("#moments").scroll_into_view_if_needed()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360 + 1, width
    _shot(phone, "game-360")
    phone.goto(f"{base}/t/{tid}/appeals/{case}")
    _shot(phone, "appeal-360")

    # the judge's live screen: its journal shows each event's time (Moscow)
    judge = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    judge.goto(f"{base}/login")
    judge.fill("input[name=code]", world.demo.code)
    judge.click("#code-btn")
    judge.wait_for_url(f"**/t/{tid}/judge")
    judge.goto(f"{base}/t/{tid}/games/{code}/live")
    judge.locator("#lv-log li").first.wait_for()
    first = judge.locator("#lv-log li").last.inner_text()
    assert " · " in first and first[:2].isdigit(), first
    _shot(judge, "live-360")
