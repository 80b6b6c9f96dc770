"""From the first sign-up to round 1 seated with rules and a swap, in Debian's Chromium, in
Russian, on a phone (360×740) and a laptop (1280×800): the first player signs up on the
public page (nineteen more through the same service call), the organizer accepts them; on
the seating page he asks clubs kept apart always, which cannot be met (three of «Полночь»
at two tables): the page says which rule and why, keeps everything he typed, and says what
to change; he makes the clubs' rule soft, keeps a pair apart and a judge's conflict, and
generates; the figures are in words; he publishes round 1 with the judges of the tables,
previews a swap of two players (every figure before and after), and confirms it. Screens go
to docs/screens/seat-rules-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mafiatab.domain import protocol as model
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.storage.models import JUDGE
from mafiatab.web.app import create_app
from tests.helpers import serving
from tests.web.conftest import RELAXED
from tests.web.test_browser import RU_CONTEXT, browser  # noqa: F401  (fixture)

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
ORG, ORG_PASS = "org", "organizer-pass-1"
NICKS = ["Альфа", "Бета", "Гамма", "Дельта", "Эпсилон", "Дзета", "Эта", "Тета", "Йота",
         "Каппа", "Лямбда", "Мю", "Ню", "Кси", "Омикрон", "Пи", "Ро", "Сигма", "Тау", "Ипсилон"]
MIDNIGHT = {"Дельта", "Эпсилон", "Дзета"}  # three of one club at two tables


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[str, Services, int]]:
    url = f"sqlite:///{tmp_path}/browser-seat-rules.sqlite"
    engine = make_engine(url)
    upgrade(engine)
    svc = Services(engine)
    svc.accounts.add_account(ORG, ORG_PASS, actor=ORG)
    tid = svc.tournaments.new_tournament("Кубок осени", "fsm", actor=ORG, stages=[
        model.Stage(id="qual", name="Отбор", kind="qualification")])
    for judge in ("Судья-1", "Судья-2"):
        svc.access.grant(tid, judge, JUDGE, actor=ORG, password="judge-pass-123")
    svc.registrations.configure(tid, open=True, cap=None, starts_on=None, actor=ORG)
    engine.dispose()
    app = create_app(url, secret="seat-rules-browser", limits=RELAXED)
    with serving(app) as base:
        yield base, app.state.services, tid


def _shot(page: Any, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def _club(nick: str) -> str:
    return "Полночь" if nick in MIDNIGHT else ""


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_from_the_first_sign_up_to_round_one_seated_with_rules_and_a_swap(
        served: tuple[str, Services, int], browser: Any,  # noqa: F811
        width: int, height: int) -> None:
    base, svc, tid = served
    ctx = browser.new_context(viewport={"width": width, "height": height}, **RU_CONTEXT)
    public = ctx.new_page()
    public.goto(f"{base}/t/{tid}/register")
    public.fill("#reg-nickname", NICKS[0])
    public.click("#reg-submit")
    public.locator("#reg-message").wait_for()
    for i, nick in enumerate(NICKS[1:]):
        svc.registrations.sign_up(tid, nickname=nick, club=_club(nick) or None,
                                  address=f"10.0.0.{i}")
    for line in svc.registrations.board(tid).applied:
        svc.registrations.accept(tid, line.id, actor=ORG)
    assert len(svc.roster.lines(tid)) == 20

    org = ctx.new_page()
    org.goto(f"{base}/login?next=/t/{tid}/seating")
    org.fill("input[name=user]", ORG)
    org.fill("input[name=password]", ORG_PASS)
    org.click("#login-btn")
    org.wait_for_url(f"**/t/{tid}/seating")
    # clubs are not kept apart unless asked
    assert org.input_value("#rule-clubs") == "off"
    org.fill("input[name=games]", "2")
    org.fill("input[name=time_limit]", "10")
    org.select_option("#rule-clubs", "hard")
    org.fill("#rule-pairs", "Альфа, Бета: развести\nГамма, Тета: вместе 3")
    org.fill("#rule-conflicts", "Судья-1: Йота")
    org.fill("#rule-table-judges", "1: Судья-1\n2: Судья-2")
    org.click("#generate-btn")
    org.locator("#seating-error").wait_for()
    error = org.inner_text("#seating-error")
    assert "У клуба «Полночь» 3 игрока, а в туре 2 стола" in error, error
    assert "«по возможности»" in error and "--" not in error
    # everything typed is still there
    assert org.input_value("#rule-clubs") == "hard"
    assert org.input_value("#rule-pairs") == "Альфа, Бета: развести\nГамма, Тета: вместе 3"
    assert org.input_value("#rule-conflicts") == "Судья-1: Йота"
    assert org.input_value("input[name=games]") == "2"
    _shot(org, f"seat-rules-refused-{width}")

    org.select_option("#rule-clubs", "soft")
    org.click("#generate-btn")
    org.wait_for_url(f"**/t/{tid}/seating")
    org.locator("#seating-metrics").wait_for(timeout=90_000)  # htmx polled it in
    assert org.get_attribute("#hard-violations", "data-n") == "0"
    assert "все соблюдены" in org.inner_text("#fig-hard")
    assert "," in org.inner_text("#fig-mean")  # a decimal comma
    assert "Σ" not in org.inner_text("#seating-metrics")  # jargon only in tooltips
    assert "Σ m²" in (org.get_attribute("#fig-spread .tip", "title") or "")
    # saved with the tournament: the form shows them again
    assert org.input_value("#rule-clubs") == "soft"
    assert "Альфа, Бета: развести" in org.input_value("#rule-pairs")
    _shot(org, f"seat-rules-generated-{width}")

    assert org.input_value("input[name=judge_1]") == "Судья-1"
    org.click("#publish-btn")
    org.wait_for_url("**published=1")
    games = {g.table: g.code for g in svc.games.overview(tid)}

    def seated(table: int) -> list[str]:
        head = svc.games.head(tid, games[table])
        return [s["player"] for s in head.protocol["seats"]]

    nick = {p.id: p.nickname for p in svc.tournaments.context(tid)[1]}
    t1, t2 = seated(1), seated(2)
    assert not {"Альфа", "Бета"} <= {nick[p] for p in t1}
    assert not {"Альфа", "Бета"} <= {nick[p] for p in t2}
    assert "Йота" not in {nick[p] for p in t1}  # Судья-1 judges table 1
    ruled = {"Альфа", "Бета", "Гамма", "Тета", "Йота"} | MIDNIGHT
    first = next(nick[p] for p in t1 if nick[p] not in ruled)
    second = next(nick[p] for p in t2 if nick[p] not in ruled)

    org.fill("#swap-first", first)
    org.fill("#swap-second", second)
    org.click("#swap-preview-btn")
    org.locator("#swap-preview").wait_for()
    assert f"{first} (стол 1" in org.inner_text("#swap-preview")
    rows = org.locator("#swap-figures tr[data-key]")
    assert rows.count() >= 12
    assert "опубликован" in org.inner_text("#swap-preview")
    assert seated(1) == t1  # a preview changes nothing
    _shot(org, f"seat-rules-swap-preview-{width}")
    org.click("#swap-confirm-btn")
    org.wait_for_url("**swapped=1")
    assert org.locator("#swapped-now").is_visible()
    after1 = [nick[p] for p in seated(1)]
    assert second in after1 and first not in after1
    assert after1.index(second) == [nick[p] for p in t1].index(first)  # his seat, too
    _shot(org, f"seat-rules-swapped-{width}")
    ctx.close()
