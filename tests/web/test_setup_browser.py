"""Setting a tournament up from scratch in Debian's Chromium, on a phone (360×740) and a
laptop (1280×800): the organizer creates it (choosing the rules), pastes players with
clubs, corrects one, withdraws one, changes the rules, adds a stage, seats a round with
judges, issues the judges' codes and downloads the blank protocols (read back with
pdftotext; the QR code's address is on the sheet); a judge opens his code's address; the
administrator resets a password. Screens go to docs/screens/setup-*.png, the blank PDF's
first pages to docs/screens/setup-blank-*.png.
"""

from __future__ import annotations

import re
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.web.app import create_app
from tests.web.conftest import RELAXED
from tests.web.test_browser import _free_port, browser, live  # noqa: F401  (fixtures)

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
ORG, ORG_PASS = "org", "organizer-pass-1"
CLUBS = ["Север", "Юг", "Восток", "Запад"]


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[str, Services]]:
    url = f"sqlite:///{tmp_path}/browser-setup.sqlite"
    engine = make_engine(url)
    upgrade(engine)
    Services(engine).accounts.add_account(ORG, ORG_PASS, actor=ORG)
    engine.dispose()
    app = create_app(url, secret="setup-browser", limits=RELAXED)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                            timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the app did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", app.state.services
    server.should_exit = True
    thread.join(10)


def _shot(page: Any, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_setup_from_scratch(served: tuple[str, Services], browser: Any,  # noqa: F811
                            width: int, height: int, tmp_path: Path) -> None:
    base, svc = served
    size = f"{width}"
    ctx = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
    page = ctx.new_page()
    page.goto(f"{base}/login?next=/")
    page.fill("input[name=user]", ORG)
    page.fill("input[name=password]", ORG_PASS)
    page.click("#login-btn")
    page.wait_for_url(f"{base}/")

    # create: the rules are chosen, none is preselected
    assert page.locator("#new-rules").input_value() == ""
    page.fill("input[name=name]", f"Кубок зала {size}")
    page.select_option("#new-rules", "fsm")
    page.click("form[action='/new'] button")
    page.wait_for_url(re.compile(r".*/t/\d+/manage$"))
    tid = int(page.url.split("/")[-2])
    assert page.locator("#first-run li.next").get_attribute("data-step") == "players"
    _shot(page, f"setup-manage-start-{size}")

    # players: pasted with clubs, with a header row and two bad lines
    page.goto(f"{base}/t/{tid}/setup")
    names = [f"Игрок{i:02d}" for i in range(1, 22)]
    text = "Ник;Клуб\n" + "\n".join(f"{n};{CLUBS[i % 4]}" for i, n in enumerate(names))
    page.fill("#players-text", text + "\n;Юг\nИгрок01;Север;лишнее")
    page.click("#players-btn")
    page.locator("#refused").wait_for()
    assert page.locator("#refused .refused-line").count() == 2
    assert "нет ника" in page.inner_text("#refused")
    assert page.input_value("#players-text") == ";Юг\nИгрок01;Север;лишнее"
    _shot(page, f"setup-players-refused-{size}")

    # correct one, withdraw one (21 registered, 20 left to seat)
    roster = {p.nickname: p.id for p in svc.roster.lines(tid)}
    pid = roster["Игрок03"]
    page.click(f"#player-{pid} summary")
    page.fill(f"#player-{pid} input[name=nickname]", "Игрок03 Исправленный")
    page.fill(f"#player-{pid} input[name=club]", "Юг")
    page.click(f"#player-{pid} button[value=edit]")
    page.wait_for_url(f"**/t/{tid}/setup#player-{pid}")
    assert "Игрок03 Исправленный" in page.inner_text(f"#player-{pid} summary")
    gone = roster["Игрок21"]
    page.click(f"#player-{gone} summary")
    page.click(f"#player-{gone} button[value=withdraw]")
    page.wait_for_url(f"**#player-{gone}")
    assert "снят" in page.inner_text(f"#player-{gone} summary")

    # rules: changed before any game
    page.select_option("#rules-select", "fiim2018")
    page.click("#rules-btn")
    page.wait_for_url("**#rules")
    assert svc.tournaments.context(tid)[0].rules == "fiim2018"
    _shot(page, f"setup-page-{size}")

    # stages, seating (typed, with judges), then the path
    page.fill("#stage-name", "Финал")
    page.select_option("#stage-kind", "final")
    page.click("#stage-btn")
    page.wait_for_url("**#stages")
    assert page.inner_text("#stage-list li[data-stage=final]") == "Финал"
    ids = [roster[n] for n in names[:20]]
    seating = "\n".join(f"qual 1 {t + 1} {' '.join(ids[10 * t:10 * t + 10])} Судья{t + 1}"
                        for t in range(2))
    page.click("#seating-box details summary")
    page.fill("textarea[name=seating]", seating)
    page.click("form[action$='/setup/seating'] button")
    page.wait_for_url(f"**/t/{tid}/manage")
    assert page.locator("#first-run li.next").get_attribute("data-step") == "blanks"
    _shot(page, f"setup-manage-seated-{size}")

    # judges' codes for round 1, then the blank protocols with them
    page.goto(f"{base}/t/{tid}/setup#blanks")
    page.click("#issue-btn")
    page.locator("#round-codes").wait_for()
    codes = [page.locator(f".code-card[data-table='{t}'] .code-text").inner_text()
             for t in (1, 2)]
    assert all(re.fullmatch(r"[2-9A-Z]{4}-[2-9A-Z]{4}", c) for c in codes)
    assert page.locator("img.qr").count() == 2
    assert page.locator("#loopback").is_visible()  # opened at 127.0.0.1: it says so
    _shot(page, f"setup-codes-{size}")
    with page.expect_download() as got:
        page.click("#blanks-btn")
    pdf = tmp_path / "blank.pdf"
    got.value.save_as(str(pdf))
    pages = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                           text=True, check=True).stdout.split("\f")
    for n in names[:10]:
        assert n in pages[0] or (n == "Игрок03" and "Игрок03 Исправленный" in pages[0])
    assert codes[0] in pages[0] and codes[1] in pages[2]
    assert f"{base}/c/{codes[0]}" in pages[1]
    assert "Судья1" in pages[0] and "Судья2" in pages[2] and "Отбор" in pages[0]
    if width == 360:
        subprocess.run(["pdftoppm", "-r", "90", "-png", "-f", "1", "-l", "2", str(pdf),
                        str(SCREENS / "setup-blank")], check=True)
    page.goto(f"{base}/t/{tid}/manage")
    assert page.locator("#first-run li.next").get_attribute("data-step") == "open"

    # the judge's phone opens the QR code's address, signs in with one tap
    judge = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    judge.goto(f"{base}/c/{codes[0]}")
    assert judge.input_value("input[name=code]") == codes[0]
    _shot(judge, f"setup-judge-code-{size}")
    judge.click("#code-btn")
    judge.wait_for_url(f"**/t/{tid}/judge")
    judge.context.close()

    # the rules are closed once a game is entered
    code = svc.games.overview(tid)[0].code
    head = svc.games.head(tid, code)
    svc.protocols.save_draft(tid, code, head.game_struct(), actor="судья1",
                             base_revision=head.number)
    page.goto(f"{base}/t/{tid}/setup")
    assert page.locator("#rules-locked").is_visible()
    page.goto(f"{base}/t/{tid}/manage")
    assert page.locator("#first-run li.next").count() == 0
    ctx.close()


