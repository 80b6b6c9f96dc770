"""A player's own page through the app: his next table, his games with
each point and its clause, his appeals with their deadlines, his standing; what closed
standings hide; and who may open it."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from tests.web.appeal_world import PLAYER_ACCOUNT, appeal_game, player_of
from tests.web.conftest import World, client_for, csrf_of, world  # noqa: F401 - fixtures


def test_the_page_and_its_json_say_the_same(world: World,  # noqa: F811
                                            client_for: Callable[[str], TestClient]  # noqa: F811
                                            ) -> None:
    tid = world.demo.tournament
    pid = player_of(world)
    engine = make_engine(str(world.db))
    svc = Services(engine)
    standings = svc.standings.compute(tid)
    row = next(r for r in standings.rows if r.player == pid)
    explained = svc.standings.explain(tid, pid)
    case = Services(engine).appeals.case(tid, world.case, actor=PLAYER_ACCOUNT)
    engine.dispose()
    me = client_for(PLAYER_ACCOUNT)
    data = me.get(f"/api/t/{tid}/me").json()
    assert data["player"] == pid and data["place"] == row.place
    assert [g["game"] for g in data["games"]] == [g.game for g in explained]
    for got, want in zip(data["games"], explained, strict=True):
        assert [p["clause"] for p in got["parts"]] == [p.clause for p in want.parts]
    (mine,) = [c for c in data["cases"] if c["id"] == world.case]
    assert mine["game"] == appeal_game(world) and mine["status"] == "open"
    assert mine["decide_by"] == (case.decide_by.isoformat() if case.decide_by else None)
    assert mine["file_by"] is not None  # the schedule leaves the window open: it closes
    # his next table: the open round seats him (or not) as the stored seating says
    seated = next((g for g in world.sample.games if g.stage == "qual"
                   and g.round == world.demo.open_round
                   and any(s.player == pid for s in g.seats)), None)
    if seated is not None:
        assert (data["next"]["round"], data["next"]["table"]) == (seated.round, seated.table)
    page = me.get(f"/t/{tid}/me")
    assert page.status_code == 200 and 'data-push="/t/' in page.text
    assert f"{row.place}-е место из {len(standings.rows)}" in page.text
    assert world.case in page.text and "открыто" in page.text
    for g in explained:
        for x in g.parts:
            assert x.clause.replace("FSM", "ФСМ").split(" (")[0] in page.text
    part = me.get(f"/t/{tid}/me/part")
    assert part.status_code == 200 and world.case in part.text


def test_closed_standings_hide_his_place_and_points(
        world: World, client_for: Callable[[str], TestClient]) -> None:  # noqa: F811
    tid = world.demo.tournament
    head = client_for("headjudge")
    h = {"X-CSRF-Token": csrf_of(head)}
    assert head.post(f"/api/t/{tid}/options", json={"standings_hidden": True},
                     headers=h).status_code == 200
    try:
        data = client_for(PLAYER_ACCOUNT).get(f"/api/t/{tid}/me").json()
        assert data["standings_hidden"] and data["place"] is None and data["games"] == []
        page = client_for(PLAYER_ACCOUNT).get(f"/t/{tid}/me").text
        assert "Закрытые таблицы" in page and "-е место из" not in page
    finally:
        head.post(f"/api/t/{tid}/options", json={}, headers=h)


def test_only_a_player_of_the_tournament_opens_it(
        world: World, client_for: Callable[[str], TestClient]) -> None:  # noqa: F811
    tid = world.demo.tournament
    assert client_for("judge1").get(f"/api/t/{tid}/me").status_code == 403
    assert client_for("judge1").get(f"/t/{tid}/me/events").status_code == 403
    assert client_for("anon").get(f"/api/t/{tid}/me").status_code == 401
