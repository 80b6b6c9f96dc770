"""The stream overlay and the hall's screen in Debian's Chromium at 1920×1080.

The overlay is left open (as OBS leaves it) while a table's judge plays a game through
the live API; it follows every step by itself (pushed events), and its roles stay off the
page until the head judge's delay has passed. A screenshot is taken at each step
(test-artifacts/overlay-*.png; a few are kept in docs/screens/). The hall's screen pages
through a standings table longer than the screen.
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from tests.web.conftest import World
from tests.web.test_browser import _shot, browser, live  # noqa: F401 (fixtures)
from tests.web.test_live import ROLES
from tests.web.test_overlay_push import Staff, judge1_at_table_1, submit_protocol

FULL_HD = {"width": 1920, "height": 1080}
TIMEOUT = 10_000
ROLE_WORDS = ("мирный", "шериф", "мафия", "дон")
#: the hall's table as drawn: rows shown, its page, the last row's bottom, the names' size
HALL_METRICS = """(() => {
  const t = document.getElementById('hall-table');
  const rows = t.querySelectorAll('tr.r');
  return {shown: rows.length, page: Number(t.dataset.page), pages: Number(t.dataset.pages),
          bottom: rows[rows.length - 1].getBoundingClientRect().bottom,
          font: parseFloat(getComputedStyle(rows[0].querySelector('td.name')).fontSize),
          names: t.innerText, first: rows[0].innerText,
          news: document.getElementById('hall-news').textContent};
})()"""


class Judge:
    """The table's judge, sending the live screen's operations one by one."""

    def __init__(self, staff: Staff, url: str) -> None:
        self.s = staff
        self.url = url
        self.n = 0

    def state(self) -> dict[str, Any]:
        return self.s.call("GET", self.url)

    def send(self, **event: Any) -> dict[str, Any]:
        st = self.state()
        self.n += 1
        return self.s.call("POST", self.url, json={"base_revision": st["revision"], "events": [
            {"id": f"ob-{self.n}", "seq": st["seq"] + 1, "event": event}]})

    def speeches(self, nominations: dict[int, int]) -> None:
        st = self.state()
        while st["step"] and "speech" in st["step"]["kinds"] and st["step"]["seat"]:
            seat = st["step"]["seat"]
            ev: dict[str, Any] = {"type": "speech", "seat": seat}
            if seat in nominations:
                ev["nominates"] = nominations[seat]
            st = self.send(**ev)


def _until(check: Any, timeout: float = TIMEOUT / 1000, what: str = "",
           page: Any = None) -> None:
    """Wait in Python (the page's CSP forbids Playwright's string predicates); with a
    page, by its own clock, so that its events (requests) are delivered meanwhile."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out: {what}"
        if page is not None:
            page.wait_for_timeout(100)
        else:
            time.sleep(0.1)


def _revision(page: Any, at_least: int) -> None:
    _until(lambda: int(page.get_attribute("body", "data-revision") or 0) >= at_least,
           what=f"revision {at_least}")


def _no_roles(page: Any) -> None:
    assert page.locator(".ov-role").count() == 0
    text = page.inner_text("body")
    assert not any(w in text for w in ROLE_WORDS), text
    boot = page.inner_text("#ov-boot") if page.locator("#ov-boot").count() else ""
    assert '"role": "don"' not in boot and '"role":"don"' not in boot


