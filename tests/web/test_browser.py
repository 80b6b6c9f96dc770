"""End to end in Debian's Chromium (Playwright for Python): a judge fills a protocol on a
phone-sized screen, meets a rule error, fixes it, submits; the head judge confirms; the
public standings page, left open, changes without a reload. Screens go to test-artifacts/.

Chromium that cannot start skips the test on a developer's machine and fails it in CI
(CI=true), so that a missing browser never passes for a green run.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD, ORGANIZER_NAME
from tests.web.conftest import ARTIFACTS, World, make_world

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: pages are Russian first, so the browser is a Russian phone's: its own widgets (a date's
#: «дд.мм.гггг», a file's «Выберите файл», a number's decimal comma) speak Russian. The
#: widgets' words come from Chromium's UI language, which LANGUAGE sets (with the
#: chromium-l10n package; without it they stay English); a context's locale and time zone
#: set the page's `navigator.language`, Intl and `Date` (Moscow, the demo's zone)
RU_ENV = {**os.environ, "LANGUAGE": "ru"}
RU_CONTEXT = {"locale": "ru-RU", "timezone_id": "Europe/Moscow"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, World]]:
    world = make_world(tmp_path_factory.mktemp("browser"))
    # the judge of the open table 1 signs in with the code the organizer gave him: a code
    # makes an account of its own, so that account is the table's judge here
    engine = make_engine(str(world.db))
    Services(engine).games.assign_judge(world.demo.tournament, world.demo.open_games[0],
                                    world.demo.code_user, actor=ORGANIZER_NAME)
    engine.dispose()
    app = create_app(str(world.db), secret="browser-test")
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                            timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the app did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", world
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import Error, sync_playwright

    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, env=RU_ENV)
        except Error as e:
            if os.environ.get("CI"):
                pytest.fail(f"Chromium cannot start in CI: {e}")
            pytest.skip(f"Chromium cannot start here: {e}")
        yield _Short(b)
        b.close()


#: how long a page's action or wait may take before the test fails, and a page load: on a
#: machine loaded by other work (CI's two cores running the suite in two workers) a page
#: that loads in 0.2 s alone can take many seconds, and a failure must mean a wrong page
ACTION_TIMEOUT_MS = 30_000
NAVIGATION_TIMEOUT_MS = 60_000


class _Short:
    """The browser, whose pages wait for each condition up to ACTION_TIMEOUT_MS and for each
    page load up to NAVIGATION_TIMEOUT_MS, in Russian and Moscow's time unless told."""

    def __init__(self, b: Any) -> None:
        self.b = b

    def new_context(self, **kw: Any) -> Any:
        ctx = self.b.new_context(**{**RU_CONTEXT, **kw})
        ctx.set_default_timeout(ACTION_TIMEOUT_MS)
        ctx.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        return ctx

    def close(self) -> None:
        self.b.close()


def _shot(page: Any, name: str, full: bool = True) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full)
    return path


def _confirmed_count(page: Any) -> str:
    text: str = page.inner_text("#standings p.muted")
    return text


def test_judge_fills_head_confirms_public_follows(live: tuple[str, World], browser: Any) -> None:
    base, world = live
    tid = world.demo.tournament
    game = world.open_game(1)
    code = world.demo.open_games[0]

    # the public page is open before anything happens, and stays open
    public = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    public.goto(f"{base}/t/{tid}")
    before = _confirmed_count(public)
    rows_before = public.inner_text("#standings-table")

    # the judge signs in with the code the organizer gave him, on a phone
    judge = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                has_touch=True).new_page()
    judge.goto(f"{base}/login")
    judge.fill("input[name=code]", world.demo.code)
    judge.click("#code-btn")
    judge.wait_for_url(f"**/t/{tid}/judge")
    judge.click("a.edit")
    judge.wait_for_url(f"**/games/{code}/edit")
    # the seating is there: the players sit as the head judge seated them
    for s in game.seats:
        assert judge.input_value(f"#player_{s.seat}") == s.player
    for s in game.seats:
        judge.check(f"input[name=role_{s.seat}][value={s.role}]")
    judge.check(f"input[name=result][value={game.result}]")
    if game.first_killed is not None:
        judge.select_option("#first_killed", str(game.first_killed))
    for k, seat in enumerate(game.best_move, start=1):
        judge.select_option(f"#best_move_{k}", str(seat))
    judge.select_option("select[name=fouls_2]", "2")
    judge.click("#days summary")
    judge.fill("input[name=day_1_nominated]", "3 5")
    judge.fill("input[name=day_1_votes]", "3:4 5:6")
    # a rule error: an extra far past the limit, beside its seat with its clause
    seat = next(s.seat for s in game.seats if s.seat != game.first_killed)
    judge.fill(f"#extra_{seat}", "3")
    problem = judge.locator(f"#slot-seat-{seat} .problem").first
    problem.wait_for()
    assert "8.4" in problem.inner_text()  # the clause is named
    _shot(judge, "judge-rule-error-360")
    # by selector, not by a handle: the check re-renders the slot as the form autosaves
    judge.evaluate(f"document.querySelector('#slot-seat-{seat}').scrollIntoView()")
    _shot(judge, "judge-rule-error-360-screen", full=False)  # what the phone shows
    # fixed: the message goes, the draft saves itself
    judge.fill(f"#extra_{seat}", "0,2")
    judge.locator(f"#slot-seat-{seat} .problem").wait_for(state="detached")
    judge.locator("#no-problems").wait_for()
    judge.locator("#protocol[data-queued='0']").wait_for()  # the phone's queue sent
    judge.locator("#save-status").filter(has_text="ревизия").wait_for()
    _shot(judge, "judge-protocol-360")
    judge.click("#submit")
    judge.wait_for_url(f"**/t/{tid}/judge")
    assert "подан" in judge.inner_text("body")
    _shot(judge, "judge-submitted-360")
    # the judge may not change it any more
    r = judge.goto(f"{base}/t/{tid}/games/{code}/edit")
    assert r is not None and r.status == 403

    # the head judge, on a laptop, confirms it
    head = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    head.goto(f"{base}/login?next=/t/{tid}/manage")
    head.fill("input[name=user]", "headjudge")
    head.fill("input[name=password]", DEMO_PASSWORD)
    head.click("#login-btn")
    head.wait_for_url(f"**/t/{tid}/manage")
    _shot(head, "head-judge-overview")
    head.click(f"#row-{code} button.confirm")
    head.wait_for_url(f"**/t/{tid}/manage")
    assert "подтверждён" in head.inner_text(f"#row-{code}")

    # the public page changes by itself (htmx polling), no reload
    deadline = time.monotonic() + ACTION_TIMEOUT_MS / 1000
    while _confirmed_count(public) == before:
        assert time.monotonic() < deadline, "standings did not refresh"
        public.wait_for_timeout(300)
    assert public.inner_text("#standings-table") != rows_before
    _shot(public, "public-standings-360")
    # the player's page explains the new game by clause
    player = game.seats[0].player
    public.goto(f"{base}/t/{tid}/players/{player}")
    assert code in public.inner_text("body")
    _shot(public, "player-360")


