"""End to end in Debian's Chromium: an organizer merges two records of one person on the
person's page and splits them again; the person's page, a club's page and the rating page
with a "what if" on a phone (360x740) and a laptop (1280x800). The screens are kept in
docs/screens/people-*.png.

Chromium that cannot start skips the test on a developer's machine and fails it in CI."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from sqlalchemy import select

from mafiatab.formats.tournament_json import dumps_tournament
from mafiatab.sample import sample_tournament
from mafiatab.services.facade import Services
from mafiatab.storage import models as db
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD
from tests.helpers import free_port
from tests.web.test_browser import RU_CONTEXT, RU_ENV

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
#: this area's ports (8610-8619), the first free one
PORTS = range(8610, 8620)
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    """Three tournaments of the same twenty people (the sample's nicknames and clubs), the
    third with one of them written differently: a second record of the same person."""
    path = tmp_path_factory.mktemp("people") / "people.sqlite"
    engine = make_engine(str(path))
    upgrade(engine)
    web = Services(engine)
    web.accounts.add_account("federation", DEMO_PASSWORD, actor="setup")  # the first: organizer
    tids = []
    for i, name in enumerate(["Кубок осени", "Кубок зимы", "Кубок весны"]):
        t = sample_tournament("fsm", 20, 6, seed=40 + i, final_round=True, name=name)
        for g in t.games:
            g.date = f"2026-0{i + 1}-15"
        if i == 2:
            t.players[0].nickname = "Альфа-М"
        tids.append(web.tournaments.import_file(dumps_tournament(t), actor="federation"))
    with engine.connect() as conn:
        ids = dict(conn.execute(select(db.Player.nickname, db.Player.id)).all())
    engine.dispose()
    app = create_app(str(path), secret="people-browser")
    port = free_port(PORTS)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the app did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", {"ids": ids, "tournaments": tids}
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
        yield b
        b.close()


def _shot(page: Any, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"people-{name}.png"), full_page=True)


def _page(browser: Any, size: dict[str, int]) -> Any:
    ctx = browser.new_context(viewport=size, **RU_CONTEXT)
    ctx.set_default_timeout(15_000)
    return ctx.new_page()


def test_organizer_merges_and_splits_on_the_page(live: tuple[str, dict[str, Any]],
                                                  browser: Any) -> None:
    base, data = live
    alpha, alias = data["ids"]["Альфа"], data["ids"]["Альфа-М"]
    page = _page(browser, LAPTOP)
    page.goto(f"{base}/login?next=/people/{alpha}")
    page.fill("input[name=user]", "federation")
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("#login-btn")
    page.wait_for_url(f"**/people/{alpha}")
    assert page.locator("details[data-tournament]").count() == 2
    page.fill("#merge-form input[name=other]", str(alias))
    page.fill("#merge-form input[name=reason]", "один человек: ник записан иначе")
    page.click("#merge-form button")
    page.wait_for_url(f"**/people/{alpha}")
    assert page.locator("details[data-tournament]").count() == 3
    text = page.inner_text("#identities")
    assert "Альфа-М" in text and "один человек" in text
    # the old record's address leads to the person
    page.goto(f"{base}/people/{alias}")
    page.wait_for_url(f"**/people/{alpha}?from={alias}")
    assert f"Запись №{alias} присоединена к этой" in page.inner_text("main")
    page.goto(f"{base}/people/{alpha}")
    _shot(page, "merged-1280")
    page.click("#identities form[action$='/split'] button")
    page.wait_for_url(f"**/people/{alpha}")
    assert page.locator("details[data-tournament]").count() == 2
    assert "разделено: federation" in page.inner_text("#identities")
    page.goto(f"{base}/people/{alias}")
    assert page.locator("details[data-tournament]").count() == 1


def test_screens_of_person_club_and_rating(live: tuple[str, dict[str, Any]],
                                           browser: Any) -> None:
    base, data = live
    beta = data["ids"]["Бета"]
    last = data["tournaments"][-1]
    for size, tag in ((PHONE, "360"), (LAPTOP, "1280")):
        page = _page(browser, size)
        page.goto(f"{base}/people/{beta}")
        assert page.locator("#by-role tr[data-role]").count() == 4
        assert page.locator("#partners tr[data-person]").count() == 10
        page.wait_for_function(
            "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
        _shot(page, f"person-{tag}")
        page.click("#partners tr[data-person] a >> nth=0")
        page.wait_for_url("**/people/*")
        page.goto(f"{base}/clubs/Клуб 2")
        assert page.locator("#members tr[data-person]").count() > 0
        _shot(page, f"club-{tag}")
        page.goto(f"{base}/rating?t={last}&g=f3#what-if-result")
        assert page.locator("#what-if tr[data-person]").count() == 10
        assert page.locator("#rating tr[data-person]").count() > 10
        _shot(page, f"rating-{tag}")
        page.close()
