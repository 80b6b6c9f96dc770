"""The live screen's API: operations applied once and in order, an
illegal event refused with its rule and nothing stored, a stale base revision refused,
and a finished game's protocol facts taken from its log."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mafiatab.rules import FSM
from mafiatab.web.live import describe
from tests.storage.conftest import BACKENDS, pg_schema
from tests.web.conftest import World, csrf_of, make_world

#: blacks 3 (don), 5, 9; sheriff 7
ROLES = ["red", "red", "don", "red", "black", "red", "sheriff", "red", "black", "red"]


class Table:
    """The judge of the open table 1, talking to the live API as the screen does."""

    def __init__(self, c: TestClient, world: World, code: str) -> None:
        self.c = c
        self.url = f"/api/t/{world.demo.tournament}/games/{code}/live"
        self.headers = {"X-CSRF-Token": csrf_of(c)}
        self.n = 0

    def state(self) -> dict[str, Any]:
        r = self.c.get(self.url, headers=self.headers)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def post(self, ops: list[dict[str, Any]], base: int | None = None) -> Any:
        if base is None:
            base = self.state()["revision"]
        return self.c.post(self.url, json={"base_revision": base, "events": ops},
                           headers=self.headers)

    def op(self, event: dict[str, Any] | None = None, undo: str | None = None) -> dict[str, Any]:
        self.n += 1
        out: dict[str, Any] = {"id": f"op-{self.n}", "seq": self.state()["seq"] + 1}
        if undo is not None:
            out["undo"] = undo
        else:
            out["event"] = event
        return out

    def send(self, **event: Any) -> dict[str, Any]:
        r = self.post([self.op(event)])
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def speeches(self, nominations: dict[int, int] | None = None) -> dict[str, Any]:
        """Every speech of the day, in the order the server gives."""
        nominations = nominations or {}
        state = self.state()
        while state["step"] and "speech" in state["step"]["kinds"] and state["step"]["seat"]:
            seat = state["step"]["seat"]
            event: dict[str, Any] = {"type": "speech", "seat": seat}
            if seat in nominations:
                event["nominates"] = nominations[seat]
            state = self.send(**event)
        return state


@pytest.fixture(scope="module", params=BACKENDS)
def world(request: pytest.FixtureRequest,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """The web tests' demo tournament, here on SQLite and on PostgreSQL (a fresh schema of
    its own): the live log's storage (services/revision_log.py) on both. Only this
    module's tests run twice; the other web tests keep their SQLite world."""
    folder = tmp_path_factory.mktemp("live")
    if request.param == "sqlite":
        yield make_world(folder)
        return
    with pg_schema() as url:
        yield make_world(folder, url)


@pytest.fixture()
def table(world: World, client_for: Callable[[str], TestClient]) -> Table:
    return fresh_table(world, client_for)


def fresh_table(world: World, client_for: Callable[[str], TestClient]) -> Table:
    """A fresh table each test: the open game's seating, with its log cleared (by the
    head judge: a save without a log keeps the stored one; `"log": null` removes it)."""
    c = client_for("judge1")
    code = world.demo.open_games[0]
    t = Table(c, world, code)
    hj = client_for("headjudge")
    hj_headers = {"X-CSRF-Token": csrf_of(hj)}
    head = hj.get(f"/api/t/{world.demo.tournament}/games/{code}", headers=hj_headers).json()
    protocol = head["protocol"]
    protocol["log"] = None
    protocol.pop("live", None)
    protocol["result"] = ""
    for s in protocol["seats"]:
        s["role"] = ""
    r = hj.put(f"/api/t/{world.demo.tournament}/games/{code}/draft", headers=hj_headers,
               json={"base_revision": head["revision"], "protocol": protocol})
    assert r.status_code == 200, r.text
    return t


