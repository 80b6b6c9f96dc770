"""A decision does what it says, in Debian's Chromium (scoring.md section 9): a player
appeals his −0,8 penalty; the head judge, on a 360 px phone, first presses «удовлетворить»
with nothing changed (refused in words), then ticks «снять» beside the penalty; the case
reads «удовлетворена» with «место 4: штраф −0,8 снят», the player's page says the same and
his total gains 0,8. Screens go to docs/screens/decision-*.png."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

from mafiatab.domain.appeals import Filing, Kind, Subject
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import DEMO_PASSWORD, HEAD_JUDGE_NAME, ORGANIZER_NAME
from tests.web.conftest import World
from tests.web.test_browser import browser, live  # noqa: F401 (fixtures)

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}
ACCOUNT = "player16"

#: what sticks out of the screen sideways on the page
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const cut = [...document.querySelectorAll('#decide input, #decide select, #decide button')]
    .filter(e => e.getBoundingClientRect().right > width + 0.5)
    .map(e => (e.name || e.tagName) + ':' + Math.round(e.getBoundingClientRect().right));
  return {cut, page: document.documentElement.scrollWidth - width};
}"""


def _penalised(world: World) -> tuple[str, int, str]:
    """The sample's game with a penalty: its id, the seat and the player."""
    for g in world.sample.games:
        for seat, sc in sorted(g.scores.items()):
            if sc.penalties and g.stage == "qual":
                return g.id, seat, next(s.player for s in g.seats if s.seat == seat)
    raise AssertionError("the sample has no penalty")


def _sign_in(browser: Any, base: str, user: str, viewport: dict[str, int]) -> Any:  # noqa: F811
    page = browser.new_context(viewport=viewport, locale="ru-RU").new_page()
    page.goto(f"{base}/lang/ru?next=/login")
    page.fill("input[name=user]", user)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("#login-btn")
    page.wait_for_load_state()
    return page


def _total(svc: Services, tid: int, player: str) -> Decimal:
    row = next(r for r in svc.standings.compute(tid).rows if r.player == player)
    return Decimal(row.total) / 100


def test_scoring_9_accepted_appeal_in_the_browser(live: tuple[str, World],  # noqa: F811
                                                  browser: Any) -> None:  # noqa: F811
    base, world = live
    tid = world.demo.tournament
    code, seat, player = _penalised(world)
    engine = make_engine(str(world.db))
    svc = Services(engine)
    try:
        svc.zones.set_zone(tid, "Europe/Moscow", actor=ORGANIZER_NAME)
        svc.appeals.link_player(tid, player, ACCOUNT, actor=ORGANIZER_NAME,
                                password=DEMO_PASSWORD)
        awarded = svc.games.confirmed(tid, code).game_struct().scores[seat].penalties[0].points  # type: ignore[union-attr]
        assert awarded == Decimal("-0.8")
        # the appeal form fills in what he was awarded for the part he disputes
        own = _sign_in(browser, base, ACCOUNT, PHONE)
        own.goto(f"{base}/t/{tid}/games/{code}/appeal")
        assert own.input_value("input[name=awarded]") == "0"  # his extra: none
        own.select_option("select[name=subject]", "penalty")
        own.wait_for_function(
            "document.querySelector('input[name=awarded]').value === '−0,8'")
        own.context.close()
        case = svc.appeals.file(tid, Filing(kind=Kind.APPEAL, player=player, game=code,
                                            subject=Subject.PENALTY, awarded=awarded,
                                            claimed=Decimal("0"), text="это не было ошибкой"),
                                actor=ACCOUNT).id
        before = _total(svc, tid, player)
        SCREENS.mkdir(parents=True, exist_ok=True)

        laptop = _sign_in(browser, base, HEAD_JUDGE_NAME, LAPTOP)
        laptop.goto(f"{base}/t/{tid}/appeals/{case}")
        form = laptop.locator("#decide")
        assert "Штраф −0,8" in form.inner_text()
        form.scroll_into_view_if_needed()
        laptop.screenshot(path=str(SCREENS / "decision-form-ru-1280.png"), full_page=True)

        phone = _sign_in(browser, base, HEAD_JUDGE_NAME, PHONE)
        phone.goto(f"{base}/t/{tid}/appeals/{case}")
        assert phone.evaluate(OVERFLOW) == {"cut": [], "page": 0}
        phone.screenshot(path=str(SCREENS / "decision-form-ru-360.png"), full_page=True)
        # «удовлетворить» with nothing changed: refused, in words, and nothing happens
        phone.check("#decide input[name=outcome][value=accepted]")
        phone.fill("#decide textarea[name=reason]", "штраф снят")
        phone.click("#decide button")
        phone.wait_for_selector("#refusals")
        assert "ничего не меняет" in phone.locator("#refusals").inner_text()
        assert _total(svc, tid, player) == before
        # what he chose and typed is still there
        assert phone.is_checked("#decide input[name=outcome][value=accepted]")
        assert phone.input_value("#decide textarea[name=reason]") == "штраф снят"
        phone.screenshot(path=str(SCREENS / "decision-nothing-refused-ru-360.png"), full_page=True)
        # now with the penalty ticked off
        phone.check("#decide input[name=outcome][value=accepted]")
        phone.check(f"#decide input[name^='pen_remove|{seat}|0']")
        phone.fill("#decide textarea[name=reason]", "игровое действие не было негативным")
        phone.click("#decide button")
        phone.wait_for_selector("#decision")
        assert phone.locator("#verdict").inner_text() == "удовлетворена"
        assert phone.locator("#changes").inner_text() == f"место {seat}: штраф −0,8 снят"
        # the decision's moment on the tournament's clock, its zone named
        assert "(Москва, UTC+3)" in phone.locator("#decision").inner_text()
        phone.screenshot(path=str(SCREENS / "decision-accepted-ru-360.png"), full_page=True)
        laptop.goto(f"{base}/t/{tid}/appeals/{case}")
        laptop.screenshot(path=str(SCREENS / "decision-accepted-ru-1280.png"), full_page=True)

        # the protocol, the standings and the player's own page follow
        g = svc.games.confirmed(tid, code).game_struct()  # type: ignore[union-attr]
        assert g.scores.get(seat) is None or g.scores[seat].penalties == []
        assert _total(svc, tid, player) == before + Decimal("0.8")
        mine = _sign_in(browser, base, ACCOUNT, PHONE)
        mine.goto(f"{base}/t/{tid}/me")
        box = mine.locator("#me-cases")
        box.wait_for()
        assert "удовлетворена" in box.inner_text()
        assert f"место {seat}: штраф −0,8 снят" in box.inner_text()
        mine.screenshot(path=str(SCREENS / "decision-player-page-ru-360.png"), full_page=True)
        for p in (laptop, phone, mine):
            p.context.close()
    finally:
        engine.dispose()


def test_scoring_9_a_rejected_case_from_the_form_changes_nothing(live: tuple[str, World],  # noqa: F811
                                                                 browser: Any) -> None:  # noqa: F811
    """The form carries the protocol's parts as they are; «отклонить» sends no change."""
    base, world = live
    tid = world.demo.tournament
    page = _sign_in(browser, base, HEAD_JUDGE_NAME, PHONE)
    page.goto(f"{base}/t/{tid}/appeals/{world.case}")
    page.check("#decide input[name=outcome][value=rejected]")
    page.fill("#decide textarea[name=reason]", "оценка верна")
    page.click("#decide button")
    page.wait_for_selector("#decision")
    assert page.locator("#verdict").inner_text() == "отклонена"
    assert page.locator("#changes").count() == 0
    page.context.close()
