"""Every route of the app, the pages' forms included (the hypothesis fuzz of tests/web reads
only the OpenAPI document, which leaves out the pages, the check-in, the player's page,
the teams, the people pages and the screens), called as the organizer with odd path ids
and odd form fields, in A and in B: never a server error.

On main this found "²" (a superscript two, which `str.isdigit()` takes for a digit and
`int()` refuses) giving 500 on the confirm and return forms (`base`), the merge form
(`other`), the rating settings (`unrated`, `elite`), the anonymous "what if" table
(`person`) and a protocol draft's `fouls` keys (the tournament file's reader), and any
base revision but digits ("x", "²") on the protocol form's autosave and submit."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from mafiatab.web.demo import DEMO_PASSWORD, ORGANIZER_NAME
from tests.attacks.conftest import World, csrf_of

#: signing out or changing the password would end the sweep's own session; streams never end
SKIP = ("/logout", "/api/logout", "/logout/everywhere", "/api/logout/everywhere",
        "/account/password", "/api/account/password")
PATH_VALUES = ["0", "-1", "99999999999999999999999", "²", "%2F..", "x" * 300, "финал",
               "qual-r3-t1", "p001", "A1", " "]
FIELD_VALUES = ["", "1", "-1", "99999999999999999999", "²", "x" * 20_000, "qual", "p001",
                "<script>", "=1+1", "\x00", "on", "3", "Europe/Moscow", "javascript:alert(1)"]
FIELDS = ["stage", "round", "absent", "reserve", "present", "teams", "nickname", "club",
          "players", "rules", "url", "offset", "time_zone", "announcements", "roles_delay",
          "other", "reason", "game", "judge", "seed", "name", "user", "password", "code",
          "next", "games", "tables", "key", "action", "text", "base", "person", "role",
          "unrated", "elite", "back", "round", "stages", "seating", "delay_minutes"]


def routes_of(router: Any, prefix: str = "") -> Iterator[tuple[str, APIRoute]]:
    """Every route of the app, through the included routers."""
    for r in router.routes:
        if isinstance(r, APIRoute):
            yield prefix + r.path, r
        elif hasattr(r, "original_router"):
            ctx = getattr(r, "include_context", None)
            yield from routes_of(r.original_router, prefix + (getattr(ctx, "prefix", "") or ""))


def test_no_route_answers_a_server_error(app: Any, world: World) -> None:
    c = TestClient(app, base_url="http://testserver", raise_server_exceptions=False)
    r = c.post("/api/login", json={"user": ORGANIZER_NAME, "password": DEMO_PASSWORD},
               headers={"X-CSRF-Token": csrf_of(c)})
    csrf = r.json()["csrf"]
    rng = random.Random(2026)
    routes = sorted({(m, p) for p, r in routes_of(app.router) for m in r.methods
                     if m != "HEAD" and p not in SKIP and not p.endswith("/events")})
    assert len(routes) > 150  # the pages and the API, not only the OpenAPI document
    failures: list[tuple[str, str, int, str]] = []
    sent = 0
    for method, template in routes:
        for k in range(4):
            path = template
            for name in re.findall(r"{(\w+)}", template):
                value = (str(world.a) if k % 2 == 0 else str(world.b)) if name == "tid" \
                    else rng.choice(PATH_VALUES)
                path = path.replace("{" + name + "}", value)
            fields = {f: rng.choice(FIELD_VALUES) for f in rng.sample(FIELDS, 6)}
            if method == "GET":
                r = c.get(path, params=dict(list(fields.items())[:2]))
            elif path.startswith("/api"):
                r = c.request(method, path, json=fields, headers={"X-CSRF-Token": csrf})
            else:
                r = c.request(method, path, data={**fields, "csrf": csrf},
                              follow_redirects=False)
            sent += 1
            if r.status_code >= 500:
                failures.append((method, path[:80], r.status_code, r.text[:120]))
            if "/seating/generate" in path and r.status_code < 300:  # stop a search at once
                c.post(path.replace("generate", "cancel"), data={"csrf": csrf},
                       headers={"X-CSRF-Token": csrf})
    assert sent > 600
    assert failures == []


def test_superscript_digits_are_no_numbers(client_as: Callable[[str], TestClient],
                                           world: World) -> None:
    org = client_as(ORGANIZER_NAME)
    org_csrf = csrf_of(org)
    game = world.demo.open_games[1]

    def form(c: TestClient, path: str, data: dict[str, Any]) -> int:
        r = c.post(path, data={**data, "csrf": csrf_of(c)}, follow_redirects=False)
        return r.status_code

    assert form(org, f"/t/{world.a}/games/{game}/draft", {"base": "²"}) < 500
    assert form(org, f"/t/{world.a}/games/{game}/submit", {"base": "x"}) < 500
    assert form(org, f"/t/{world.a}/games/{game}/confirm", {"base": "²"}) < 500
    assert form(org, f"/t/{world.a}/games/{game}/return", {"base": "²", "reason": "x"}) < 500
    assert form(org, "/people/1/merge", {"other": "²"}) == 422
    assert form(org, "/rating/settings", {"unrated": "²", "elite": "³"}) < 500
    anon = client_as("anon")
    assert form(anon, "/rating/what-if", {"person": ["²"] * 10, "role": ["red"] * 10,
                                          "rules": "fsm"}) < 500
    head = org.get(f"/api/t/{world.a}/games/{game}").json()
    sent = dict(head["protocol"], fouls={"²": 1})
    r = org.put(f"/api/t/{world.a}/games/{game}/draft",
                json={"protocol": sent, "base_revision": head["revision"]},
                headers={"X-CSRF-Token": org_csrf})
    assert r.status_code == 422, r.text