def test_a_whole_game_gives_the_protocol(table: Table, world: World) -> None:
    state = table.state()
    assert not state["dealt"] and state["events"] == []
    state = table.send(type="deal", roles=ROLES)
    assert state["dealt"] and state["roles"] == ROLES
    assert state["step"]["text"].startswith("ночь 0")
    state = table.speeches({1: 5, 2: 9})
    assert state["step"]["kinds"] == ["vote"] and state["step"]["candidates"] == [5, 9]
    table.send(type="vote", votes={"5": [1, 2, 3, 4, 6, 7], "9": []})
    table.send(type="last_words", seat=5)
    state = table.send(type="shot", target=1)
    assert "best_move" in state["step"]["kinds"]
    table.send(type="best_move", seat=1, seats=[3, 9])
    table.send(type="foul", seat=8)
    table.speeches({2: 9, 4: 3})
    table.send(type="vote", counts={"9": 5})
    table.send(type="shot", target=2)
    state = table.speeches({4: 3})
    assert state["ended"] and state["result"] == "red"
    assert state["fouls"] == {"8": 1}
    head = table.c.get(f"/api/t/{world.demo.tournament}/games/{world.demo.open_games[0]}",
                       headers=table.headers).json()
    g = head["protocol"]
    assert (g["result"], g["first_killed"], g["best_move"], g["day1_vote_left"]) == (
        "red", 1, [3, 9], 1)
    assert [s["role"] for s in g["seats"]] == ROLES
    assert {k: v for k, v in g["log"][0].items() if k != "at"} == {"type": "deal", "roles": ROLES}
    # every event keeps its wall-clock time, in order
    times = [e["at"] for e in g["log"]]
    assert all(t.endswith("Z") for t in times) and times == sorted(times)
    assert len(g["log"]) == len(state["events"])
    # the protocol form saves the extras and keeps the log
    page = table.c.get(f"/t/{world.demo.tournament}/games/{world.demo.open_games[0]}/edit")
    # the log's facts are shown read-only: the form does not send them
    assert 'id="from-log"' in page.text and 'name="result"' not in page.text
    form = {"csrf": table.headers["X-CSRF-Token"], "base": str(head["revision"]),
            "result": "red", "first_killed": "1", "best_move_1": "3", "best_move_2": "9",
            "day1_vote_left": "1", "extra_4": "0.3"}
    for s in g["seats"]:
        form[f"player_{s['seat']}"] = s["player"]
        form[f"role_{s['seat']}"] = s["role"]
    r = table.c.post(f"/t/{world.demo.tournament}/games/{world.demo.open_games[0]}/draft",
                     data=form)
    assert r.status_code == 200, r.text
    after = table.state()
    assert after["revision"] == head["revision"] + 1
    assert len(after["events"]) == len(state["events"]) and after["ended"]


def test_the_same_batch_twice_applies_once(table: Table) -> None:
    base = table.state()["revision"]
    batch = [{"id": "b1", "seq": 1, "event": {"type": "deal", "roles": ROLES}},
             {"id": "b2", "seq": 2, "event": {"type": "speech", "seat": 1, "nominates": 5}},
             {"id": "b3", "seq": 3, "event": {"type": "foul", "seat": 4}}]
    first = table.post(batch, base)
    assert first.status_code == 200, first.text
    assert (first.json()["applied"], first.json()["duplicates"]) == (3, 0)
    # the reply was lost: the screen sends the same batch with the same base again
    again = table.post(batch, base)
    assert again.status_code == 200, again.text
    assert (again.json()["applied"], again.json()["duplicates"]) == (0, 3)
    assert again.json()["revision"] == first.json()["revision"] == base + 1
    assert [e["id"] for e in again.json()["events"]] == ["b1", "b2", "b3"]
    assert again.json()["fouls"] == {"4": 1}
    # a batch that repeats the applied ones and adds one: only the new one is applied
    more = table.post([*batch, {"id": "b4", "seq": 4, "event": {"type": "speech", "seat": 2}}],
                      first.json()["revision"])
    assert (more.json()["applied"], more.json()["duplicates"]) == (1, 3)
    assert [e["id"] for e in more.json()["events"]] == ["b1", "b2", "b3", "b4"]


