"""The player's page's stream (`/t/{tid}/me/events`) after its session ends.

Revoking a player's code ends every session made with it: the next request is anonymous.
On main the stream that was already open went on: every change of the tournament pushed
the player's page (his table, points, cases) to whoever held the stream. Now the session
is checked before each event and the stream ends with "gone" (static/push.js stops)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator

import httpx
import pytest

from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD, HEAD_JUDGE_NAME, ORGANIZER_NAME
from tests.attacks.conftest import RELAXED, World
from tests.helpers import serving


@pytest.fixture(scope="module")
def server(world: World) -> Iterator[str]:
    with serving(create_app(str(world.db), secret="stream-test", limits=RELAXED)) as base:
        yield base


def _events(client: httpx.Client, url: str, out: queue.Queue[str]) -> None:
    try:
        with client.stream("GET", url) as r:
            out.put(f"status {r.status_code}")
            for line in r.iter_lines():
                if line.startswith("event:"):
                    out.put(line[6:].strip())
    except httpx.HTTPError:
        pass
    finally:
        out.put("closed")


def test_a_revoked_codes_stream_ends(server: str, world: World) -> None:
    org = httpx.Client(base_url=server, timeout=10)
    csrf = org.get("/api/session").json()["csrf"]
    r = org.post("/api/login", json={"user": ORGANIZER_NAME, "password": DEMO_PASSWORD},
                 headers={"X-CSRF-Token": csrf})
    h = {"X-CSRF-Token": r.json()["csrf"]}
    got = org.post(f"/api/t/{world.a}/player-access", json={"player": "p003"}, headers=h).json()
    player = httpx.Client(base_url=server, timeout=httpx.Timeout(10, read=30))
    pc = player.get("/api/session").json()["csrf"]
    player.post("/login/code", data={"code": got["code"], "csrf": pc})
    assert player.get("/api/session").json()["user"] == got["user"]
    seen: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_events, args=(player, f"/t/{world.a}/me/events", seen),
                     daemon=True).start()
    assert seen.get(timeout=10) == "status 200"
    assert seen.get(timeout=10) == "update"  # the page at once
    code = next(c for c in org.get(f"/api/t/{world.a}/codes").json() if c["user"] == got["user"])
    assert org.delete(f"/api/t/{world.a}/codes/{code['id']}", headers=h).status_code == 200
    assert player.get("/api/session").json()["user"] is None
    # a change of the tournament: the stream must not carry the page any more
    assert org.post(f"/api/t/{world.a}/checkin/p003", json={"present": True},
                    headers=h).status_code == 200
    after: list[str] = []
    while not after or after[-1] not in ("closed", "gone"):
        after.append(seen.get(timeout=10))
        assert after[-1] != "update", after  # main: the page again, to a revoked session
    assert after[0] == "gone", after
    player.close()
    org.close()


def test_no_stream_for_a_game_that_is_not_there(server: str, world: World) -> None:
    """On main an anonymous visitor (the standings are public) opened an overlay stream for
    any made-up game code: each one became a topic the push hub probed every second, with
    a warning and its traceback in the log each time, for as long as it stayed open."""
    anon = httpx.Client(base_url=server, timeout=httpx.Timeout(5, read=5))
    for code in ("no-such-game", "x" * 300, world.games_b[0] + "-nope"):
        with anon.stream("GET", f"/t/{world.a}/overlay/{code}/events") as r:
            assert r.status_code == 404, (code, r.status_code)
    with anon.stream("GET", f"/t/{world.a}/overlay/{world.demo.open_games[0]}/events") as r:
        assert r.status_code == 200  # a real game's stream still opens
    anon.close()


def test_a_judges_live_stream_ends_when_he_signs_out(server: str, world: World) -> None:
    """The judge's live screen stream (`.../live/events`) checked the account's role before
    each event, not the session: a judge who signed out (or whose session was revoked)
    kept receiving his table's live state. Now it ends with "gone"."""
    judge = httpx.Client(base_url=server, timeout=httpx.Timeout(10, read=30))
    csrf = judge.get("/api/session").json()["csrf"]
    r = judge.post("/api/login", json={"user": "judge1", "password": DEMO_PASSWORD},
                   headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200
    jh = {"X-CSRF-Token": r.json()["csrf"]}
    code = next(c for c in world.demo.open_games
                if judge.get(f"/api/t/{world.a}/games/{c}/live").status_code == 200)
    seen: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_events,
                     args=(judge, f"/api/t/{world.a}/games/{code}/live/events", seen),
                     daemon=True).start()
    assert seen.get(timeout=10) == "status 200"
    assert seen.get(timeout=10) == "update"  # the state at once
    assert judge.post("/api/logout", headers=jh).status_code == 200
    assert judge.get("/api/session").json()["user"] is None
    org = httpx.Client(base_url=server, timeout=10)
    oc = org.get("/api/session").json()["csrf"]
    r = org.post("/api/login", json={"user": ORGANIZER_NAME, "password": DEMO_PASSWORD},
                 headers={"X-CSRF-Token": oc})
    h = {"X-CSRF-Token": r.json()["csrf"]}
    before = org.get(f"/api/t/{world.a}/screens").json()["roles_delay"]
    # a change of the game's screen (the roles delay): the stream must not carry it any more
    assert org.post(f"/api/t/{world.a}/screens", json={"roles_delay": 7},
                    headers=h).status_code == 200
    try:
        after: list[str] = []
        while not after or after[-1] not in ("closed", "gone"):
            after.append(seen.get(timeout=10))
            assert after[-1] != "update", after  # main: the state again, to a signed-out judge
        assert after[0] == "gone", after
    finally:
        org.post(f"/api/t/{world.a}/screens", json={"roles_delay": before}, headers=h)
        judge.close()
        org.close()


