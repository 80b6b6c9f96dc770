"""Every refusal the JSON API gives, from the framework's 404 to a service's, a sign-in's
or an appeal's, has the one problem shape (docs/web.md, «Отказы API»): `error` (a
code), `message` (every reason in words), `problems` (each with its code, params,
message, clause and place); a page gives the same refusal in words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import World, csrf_of


def assert_problem_shape(body: Any) -> None:
    """The one shape of a refusal in the API (docs/web.md, «Отказы API»)."""
    assert isinstance(body, dict), body
    assert isinstance(body.get("error"), str) and body["error"], body
    assert isinstance(body.get("message"), str) and body["message"], body
    assert isinstance(body.get("problems"), list) and body["problems"], body
    for p in body["problems"]:
        assert isinstance(p.get("code"), str) and p["code"], p
        assert isinstance(p.get("message"), str) and p["message"], p
        assert "params" in p and "clause" in p, p


def test_every_kind_of_refusal_has_the_one_shape(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    anon = client_for("anon")
    judge, head = client_for("judge1"), client_for("headjudge")
    tid = world.demo.tournament
    token = csrf_of(judge)
    answers = {
        # the framework's own: no route, a method the route does not take
        "no_route": anon.get("/api/no-such-thing"),
        "method": anon.delete("/api/session"),
        # a body the framework cannot read as the endpoint's model
        "unreadable": judge.post(f"/api/t/{tid}/games/x/live", json={"events": "no"},
                                 headers={"X-CSRF-Token": token}),
        # sign-in: nobody signed in, a wrong password, a write without the CSRF token
        "login_required": anon.get(f"/api/t/{tid}/codes"),
        "bad_login": anon.post("/api/login", json={"user": "judge1", "password": "wrong"},
                               headers={"X-CSRF-Token": csrf_of(anon)}),
        "csrf": judge.post(f"/api/t/{tid}/appeals/none/withdraw"),
        # a service's refusal: a tournament that does not exist
        "no_tournament": judge.get("/api/t/999999/standings"),
        # the web layer's own reading of a value
        "web": judge.get(f"/api/t/{tid}/games/{world.demo.open_games[0]}/deadline",
                         params={"kind": "neither"}),
        # an appeal's refusals: accepting a case without changing anything
        "appeal": head.post(f"/api/t/{tid}/appeals/{world.case}/decision",
                            json={"outcome": "accepted", "reason": "-"},
                            headers={"X-CSRF-Token": csrf_of(head)}),
    }
    for what, r in answers.items():
        assert r.status_code >= 400, (what, r.status_code, r.text)
        assert r.headers["content-type"].startswith("application/json"), (what, r.text)
        assert_problem_shape(r.json())
    assert answers["no_route"].status_code == 404
    assert answers["method"].status_code == 405
    assert answers["unreadable"].status_code == 422
    assert any(p.get("field") == "events" for p in answers["unreadable"].json()["problems"])
    assert answers["login_required"].json()["error"] == "login_required"
    assert answers["bad_login"].json()["error"] == "bad_login"
    assert answers["csrf"].status_code == 403 and answers["csrf"].json()["error"] == "csrf"
    assert answers["web"].json()["error"] == "bad_case_kind"
    assert answers["appeal"].json()["problems"][0]["code"] == "accepted_without_change"


def test_a_page_refuses_in_words(world: World, client_for: Callable[[str], TestClient]) -> None:
    """The same refusal on a page: the error page in the reader's language, no code."""
    judge = client_for("judge1")
    r = judge.get(f"/t/{world.demo.tournament}/standings", params={"stage": "nowhere"})
    assert r.status_code == 404
    assert "text/html" in r.headers["content-type"]
    assert "no_such_stage" not in r.text
    assert "стадии" in r.text or "stage" in r.text
