"""Pushed updates on a real server on loopback: a confirmation reaches
the standings' and the hall's listeners as an event within a second; a live event
reaches the overlay's; a write the process did not make (another service on the same
database, like the CLI or a second server) arrives through the hub's stamp poll; a
revoked overlay link ends its stream."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from mafiatab.formats.tournament_json import game_to_dict
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import DEMO_PASSWORD, ORGANIZER_NAME
from tests.web.conftest import World
from tests.web.test_browser import live  # noqa: F401 (the fixture)
from tests.web.test_live import ROLES


class Listener:
    """One EventSource-like reader in a thread: (event, data, arrival time) in a queue."""

    def __init__(self, url: str, cookies: httpx.Cookies | None = None) -> None:
        self.events: queue.Queue[tuple[str, str, float]] = queue.Queue()
        self.status = 0
        self._client = httpx.Client(timeout=httpx.Timeout(30, read=60), cookies=cookies)
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(url,), daemon=True)
        self._thread.start()
        assert self._ready.wait(10), "the stream did not answer"

    def _run(self, url: str) -> None:
        try:
            with self._client.stream("GET", url) as r:
                self.status = r.status_code
                self._ready.set()
                event, data = "message", []
                for line in r.iter_lines():
                    if line.startswith("event:"):
                        event = line[6:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:].removeprefix(" "))
                    elif line == "" and data:
                        self.events.put((event, "\n".join(data), time.perf_counter()))
                        event, data = "message", []
        except httpx.HTTPError:
            pass
        finally:
            self._ready.set()
            self.events.put(("closed", "", time.perf_counter()))

    def next(self, timeout: float = 10) -> tuple[str, str, float]:
        return self.events.get(timeout=timeout)

    def close(self) -> None:
        self._client.close()


class Staff:
    def __init__(self, base: str, user: str) -> None:
        self.c = httpx.Client(base_url=base, timeout=30)
        csrf = self.c.get("/api/session").json()["csrf"]
        r = self.c.post("/api/login", json={"user": user, "password": DEMO_PASSWORD},
                        headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200, r.text
        self.h = {"X-CSRF-Token": r.json()["csrf"]}

    def call(self, method: str, url: str, **kw: Any) -> dict[str, Any]:
        headers = {**self.h, **kw.pop("headers", {})}
        r = self.c.request(method, url, headers=headers, **kw)
        assert r.status_code < 400, r.text
        data: dict[str, Any] = r.json()
        return data


def judge1_at_table_1(world: World) -> None:
    """The browser tests' server gives table 1 to the code's own account; these tests play
    it as judge1, so the organizer gives it back to him first."""
    engine = make_engine(str(world.db))
    try:
        Services(engine).games.assign_judge(world.demo.tournament, world.demo.open_games[0],
                                        "judge1", actor=ORGANIZER_NAME)
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def people(live: tuple[str, World]) -> Iterator[tuple[Staff, Staff, Staff]]:  # noqa: F811
    """The judges of tables 1 and 2, and the head judge."""
    base, world = live
    judge1_at_table_1(world)
    crew = Staff(base, "judge1"), Staff(base, "judge2"), Staff(base, "headjudge")
    yield crew
    for x in crew:
        x.c.close()


def submit_protocol(judge: Staff, world: World, table: int, code: str) -> int:
    tid = world.demo.tournament
    head = judge.call("GET", f"/api/t/{tid}/games/{code}")
    protocol = game_to_dict(world.open_game(table))
    saved = judge.call("PUT", f"/api/t/{tid}/games/{code}/draft",
                       content=json.dumps({"base_revision": head["revision"],
                                           "protocol": protocol}, default=float),
                       headers={"content-type": "application/json"})
    done = judge.call("POST", f"/api/t/{tid}/games/{code}/submit",
                      json={"base_revision": saved["revision"]})
    revision: int = done["revision"]
    return revision


def test_a_confirmation_reaches_the_standings_and_hall_listeners_within_a_second(
        live: tuple[str, World], people: tuple[Staff, Staff, Staff]) -> None:  # noqa: F811
    base, world = live
    _j1, judge, head = people
    tid = world.demo.tournament
    code = world.demo.open_games[1]
    revision = submit_protocol(judge, world, 2, code)
    standings = [Listener(f"{base}/t/{tid}/standings/events") for _ in range(3)]
    hall = Listener(f"{base}/t/{tid}/hall/events")
    try:
        assert all(x.status == 200 for x in [*standings, hall])
        first = [x.next() for x in standings]
        assert {e for e, _d, _t in first} == {"update"}
        before = first[0][1]
        assert "standings-table" in before and all(d == before for _e, d, _t in first)
        hall_before = json.loads(hall.next()[1])
        t0 = time.perf_counter()
        head.call("POST", f"/api/t/{tid}/games/{code}/confirm", json={"base_revision": revision})
        t1 = time.perf_counter()
        after = [x.next(5) for x in standings]
        for event, data, at in after:
            assert event == "update" and data != before
            assert at - t0 < 1.0, f"{at - t0:.3f} s from the confirmation"
        hall_after = json.loads(hall.next(5)[1])
        assert hall_after["rows"] != hall_before["rows"]
        print(f"confirm answered in {t1 - t0:.3f} s; the last listener had it "
              f"{max(at for _e, _d, at in after) - t0:.3f} s after the request was sent")
    finally:
        for x in [*standings, hall]:
            x.close()


def test_the_overlay_follows_the_live_log_and_a_write_from_elsewhere(
        live: tuple[str, World], people: tuple[Staff, Staff, Staff]) -> None:  # noqa: F811
    base, world = live
    judge, _j2, head = people
    tid = world.demo.tournament
    code = world.demo.open_games[0]
    url = f"/api/t/{tid}/games/{code}/live"
    ov = Listener(f"{base}/t/{tid}/overlay/{code}/events")
    screen = Listener(f"{base}{url}/events", cookies=judge.c.cookies)  # the judge's own
    refused = Listener(f"{base}{url}/events")  # nobody signed in: told to sign in
    assert screen.status == 200 and refused.status == 401
    refused.close()
    try:
        assert json.loads(screen.next()[1])["events"] == []
        start = json.loads(ov.next()[1])
        assert not start["dealt"]
        state = judge.call("GET", url)
        t0 = time.perf_counter()
        judge.call("POST", url, json={"base_revision": state["revision"], "events": [
            {"id": "p1", "seq": state["seq"] + 1, "event": {"type": "deal", "roles": ROLES}},
            {"id": "p2", "seq": state["seq"] + 2,
             "event": {"type": "speech", "seat": 1, "nominates": 5}}]})
        event, data, at = ov.next(5)
        got = json.loads(data)
        assert event == "update" and got["dealt"] and got["nominations"] == [5]
        assert got["speaker"] == 2 and all(s["role"] is None for s in got["seats"])
        assert at - t0 < 1.0
        # a write this server did not make: a service of its own on the same database
        other = Services(make_engine(str(world.db)))
        info = other.games.head(tid, code)
        game = info.game_struct()
        log = [*(game.log or []), {"type": "speech", "seat": 2}]
        t0 = time.perf_counter()
        import msgspec

        other.protocols.save_draft(tid, code, msgspec.structs.replace(game, log=log),
                                   actor="judge1", base_revision=info.number)
        event, data, at = ov.next(5)
        assert json.loads(data)["speaker"] == 3
        assert at - t0 < 2.5, f"{at - t0:.3f} s through the stamp poll"
        # the judge's live screen gets both: its own batch, then the other write
        assert json.loads(screen.next(5)[1])["roles"] == ROLES
        assert [e["event"]["type"] for e in json.loads(screen.next(5)[1])["events"]] == [
            "deal", "speech", "speech"]
        other.engine.dispose()
        # the link is revoked while a stream reads with it: the stream ends
        h = head.h
        head.call("POST", f"/api/t/{tid}/options", json={"standings_hidden": True})
        key = head.call("POST", f"/api/t/{tid}/screens/overlay-key")["key"]
        keyed = Listener(f"{base}/t/{tid}/overlay/{code}/events?key={key}")
        assert keyed.status == 200 and keyed.next()[0] == "update"
        refused = Listener(f"{base}/t/{tid}/overlay/{code}/events")
        assert refused.status == 403
        refused.close()
        head.c.delete(f"/api/t/{tid}/screens/overlay-key", headers=h)
        assert keyed.next(5)[0] == "gone"
        keyed.close()
    finally:
        head.c.post(f"/api/t/{tid}/options", json={}, headers=head.h)
        ov.close()
        screen.close()


def test_the_hub_renders_once_per_change_and_wakes_on_a_write() -> None:
    """One probe and one render per change serve every listener; `wake` (what every
    committed write calls) delivers at once, long before the next tick."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from mafiatab.web.push import Hub

    version = {"n": 1}
    renders: list[int] = []

    def render() -> str:
        renders.append(version["n"])
        return f"v{version['n']}"

    async def scenario() -> None:
        hub = Hub(ThreadPoolExecutor(max_workers=2), tick=60)
        streams = [hub.events("t", lambda: version["n"], "ru", render) for _ in range(50)]
        first = await asyncio.gather(*(s.__anext__() for s in streams))
        assert set(first) == {b"id: 1\r\nevent: update\r\ndata: v1\r\nretry: 3000\r\n\r\n"}
        assert renders == [1]
        pending = [asyncio.ensure_future(s.__anext__()) for s in streams]
        await asyncio.sleep(0.2)
        assert not any(p.done() for p in pending)  # nothing changed: nothing sent
        version["n"] = 2
        hub.wake()
        t0 = time.perf_counter()
        second = await asyncio.wait_for(asyncio.gather(*pending), 2)
        assert time.perf_counter() - t0 < 0.5
        assert set(second) == {b"id: 2\r\nevent: update\r\ndata: v2\r\nretry: 3000\r\n\r\n"}
        assert renders == [1, 2]
        for s in streams:
            await s.aclose()  # type: ignore[attr-defined]
        assert hub.topics["t"].listeners == 0

    asyncio.run(scenario())