def test_the_overlay_follows_a_live_game_and_shows_roles_after_the_delay(
        live: tuple[str, World], browser: Any) -> None:  # noqa: F811
    base, world = live
    tid = world.demo.tournament
    code = world.demo.open_games[0]
    judge1_at_table_1(world)
    judge = Judge(Staff(base, "judge1"), f"/api/t/{tid}/games/{code}/live")
    head = Staff(base, "headjudge")
    head.call("POST", f"/api/t/{tid}/screens", json={"roles_delay": 3600})
    # the delay is the streamer's: his link with the key
    key = head.call("POST", f"/api/t/{tid}/screens/overlay-key")["key"]
    page = browser.new_context(viewport=FULL_HD).new_page()
    page.goto(f"{base}/t/{tid}/overlay/{code}?key={key}")
    page.locator("#ov-seat-10 .ov-name").wait_for(timeout=TIMEOUT)
    _until(lambda: page.get_attribute("html", "data-push") == "up", what="the stream")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
    # the screenshots show it over a grey stand-in for the camera's picture
    page.add_style_tag(content="html { background: #55606a }")
    _shot(page, "overlay-1-seated", full=False)

    st = judge.send(type="deal", roles=ROLES)
    _revision(page, st["revision"])
    assert "Роли — в" in page.inner_text("#ov-header")
    _no_roles(page)
    _shot(page, "overlay-2-dealt", full=False)

    judge.speeches({1: 5, 2: 9})
    st = judge.state()
    _revision(page, st["revision"])
    assert page.locator("#ov-seat-5.nominated").count() == 1
    assert "5, 9" in page.inner_text("#ov-nominations")
    _no_roles(page)
    _shot(page, "overlay-3-nominations", full=False)

    st = judge.send(type="vote", votes={"5": [1, 2, 3, 4, 6, 7], "9": [5, 8]})
    _revision(page, st["revision"])
    vote = page.text_content("#ov-vote") or ""
    assert "Голосование" in vote and "6" in vote and "2" in vote
    judge.send(type="last_words", seat=5)
    judge.send(type="shot", target=1)
    judge.send(type="don_check", target=7)
    judge.send(type="sheriff_check", target=3)
    judge.send(type="best_move", seat=1, seats=[3, 9, 4])
    st = judge.send(type="foul", seat=8)
    _revision(page, st["revision"])
    assert "заголосован" in page.inner_text("#ov-seat-5") and "убит" in page.inner_text("#ov-seat-1")
    assert page.locator("#ov-seat-8 .ov-fouls i").count() == 1
    assert "1 → 3, 9, 4" in page.inner_text("#ov-best")
    assert page.inner_text("#ov-checks") == ""  # the checks are role information
    _no_roles(page)
    _shot(page, "overlay-4-night-roles-hidden", full=False)

    # the head judge sets the delay to end a few seconds from now
    svc_state = head.call("GET", f"/t/{tid}/overlay/{code}/state?key={key}")
    dealt = dt.datetime.fromisoformat(svc_state["reveal_at"]) - dt.timedelta(seconds=3600)
    elapsed = (dt.datetime.now(dt.UTC) - dealt).total_seconds()
    delay = int(elapsed) + 6
    head.call("POST", f"/api/t/{tid}/screens", json={"roles_delay": delay})
    reveal = dealt + dt.timedelta(seconds=delay)
    _until(lambda: "Роли — в" in page.inner_text("#ov-header"), what="the new delay")
    assert dt.datetime.now(dt.UTC) < reveal - dt.timedelta(seconds=1)
    _no_roles(page)  # the new delay has not passed yet
    page.locator("#ov-role-3").wait_for(timeout=20_000)
    shown_at = dt.datetime.now(dt.UTC)
    assert shown_at >= reveal, (shown_at, reveal)
    assert (shown_at - reveal).total_seconds() < 3  # the hub's tick, then the push
    assert page.inner_text("#ov-role-3") == "дон" and page.inner_text("#ov-role-7") == "шериф"
    assert page.locator(".ov-role").count() == 10
    assert "Дон → 7: шериф" in page.inner_text("#ov-checks")
    _shot(page, "overlay-5-roles-shown", full=False)

    judge.speeches({2: 9, 4: 3})
    judge.send(type="vote", counts={"9": 5})
    judge.send(type="shot", target=2)
    judge.speeches({4: 3})
    st = judge.state()
    assert st["ended"]
    _revision(page, st["revision"])
    assert page.inner_text("#ov-result") == "победа красных"
    assert "заголосован" in page.inner_text("#ov-seat-3")  # the only nominee left
    assert page.inner_text("#ov-nominations") == ""
    _shot(page, "overlay-6-result", full=False)

    # the operator's options: only the seats, bigger letters, the roles switched off
    opt = browser.new_context(viewport=FULL_HD).new_page()
    opt.goto(f"{base}/t/{tid}/overlay/{code}?parts=seats,names,out,fouls&font=40&accent=00c0ff")
    opt.locator("#ov-seat-1").wait_for(timeout=TIMEOUT)
    assert opt.locator(".ov-role").count() == 0 and not opt.is_visible("#ov-header")
    assert not opt.is_visible("#ov-result")
    assert opt.evaluate("getComputedStyle(document.body).fontSize") == "40px"
    opt.add_style_tag(content="html { background: #55606a }")
    _shot(opt, "overlay-7-options", full=False)
    head.call("POST", f"/api/t/{tid}/screens", json={"roles_delay": None})


