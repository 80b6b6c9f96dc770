"""Nothing the judge typed is dropped, through the JSON API and the page's
autosave: a draft body may carry the fields that could not be read (`typed`, by the form's
field names); the draft keeps them with their problems, the revision gives them back, a
submit is refused while any is left, and a save with `"typed": {}` clears them. A name the
form does not have, or a text that reads, is refused beside its field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from tests.web.conftest import World, csrf_of
from tests.web.test_live import Table, fresh_table


@pytest.fixture()
def table(world: World, client_for: Callable[[str], TestClient]) -> Table:
    return fresh_table(world, client_for)


def _api(world: World, what: str = "") -> str:
    return f"/api/t/{world.demo.tournament}/games/{world.demo.open_games[0]}{what}"


def _head(c: TestClient, world: World) -> dict[str, Any]:
    r = c.get(_api(world), headers={"X-CSRF-Token": csrf_of(c)})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_a_draft_through_the_api_keeps_what_was_typed(table: Table, world: World) -> None:
    head = _head(table.c, world)
    protocol = head["protocol"]
    protocol.pop("log", None)
    r = table.c.put(_api(world, "/draft"), headers={**table.headers, "Accept-Language": "ru"},
                    json={"base_revision": head["revision"], "protocol": protocol,
                          "typed": {"extra_3": "о,3", "day_1_nominated": "11"}})
    assert r.status_code == 200, r.text
    typed = r.json()["typed"]
    assert typed["extra_3"]["text"] == "о,3"
    problem = typed["extra_3"]["problems"][0]
    assert (problem["code"], problem["seat"], problem["field"]) == ("points_format", 3, "extra")
    assert problem["params"]["value"] == "о,3"  # the text itself, never a reading of it
    assert problem["clause"] == "FSM 8.4"
    assert typed["day_1_nominated"]["problems"][0]["field"] == "days.1.nominations"
    # the protocol (format 1) has nothing of it
    assert "о,3" not in str(r.json()["protocol"])

    # a save that says nothing of it keeps it; a submit is refused with both
    rev = r.json()["revision"]
    r = table.c.put(_api(world, "/draft"), headers=table.headers,
                    json={"base_revision": rev, "protocol": protocol})
    assert r.status_code == 200 and set(r.json()["typed"]) == {"extra_3", "day_1_nominated"}
    rev = r.json()["revision"]
    r = table.c.post(_api(world, "/submit"), headers=table.headers,
                     json={"base_revision": rev})
    assert r.status_code == 422, r.text
    fields = {(p["code"], p["field"]) for p in r.json()["problems"]}
    assert {("points_format", "extra"), ("seat_number", "days.1.nominations")} <= fields
    assert _head(table.c, world)["state"] == "draft"

    # a name the form does not have, or a text that reads, is refused and nothing stored
    for bad in ({"extra_11": "о,3"}, {"extra_3": "0,3"}):
        r = table.c.put(_api(world, "/draft"), headers=table.headers,
                        json={"base_revision": rev, "protocol": protocol, "typed": bad})
        assert r.status_code == 422, r.text
        assert r.json()["problems"][0]["code"] == "typed_readable"
    assert _head(table.c, world)["revision"] == rev

    # cleared: the typing is gone from the draft
    r = table.c.put(_api(world, "/draft"), headers=table.headers,
                    json={"base_revision": rev, "protocol": protocol, "typed": {}})
    assert r.status_code == 200 and r.json()["typed"] == {}


def test_the_page_autosave_keeps_it_and_the_reload_shows_it(
        table: Table, world: World) -> None:
    head = _head(table.c, world)
    url = f"/t/{world.demo.tournament}/games/{world.demo.open_games[0]}"
    form = {"csrf": table.headers["X-CSRF-Token"], "base": str(head["revision"]),
            "extra_3": "о,3", "day_1_nominated": "2>11 4>9"}
    r = table.c.post(f"{url}/draft", data=form)
    assert r.status_code == 200, r.text
    services = Services(make_engine(str(world.db)))
    stored = services.games.head(world.demo.tournament, world.demo.open_games[0])
    assert {n: rf.text for n, rf in stored.typed.items()} == {
        "extra_3": "о,3", "day_1_nominated": "2>11 4>9"}
    # what could be read is in the protocol: 4 nominated 9
    noms = stored.protocol["days"][0]["nominations"]
    assert [(n["by"], n["seat"]) for n in noms] == [(4, 9)]
    page = table.c.get(f"{url}/edit").text
    assert 'value="о,3"' in page and 'value="2&gt;11 4&gt;9"' in page
    assert "«о,3»" in page and "«11»" in page
