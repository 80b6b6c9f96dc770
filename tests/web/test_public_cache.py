"""What the public reads after a round, from memory (web.public_cache): one render per
change whoever asks, the kept page with each phone's own CSRF token, a new protocol shown
on the next poll, and a password being hashed that holds up nobody else."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient

from mafiatab.formats.tournament_json import game_to_dict
from mafiatab.services.accounts import HASH_SLOTS
from mafiatab.services.hash_slots import SharedSlots
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import DEMO_PASSWORD
from mafiatab.web.public_cache import PLACEHOLDER, PublicCache
from tests.web.conftest import World, csrf_of

TOKEN = re.compile(r'"X-CSRF-Token": "([^"]+)"')


def test_the_anonymous_page_is_rendered_once_and_each_phone_gets_its_own_token(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    a, b = client_for("anon"), client_for("anon")
    cache: PublicCache = a.app.state.public  # type: ignore[attr-defined]
    first = a.get(f"/t/{tid}")
    before = cache.renders
    second, again = b.get(f"/t/{tid}"), a.get(f"/t/{tid}")
    assert first.status_code == second.status_code == again.status_code == 200
    assert cache.renders == before  # the second phone and the reload: the kept page
    tokens = [TOKEN.search(r.text) for r in (first, second, again)]
    assert all(tokens)
    mine, theirs, reload = (m.group(1) for m in tokens if m)
    # each phone's page carries its own session's token, which its writes must show
    assert mine == csrf_of(a) and theirs == csrf_of(b) and mine != theirs and reload == mine
    assert PLACEHOLDER not in first.text + second.text
    # the kept page is the page itself: the same bytes but for the token
    assert first.text.replace(mine, "T") == second.text.replace(theirs, "T")
    assert "<table" in first.text
    # the first phone's page came from the route, the second's from before the stack
    # (PublicFast): the same headers, the session cookie set the same way
    def shape(r: object) -> dict[str, str]:
        headers = dict(r.headers)  # type: ignore[attr-defined]
        headers.pop("x-request-id")
        headers["set-cookie"] = re.sub(r"=[^;]+;", "=V;", headers["set-cookie"], count=1)
        return headers
    assert shape(first) == shape(second)
    assert "set-cookie" not in again.headers  # a phone with its token keeps its cookie


def test_a_signed_in_reader_gets_his_own_page(world: World,
                                              client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    head = client_for("headjudge")
    page = head.get(f"/t/{tid}")
    assert page.status_code == 200
    assert f"/t/{tid}/manage" in page.text and "headjudge" in page.text
    assert f"/t/{tid}/manage" not in client_for("anon").get(f"/t/{tid}").text


def test_one_render_serves_every_reader_who_asks_while_it_runs(world: World) -> None:
    """Twenty readers miss the same key at once: one render runs, all get its bytes."""
    from mafiatab.services.facade import Services

    engine = make_engine(str(world.db))
    pool = ThreadPoolExecutor(max_workers=2)
    cache = PublicCache(Services(engine), pool)
    started, release = threading.Event(), threading.Event()
    calls: list[int] = []

    def render() -> bytes:
        calls.append(1)
        started.set()
        assert release.wait(60)
        return b"<table>kept</table>"

    async def main() -> list[tuple[bytes, str]]:
        waiting = [asyncio.ensure_future(cache.get(("table", 1), render)) for _ in range(20)]
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 60)
        await asyncio.sleep(0)  # every reader has asked by now: they wait for the one render
        assert not any(w.done() for w in waiting)
        release.set()
        return await asyncio.gather(*waiting)

    try:
        got = asyncio.run(main())
    finally:
        pool.shutdown()
        engine.dispose()
    assert len(calls) == 1 and cache.renders == 1
    assert {g for g in got} == {(b"<table>kept</table>", got[0][1])}
    # and a later reader gets the kept one without a render
    assert cache.kept(("table", 1)) == got[0]


def test_a_failed_render_is_not_kept(world: World) -> None:
    from mafiatab.services.facade import Services

    engine = make_engine(str(world.db))
    pool = ThreadPoolExecutor(max_workers=1)
    cache = PublicCache(Services(engine), pool)

    def broken() -> bytes:
        raise LookupError("no such tournament")

    async def main() -> bytes:
        try:
            await cache.get("k", broken)
        except LookupError:
            pass
        else:
            raise AssertionError("the render's error reaches the reader")
        body, _etag = await cache.get("k", lambda: b"now")
        return body

    try:
        assert asyncio.run(main()) == b"now"
    finally:
        pool.shutdown()
        engine.dispose()


def test_the_poll_answers_304_from_memory_and_shows_a_confirmed_protocol_next(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    anon, head, judge = client_for("anon"), client_for("headjudge"), client_for("judge1")
    first = anon.get(f"/t/{tid}/standings")
    etag = first.headers["etag"]
    assert first.status_code == 200 and first.headers["cache-control"] == "no-cache"
    assert first.headers["x-content-type-options"] == "nosniff"  # as every answer
    unchanged = anon.get(f"/t/{tid}/standings", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.headers["etag"] == etag
    assert anon.get(f"/t/{tid}/standings", headers={"If-None-Match": '"other"'}).content \
        == first.content
    # the judge of table 1 saves and submits his protocol, the head judge confirms it
    code = next(g for g in world.demo.open_games if g.endswith("-t1"))
    protocol = json.loads(json.dumps(game_to_dict(world.open_game(1)), default=float))
    rev = judge.get(f"/api/t/{tid}/games/{code}").json()["revision"]
    h = {"X-CSRF-Token": csrf_of(judge), "content-type": "application/json"}
    saved = judge.put(f"/api/t/{tid}/games/{code}/draft", headers=h,
                      content=json.dumps({"base_revision": rev, "protocol": protocol}))
    assert saved.status_code == 200, saved.text
    # a draft is private: the public's table is still the kept one
    assert anon.get(f"/t/{tid}/standings", headers={"If-None-Match": etag}).status_code == 304
    sub = judge.post(f"/api/t/{tid}/games/{code}/submit", headers=h,
                     json={"base_revision": saved.json()["revision"]})
    assert sub.status_code == 200, sub.text
    done = head.post(f"/api/t/{tid}/games/{code}/confirm",
                     headers={"X-CSRF-Token": csrf_of(head)},
                     json={"base_revision": sub.json()["revision"]})
    assert done.status_code == 200, done.text
    after = anon.get(f"/t/{tid}/standings", headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.headers["etag"] != etag
    assert after.content != first.content
    # and the page a new phone opens has the new table too
    table = after.text.strip()
    assert table[:200] in client_for("anon").get(f"/t/{tid}").text


def test_a_password_being_hashed_holds_up_no_other_request(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    """Every hashing slot of the server held (as by other processes' hashes): a sign-in
    waits for one, and meanwhile the public's poll, the page, and a staff reader's table
    are answered; then the sign-in goes through."""
    tid = world.demo.tournament
    head = client_for("headjudge")
    signer = client_for("anon")
    app = signer.app
    engine = make_engine(str(world.db))
    slots = SharedSlots(engine, HASH_SLOTS)
    held = [slots.try_take() for _ in range(HASH_SLOTS)]
    assert all(held)
    gate = app.state.hash_gate  # type: ignore[attr-defined]
    answer: list[int] = []

    def sign_in() -> None:
        csrf = csrf_of(signer)
        answer.append(signer.post("/api/login", json={"user": "judge2", "password": DEMO_PASSWORD},
                                  headers={"X-CSRF-Token": csrf}).status_code)

    t = threading.Thread(target=sign_in)
    t.start()
    try:
        # the sign-in is in the hash: it holds the gate's slot and waits for a server's one
        for _ in range(600):
            if gate.in_use:
                break
            t.join(0.05)
        assert gate.in_use == 1 and not answer
        other = client_for("anon")
        assert other.get(f"/t/{tid}/standings").status_code == 200
        assert other.get(f"/t/{tid}").status_code == 200
        assert head.get(f"/t/{tid}/standings").status_code == 200
        assert head.get(f"/api/t/{tid}/standings").status_code == 200
        assert not answer  # all of it while the hash was still waiting
    finally:
        for h in held:
            if h is not None:
                h.release()
        t.join(60)
        engine.dispose()
    assert answer == [200]
