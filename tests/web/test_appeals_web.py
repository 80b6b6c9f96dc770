"""Appeals through the web: the API flow of an appeal (file, thread, decision, standings,
the revision's trace), refusals after the deadline with their clause, a player's sign-in
code, the pages, the charts and the downloads."""

from __future__ import annotations

import io
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from fastapi.testclient import TestClient

from tests.web.appeal_world import appeal_game, open_schedule, player_of
from tests.web.conftest import World, csrf_of


def _w(c: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": csrf_of(c)}


def _total(c: TestClient, tid: int, player: str) -> float:
    rows = c.get(f"/api/t/{tid}/standings").json()["standings"]
    total: float = next(r["total"] for r in rows if r["player"] == player)
    return total


def _second_game(world: World, player: str) -> tuple[str, int, str | None]:
    """A round-2 game of the player: its id, his seat and its judge."""
    for g in world.sample.games:
        if g.stage == "qual" and g.round == 2:
            for s in g.seats:
                if s.player == player:
                    return g.id, s.seat, f"judge{g.table}"
    raise AssertionError("the player has no round-2 game")


def test_api_flow_file_thread_decide_standings_trace(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    player = player_of(world)
    code, seat, judge = _second_game(world, player)
    me, hj = client_for("player1"), client_for("headjudge")
    deadline = me.get(f"/api/t/{tid}/games/{code}/deadline?kind=appeal").json()
    assert deadline["deadline"] is not None and deadline["clause"].startswith("FSM 8.9")
    r = me.post(f"/api/t/{tid}/games/{code}/appeals", headers=_w(me), json={
        "kind": "appeal", "subject": "positive_extra", "awarded": "0", "claimed": "0.4",
        "text": "my speech found the sheriff"})
    assert r.status_code == 201, r.text
    case = r.json()["id"]
    assert r.json()["status"] == "open" and r.json()["clause"] == "FSM 8.9"
    judge_client = client_for(judge) if judge in ("judge1", "judge2") else hj
    for c, text in ((me, "please look again"), (judge_client, "I saw it"), (hj, "noted")):
        r = c.post(f"/api/t/{tid}/appeals/{case}/messages", headers=_w(c), json={"text": text})
        assert r.status_code == 200, r.text
    assert [m["role"] for m in r.json()["messages"]][0] == "player"
    listed = hj.get(f"/api/t/{tid}/appeals?open=true").json()
    assert case in [x["id"] for x in listed]
    assert next(x for x in listed if x["id"] == case)["decide_by"] is not None
    # the game's judge does not decide; the player does not either
    for c in (judge_client, me):
        if c is not hj:
            assert c.post(f"/api/t/{tid}/appeals/{case}/decision", headers=_w(c),
                          json={"outcome": "rejected"}).status_code == 403
    before = _total(hj, tid, player)
    r = hj.post(f"/api/t/{tid}/appeals/{case}/decision", headers=_w(hj), json={
        "outcome": "accepted", "reason": "the extra is deserved",
        "change": {"scores": {str(seat): {"extra": 0.4}}}})
    assert r.status_code == 200, r.text
    decided = r.json()
    assert decided["status"] == "decided" and decided["revision"] is not None
    assert decided["changes"] and decided["changes"][0]["message"].startswith(f"место {seat}:")
    assert abs(_total(hj, tid, player) - before - 0.4) < 1e-9
    assert abs(_total(client_for("anon"), tid, player) - before - 0.4) < 1e-9  # public too
    game = hj.get(f"/api/t/{tid}/games/{code}").json()
    assert game["revision"] == decided["revision"] and game["state"] == "confirmed"
    assert game["author"] == "headjudge" and game["reason"].startswith(f"{case} (FSM 8.9)")
    audit = hj.get(f"/api/t/{tid}/audit").json()
    steps = [e["action"] for e in audit if e["detail"].get("case") == case]
    assert steps == ["appeal_file", "appeal_message", "appeal_message", "appeal_message",
                     "appeal_decide"]
    page = me.get(f"/t/{tid}/appeals/{case}")
    assert page.status_code == 200 and "the extra is deserved" in page.text


def test_after_the_last_round_started_filing_refused_and_decision_warned_with_the_clause(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    me, hj = client_for("player1"), client_for("headjudge")
    schedule = hj.get(f"/api/t/{tid}/schedule").json()
    started = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    for r in schedule["rounds"]:
        if r["stage"] == "final":
            r["starts"] = started
    assert hj.put(f"/api/t/{tid}/schedule", headers=_w(hj), json={
        "rounds": schedule["rounds"]}).status_code == 200
    r = me.post(f"/api/t/{tid}/games/{appeal_game(world)}/appeals", headers=_w(me), json={
        "kind": "appeal", "subject": "penalty", "awarded": "-0.5", "claimed": "0"})
    assert r.status_code == 422
    refusals = {x["code"]: x for x in r.json()["problems"]}
    assert refusals["appeal_last_round"]["clause"] == "FSM 8.9.2"
    assert "ФСМ 8.9.2" in refusals["appeal_last_round"]["message"]  # Russian by default
    r = hj.post(f"/api/t/{tid}/appeals/{world.case}/decision", headers=_w(hj),
                json={"outcome": "rejected", "reason": "late, but decided"})
    assert r.status_code == 200, r.text
    assert [(w["code"], w["clause"]) for w in r.json()["warnings"]] == [
        ("decided_after_last_round", "FSM 8.9.2")]


def test_a_player_signs_in_with_a_code_and_sees_only_his_cases(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    org = client_for("organizer")
    other = world.sample.players[-1].id
    r = org.post(f"/api/t/{tid}/player-access", headers=_w(org), json={"player": other})
    assert r.status_code == 200, r.text
    c = client_for("anon")
    r = c.post("/api/login", headers=_w(c), json={"code": r.json()["code"]})
    assert r.status_code == 200 and "player" in r.json()["roles"][str(tid)]
    assert c.get(f"/api/t/{tid}/appeals").json() == []
    assert c.get(f"/api/t/{tid}/appeals/{world.case}").status_code == 403
    page = c.get(f"/t/{tid}/games/{appeal_game(world)}")
    assert page.status_code == 200 and "file-appeal" in page.text


def test_pages_charts_and_downloads(world: World, client_for: Callable[[str], TestClient]) -> None:
    import openpyxl

    tid = world.demo.tournament
    anon, hj, me = client_for("anon"), client_for("headjudge"), client_for("player1")
    page = anon.get(f"/t/{tid}")
    assert '/charts/roles.svg' in page.text and "/export/standings.xlsx" in page.text
    svg = anon.get(f"/t/{tid}/charts/roles.svg")
    assert svg.headers["content-type"].startswith("image/svg+xml") and b"<svg" in svg.content
    pid = world.sample.players[0].id
    assert "places.svg" in anon.get(f"/t/{tid}/players/{pid}").text
    assert b"<svg" in anon.get(f"/t/{tid}/players/{pid}/places.svg").content
    book = openpyxl.load_workbook(io.BytesIO(anon.get(f"/t/{tid}/export/standings.xlsx").content))
    standings = anon.get(f"/api/t/{tid}/standings").json()["standings"]
    cells = {str(v) for row in book.worksheets[0].iter_rows(min_row=2, values_only=True)
             for v in row if v is not None}
    assert {r["nickname"] for r in standings} <= cells
    csv_text = anon.get(f"/t/{tid}/export/standings.csv").content.decode("utf-8-sig")
    assert standings[0]["nickname"] in csv_text
    assert hj.get(f"/t/{tid}/export/blank.pdf").content.startswith(b"%PDF")
    assert anon.get(f"/t/{tid}/games/{appeal_game(world)}/protocol.pdf").content.startswith(b"%PDF")
    assert anon.get(f"/t/{tid}/export/blank.pdf", follow_redirects=False).status_code == 303
    listing = hj.get(f"/t/{tid}/appeals")
    assert listing.status_code == 200 and world.case in listing.text and "blank.pdf" in listing.text
    form = me.get(f"/t/{tid}/games/{appeal_game(world)}/appeal")
    assert form.status_code == 200 and "ФСМ 8.9" in form.text  # the deadlines with clauses
    r = me.post(f"/t/{tid}/games/{appeal_game(world)}/appeal", headers=_w(me),
                data={"kind": "appeal", "subject": "positive_extra", "awarded": "0.2",
                      "claimed": "0.3"}, follow_redirects=False)
    assert r.status_code == 422 and "ФСМ 8.9.5" in r.text
    hidden: dict[str, Any] = {"standings_hidden": True}
    assert hj.post(f"/api/t/{tid}/options", headers=_w(hj), json=hidden).status_code == 200
    try:
        assert anon.get(f"/t/{tid}/export/standings.xlsx").status_code == 403
        assert anon.get(f"/t/{tid}/charts/seats.svg").status_code == 403
        assert hj.get(f"/t/{tid}/export/standings.xlsx").status_code == 200
    finally:
        hj.post(f"/api/t/{tid}/options", headers=_w(hj), json={})


def test_a_players_code_on_the_sign_in_page_opens_his_own_page(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    org = client_for("organizer")
    code = org.post(f"/api/t/{tid}/player-access", headers=_w(org),
                    json={"player": world.sample.players[-2].id}).json()["code"]
    c = client_for("anon")
    r = c.post("/login/code", data={"code": code, "csrf": csrf_of(c)}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/t/{tid}/me"
    page = c.get(f"/t/{tid}/me")
    assert page.status_code == 200 and world.sample.players[-2].nickname in page.text


def test_scoring_9_api_decision_removes_a_penalty_and_refuses_a_change_of_nothing(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    """The JSON API takes the same decision as the page: a seat's penalty removed (by
    its place and kind), the change in words; «accepted» with nothing changed is 422."""
    tid = world.demo.tournament
    hj = client_for("headjudge")
    code, seat, player = next(
        (g.id, s, next(x.player for x in g.seats if x.seat == s))
        for g in world.sample.games for s, sc in sorted(g.scores.items()) if sc.penalties)
    # the appeal window open whatever the tests before did to the schedule
    schedule = msgspec.to_builtins(open_schedule(datetime.now(UTC), world))
    assert hj.put(f"/api/t/{tid}/schedule", headers=_w(hj), json=schedule).status_code == 200
    r = hj.post(f"/api/t/{tid}/games/{code}/appeals", headers=_w(hj), json={
        "kind": "appeal", "player": player, "subject": "penalty", "awarded": "-0.8",
        "claimed": "0"})
    assert r.status_code == 201, r.text
    case = r.json()["id"]
    r = hj.post(f"/api/t/{tid}/appeals/{case}/decision", headers=_w(hj), json={
        "outcome": "accepted", "reason": "-", "change": {"seats": {str(seat): {"fouls": 0}}}})
    assert r.status_code == 422, r.text
    codes = [x["code"] for x in r.json()["problems"] if not x["warning"]]
    assert codes == ["accepted_changes_nothing"]
    assert "ничего не меняет" in r.json()["problems"][0]["message"]
    before = _total(hj, tid, player)
    r = hj.post(f"/api/t/{tid}/appeals/{case}/decision", headers=_w(hj), json={
        "outcome": "accepted", "reason": "not a negative action", "change": {"seats": {
            str(seat): {"penalties": [{"index": 0, "kind": "game_action", "remove": True}]}}}})
    assert r.status_code == 200, r.text
    decided = r.json()
    assert decided["verdict"] == "accepted" and decided["status_words"] == "удовлетворена"
    assert [c["message"] for c in decided["changes"]] == [f"место {seat}: штраф −0,8 снят"]
    assert decided["changes"][0]["code"] == "penalty_removed"
    assert abs(_total(hj, tid, player) - before - 0.8) < 1e-9