def test_out_of_order_is_refused_whole(table: Table) -> None:
    base = table.state()["revision"]
    deal = {"id": "o1", "seq": 1, "event": {"type": "deal", "roles": ROLES}}
    speech = {"id": "o2", "seq": 2, "event": {"type": "speech", "seat": 1}}
    r = table.post([speech], base)  # seq 2 before seq 1
    assert r.status_code == 409 and r.json()["error"] == "out_of_order"
    assert r.json()["expected"] == 1
    r = table.post([deal, {**speech, "seq": 3}], base)  # a gap inside the batch
    assert r.status_code == 409 and r.json()["expected"] == 2
    state = table.state()
    assert state["revision"] == base and state["events"] == [] and state["seq"] == 0
    r = table.post([deal, speech], base)
    assert r.status_code == 200 and [e["id"] for e in r.json()["events"]] == ["o1", "o2"]
    assert r.json()["seq"] == 2


def test_an_illegal_event_is_refused_with_its_rule_and_nothing_stored(table: Table) -> None:
    table.send(type="deal", roles=ROLES)
    before = table.state()
    ok = table.op({"type": "speech", "seat": 1})
    bad = {"id": "bad", "seq": ok["seq"] + 1, "event": {"type": "shot", "target": 4}}
    r = table.post([ok, bad], before["revision"])
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "refused" and body["refused"] == "bad"
    problem = body["problems"][0]
    assert problem["code"] == "log_speeches_missing" and problem["field"] == "log[2]"
    assert "course of the game" in problem["clause"] and problem["message"]
    after = table.state()  # nothing of the batch: not even the legal speech before it
    assert (after["revision"], after["seq"], after["events"]) == (
        before["revision"], before["seq"], before["events"])
    # a dead player's speech, and a vote FIIM 7.1 / the day's speeches forbid
    table.speeches({1: 5, 2: 9})
    table.send(type="vote", counts={"5": 6})
    r = table.post([table.op({"type": "speech", "seat": 5})])
    assert r.status_code == 422 and r.json()["problems"][0]["seat"] == 5


def test_a_removal_cancels_the_vote_and_the_screen_says_so(table: Table) -> None:
    table.send(type="deal", roles=ROLES)
    table.speeches({1: 5, 2: 9})
    for _ in range(4):
        state = table.send(type="foul", seat=6)
    clause = FSM.removal_cancels_vote.clause  # the table plays FSM: its own clause
    assert any(clause in n for n in state["step"]["notes"]), state["step"]
    r = table.post([table.op({"type": "vote", "counts": {"5": 6}})])
    assert r.status_code == 422
    assert r.json()["problems"][0]["code"] in ("log_vote_cancelled", "log_no_vote_due")


def test_a_stale_base_revision_is_a_conflict(table: Table, world: World) -> None:
    table.send(type="deal", roles=ROLES)
    state = table.state()
    # someone saves the protocol in between (the head judge, the form on another phone)
    code = world.demo.open_games[0]
    head = table.c.get(f"/api/t/{world.demo.tournament}/games/{code}",
                       headers=table.headers).json()
    r = table.c.put(f"/api/t/{world.demo.tournament}/games/{code}/draft", headers=table.headers,
                    json={"base_revision": head["revision"], "protocol": head["protocol"]})
    assert r.status_code == 200
    op = table.op({"type": "speech", "seat": 1})
    r = table.post([op], state["revision"])
    assert r.status_code == 409 and r.json()["error"] == "conflict"
    assert r.json()["head"] == state["revision"] + 1
    assert table.state()["seq"] == state["seq"]  # nothing stored
    r = table.post([op], state["revision"] + 1)
    assert r.status_code == 200 and r.json()["applied"] == 1


