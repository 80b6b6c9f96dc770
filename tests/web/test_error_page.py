"""The error page's links: real links, since the app's CSP blocks `javascript:` URLs (on
main "Back" was `javascript:history.back()`, a dead link under the CSP)."""

from __future__ import annotations

import re
from collections.abc import Callable

from fastapi.testclient import TestClient

from tests.web.conftest import World


def _links(html: str) -> list[str]:
    block = html.split('id="error-links"', 1)[1].split("</p>", 1)[0]
    return re.findall(r'href="([^"]*)"', block)


def test_back_goes_to_the_tournaments_page(client_for: Callable[[str], TestClient],
                                           world: World) -> None:
    tid = world.demo.tournament
    viewer = client_for("viewer")
    r = viewer.get(f"/t/{tid}/seating")  # the seating desk is the staff's: refused
    assert r.status_code == 403
    assert "javascript:" not in r.text
    assert _links(r.text) == [f"/t/{tid}", "/"]


def test_no_back_link_to_a_page_that_is_not_there(client_for: Callable[[str], TestClient],
                                                  world: World) -> None:
    anon = client_for("anon")
    for path in ("/t/999999/seating/nothing", "/no-such-page"):
        r = anon.get(path)
        assert r.status_code == 404, path
        assert "javascript:" not in r.text
        assert _links(r.text) == ["/"], path
