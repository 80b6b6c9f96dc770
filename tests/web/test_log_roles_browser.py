"""On a protocol whose facts come from its game log, the roles are the log's deal: the
form shows them read-only and says why, in Chromium on a phone; the form
still sends the same roles, so the protocol submits as before."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD
from tests.web.conftest import RELAXED, World, csrf_of
from tests.web.test_browser import _shot, browser, live  # noqa: F401 (fixtures)
from tests.web.test_live import ROLES, Table
from tests.web.test_protocol_whole import _play


def _signed_in(app: Any, body: dict[str, str]) -> TestClient:
    c = TestClient(app, base_url="http://testserver")
    r = c.post("/api/login", json=body, headers={"X-CSRF-Token": csrf_of(c)})
    assert r.status_code == 200, r.text
    return c


def test_the_roles_of_a_log_backed_protocol_are_read_only(
        live: tuple[str, World], browser: Any) -> None:  # noqa: F811
    base, world = live
    tid, code = world.demo.tournament, world.demo.open_games[0]
    app = create_app(str(world.db), secret="roles-test", limits=RELAXED)
    # the head judge clears the table's log and roles; its judge plays the game live
    hj = _signed_in(app, {"user": "headjudge", "password": DEMO_PASSWORD})
    head = hj.get(f"/api/t/{tid}/games/{code}", headers={"X-CSRF-Token": csrf_of(hj)}).json()
    protocol = head["protocol"]
    protocol["log"], protocol["result"] = None, ""
    protocol.pop("live", None)
    for s in protocol["seats"]:
        s["role"] = ""
    r = hj.put(f"/api/t/{tid}/games/{code}/draft", headers={"X-CSRF-Token": csrf_of(hj)},
               json={"base_revision": head["revision"], "protocol": protocol})
    assert r.status_code == 200, r.text
    judge_api = _signed_in(app, {"code": world.demo.code})
    _play(Table(judge_api, world, code))

    page = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                               has_touch=True).new_page()
    page.goto(f"{base}/login")
    page.fill("input[name=code]", world.demo.code)
    page.click("#code-btn")
    page.wait_for_url(f"**/t/{tid}/judge")
    page.goto(f"{base}/t/{tid}/games/{code}/edit")
    assert "Роли — из раздачи в логе" in page.inner_text("#from-log")
    for seat, role in enumerate(ROLES, start=1):
        radios = page.locator(f"#seat-{seat} .pf-roles input[type=radio]")
        assert radios.count() == 4
        assert all(radios.nth(k).is_disabled() for k in range(4))
        assert page.locator(f"#seat-{seat} .pf-roles input[value={role}]").is_checked()
        assert page.locator(f"#seat-{seat} input[type=hidden][name=role_{seat}]").input_value() \
            == role
    # a tap on another role changes nothing
    other = "black" if ROLES[0] != "black" else "red"
    page.locator(f"#seat-1 .pf-role-{other}").click(force=True)
    assert not page.locator(f"#seat-1 .pf-roles input[value={other}]").is_checked()
    assert page.locator("#seat-1 .pf-roles").get_attribute("aria-readonly") == "true"
    _shot(page, "words-log-roles-ru-360")
    page.context.close()
