"""In a real browser (Chromium, Russian): a protocol with another table's player is refused
beside its seat; the head judge sees the tournament-wide problems as warnings; a seat's
player is replaced on its own page. Screenshots at 360x740 and 1280x800 go to
docs/screens/invariants-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.helpers import REPO, free_port, serving
from tests.invariants.test_web import Site
from tests.invariants.world import HEAD, J1, PASSWORD, SEATING, code_of, protocol, submitted_by_old_code
from tests.web.test_browser import RU_CONTEXT, browser  # noqa: F401  (fixture)

SCREENS = REPO / "docs" / "screens"
SIZES = {"360": {"width": 360, "height": 740}, "1280": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path
           ) -> Iterator[tuple[str, Site]]:
    site = Site(tmp_path_factory.mktemp("inv-browser"), migrated_sqlite)
    svc, tid = site.svc, site.tid
    # table 1 of round 1: a draft that names table 2's seat 1 at seat 1 (kept, flagged)
    t1 = code_of(1, 1, svc, tid)
    players = list(SEATING[1][1])
    players[0] = "p11"
    svc.protocols.save_draft(tid, t1, protocol(svc, tid, t1, players), actor=J1,
                             base_revision=svc.games.head(tid, t1).number)
    # table 1 of round 2: submitted so by an earlier version, waiting for the head judge
    r2 = code_of(2, 1, svc, tid)
    players = list(SEATING[2][1])
    players[0] = "p11"
    submitted_by_old_code(svc, tid, r2, protocol(svc, tid, r2, players), J1)
    with serving(site.app, free_port(range(8870, 8890))) as base:
        yield base, site


def _signed_in(browser: Any, base: str, user: str, size: str) -> Any:  # noqa: F811
    ctx = browser.new_context(viewport=SIZES[size], **RU_CONTEXT)
    page = ctx.new_page()
    page.goto(f"{base}/login")
    page.fill("input[name=user]", user)
    page.fill("input[name=password]", PASSWORD)
    page.click("form[action='/login'] button")
    page.wait_for_load_state()
    return page


@pytest.mark.parametrize("size", ["360", "1280"])
def test_refused_form_beside_the_seat(served: tuple[str, Site], browser: Any, size: str  # noqa: F811
                                      ) -> None:
    base, site = served
    code = code_of(1, 1, site.svc, site.tid)
    page = _signed_in(browser, base, J1, size)
    page.goto(f"{base}/t/{site.tid}/games/{code}/edit")
    # the seat shows the player as the draft has him, with the way to replace him
    assert page.inner_text("#seated_2").startswith("Игрок 2")
    page.click("#submit")
    page.wait_for_selector("#problem-list.refused")
    slot = page.inner_text("#slot-seat-1")
    assert "тур 1, стол 1: игрок Игрок 11 в этом туре уже записан за столом 2 (место 1)" in slot
    assert "правило турнира: одна игра за тур" in slot
    assert "Протокол не подан" in page.inner_text("#problem-list")
    page.locator("#seat-1").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENS / f"invariants-refused-form-{size}.png"), full_page=False)
    assert site.svc.games.head(site.tid, code).state == "draft"
    page.context.close()


@pytest.mark.parametrize("size", ["360", "1280"])
def test_head_judge_sees_the_warning(served: tuple[str, Site], browser: Any, size: str  # noqa: F811
                                     ) -> None:
    base, site = served
    code = code_of(2, 1, site.svc, site.tid)
    page = _signed_in(browser, base, HEAD, size)
    page.goto(f"{base}/t/{site.tid}/manage")
    warning = page.inner_text("#record-problems")
    assert "тур 2, стол 1: игрок Игрок 11 в этом туре уже записан за столом 2" in warning
    page.locator("#record-problems").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENS / f"invariants-head-judge-queue-{size}.png"))
    page.goto(f"{base}/t/{site.tid}/games/{code}")
    assert "подтверждение будет отклонено" in page.inner_text("#record-problems")
    assert page.is_disabled("#confirm")
    page.screenshot(path=str(SCREENS / f"invariants-head-judge-game-{size}.png"))
    page.context.close()


def test_replacement_page(served: tuple[str, Site], browser: Any) -> None:  # noqa: F811
    base, site = served
    code = code_of(1, 2, site.svc, site.tid)
    page = _signed_in(browser, base, HEAD, "360")
    page.goto(f"{base}/t/{site.tid}/games/{code}/edit")
    page.click("#seated_4 a.pf-replace")
    page.wait_for_selector("#replace")
    assert page.inner_text("#current") == "Игрок 14"
    page.select_option("#player", "p01")  # table 1's player of this round
    page.fill("#reason", "опоздал")
    page.click("#do-replace")
    page.wait_for_selector("#problems")
    assert "одна игра за тур" in page.inner_text("#problems")
    page.screenshot(path=str(SCREENS / "invariants-replace-refused-360.png"))
    page.select_option("#player", "p21")
    page.click("#do-replace")
    page.wait_for_url(f"**/games/{code}/edit")
    assert page.inner_text("#seated_4").startswith("Игрок 21")
    head = site.svc.games.head(site.tid, code)
    assert msgspec.structs.asdict(head.game_struct().seats[3])["player"] == "p21"
    page.context.close()


@pytest.mark.parametrize("size", ["360", "1280"])
def test_live_screen_shows_the_record_problems(served: tuple[str, Site], browser: Any,  # noqa: F811
                                               size: str) -> None:
    base, site = served
    code = code_of(1, 1, site.svc, site.tid)
    page = _signed_in(browser, base, J1, size)
    page.goto(f"{base}/t/{site.tid}/games/{code}/live")
    page.wait_for_selector("#lv-record")
    block = page.inner_text("#lv-record")
    assert "Протокол нарушает правила турнира — подать его нельзя" in block
    assert "тур 1, стол 1: игрок Игрок 11 в этом туре уже записан за столом 2" in block
    assert "правило турнира: одна игра за тур" in block and code not in block
    page.locator("#lv-record").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENS / f"invariants-live-screen-{size}.png"))
    page.context.close()
