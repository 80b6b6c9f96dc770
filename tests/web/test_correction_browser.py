"""The head judge's correction in Debian's Chromium, on a phone (360×740) and a laptop
(1280×800), in Russian: the judge's protocol (+0,8 with his explanation) waits in the
queue; the head judge opens it, the form is a correction form (a reason, no autosave),
he changes the extra to +0,4 and gives the reason; the protocol is still in «Ждут
подтверждения», marked there, and the game page shows «Исправлено главным судьёй» with
what and why, beside the judge's explanation too. Screens: docs/screens/correct-*.png;
the PDF's second page as docs/screens/correct-pdf-page2.png (pdftoppm)."""

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
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD
from tests.web.conftest import RELAXED, World, make_world
from tests.web.test_browser import _free_port, browser  # noqa: F401  (fixtures)
from tests.web.test_correction_web import submitted

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
REASON = "версия частичная, а не точная (ФСМ 8.4.3)"


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[str, World, Services]]:
    world = make_world(tmp_path)
    app = create_app(str(world.db), secret="correct-browser", limits=RELAXED)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                            timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the app did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", world, app.state.services
    server.should_exit = True
    thread.join(10)


def _shot(page: Any, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_the_head_judges_correction_in_the_browser(
        served: tuple[str, World, Services], browser: Any,  # noqa: F811
        width: int, height: int, tmp_path: Path) -> None:
    base, world, svc = served
    tid = world.demo.tournament
    code, seat, _rev = submitted(world, svc, 1)
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="ru-RU")
    page = ctx.new_page()
    page.goto(f"{base}/login?next=/t/{tid}/manage")
    page.fill("input[name=user]", "headjudge")
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("#login-btn")
    page.wait_for_url(re.compile(rf".*/t/{tid}/manage$"))
    page.locator(f"#waiting a[href='/t/{tid}/games/{code}']").click()
    page.wait_for_url(re.compile(rf".*/t/{tid}/games/{code}$"))
    page.click(f"a[href='/t/{tid}/games/{code}/edit']")
    page.wait_for_url(re.compile(rf".*/games/{code}/edit$"))
    page.locator("#correcting").wait_for()
    assert page.locator(f"#extra_{seat}, input[name=extra_{seat}]").first.input_value() == "0,8"
    page.locator(f"input[name=extra_{seat}]").fill("0,4")
    page.fill("#correction_reason", REASON)
    page.locator("#box-correction").scroll_into_view_if_needed()
    _shot(page, f"correct-form-{width}")
    page.click("#correct")
    page.wait_for_url(re.compile(rf".*/t/{tid}/games/{code}$"))
    marks = page.locator("#corrections")
    marks.wait_for()
    text = " ".join(marks.inner_text().split())
    assert "Исправлено главным судьёй" in text and "headjudge" in text
    assert f"место {seat}: доп. балл: +0,8 → +0,4" in text and REASON in text
    assert page.locator("#state").inner_text() == "подан"
    beside = page.locator("#explanations .seat-correction").first.inner_text()
    assert "+0,8 → +0,4" in beside
    _shot(page, f"correct-game-{width}")
    page.goto(f"{base}/t/{tid}/manage")
    queue = page.locator("#waiting")
    assert "исправлено главным судьёй: headjudge" in " ".join(queue.inner_text().split())
    queue.scroll_into_view_if_needed()
    _shot(page, f"correct-queue-{width}")
    assert svc.games.status(tid, code).state == "submitted"
    # the table judge sees what was changed in his protocol, and why, on his tables
    judge = browser.new_context(viewport={"width": width, "height": height}, locale="ru-RU")
    jp = judge.new_page()
    jp.goto(f"{base}/login?next=/t/{tid}/judge")
    jp.fill("input[name=user]", "judge1")
    jp.fill("input[name=password]", DEMO_PASSWORD)
    jp.click("#login-btn")
    jp.wait_for_url(re.compile(rf".*/t/{tid}/judge$"))
    mine = " ".join(jp.locator(".correction").first.inner_text().split())
    assert "Исправлено главным судьёй" in mine and "+0,8 → +0,4" in mine and REASON in mine
    _shot(jp, f"correct-judge-tables-{width}")
    judge.close()
    # the organizer switches four eyes on from the set-up page
    org = browser.new_context(viewport={"width": width, "height": height}, locale="ru-RU")
    op = org.new_page()
    op.goto(f"{base}/login?next=/t/{tid}/setup")
    op.fill("input[name=user]", "organizer")
    op.fill("input[name=password]", DEMO_PASSWORD)
    op.click("#login-btn")
    op.wait_for_url(re.compile(rf".*/t/{tid}/setup$"))
    op.check("#four-eyes-check")
    op.click("#four-eyes-btn")
    op.wait_for_url(re.compile(rf".*/t/{tid}/setup#four-eyes$"))
    assert op.locator("#four-eyes-check").is_checked() and svc.tournaments.four_eyes(tid, operator=True)
    op.locator("#four-eyes").screenshot(path=str(SCREENS / f"correct-four-eyes-{width}.png"))
    org.close()
    # ... and then the head judge's page says he does not confirm his own correction
    page.goto(f"{base}/t/{tid}/games/{code}")
    note = page.locator("#four-eyes-note")
    assert "протокол исправил(а) headjudge" in note.inner_text()
    assert "четыре глаза" in note.inner_text()
    assert page.locator("#confirm").is_disabled()
    _shot(page, f"correct-four-eyes-refused-{width}")
    assert svc.games.status(tid, code).state == "submitted"
    if width == 1280:  # the printout's second page, as the head judge downloads it
        pdf = page.request.get(f"{base}/t/{tid}/games/{code}/protocol.pdf")
        assert pdf.ok
        path = tmp_path / "protocol.pdf"
        path.write_bytes(pdf.body())
        back = subprocess.run(["pdftotext", "-f", "2", "-l", "2", "-layout", str(path), "-"],
                              capture_output=True, text=True, check=True).stdout
        assert "Исправлено главным судьёй" in back and "+0,8 → +0,4" in " ".join(back.split())
        subprocess.run(["pdftoppm", "-f", "2", "-l", "2", "-r", "80", "-png", "-singlefile",
                        str(path), str(SCREENS / "correct-pdf-page2")], check=True)
    ctx.close()
