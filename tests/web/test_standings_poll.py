"""The public standings poll: served from memory with an ETag, and fresh after a change."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from tests.web.conftest import World, csrf_of


def test_poll_answers_304_until_something_changes(world: World,
                                                  client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    anon, head = client_for("anon"), client_for("headjudge")
    first = anon.get(f"/t/{tid}/standings")
    assert first.status_code == 200 and first.headers["etag"]
    etag = first.headers["etag"]
    again = anon.get(f"/t/{tid}/standings", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    # a change written through the app shows on the very next poll (no stale second)
    h = {"X-CSRF-Token": csrf_of(head)}
    assert head.post(f"/api/t/{tid}/options", json={"standings_hidden": True},
                     headers=h).status_code == 200
    hidden = anon.get(f"/t/{tid}/standings", headers={"If-None-Match": etag})
    assert hidden.status_code == 200 and hidden.headers["etag"] != etag
    head.post(f"/api/t/{tid}/options", json={}, headers=h)
    shown = anon.get(f"/t/{tid}/standings")
    assert shown.status_code == 200 and shown.content == first.content


def test_staff_poll_is_never_the_public_copy(world: World,
                                             client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    head = client_for("headjudge")
    h = {"X-CSRF-Token": csrf_of(head)}
    head.post(f"/api/t/{tid}/options", json={"standings_hidden": True}, headers=h)
    try:
        public = client_for("anon").get(f"/t/{tid}/standings").text
        staff = head.get(f"/t/{tid}/standings").text
        assert staff != public and "etag" not in {k.lower() for k in head.get(
            f"/t/{tid}/standings").headers}
    finally:
        head.post(f"/api/t/{tid}/options", json={}, headers=h)
