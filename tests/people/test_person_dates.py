"""A person's page writes dates as its reader does (Babel, CLDR), never ISO: a
tournament's date «1 февр. 2026 г.» / "Feb 1, 2026", a merge's moment on the server's
clock with its zone named."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from mafiatab.services.facade import Services
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD
from tests.people.test_api import _signed_in
from tests.people.test_identities import two_tournaments


def _text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", html)).replace("\u202f", " ").replace("\xa0", " ")


@pytest.mark.parametrize(("lang", "day"), [("ru", "1 февр. 2026 г."), ("en", "Feb 1, 2026")])
def test_the_person_page_writes_dates_in_its_language(sqlite_engine: Engine, lang: str,
                                                      day: str) -> None:
    _people, _, _t1, _t2, first, second = two_tournaments(sqlite_engine)
    web = Services(sqlite_engine)
    web.accounts.add_account("boss", DEMO_PASSWORD, actor="setup")
    # the imported tournaments have no organizer who signs in: the administrator merges
    web.account_admin.set_rights("boss", admin=True, actor="federation")
    app = create_app(sqlite_engine, secret="t")
    boss, csrf = _signed_in(app, "boss")
    r = boss.post(f"/api/people/{first}/merge", json={"other": second, "reason": "один"},
                  headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    c = TestClient(app)
    c.get(f"/lang/{lang}")
    text = _text(c.get(f"/people/{first}").text)
    assert day in text, re.findall(r".{20}2026.{20}", text)
    assert not re.search(r"\d{4}-\d\d-\d\d", text), re.findall(r".{30}\d{4}-\d\d-\d\d.{10}", text)
    # the merge's moment: Babel's date and the time to the minute, the zone named
    moment = r"\d{1,2} [а-я]+\.? \d{4} г\., \d\d:\d\d \(" if lang == "ru" else \
        r"[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M \("
    assert re.search(moment, text), text[-1500:]
