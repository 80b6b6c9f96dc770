"""A tournament from the first sign-up to its players list, in Debian's Chromium, in
Russian, on a phone (360×740) and a laptop (1280×800): the organizer opens the
registration with a cap of two; four people sign up on the public page (a fifth with a
taken nickname is refused and keeps what he typed); the organizer accepts two, declines
one and accepts the fourth onto the waiting list; the first withdraws with her key and the
waiting list moves up; the accepted are the tournament's players; the front page's
calendar shows the registration. Screens go to docs/screens/register-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mafiatab.domain import protocol as model
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.web.app import create_app
from tests.helpers import serving
from tests.web.conftest import RELAXED
from tests.web.test_browser import browser  # noqa: F401  (fixture)

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
ORG, ORG_PASS = "org", "organizer-pass-1"


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[str, Services, int]]:
    url = f"sqlite:///{tmp_path}/browser-register.sqlite"
    engine = make_engine(url)
    upgrade(engine)
    svc = Services(engine)
    svc.accounts.add_account(ORG, ORG_PASS, actor=ORG)
    tid = svc.tournaments.new_tournament("Кубок весны", "fsm", actor=ORG, stages=[
        model.Stage(id="qual", name="Отбор", kind="qualification")])
    engine.dispose()
    app = create_app(url, secret="register-browser", limits=RELAXED)
    with serving(app) as base:
        yield base, app.state.services, tid


def _shot(page: Any, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def _sign_up(page: Any, base: str, tid: int, nickname: str, club: str = "") -> tuple[str, str]:
    page.goto(f"{base}/t/{tid}/register")
    page.fill("#reg-nickname", nickname)
    page.fill("#reg-club", club)
    page.click("#reg-submit")
    page.locator("#reg-message").wait_for()
    return page.input_value("#wd-number"), page.input_value("#wd-key")


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_from_the_first_sign_up_to_the_players_list(
        served: tuple[str, Services, int], browser: Any,  # noqa: F811
        width: int, height: int) -> None:
    base, svc, tid = served
    size = f"{width}"
    org = browser.new_context(viewport={"width": width, "height": height}, locale="ru-RU")
    staff = org.new_page()
    staff.goto(f"{base}/login?next=/t/{tid}/register")
    staff.fill("input[name=user]", ORG)
    staff.fill("input[name=password]", ORG_PASS)
    staff.click("#login-btn")
    staff.wait_for_url(f"{base}/t/{tid}/register")
    # closed: no form for the public yet; the organizer opens it with a cap of two
    assert "регистрация закрыта" in staff.inner_text("#reg-state")
    staff.check("#reg-open")
    staff.fill("#reg-cap", "2")
    staff.fill("#reg-starts", "2099-04-20")
    staff.click("#reg-save")
    staff.wait_for_url(f"{base}/t/{tid}/register")
    assert "регистрация открыта" in staff.inner_text("#reg-state")

    public = browser.new_context(viewport={"width": width, "height": height},
                                 locale="ru-RU").new_page()
    public.goto(f"{base}/")
    row = public.locator(f"#calendar-table tr[data-tournament='{tid}']")
    assert "20.04.2099" in row.inner_text() and "регистрация открыта" in row.inner_text()
    _shot(public, f"register-calendar-{size}")
    alpha = _sign_up(public, base, tid, "Альфа", "Север")
    assert "Сохраните номер и ключ" in public.inner_text("#reg-message")
    _shot(public, f"register-signed-up-{size}")
    _sign_up(public, base, tid, "Бета", "Юг")
    _sign_up(public, base, tid, "Гамма")
    _sign_up(public, base, tid, "Дельта", "Запад")
    # a taken nickname is refused, and the form keeps what was typed
    public.goto(f"{base}/t/{tid}/register")
    public.fill("#reg-nickname", "альфа")
    public.fill("#reg-club", "Восток")
    public.click("#reg-submit")
    public.locator("#reg-error").wait_for()
    assert "уже зарегистрирован" in public.inner_text("#reg-error")
    assert public.input_value("#reg-nickname") == "альфа"
    assert public.input_value("#reg-club") == "Восток"
    _shot(public, f"register-refused-{size}")

    # the organizer decides: accept, decline, accept, and the fourth waits
    staff.goto(f"{base}/t/{tid}/register")
    ids = {staff.locator(f"#reg-applied li[data-reg] >> nth={i}").inner_text().split()[2]:
           staff.locator(f"#reg-applied li[data-reg] >> nth={i}").get_attribute("data-reg")
           for i in range(4)}
    _shot(staff, f"register-decide-{size}")
    for name, button in (("Альфа", "reg-accept"), ("Бета", "reg-decline"),
                         ("Гамма", "reg-accept"), ("Дельта", "reg-accept")):
        staff.click(f"#reg-applied li[data-reg='{ids[name]}'] .{button}")
        staff.wait_for_url(f"{base}/t/{tid}/register")
    assert staff.locator("#reg-accepted li[data-reg]").count() == 2
    assert "Дельта" in staff.inner_text("#reg-waiting")
    assert "Бета — отклонена" in staff.inner_text("#reg-others")
    assert "Принято 2 из 2. В листе ожидания: 1." in staff.inner_text("#reg-state")
    _shot(staff, f"register-waiting-{size}")

    # Альфа withdraws with her number and key: Дельта moves up
    public.goto(f"{base}/t/{tid}/register")
    public.fill("#wd-number", alpha[0])
    public.fill("#wd-key", alpha[1])
    public.click("#wd-submit")
    public.locator("#reg-message").wait_for()
    assert "отозвана" in public.inner_text("#reg-message")
    accepted = public.inner_text("#reg-accepted")
    assert "Дельта" in accepted and "Гамма" in accepted and "Альфа" not in accepted
    assert "никого" in public.inner_text("#reg-waiting")
    _shot(public, f"register-moved-up-{size}")

    # the accepted are the tournament's players (Альфа's place kept, marked withdrawn)
    lines = {x.nickname: x.withdrawn for x in svc.roster.lines(tid)}
    assert lines == {"Альфа": True, "Гамма": False, "Дельта": False}
    staff.goto(f"{base}/t/{tid}/setup")
    text = staff.inner_text("main")
    assert re.search(r"Гамма", text) and re.search(r"Дельта", text)
    org.close()
