"""A stream that rests on a session ends when the session does, within a second, on a
real server on loopback: the head judge's standings stream (staff's "re-read") and the
judge's live stream of a game are open; "sign out everywhere" from another phone ends
both at once, with nothing else changing in the tournament. On main they stayed open
until the tournament's next change (each was checked only before an event).

Each step waits for a state (the stream's first event, its end), with generous bounds;
the end's delay is measured from the sign-out's answer."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator

import pytest

from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from tests.web.conftest import World
from tests.web.test_browser import live  # noqa: F401 (the fixture)
from tests.web.test_overlay_push import Listener, Staff

#: how long the end of a stream may take after its session's (seconds): "within a
#: second", with room for a loaded machine
PROMPT = 3.0


def _next(listener: Listener, timeout: float = 30) -> tuple[str, str, float]:
    try:
        return listener.events.get(timeout=timeout)
    except queue.Empty:
        raise AssertionError(f"nothing on the stream in {timeout} s") from None


@pytest.fixture
def head(live: tuple[str, World]) -> Iterator[Staff]:  # noqa: F811 - the fixture
    staff = Staff(live[0], "headjudge")
    yield staff
    staff.c.close()


def test_signing_out_everywhere_ends_the_sessions_streams_at_once(
        live: tuple[str, World], head: Staff) -> None:  # noqa: F811 - the fixture
    base, world = live
    tid, code = world.demo.tournament, world.demo.open_games[0]
    streams = [Listener(f"{base}/t/{tid}/standings/events", cookies=head.c.cookies),
               Listener(f"{base}/api/t/{tid}/games/{code}/live/events", cookies=head.c.cookies)]
    for s in streams:
        assert s.status == 200
        event, _data, _at = _next(s)  # the state now: the stream is up
        assert event not in ("gone", "closed"), event
    other = Staff(base, "headjudge")  # her other phone
    signed_out = time.perf_counter()
    try:
        other.call("POST", "/api/logout/everywhere")
    finally:
        other.c.close()
    took = []
    for s in streams:
        event, _data, at = _next(s)
        while event not in ("gone", "closed"):  # an update made before the sign-out
            event, _data, at = _next(s)
        took.append(at - signed_out)
    print(f"\nstreams ended {', '.join(f'{t:.3f}' for t in took)} s after the sign-out")
    assert max(took) < PROMPT, took
    # and the session is gone for the next request too
    assert head.c.get(f"/api/t/{tid}/games/{code}/live/events").status_code in (401, 403)


def test_a_session_ended_by_another_process_ends_its_stream_within_a_tick(
        live: tuple[str, World], head: Staff) -> None:  # noqa: F811 - the fixture
    """The sessions ended on the database by another process (the CLI, another server
    of `--workers`): no write of this process wakes its hub, its tick (a second) finds
    the session gone."""
    base, world = live
    tid = world.demo.tournament
    stream = Listener(f"{base}/t/{tid}/standings/events", cookies=head.c.cookies)
    assert stream.status == 200
    assert _next(stream)[0] not in ("gone", "closed")
    engine = make_engine(str(world.db))
    try:
        ended = time.perf_counter()
        assert Services(engine).accounts.end_all_sessions("headjudge") >= 1
    finally:
        engine.dispose()
    event, _data, at = _next(stream)
    assert event in ("gone", "closed"), event
    print(f"\nthe stream ended {at - ended:.3f} s after the sessions were deleted elsewhere")
    assert at - ended < 1.0 + PROMPT
