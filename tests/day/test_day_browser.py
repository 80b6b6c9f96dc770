"""The day's pages in Debian's Chromium (Playwright): a player's own page, opened from his
QR code on a phone, changes without a reload when his game is confirmed (pushed, SSE);
the desk's check-in page with its no-shows; the team standings. Screens go to
docs/screens/day-*.png.

Chromium that cannot start skips the test on a developer's machine and fails it in CI.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import uvicorn

from mafiatab.domain.protocol import Player
from mafiatab.domain.teams import Team
from mafiatab.services.checkin import CheckinService
from mafiatab.services.facade import Services
from mafiatab.services.teams import TeamService
from mafiatab.storage.engine import make_engine
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD, HEAD_JUDGE_NAME, ORGANIZER_NAME
from tests.helpers import free_port
from tests.web.conftest import World, make_world
from tests.web.test_browser import browser  # noqa: F401 - the fixture

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
#: this area's ports (each helper's servers use their own)
PORTS = range(8810, 8820)


@pytest.fixture()
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, World, Services]]:
    world = make_world(tmp_path_factory.mktemp("day-browser"))
    tid = world.demo.tournament
    engine = make_engine(str(world.db))
    svc = Services(engine)
    # two reserves, and teams of five
    svc.tournaments.register_players(tid, [Player(id="r1", nickname="Запасной Один", club="Клуб Р1"),
                               Player(id="r2", nickname="Запасной Два", club="Клуб Р2")],
                         actor=ORGANIZER_NAME)
    ids = [p.id for p in world.sample.players]
    names = ["Северные", "Южные", "Западные", "Восточные"]
    TeamService(svc.store, svc.standings.compute).register(tid, [
        Team(f"t{i + 1}", n, tuple(ids[5 * i:5 * i + 5]))
                                               for i, n in enumerate(names)],
                                         actor=ORGANIZER_NAME)
    app = create_app(str(world.db), secret="day-browser")
    port = free_port(PORTS)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                            timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the app did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", world, svc
    server.should_exit = True
    thread.join(10)
    engine.dispose()


def _shot(page: Any, name: str, full: bool = True) -> Path:
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / f"day-{name}.png"
    page.screenshot(path=str(path), full_page=full)
    return path


def _phone(b: Any) -> Any:
    return b.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                               has_touch=True).new_page()


def test_the_players_page_follows_his_confirmed_game_without_a_reload(
        live: tuple[str, World, Services], browser: Any) -> None:  # noqa: F811
    base, world, svc = live
    tid = world.demo.tournament
    game = world.open_game(1)
    code = world.demo.open_games[0]
    seat = game.seats[2]  # his seat in the open round
    player = seat.player
    _account, secret = Services(svc.engine).appeals.player_code(tid, player, actor=ORGANIZER_NAME)
    CheckinService(svc.store).set_present(tid, player, True, actor=ORGANIZER_NAME)

    page = _phone(browser)
    page.goto(f"{base}/code?c={secret}")  # his QR code
    page.click("button[type=submit]")
    page.wait_for_url(f"**/t/{tid}/me")
    nick = next(p.nickname for p in world.sample.players if p.id == player)
    assert nick in page.inner_text("h1")
    assert f"Отбор, тур 3: стол 1, место {seat.seat}" in page.inner_text("#me-next")
    assert page.locator(f'[data-game="{code}"]').count() == 0
    standing_before = page.inner_text("#me-standing")
    page.evaluate("window.__kept = 1")  # gone if the page reloads
    page.locator("html[data-push=up]").wait_for(state="attached")
    _shot(page, "player-360-before")

    # the judge's protocol of the open table, submitted and confirmed meanwhile
    info = svc.games.head(tid, code)
    filled = msgspec.structs.replace(game, id=code, judge=info.game_struct().judge)
    saved = svc.protocols.save_draft(tid, code, filled, actor=HEAD_JUDGE_NAME,
                                    base_revision=info.number)
    sub = svc.protocols.submit(tid, code, actor=HEAD_JUDGE_NAME, base_revision=saved.number)
    started = time.monotonic()
    svc.protocols.confirm(tid, code, actor=HEAD_JUDGE_NAME, base_revision=sub.number)
    page.locator(f'[data-game="{code}"]').wait_for(timeout=5_000)
    seconds = time.monotonic() - started
    assert seconds < 5
    assert page.evaluate("window.__kept") == 1  # the same page: no reload
    assert "Рассадки следующего тура с вами пока нет" in page.inner_text("#me-next")
    assert page.inner_text("#me-standing") != standing_before
    box = page.inner_text(f'[data-game="{code}"]')
    assert "ФСМ 8." in box  # each point with its clause
    _shot(page, "player-360")
    _shot(page, "player-360-screen", full=False)
    wide = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    wide.goto(f"{base}/code?c={secret}")
    wide.click("button[type=submit]")
    wide.wait_for_url(f"**/t/{tid}/me")
    _shot(wide, "player-1280")


def test_the_desk_and_the_team_standings(live: tuple[str, World, Services],
                                         browser: Any) -> None:  # noqa: F811
    base, world, svc = live
    tid = world.demo.tournament
    checkin = CheckinService(svc.store)
    seated = [s.player for g in world.sample.games if g.stage == "qual"
              and g.round == world.demo.open_round for s in g.seats]
    absent = {seated[3], seated[14]}
    for p in [*world.sample.players, Player(id="r1", nickname=""), Player(id="r2", nickname="")]:
        if p.id not in absent:
            checkin.set_present(tid, p.id, True, actor=ORGANIZER_NAME)
    page = _phone(browser)
    page.goto(f"{base}/login?next=/t/{tid}/checkin")
    page.fill("input[name=user]", ORGANIZER_NAME)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("#login-btn")
    page.wait_for_url(f"**/t/{tid}/checkin")
    assert page.locator(".ns").count() == 2
    # every tap target is at least 44 px
    for box in page.locator(".ck-btn, button.replace, #reseat").evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect(); "
            "return [r.width, r.height]; })"):
        assert box[0] >= 44 and box[1] >= 44, box
    assert "Следующий тур: Отбор, тур 3" in page.inner_text("#next-round")
    # a tap swaps the list in place: no navigation, the scroll kept
    page.evaluate("window.__kept = 1")
    last = "#ck-r2 button.tick"
    page.locator(last).scroll_into_view_if_needed()
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 0
    page.locator(last).click()
    page.locator("#ck-r2 button.tick[aria-pressed=false]").wait_for()
    # the same page, still at the row (not back at the top; the list may end a line sooner)
    assert page.evaluate("window.__kept") == 1
    assert abs(page.evaluate("window.scrollY") - scrolled) < 60
    assert page.locator(".ns").count() == 2
    page.locator(last).click()
    page.locator("#ck-r2 button.tick[aria-pressed=true]").wait_for()
    assert page.evaluate("window.__kept") == 1
    assert "r2" in checkin.presence(tid)
    page.evaluate("window.scrollTo(0, 0)")
    _shot(page, "checkin-360")
    wide = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    wide.goto(f"{base}/login?next=/t/{tid}/checkin")
    wide.fill("input[name=user]", ORGANIZER_NAME)
    wide.fill("input[name=password]", DEMO_PASSWORD)
    wide.click("#login-btn")
    wide.wait_for_url(f"**/t/{tid}/checkin")
    _shot(wide, "checkin-1280", full=False)
    page.locator("button.replace").first.click()
    page.wait_for_url(f"**/t/{tid}/checkin?message=*")
    assert page.locator(".ns").count() == 1
    page.locator("#reseat").click()
    page.wait_for_url(f"**/t/{tid}/checkin?message=*")
    assert page.locator("#all-here").count() == 1
    assert "Тур пересажен" in page.inner_text("#ck-message")
    teams = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    teams.goto(f"{base}/t/{tid}/teams")
    assert teams.locator("#team-standings tr[data-team]").count() == 4
    _shot(teams, "teams-1280")
    phone = _phone(browser)
    phone.goto(f"{base}/t/{tid}/teams")
    _shot(phone, "teams-360")