def test_undo_takes_back_the_last_event_only(table: Table) -> None:
    table.send(type="deal", roles=ROLES)
    state = table.send(type="speech", seat=1, nominates=5)
    last = state["events"][-1]["id"]
    r = table.post([table.op(undo="op-1")])
    assert r.status_code == 422  # not the last event
    r = table.post([table.op(undo=last)])
    assert r.status_code == 200
    after = r.json()
    assert [e["event"]["type"] for e in after["events"]] == ["deal"]
    assert after["step"]["seat"] == 1 and after["seq"] == state["seq"] + 1


def test_the_live_api_is_in_the_openapi_document(client_for: Callable[[str], TestClient]
                                                 ) -> None:
    doc = client_for("anon").get("/api/openapi.json").json()
    path = doc["paths"]["/api/t/{tid}/games/{code}/live"]
    assert set(path) == {"get", "post"}


def test_the_page_is_russian_by_default(table: Table, world: World) -> None:
    r = table.c.get(f"/t/{world.demo.tournament}/games/{world.demo.open_games[0]}/live")
    assert r.status_code == 200
    assert "Ведение игры" in r.text and "/static/live.js" in r.text
    assert describe({"type": "speech", "seat": 4, "nominates": 7}, "en") == (
        "speech of seat 4, nominates 7")


def test_the_live_log_is_stored_in_the_world_s_database(
        table: Table, world: World, request: pytest.FixtureRequest) -> None:
    """Each run of this module is on the backend it names: the events just sent are rows
    of its `game_log_events`."""
    from sqlalchemy import func, select

    from mafiatab.storage import models as db
    from mafiatab.storage.engine import make_engine

    table.send(type="deal", roles=ROLES)
    table.speeches({1: 5})
    engine = make_engine(str(world.db))
    try:
        assert engine.dialect.name == request.node.callspec.params["world"]
        with engine.connect() as conn:
            assert (conn.scalar(select(func.count()).select_from(db.GameLogEvent)) or 0) >= 2
    finally:
        engine.dispose()


def test_the_phone_gets_the_engine_from_this_server(table: Table, world: World) -> None:
    """The live page names the engine's files (the core's source as this server runs it,
    the Pyodide runtime under /static), lets itself compile WebAssembly and nothing else
    more, and the core's zip holds the course and everything it imports."""
    import io
    import json
    import re
    import zipfile

    from mafiatab.web import course_files

    page = table.c.get(f"/t/{world.demo.tournament}/games/{world.demo.open_games[0]}/live")
    assert page.status_code == 200
    csp = page.headers["Content-Security-Policy"]
    assert "script-src 'self' 'wasm-unsafe-eval';" in csp and "unsafe-eval'" not in csp.replace(
        "'wasm-unsafe-eval'", "")
    boot = json.loads(re.search(r'id="live-boot">(.*?)</script>', page.text, re.S).group(1))
    assert boot["rules"] == "fsm" or boot["rules"] == "fiim2018"
    zipped = table.c.get(course_files.bundle()[1].join(("/course/mafiatab-", ".zip")))
    assert zipped.status_code == 200
    names = set(zipfile.ZipFile(io.BytesIO(zipped.content)).namelist())
    assert {"mafiatab/__init__.py", "mafiatab/domain/course.py",
            "mafiatab/domain/gamelog_engine.py", "mafiatab/rules/fsm.py"} <= names
    assert all(n.startswith(("mafiatab/domain/", "mafiatab/rules/")) or n == "mafiatab/__init__.py"
               for n in names)
    assert table.c.get("/course/mafiatab-0000.zip").status_code == 404
    if course_files.available():
        assert boot["course"]["bundle"] == f"/course/mafiatab-{course_files.bundle()[1]}.zip"
        files = table.c.get("/course/files.json").json()["files"]
        assert boot["course"]["bundle"] in files and "/static/pyodide/pyodide.asm.wasm" in files
        wasm = table.c.get("/static/pyodide/pyodide.asm.wasm")
        assert wasm.headers["content-type"] == "application/wasm"
    else:
        assert boot["course"] is None
