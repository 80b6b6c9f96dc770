"""The seating in the web app: who may use it, and the API flow
generate → status → publish → judges see their tables, with its refusals.

Instances are small (30 players, 3 games, few search moves) so that the search takes well
under a second; the generator's own quality is tested in tests/seating/.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import World, csrf_of

STAFF = frozenset({"headjudge", "organizer"})
QUICK = {"iterations": 50_000, "time_limit": 20}

# who may call the seating routes: see tests/web/test_access.py (SEATING_ROUTES)


# --- the flow ------------------------------------------------------------------------------


def _post(c: TestClient, url: str, body: dict[str, Any]) -> Any:
    return c.post(url, json=body, headers={"X-CSRF-Token": csrf_of(c)})


def _wait(c: TestClient, tid: int, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        st: dict[str, Any] = c.get(f"/api/t/{tid}/seating/status").json()
        if st["state"] not in ("waiting", "running"):
            return st
        assert time.monotonic() < deadline, st
        time.sleep(0.1)


@pytest.fixture(scope="module")
def cup(client_for: Callable[[str], TestClient]) -> int:
    """A new tournament of 30 players (two clubs) with judges, made through the API."""
    org = client_for("organizer")
    tid: int = _post(org, "/api/tournaments", {"name": "Seating cup", "rules": "fsm"}).json()["id"]
    clubs = {1: "Red", 2: "Red", 3: "Red", 4: "Blue", 5: "Blue"}
    players = [{"id": f"p{i:02d}", "nickname": f"Ник {i}", "club": clubs.get(i)}
               for i in range(1, 31)]
    assert _post(org, f"/api/t/{tid}/players", {"players": players}).status_code == 200
    for j in ("judge1", "judge2", "headjudge"):
        role = "head_judge" if j == "headjudge" else "judge"
        assert _post(org, f"/api/t/{tid}/staff", {"user": j, "role": role}).status_code == 200
    return tid


def test_impossible_requests_are_refused_with_reason(
        cup: int, client_for: Callable[[str], TestClient]) -> None:
    org = client_for("organizer")
    r = _post(org, f"/api/t/{cup}/seating/generate", {"games": 3, "tables": 4})
    assert r.status_code == 422
    body = r.json()
    assert "4 стол" in body["message"]
    # the one shape of every refusal: the family's error, the problems' codes and params
    assert body["error"] != "seating_refused" and body["problems"], body
    assert all(p["code"] and "params" in p and p["message"] for p in body["problems"]), body
    org.get("/lang/en")
    r = _post(org, f"/api/t/{cup}/seating/generate",
              {"games": 3, "availability": {"p01": "1-2"}, **QUICK})
    assert r.status_code == 422
    assert "Player 1 can come to 2 rounds only" in r.json()["message"]
    r = _post(org, f"/api/t/{cup}/seating/generate", {"games": 3, "pins": {"nobody": 1}})
    assert r.status_code == 422 and "nobody" in r.json()["message"]
    # the page says it too, in the asker's language
    r = org.post(f"/t/{cup}/seating/generate", data={"games": "3", "tables": "4",
                                                     "csrf": csrf_of(org)})
    assert r.status_code == 422 and "cannot be filled by 30 players" in r.text
    org.get("/lang/ru")
    assert org.get(f"/api/t/{cup}/seating/status").status_code == 404  # nothing started


def test_generate_publish_judges_see_their_tables(
        cup: int, client_for: Callable[[str], TestClient]) -> None:
    head = client_for("headjudge")
    r = _post(head, f"/api/t/{cup}/seating/generate",
              {"games": 3, "seed": 5, "pins": {"p07": 2}, "separate_clubs": True, **QUICK})
    assert r.status_code == 202, r.text
    st = _wait(head, cup)
    assert st["state"] == "done", st
    m = st["metrics"]
    assert m["hard_violations"] == 0
    assert {"max_meetings", "pairs_at_max", "min_meetings", "pairs_never", "sum_sq",
            "seat_cells_off", "seat_group_cells_off", "table_cells_off"} <= set(m)
    doc = head.get(f"/api/t/{cup}/seating").json()
    assert doc["format"] == "mafiatab.seating/1" and doc["players"] == 30 and doc["games"] == 3
    ids = {x["number"]: x["id"] for x in doc["participants"]}
    for rnd in doc["rounds"]:
        assert len(rnd["tables"]) == 3
        for tb in rnd["tables"]:
            seated = [ids[n] for n in tb["seats"]]
            assert len(seated) == 10
            assert sum(p in ("p01", "p02", "p03") for p in seated) <= 1  # clubs apart
            assert sum(p in ("p04", "p05") for p in seated) <= 1
            assert ("p07" in seated) == (tb["table"] == 2)  # pinned to table 2

    # publish round 1 with a judge at tables 1 and 2
    r = _post(head, f"/api/t/{cup}/seating/publish", {"round": 1, "judges": {"1": "judge1",
                                                                              "2": "judge2"}})
    assert r.status_code == 200, r.text
    codes = r.json()["games"]
    assert len(codes) == 3
    first = [ids[n] for n in doc["rounds"][0]["tables"][0]["seats"]]

    j1 = client_for("judge1")
    mine = j1.get(f"/api/t/{cup}/games").json()
    assert [g["game"] for g in mine] == [codes[0]]
    game = j1.get(f"/api/t/{cup}/games/{codes[0]}").json()
    assert [s["player"] for s in game["protocol"]["seats"]] == first
    assert game["state"] == "draft"
    page = j1.get(f"/t/{cup}/judge")
    assert page.status_code == 200 and codes[0] in page.text and codes[1] not in page.text

    # the pages show it: metrics, the grid with nicknames, print and download
    html = head.get(f"/t/{cup}/seating").text
    assert 'id="seating-metrics"' in html and "Ник 7" in html
    assert 'id="hard-violations" data-n="0">все соблюдены<' in html
    printed = head.get(f"/t/{cup}/seating/print?round=1")
    assert printed.status_code == 200 and "@page" in printed.text
    assert printed.text.count('class="ptable"') == 3
    assert head.get(f"/t/{cup}/seating/print").text.count('class="ptable"') == 9
    dl = head.get(f"/t/{cup}/seating/download")
    assert "attachment" in dl.headers["content-disposition"]
    assert dl.json()["rounds"] == doc["rounds"]

    # until a protocol starts the round may be published again
    r = _post(head, f"/api/t/{cup}/seating/publish", {"round": 1})
    assert r.status_code == 200, r.text
    assert j1.get(f"/api/t/{cup}/games").json()[0]["game"] == codes[0]  # judge kept
    # the judge starts his protocol: publishing round 1 again is refused, saying why
    game = j1.get(f"/api/t/{cup}/games/{codes[0]}").json()
    r = j1.put(f"/api/t/{cup}/games/{codes[0]}/draft",
               json={"base_revision": game["revision"], "protocol": game["protocol"]},
               headers={"X-CSRF-Token": csrf_of(j1)})
    assert r.status_code == 200, r.text
    r = _post(head, f"/api/t/{cup}/seating/publish", {"round": 1})
    assert r.status_code == 409
    assert "Тур 1" in r.json()["message"] and "judge1" in r.json()["message"]
    r = head.post(f"/t/{cup}/seating/publish", data={"round": "1", "csrf": csrf_of(head)})
    assert r.status_code == 409 and "judge1" in r.text
    # round 2 is still free
    assert _post(head, f"/api/t/{cup}/seating/publish", {"round": 2}).status_code == 200

    # regenerate with another seed from the page: a new proposal, seed + 1
    r = head.post(f"/t/{cup}/seating/generate", data={"again": "1", "csrf": csrf_of(head)},
                  follow_redirects=False)
    assert r.status_code == 303
    st = _wait(head, cup)
    assert st["state"] == "done" and st["params"]["seed"] == 6 and st["published"] == []


def test_republishing_a_played_round_is_refused(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    """The demo's rounds 1–2 are confirmed: a seating for round 1 cannot replace them."""
    tid = world.demo.tournament
    org = client_for("organizer")
    r = _post(org, f"/api/t/{tid}/seating/generate",
              {"games": 2, "seed": 1, "separate_clubs": False, **QUICK})
    assert r.status_code == 202, r.text
    assert _wait(org, tid)["state"] == "done"
    r = _post(org, f"/api/t/{tid}/seating/publish", {"round": 1})
    assert r.status_code == 409
    assert "подтверждён" in r.json()["message"] or "confirmed" in r.json()["message"]


