"""A table judge's two screens on a phone, in Debian's Chromium at 360×740 and
1280×800, used as a person would: the protocol form of a typical game filled on the phone
within four screens of scrolling with every control a 44 px target; a blank form quiet
until the judge starts; a refused submit that says at the top what is wrong, each line a
link to its field; the live screen dealing by nickname, keeping a refusal in view until the
next tap, naming the repeated vote, never showing an empty item, sounding at 10 s left.
Screens go to docs/screens/phone-*.png (looked at by hand when the layout changes)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mafiatab.web.demo import DEMO_PASSWORD
from tests.web.conftest import World
from tests.web.test_browser import browser, live  # noqa: F401 (fixtures)

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}
TIMEOUT = 10_000
#: the size of a finger's tap (WCAG 2.5.5, Apple's and Google's guidelines)
TARGET = 44

#: every visible control (or, for a radio or checkbox, the label one taps) lower than a
#: finger: what it is, and its height
SMALL_CONTROLS = """(min) => {
  const out = [];
  for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea, button, summary')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    let h = r.height;
    if (el.type === 'radio' || el.type === 'checkbox') {
      const label = el.closest('label');
      if (label) h = Math.max(h, label.getBoundingClientRect().height);
    }
    if (h < min - 0.5) out.push((el.name || el.id || el.tagName) + ': ' + Math.round(h));
  }
  return out;
}"""


def _shot(page: Any, name: str, full: bool = True) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"phone-{name}.png"), full_page=full)


def _sign_in(browser: Any, base: str, user: str, nxt: str, size: dict[str, int],  # noqa: F811
             **kw: Any) -> Any:
    ctx = browser.new_context(viewport=size, **kw)
    page = ctx.new_page()
    page.goto(f"{base}/login?next={nxt}")
    page.fill("input[name=user]", user)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("#login-btn")
    page.wait_for_url(f"**{nxt}")
    return page


def _height(page: Any) -> int:
    h: int = page.evaluate("document.documentElement.scrollHeight")
    return h


def _no_sideways(page: Any) -> None:
    """Nothing wider than the screen (a cut table, a row that overflows)."""
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def _in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()  # relative to the viewport
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= -1 and box["y"] + min(box["height"], 60) <= height + 1


def _visible_problems(page: Any) -> int:
    n: int = page.evaluate("""() => [...document.querySelectorAll('.problem, #problem-list li')]
        .filter(e => e.getClientRects().length && getComputedStyle(e).display !== 'none').length""")
    return n


def _fill_typical_game(page: Any, game: Any) -> int:
    """What a judge writes for a typical game: roles, result, first killed and best move,
    fouls, an extra point with its explanation, three days of nominations and votes."""
    for s in game.seats:
        page.check(f"input[name=role_{s.seat}][value={s.role}]")
    page.check(f"input[name=result][value={game.result}]")
    fk = game.first_killed
    if fk is not None:
        page.select_option("#first_killed", str(fk))
    for k, seat in enumerate(game.best_move, start=1):
        page.select_option(f"#best_move_{k}", str(seat))
    page.select_option("select[name=fouls_2]", "2")
    page.select_option("select[name=fouls_7]", "1")
    seat = next(s.seat for s in game.seats if s.seat != fk)
    page.fill(f"#extra_{seat}", "0,2")
    page.click(f"#seat-{seat} details.pf-more summary")
    page.fill(f"textarea[name=expl_{seat}]", "Вёл стол в ключевом голосовании")
    page.click("#days summary")
    page.fill("input[name=day_1_nominated]", "1>4 2>8")
    page.fill("input[name=day_1_votes]", "4:3 8:7")
    page.click("#add-day")
    page.fill("input[name=day_2_nominated]", "3>6")
    page.click("#add-day")
    page.fill("input[name=day_3_nominated]", "5>9 6>10")
    page.fill("input[name=day_3_votes]", "9:4 10:2")
    page.fill("input[name=judge]", "Иванов И. И.")
    return seat


def test_the_protocol_on_a_phone_like_the_paper_sheet(live: tuple[str, World],  # noqa: F811
                                                      browser: Any) -> None:  # noqa: F811
    base, world = live
    tid = world.demo.tournament
    code = world.demo.open_games[1]
    game = world.open_game(2)
    url = f"/t/{tid}/games/{code}/edit"
    laptop = _sign_in(browser, base, "judge2", url, LAPTOP)
    phone = _sign_in(browser, base, "judge2", url, PHONE, is_mobile=True, has_touch=True)

    # a blank protocol opens quiet: no red lines before the judge has typed anything
    for page, size in ((phone, "360"), (laptop, "1280")):
        assert _visible_problems(page) == 0
        assert not page.locator("#problem-list").is_visible()
        _no_sideways(page)
        assert page.evaluate(SMALL_CONTROLS, TARGET) == []
        _shot(page, f"form-empty-{size}")

    # submitted as it is: the page says at the top that it was not, and what is wrong
    for page, size in ((phone, "360"), (laptop, "1280")):
        page.click("#submit")
        page.locator("#problem-list.refused").wait_for(timeout=TIMEOUT)
        assert page.evaluate("window.scrollY") < 50 and _in_view(page, "#problem-list")
        assert "не подан" in page.inner_text("#problem-list")
        _shot(page, f"form-problems-{size}", full=False)
    # ...each problem a link that brings its field into view, with the message beside it
    links = phone.locator("#problem-list a.pf-plink")
    assert links.count() >= 10
    for slot in ("seat-7", "result"):
        link = phone.locator(f"#problem-list a[data-slot='{slot}']").first
        link.click()
        target = link.get_attribute("href")
        phone.wait_for_timeout(300)
        assert _in_view(phone, target), f"{target} out of view"
        assert phone.locator(f"#slot-{slot} .problem").first.is_visible()
    _shot(phone, "form-problems-link-360", full=False)
    assert phone.evaluate(SMALL_CONTROLS, TARGET) == []

    # a typical game filled on the phone: at most four screens, every control a tap target
    phone.goto(f"{base}{url}")
    explained = _fill_typical_game(phone, game)
    phone.locator("#no-problems").wait_for(timeout=TIMEOUT)
    phone.locator("#save-status").filter(has_text=re.compile(r"[2-9]|\d\d")).wait_for(
        timeout=TIMEOUT)
    assert _visible_problems(phone) == 0
    height = _height(phone)
    assert height <= 4 * PHONE["height"], f"{height} px: more than four screens"
    assert phone.evaluate(SMALL_CONTROLS, TARGET) == []
    _no_sideways(phone)
    _shot(phone, "form-filled-360")
    _shot(phone, "form-filled-360-screen", full=False)

    # the same draft on a laptop (once the phone's last autosave is in): one line a seat,
    # nothing cut or overflowing
    phone.keyboard.press("Tab")
    phone.wait_for_timeout(900)  # the autosave waits 700 ms after the last change
    phone.wait_for_load_state("networkidle")
    laptop.goto(f"{base}{url}")
    assert laptop.is_checked(f"input[name=role_{game.seats[0].seat}][value={game.seats[0].role}]")
    _no_sideways(laptop)
    other = next(s.seat for s in game.seats if s.seat != explained)
    assert laptop.locator(f"#seat-{explained} details.pf-more[open]").count() == 1
    row = laptop.locator(f"#seat-{other}").bounding_box()
    assert row is not None and row["height"] < 2 * TARGET + 10  # one line, not two
    assert laptop.evaluate(SMALL_CONTROLS, TARGET) == []
    _shot(laptop, "form-filled-1280")

    phone.click("#submit")
    phone.wait_for_url(f"**/t/{tid}/judge")
    laptop.context.close()
    phone.context.close()


NO_ID = re.compile(r"\bp\d{3}\b")
EMPTY_ITEM = re.compile(r":\s*;|;\s*;|[:;]\s*$|\(\s*\)")


def _screen_text_is_clean(page: Any) -> None:
    """No player id anywhere on the screen, no empty item in the step line or lists."""
    text = page.inner_text("#live")
    assert not NO_ID.search(text), NO_ID.findall(text)
    line = page.inner_text("#lv-next") if page.locator("#lv-next").count() else ""
    assert not EMPTY_ITEM.search(line.strip()), line
    items = page.eval_on_selector_all("#live li", "els => els.map(e => e.textContent.trim())")
    assert all(items), items


def _speaker(page: Any, seat: int) -> None:
    page.locator("#lv-speech h2").filter(has_text=f"Говорит место {seat}").wait_for(
        timeout=TIMEOUT)


def _speak(page: Any, seat: int, nominate: int | None = None) -> None:
    _speaker(page, seat)
    if nominate is not None:
        page.click(f"#lv-nom-{nominate}")
    page.click("#lv-end-speech")


def test_the_live_screen_on_a_phone(live: tuple[str, World], browser: Any) -> None:  # noqa: F811
    base, world = live
    tid = world.demo.tournament
    code = world.demo.open_games[0]
    game = world.open_game(1)
    nicknames = {p.id: p.nickname for p in world.sample.players}
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    # the browser's vibration, recorded (a headless phone has no motor to feel)
    ctx.add_init_script("window.__buzz = []; navigator.vibrate = function (ms) {"
                        " window.__buzz.push(ms); return true; };")
    page = ctx.new_page()
    page.goto(f"{base}/login")
    page.fill("input[name=code]", world.demo.code)
    page.click("#code-btn")
    page.wait_for_url(f"**/t/{tid}/judge")
    page.goto(f"{base}/t/{tid}/games/{code}/live")
    # the head judge follows the same table on a laptop
    live_url = f"/t/{tid}/games/{code}/live"
    laptop = _sign_in(browser, base, "headjudge", live_url, LAPTOP)
    laptop.locator("#lv-deal").wait_for(timeout=TIMEOUT)
    _no_sideways(laptop)
    _screen_text_is_clean(laptop)
    _shot(laptop, "live-deal-1280", full=False)

    # the deal names each seat's player by nickname
    page.locator("#lv-deal").wait_for(timeout=TIMEOUT)
    for s in game.seats:
        row = page.locator("#lv-deal .lv-deal").nth(s.seat - 1).inner_text()
        assert nicknames[s.player] in row and s.player not in row
    _screen_text_is_clean(page)
    _shot(page, "live-deal-360", full=False)
    for seat, role in ((3, "don"), (5, "black"), (7, "sheriff"), (9, "black")):
        page.click(f"#lv-role-{seat}-{role}")
    page.click("#lv-deal-btn")
    page.locator("#lv-next").filter(has_text="ночь 0").wait_for(timeout=TIMEOUT)
    _screen_text_is_clean(page)
    first = nicknames[game.seats[0].player]
    assert first in page.inner_text("#lv-speech h2")
    assert first in page.inner_text("#lv-seat-1")

    # a refused tap: its message stays in view, scrolled or not, until the next tap
    _speak(page, 1, 5)
    _speaker(page, 2)
    page.click("#lv-nom-5")  # 5 is nominated already
    page.click("#lv-end-speech")
    notice = page.locator("#lv-notice")
    notice.wait_for(timeout=TIMEOUT)
    assert "уже выставлен" in notice.inner_text() and "log[" not in notice.inner_text()
    assert _in_view(page, "#lv-notice")
    page.mouse.wheel(0, 1500)
    page.wait_for_timeout(200)
    assert _in_view(page, "#lv-notice")
    _shot(page, "live-refused-360", full=False)
    page.mouse.wheel(0, -3000)
    page.click("#lv-nom-9")  # the next tap: the message goes, the tap does its work
    notice.wait_for(state="detached", timeout=TIMEOUT)
    assert "9" in page.inner_text("#lv-speech")
    page.click("#lv-end-speech")
    for seat in range(3, 11):
        _speak(page, seat)

    # a tie, the defence speeches, then the repeated vote, called so
    page.locator("#lv-vote h2").filter(has_text="5, 9").wait_for(timeout=TIMEOUT)
    _shot(page, "live-vote-360", full=False)
    for voter in (1, 2, 3, 4, 6):
        page.click(f"#lv-v5-{voter}")
    page.click("#lv-record-vote")
    page.locator("#lv-defence").wait_for(timeout=TIMEOUT)
    assert "оправдательная речь места 5" in page.inner_text("#lv-next")
    _screen_text_is_clean(page)

    # the defence's 30 seconds: the clock is big, and at 10 s left the phone buzzes
    clock = page.locator("#lv-clock").bounding_box()
    assert clock is not None and clock["height"] >= 60  # readable at arm's length
    # the page's clock stands still between the test's steps: on a loaded machine real
    # seconds would pass between the fast-forward and the look
    page.clock.install()
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    page.click("#lv-start")
    page.clock.run_for(21_000)
    page.locator("#lv-clock").filter(has_text="0:09").wait_for(timeout=TIMEOUT)
    assert page.evaluate("window.__buzz") == [150]
    page.click("#lv-start")  # pause
    _shot(page, "live-defence-360", full=False)
    page.click("#lv-end-defence")
    page.locator("#lv-defence h2").filter(has_text="места 9").wait_for(timeout=TIMEOUT)
    page.click("#lv-end-defence")
    page.locator("#lv-next").filter(has_text="переголосование").wait_for(timeout=TIMEOUT)
    assert page.inner_text("#lv-vote h2").startswith("Переголосование")
    line = page.inner_text("#lv-next")
    assert "переголосование: 5, 9" in line and "ночь" not in line, line
    _screen_text_is_clean(page)
    _shot(page, "live-revote-360", full=False)

    # the same screen on a laptop (the head judge's): nothing cut, nicknames there too
    laptop.reload()
    laptop.locator("#lv-vote h2").filter(has_text="Переголосование").wait_for(timeout=TIMEOUT)
    _no_sideways(laptop)
    _screen_text_is_clean(laptop)
    _shot(laptop, "live-revote-1280", full=False)

    # the revote: 5 leaves; night 1 and its shot
    for voter in (1, 2, 3, 4, 6, 7):
        page.click(f"#lv-v5-{voter}")
    page.click("#lv-record-vote")
    page.click("#lv-lw-5")
    page.locator("#lv-next").filter(has_text="ночь 1: стрельба").wait_for(timeout=TIMEOUT)
    page.locator("#lv-shot").wait_for(timeout=TIMEOUT)
    _screen_text_is_clean(page)
    page.click("#lv-shot-1")
    page.locator("#lv-best-move").wait_for(timeout=TIMEOUT)
    _screen_text_is_clean(page)
    _shot(page, "live-night-360", full=False)
    laptop.reload()
    laptop.locator("#lv-best-move").wait_for(timeout=TIMEOUT)
    _no_sideways(laptop)
    _screen_text_is_clean(laptop)
    _shot(laptop, "live-night-1280", full=False)
    laptop.context.close()
    ctx.close()