def test_admin_resets_a_password_in_the_browser(served: tuple[str, Services],
                                                browser: Any) -> None:  # noqa: F811
    base, svc = served
    tid = svc.tournaments.new_tournament("Сброс", "fsm", actor=ORG)
    svc.access.grant(tid, "judge7", "judge", actor=ORG, password="judge-seven-pass")
    for width, height in ((360, 740), (1280, 800)):
        ctx = browser.new_context(viewport={"width": width, "height": height})
        page = ctx.new_page()
        page.goto(f"{base}/login?next=/admin/accounts")
        page.fill("input[name=user]", ORG)
        page.fill("input[name=password]", ORG_PASS)
        page.click("#login-btn")
        page.wait_for_url("**/admin/accounts")
        page.select_option("#reset-user", "judge7")
        page.fill("#reset-form input[name=password]", f"new-pass-{width}-xyz")
        page.click("#reset-btn")
        page.locator("#reset-done").wait_for()
        _shot(page, f"setup-admin-reset-{width}")
        assert svc.accounts.check_password("judge7", f"new-pass-{width}-xyz")
        ctx.close()


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_phone_standings_keep_the_nickname_in_view_and_the_player_page_says_place_and_total(
        live: tuple[str, Any], browser: Any, width: int, height: int) -> None:  # noqa: F811
    base, world = live
    tid = world.demo.tournament
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(f"{base}/t/{tid}", wait_until="domcontentloaded")  # charts may come later
    first = page.locator("#standings-table tr[data-player] td.stick-name").first
    first.wait_for(state="visible")  # under load the table may be drawn after the DOM is ready
    nickname = first.locator("a").first.inner_text()  # the second link: his person page
    page.evaluate("document.querySelector('#standings .scroll').scrollLeft = 10000")
    scrolled = page.evaluate("document.querySelector('#standings .scroll').scrollLeft")
    # the standings refresh themselves (htmx): a box is None while the row is being swapped
    deadline = time.monotonic() + 20
    while (box := first.bounding_box()) is None and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    # on a phone the table is wider than the screen: it did scroll, the nickname stayed
    assert (scrolled > 0) is (width == 360)
    _shot(page, f"setup-standings-scrolled-{width}")
    with page.expect_navigation(wait_until="domcontentloaded"):
        first.locator("a").first.click()
    assert page.inner_text("h1").startswith(nickname)
    text = page.inner_text("#place-total")
    assert re.search(r"Место: 1\*? · Сумма: −?\d+,\d\d", text), text
    _shot(page, f"setup-player-{width}")
    page.context.close()