def _signed_in(server: str, user: str) -> tuple[httpx.Client, dict[str, str]]:
    c = httpx.Client(base_url=server, timeout=httpx.Timeout(10, read=30))
    csrf = c.get("/api/session").json()["csrf"]
    r = c.post("/api/login", json={"user": user, "password": DEMO_PASSWORD},
               headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    return c, {"X-CSRF-Token": r.json()["csrf"]}


def _ends_with_gone(seen: queue.Queue[str]) -> None:
    after: list[str] = []
    while not after or after[-1] not in ("closed", "gone"):
        after.append(seen.get(timeout=10))
        assert after[-1] != "update", after  # main: the stream went on, to a signed-out reader
    assert after[0] == "gone", after


def test_a_staff_standings_stream_ends_when_he_signs_out(server: str, world: World) -> None:
    """The standings stream tells staff to re-read their table (which shows what the public
    does not) after every change; it checked the staff role when it opened, not the session
    after: a head judge who signed out kept being told of every change. Now it ends."""
    head, hh = _signed_in(server, HEAD_JUDGE_NAME)
    seen: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_events, args=(head, f"/t/{world.a}/standings/events", seen),
                     daemon=True).start()
    assert seen.get(timeout=10) == "status 200"
    assert seen.get(timeout=10) == "update"  # "re-read" at once
    assert head.post("/api/logout", headers=hh).status_code == 200
    org, h = _signed_in(server, ORGANIZER_NAME)
    before = org.get(f"/api/t/{world.a}/screens").json()["roles_delay"]
    try:
        assert org.post(f"/api/t/{world.a}/screens", json={"roles_delay": 11},
                        headers=h).status_code == 200
        _ends_with_gone(seen)
    finally:
        org.post(f"/api/t/{world.a}/screens", json={"roles_delay": before}, headers=h)
        head.close()
        org.close()


def test_a_staff_overlay_stream_ends_when_he_signs_out(server: str, world: World) -> None:
    """While the standings are hidden, the overlay without its key is watched by staff
    only; the stream re-checked the grant only when the key or the switch changed, so a
    head judge who signed out kept receiving the game. Now his session is checked before
    every event (a keyed or public overlay is checked as before)."""
    org, h = _signed_in(server, ORGANIZER_NAME)
    before = org.get(f"/api/t/{world.a}/screens").json()["roles_delay"]
    assert org.post(f"/api/t/{world.a}/options", json={"standings_hidden": True},
                    headers=h).status_code == 200
    head, hh = _signed_in(server, HEAD_JUDGE_NAME)
    code = world.demo.open_games[0]
    try:
        anon = httpx.Client(base_url=server, timeout=httpx.Timeout(5, read=5))
        with anon.stream("GET", f"/t/{world.a}/overlay/{code}/events") as r:
            assert r.status_code == 403  # hidden: not for the public
        anon.close()
        seen: queue.Queue[str] = queue.Queue()
        threading.Thread(target=_events, args=(head, f"/t/{world.a}/overlay/{code}/events", seen),
                         daemon=True).start()
        assert seen.get(timeout=10) == "status 200"
        assert seen.get(timeout=10) == "update"  # the game at once
        # still signed in: a change of the game's screen reaches him
        assert org.post(f"/api/t/{world.a}/screens", json={"roles_delay": 13},
                        headers=h).status_code == 200
        assert seen.get(timeout=10) == "update"
        assert head.post("/api/logout", headers=hh).status_code == 200
        assert org.post(f"/api/t/{world.a}/screens", json={"roles_delay": 17},
                        headers=h).status_code == 200
        _ends_with_gone(seen)
    finally:
        org.post(f"/api/t/{world.a}/screens", json={"roles_delay": before}, headers=h)
        org.post(f"/api/t/{world.a}/options", json={"standings_hidden": False}, headers=h)
        head.close()
        org.close()
