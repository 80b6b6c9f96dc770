"""The screens' boot data against the HTML parser.

The hall's screen, the overlay and the live screen carry their first state as JSON in a
`<script type="application/json">`. On main only "</" was escaped there, so a staff
text with "<!--<script>" (an announcement, a nickname) put Chromium's parser in the
"double escaped" state: the real `</script>` no longer closed the element, the rest of
the page became JSON, and the hall's screen went blank (checked in Chromium: a JSON error,
no text on the page). Every "<" is written as \\u003c now."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from fastapi.testclient import TestClient

from mafiatab.web.demo import ORGANIZER_NAME
from tests.attacks.conftest import World, csrf_of

TRAP = "<!--<script>"


def boots(html: str) -> list[str]:
    return re.findall(r'<script type="application/json" id="[\w-]+">(.*?)</script>', html, re.S)


def test_no_text_breaks_a_screens_boot_data(client_as: Callable[[str], TestClient],
                                            world: World) -> None:
    org = client_as(ORGANIZER_NAME)
    h = {"X-CSRF-Token": csrf_of(org)}
    assert org.post(f"/api/t/{world.a}/screens", json={"announcements": TRAP},
                    headers=h).status_code == 200
    game = world.demo.open_games[0]
    player = next(s["player"] for s in org.get(f"/api/t/{world.a}/games/{game}").json()
                  ["protocol"]["seats"])
    assert org.post(f"/api/t/{world.a}/players/{player}", json={"nickname": f"N{TRAP}"},
                    headers=h).status_code == 200
    judge = client_as("judge1")
    pages = [(org, f"/t/{world.a}/hall"), (org, f"/t/{world.a}/overlay/{game}"),
             (judge, f"/t/{world.a}/games/{game}/live")]
    for c, url in pages:
        r = c.get(url)
        assert r.status_code == 200, url
        found = boots(r.text)
        assert len(found) == 1, url
        assert "<" not in found[0], url  # main: "<!--<script>" as it was typed
        assert TRAP in json.dumps(json.loads(found[0]), ensure_ascii=False), url