def _sign_in(browser: Any, base: str, user: str, nxt: str, width: int, height: int) -> Any:
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(f"{base}/login?next={nxt}")
    page.fill("input[name=user]", user)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("#login-btn")
    page.wait_for_url(f"**{nxt}")
    return page


def test_head_judge_returns_with_a_reason_then_confirms_from_the_game_page(
        live: tuple[str, World], browser: Any) -> None:
    """The return's reason reaches the judge; the head judge decides on the
    game page, which shows the whole protocol with each player's points and clauses."""
    base, world = live
    tid = world.demo.tournament
    game = world.open_game(2)
    code = world.demo.open_games[1]
    judge = _sign_in(browser, base, "judge2", f"/t/{tid}/judge", 360, 740)
    judge.goto(f"{base}/t/{tid}/games/{code}/edit")
    for s in game.seats:
        judge.check(f"input[name=role_{s.seat}][value={s.role}]")
    judge.check(f"input[name=result][value={game.result}]")
    if game.first_killed is not None:
        judge.select_option("#first_killed", str(game.first_killed))
    for k, seat in enumerate(game.best_move, start=1):
        judge.select_option(f"#best_move_{k}", str(seat))
    judge.select_option("select[name=fouls_3]", "1")
    judge.locator("#no-problems").wait_for()
    judge.click("#submit")
    judge.wait_for_url(f"**/t/{tid}/judge")

    # the tables waiting for the head judge come first; he opens the game page
    head = _sign_in(browser, base, "headjudge", f"/t/{tid}/manage", 1280, 800)
    head.click(f"#waiting a[href$='/games/{code}']")
    head.wait_for_url(f"**/t/{tid}/games/{code}")
    assert head.locator("#confirm").is_visible()
    table = head.inner_text("#protocol-table")
    assert all(f"{s.seat}\t" in table or str(s.seat) in table for s in game.seats)
    _shot(head, "head-judge-game-1280", full=False)
    reason = "Проверьте фолы игрока 3"
    head.fill("#reason", reason)
    head.click("#return")
    head.wait_for_url(f"**/t/{tid}/games/{code}")
    assert "возвращён" in head.inner_text("#state")

    # the judge sees why, on his tables and in the form
    judge.goto(f"{base}/t/{tid}/judge")
    assert reason in judge.inner_text("body")
    _shot(judge, "judge-returned-360", full=False)
    judge.goto(f"{base}/t/{tid}/games/{code}/edit")
    assert reason in judge.inner_text("#returned-reason")
    _shot(judge, "judge-returned-form-360", full=False)
    judge.select_option("select[name=fouls_3]", "2")
    judge.locator("#no-problems").wait_for()
    judge.click("#submit")
    judge.wait_for_url(f"**/t/{tid}/judge")
    # his own submitted protocol opens (it was a 404)
    r = judge.goto(f"{base}/t/{tid}/games/{code}")
    assert r is not None and r.status == 200

    # the head judge confirms from the game page
    head.goto(f"{base}/t/{tid}/games/{code}")
    assert head.inner_text("#seat-3").split("\t")[4].strip() == "2"  # the fouls column
    head.click("#confirm")
    head.wait_for_url(f"**/t/{tid}/games/{code}")
    assert "подтверждён" in head.inner_text("#state")
    _shot(head, "head-judge-confirmed-1280", full=False)
    phone = _sign_in(browser, base, "headjudge", f"/t/{tid}/games/{code}", 360, 740)
    _shot(phone, "head-judge-game-360", full=False)
    head.goto(f"{base}/t/{tid}/audit")
    assert reason in head.inner_text("body")