def test_a_job_refusal_is_a_clean_4xx_in_both_languages(
        cup: int, client_for: Callable[[str], TestClient]) -> None:
    """The jobs' refusals are of the one `Refused` family: the app's handler answers them
    with their status, code and words (the API's JSON, the page's error page)."""
    org = client_for("organizer")
    r = _post(org, f"/api/t/{cup}/seating/cancel", {})
    assert r.status_code == 404, r.text
    body = r.json()
    assert body["error"] == "no_job" and body["problems"][0]["code"] == "no_job"
    assert body["message"] == "нечего отменять: рассадка не составляется"
    page = org.post(f"/t/{cup}/seating/cancel", data={"csrf": csrf_of(org)})
    assert page.status_code == 404 and "нечего отменять" in page.text
    org.get("/lang/en")
    try:
        r = _post(org, f"/api/t/{cup}/seating/cancel", {})
        assert r.status_code == 404
        assert r.json()["message"] == "nothing to cancel: no seating is being generated"
        page = org.post(f"/t/{cup}/seating/cancel", data={"csrf": csrf_of(org)})
        assert page.status_code == 404 and "nothing to cancel" in page.text
    finally:
        org.get("/lang/ru")



def test_without_the_generator_the_desk_says_what_to_install(
        cup: int, client_for: Callable[[str], TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    """A light install (no `mafiatab[seating]`): the page says so before anyone asks, and a
    generation is refused with the same words and the install command; nothing is queued."""
    from mafiatab import extras

    monkeypatch.setitem(extras.EXTRAS, "seating", ("numba", "mafiatab_no_such_module"))
    org = client_for("organizer")
    page = org.get(f"/t/{cup}/seating")
    assert page.status_code == 200
    assert "Генератор рассадки не установлен" in page.text
    assert "-m pip install &#39;mafiatab[seating]&#39;" in page.text
    r = _post(org, f"/api/t/{cup}/seating/generate", {"games": 3, **QUICK})
    assert r.status_code == 503
    assert "mafiatab[seating]" in r.json()["message"], r.json()
    org.get("/lang/en")
    try:
        r = org.post(f"/t/{cup}/seating/generate", data={"games": "3", "csrf": csrf_of(org)})
        assert r.status_code == 503 and "The seating generator is not installed" in r.text
    finally:
        org.get("/lang/ru")
    assert org.get(f"/api/t/{cup}/seating/status").status_code in (200, 404)
    monkeypatch.undo()
    assert "Генератор рассадки не установлен" not in org.get(f"/t/{cup}/seating").text
