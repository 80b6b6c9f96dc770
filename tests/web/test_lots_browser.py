"""A drawn lot is on the record, in Debian's Chromium: after «Тянуть
жребий» the head judge's page and the public standings show the drawn order (by nickname,
with the place the group shared), the seed, who drew it and when on the tournament's clock
(Yekaterinburg here, not the browser's Moscow, never UTC alone); «Тянуть заново» needs a
reason, and the redraw stands beside the drawing it replaced, in the audit log too.
Screens: docs/screens/lots-{manage,standings}-{360,1280}.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from mafiatab.i18n import local_time
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from mafiatab.storage.models import HEAD_JUDGE
from mafiatab.web.demo import DEMO_PASSWORD, HEAD_JUDGE_NAME
from tests.storage.test_lots_record import ORG, tied_tournament
from tests.web.conftest import World
from tests.web.test_browser import browser, live  # noqa: F401 (fixtures)

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
ZONE = "Asia/Yekaterinburg"


def _sign_in(browser: Any, base: str, nxt: str, width: int, height: int) -> Any:  # noqa: F811
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(f"{base}/login?next={nxt}")
    page.fill("input[name=user]", HEAD_JUDGE_NAME)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("#login-btn")
    page.wait_for_url(f"**{nxt}")
    return page


def _shot(page: Any, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.locator("#lots").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=False)


def test_a_drawn_lot_is_shown_and_a_redraw_needs_a_reason(
        live: tuple[str, World], browser: Any) -> None:  # noqa: F811
    base, world = live
    svc = Services(make_engine(str(world.db)))
    tid = tied_tournament(svc, "Кубок жребия")
    svc.access.grant_role(tid, HEAD_JUDGE_NAME, HEAD_JUDGE, actor=ORG)
    svc.zones.set_zone(tid, ZONE, actor=ORG)
    nick = {p.id: p.nickname for p in svc.tournaments.context(tid)[1]}

    head = _sign_in(browser, base, f"/t/{tid}/manage", 1280, 800)
    assert "Жребий никому не нужен" not in head.inner_text("#lots")
    head.fill("#lots input[name=seed]", "Кубок-2026")
    head.click("#lots form button")
    head.wait_for_url(f"**/t/{tid}/manage*")
    [record] = svc.standings.lots(tid, actor=ORG)
    assert record.at is not None
    when = local_time(record.at, ZoneInfo(ZONE), "ru")
    assert "Екатеринбург" in when or "UTC+5" in when
    panel = head.inner_text("#lots-drawn")
    assert "Жребий №1" in panel and "зерно «Кубок-2026»" in panel, panel
    assert f"тянул(а) {HEAD_JUDGE_NAME}" in panel and when in panel, panel
    for d in record.draws:
        assert " → ".join(nick[p] for p in d.order) in panel, panel
    assert "за место 2" in panel and "за место 4" in panel, panel
    _shot(head, "lots-manage-1280")

    # the public standings show the same record
    public = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    public.goto(f"{base}/t/{tid}")
    shown = public.inner_text("#lots")
    assert "зерно «Кубок-2026»" in shown and when in shown and HEAD_JUDGE_NAME in shown, shown
    assert " → ".join(nick[p] for p in record.draws[1].order) in shown
    _shot(public, "lots-standings-360")

    # a redraw without a reason is not sent (the field is required), and the service
    # refuses one anyway; with a reason it is recorded beside the drawing it replaces
    head.click("#lot-1 summary")
    head.fill("#lot-1 input[name=seed]", "Кубок-2026-бис")
    head.click("#lot-1 form button")
    assert head.evaluate("document.querySelector('#lot-1 input[name=reason]').validity.valueMissing")
    assert len(svc.standings.lots(tid, actor=ORG)) == 1
    reason = "Объявлено зерно «Кубок-2026-бис», введено другое"
    head.fill("#lot-1 input[name=reason]", reason)
    head.click("#lot-1 form button")
    head.locator("#lot-2").wait_for()
    panel = head.inner_text("#lots-drawn")
    assert "Жребий №2" in panel and reason in panel and "заменён жребием №2" in panel, panel
    _shot(head, "lots-manage-redraw-1280")
    audit = [e for e in svc.tournaments.audit_log(tid, actor=ORG) if e[2] == "lot_redraw"]
    assert audit and audit[-1][1] == HEAD_JUDGE_NAME and audit[-1][3]["reason"] == reason

    public.reload()
    assert reason in public.inner_text("#lots")
    _shot(public, "lots-standings-redraw-360")
    phone = _sign_in(browser, base, f"/t/{tid}/manage", 360, 740)
    _shot(phone, "lots-manage-360")
    wide = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    wide.goto(f"{base}/t/{tid}")
    _shot(wide, "lots-standings-1280")
