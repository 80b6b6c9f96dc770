"""End to end in Debian's Chromium, as a federation finds its records: a club's published
table imported (`import-records --from csv`, then `import`) beside a tournament played
here; from the front page to the tournaments, the imported one (marked, its source named),
a player of it, his page across tournaments listing both, and his club's page; then a
player's own page with its links to his games, his cases and the appeal form; then game
records imported from Polemica, marked with their source on the front page, their
tournament's page, a player's and his club's pages and the rating. Screens at 360x740 and
1280 wide in docs/screens/federation-*.png.

Chromium that cannot start skips the test on a developer's machine and fails it in CI."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD
from tests.helpers import serving
from tests.web.appeal_world import PLAYER_ACCOUNT
from tests.web.conftest import RELAXED, World, make_world
from tests.web.test_browser import RU_CONTEXT, browser  # noqa: F401 - the fixture
from tests.web.test_imported_records import SOURCE, import_polemica
from tests.web.test_imported_results import NAME, import_published

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
SIZES = (({"width": 360, "height": 740}, "360"), ({"width": 1280, "height": 800}, "1280"))


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, World, int]]:
    folder = tmp_path_factory.mktemp("federation")
    world = make_world(folder)
    imported = import_published(folder, world.db)
    app = create_app(str(world.db), secret="federation-browser", limits=RELAXED)
    with serving(app) as base:
        yield base, world, imported


def _shot(page: Any, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"federation-{name}.png"), full_page=True)


def _page(chromium: Any, size: dict[str, int]) -> Any:
    ctx = chromium.new_context(viewport=size, **RU_CONTEXT)
    ctx.set_default_timeout(30_000)
    return ctx.new_page()


def test_from_the_front_page_to_an_imported_tournament_its_player_and_his_club(
        live: tuple[str, World, int], browser: Any) -> None:  # noqa: F811
    base, world, imported = live
    for size, tag in SIZES:
        page = _page(browser, size)
        page.goto(base + "/")
        page.click("#federation a[href='#tournaments']")
        row = page.locator(f"tr:has(a[href='/t/{imported}'])")
        assert "импортировано" in row.inner_text()
        _shot(page, f"front-{tag}")
        row.locator(f"a[href='/t/{imported}']").click()
        page.wait_for_url(f"**/t/{imported}")
        assert page.inner_text("#imported-badge") == "импортировано"
        assert "«osen-2025.csv»" in page.inner_text("#imported-from")
        assert page.locator("#published-table tr[data-player]").count() == 3
        _shot(page, f"tournament-{tag}")
        page.click("#published-table tr[data-player='альфа'] a")
        page.wait_for_url("**/people/*")
        assert page.inner_text("h1").startswith("Альфа")
        assert page.locator("details[data-tournament]").count() == 2  # here and imported
        mine = page.locator(f"details[data-tournament='{imported}'] summary")
        assert NAME in mine.inner_text() and "импортировано" in mine.inner_text()
        assert "2 турнира" in page.inner_text("main")
        assert page.locator("#imported-results").is_visible()
        page.wait_for_function(
            "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
        _shot(page, f"person-{tag}")
        page.click("h1 a[href^='/clubs/']")
        page.wait_for_url("**/clubs/*")
        club_row = page.locator(f"#club-tournaments tr[data-tournament='{imported}']")
        assert "импортировано" in club_row.inner_text()
        assert page.locator(f"#club-tournaments tr[data-tournament='{world.demo.tournament}']"
                            ).count() == 1
        _shot(page, f"club-{tag}")
        page.close()


def test_a_players_own_page_leads_to_his_games_cases_and_the_appeal_form(
        live: tuple[str, World, int], browser: Any) -> None:  # noqa: F811
    base, world, _ = live
    tid = world.demo.tournament
    for size, tag in SIZES:
        page = _page(browser, size)
        page.goto(f"{base}/login?next=/t/{tid}/me")
        page.fill("input[name=user]", PLAYER_ACCOUNT)
        page.fill("input[name=password]", DEMO_PASSWORD)
        page.click("#login-btn")
        page.wait_for_url(f"**/t/{tid}/me")
        links = page.locator("#me-links a")
        assert links.count() == 3
        _shot(page, f"me-{tag}")
        page.click("#me-links a[href$='/appeals']")
        page.wait_for_url(f"**/t/{tid}/appeals")
        assert world.case in page.inner_text("main")
        page.go_back()
        page.click("#me-appeal")
        page.wait_for_url(f"**/t/{tid}/games/*/appeal")
        assert page.locator("form").count() > 0
        page.go_back()
        page.click(f"#me-links a[href^='/t/{tid}/players/']")
        page.wait_for_url(f"**/t/{tid}/players/*")
        page.close()


@pytest.fixture(scope="module")
def records(live: tuple[str, World, int], tmp_path_factory: pytest.TempPathFactory) -> int:
    """Polemica's game records imported into the same server's database."""
    return import_polemica(tmp_path_factory.mktemp("polemica"), live[1].db)


def test_imported_game_records_are_marked_with_their_source_wherever_they_show(
        live: tuple[str, World, int], records: int, browser: Any) -> None:  # noqa: F811
    base, world, _ = live
    for size, tag in SIZES:
        page = _page(browser, size)
        page.goto(base + "/")
        row = page.locator(f"tr:has(a[href='/t/{records}'])")
        assert "импортировано" in row.inner_text() and SOURCE in row.inner_text()
        row.locator(f"a[href='/t/{records}']").click()
        page.wait_for_url(f"**/t/{records}")
        assert page.inner_text("#imported-badge") == "импортировано"
        assert f"«{SOURCE}»" in page.inner_text("#imported-from")
        assert page.locator("#standings tr[data-player]").count() == 12
        _shot(page, f"records-tournament-{tag}")
        page.click("#standings tr[data-player='альфа'] a.person-link")
        page.wait_for_url("**/people/*")
        mine = page.locator(f"details[data-tournament='{records}']")
        assert "импортировано" in mine.locator("summary").inner_text()
        mine.locator("summary").click()
        expect(mine.locator("p.muted")).to_contain_text(SOURCE)
        _shot(page, f"records-person-{tag}")
        page.click("h1 a[href^='/clubs/']")
        page.wait_for_url("**/clubs/*")
        club_row = page.locator(f"#club-tournaments tr[data-tournament='{records}']")
        assert "импортировано" in club_row.inner_text() and SOURCE in club_row.inner_text()
        page.goto(base + "/rating")
        line = page.locator("#rating-imported")
        expect(line).to_contain_text(SOURCE)
        assert line.locator(f"a[href='/t/{records}']").count() == 1
        assert world.demo.tournament != records
        _shot(page, f"records-rating-{tag}")
        page.close()