def test_the_hall_screen_pages_through_a_long_table(
        live: tuple[str, World], browser: Any) -> None:  # noqa: F811
    base, world = live
    tid = world.demo.tournament
    head = Staff(base, "headjudge")
    head.call("POST", f"/api/t/{tid}/screens",
              json={"announcements": "Перерыв 15 минут\nФинал — в 18:00 в большом зале"})
    page = browser.new_context(viewport=FULL_HD).new_page()
    page.goto(f"{base}/t/{tid}/hall?page=4")
    page.locator("#hall-table tr.r").first.wait_for(timeout=TIMEOUT)
    rows = len(world.sample.players)
    # measured in one go inside the page, on its first page (it pages by itself meanwhile)
    m: dict[str, Any] = {}

    def on_page(n: int) -> Any:
        def check() -> bool:
            m.update(page.evaluate(HALL_METRICS))
            return bool(m["page"] == n)
        return check

    _until(on_page(1), timeout=10, what="the first page", page=page)
    shown, pages = m["shown"], m["pages"]
    assert 3 <= shown < rows and pages == -(-rows // shown), (shown, rows, pages)
    assert m["bottom"] <= 1080 * 0.87  # every row on the screen, above the announcements
    assert m["font"] >= 36, m  # readable from ten metres on a hall's TV
    assert m["news"] == "Перерыв 15 минут" and m["first"].startswith("1")
    first_names = m["names"]
    assert "после 2-го тура" in page.inner_text("#hall-sub")
    assert page.locator("#hall-tables .tbl").count() == 2
    _shot(page, "overlay-hall-page-1", full=False)
    _until(on_page(2), what="page 2", page=page)
    assert m["names"] != first_names and m["news"].startswith("Финал")
    _shot(page, "overlay-hall-page-2", full=False)
    _until(on_page(1), timeout=4 * pages + 4, what="round again to page 1", page=page)
    assert m["first"].startswith("1") and m["names"] == first_names
    head.call("POST", f"/api/t/{tid}/screens", json={"announcements": ""})


def test_the_public_standings_page_is_pushed_not_polled(
        live: tuple[str, World], browser: Any) -> None:  # noqa: F811
    base, world = live
    tid = world.demo.tournament
    code = world.demo.open_games[1]
    revision = submit_protocol(Staff(base, "judge2"), world, 2, code)
    head = Staff(base, "headjudge")
    page = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    polls: list[str] = []
    page.on("request", lambda r: polls.append(r.url) if "/standings" in r.url
            and "/events" not in r.url else None)
    page.goto(f"{base}/t/{tid}")
    _until(lambda: page.get_attribute("html", "data-push") == "up", what="the stream")
    before = page.inner_text("#standings p.muted")
    page.wait_for_timeout(6000)  # longer than the page's 5-second poll
    assert polls == []  # the poll is held back while the stream is up
    t0 = time.monotonic()
    head.call("POST", f"/api/t/{tid}/games/{code}/confirm", json={"base_revision": revision})
    _until(lambda: page.inner_text("#standings p.muted") != before, timeout=3,
           what="the pushed table")
    assert time.monotonic() - t0 < 1.5
    assert polls == []
    _shot(page, "overlay-standings-pushed-360", full=False)
    # with the stream cut off (a proxy that drops it), the page polls as before
    cut = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    cut.route("**/standings/events*", lambda route: route.abort())
    fallback: list[str] = []
    cut.on("request", lambda r: fallback.append(r.url) if r.url.endswith(f"/t/{tid}/standings")
           else None)
    cut.goto(f"{base}/t/{tid}")
    _until(lambda: len(fallback) >= 1, timeout=8, what="the fallback poll", page=cut)
    assert cut.get_attribute("html", "data-push") == "down"
