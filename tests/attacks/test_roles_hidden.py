"""Roles hidden from every path: until a game is over, nothing a non-staff viewer can open
carries a role, a check (the don's, the sheriff's) or a night action of it.

Every GET route of the built app (enumerated as tests/attacks/test_every_route.py does,
event streams included, read up to their first event) is opened for a live game of the
demo (dealt, a day and a night played, both checks made) by a visitor who is not signed
in and by a player of that very table (signed in with his code), with the standings
public, without a roles delay, and with a one-minute delay that has long passed.

What is looked for: the role words of both languages (texts/core.py ROLE, glossary.md:
«шериф», «дон», «мафия», «мирный», «чёрный», «красный», "sheriff", "don", "mafia",
"civilian", "black", "red"), the checks' codes and a non-empty list of checks. Generic
words of the pages (a column «Д/Ш», the colour "--red" of the overlay's style) are there
before the deal too, so each response is compared with the same path's response before
the deal: any such word that appears more often once the roles are dealt is a leak.

The detector is shown to work on the one path that must carry the roles: the streamer's
keyed overlay once the delay has passed.

On main the keyless overlay (page, JSON and stream) showed every role and both checks
once the delay had passed: the delay applied to anyone who could watch, and with the
standings public anyone can."""

from __future__ import annotations

import datetime as dt
import json
import re
import zipfile
from collections import Counter
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from mafiatab.domain.words import ROLE
from mafiatab.services.facade import Services
from mafiatab.storage import models as db
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD, ORGANIZER_NAME
from tests.attacks.conftest import RELAXED, World
from tests.attacks.test_every_route import routes_of
from tests.exports.test_exports import pdf_text
from tests.helpers import serving

ROLES = ["red", "red", "don", "red", "black", "red", "sheriff", "red", "black", "red"]
#: paths no viewer's content comes from (they sign in or out, or change the language)
SKIP = ("/logout", "/api/logout", "/logout/everywhere", "/api/logout/everywhere",
        "/lang/{lang}", "/c/{code}", "/login", "/code")


def _role_words() -> list[str]:
    words = {"шериф", "дон", "мафия", "мирный", "чёрный", "черный", "красный", "sheriff", "don",
             "mafia", "civilian", "black", "red"}
    for ru, en in ROLE.values():
        words.update(w for w in re.findall(r"\w+", f"{ru} {en}".lower()) if len(w) > 2)
    return sorted(words)


#: a role word in any of its forms (шериф, шерифа, чёрные ...), or a check's code
SECRET = re.compile(
    r"(?<!\w)(?:" + "|".join(re.escape(w[:-2] if len(w) > 5 and w[-2:] in ("ый", "ий", "ия")
                                       else w) + r"\w{0,3}" for w in _role_words())
    + r"|don_check|sheriff_check)(?!\w)|\"checks\":\s*\[\s*\{", re.IGNORECASE)


def secrets_in(text: str) -> Counter[str]:
    return Counter(m.group(0).lower() for m in SECRET.finditer(text))


def text_of(r: httpx.Response, tmp: Path) -> str:
    kind = r.headers.get("content-type", "")
    if "pdf" in kind:
        return pdf_text(r.content, tmp)
    if "spreadsheet" in kind:
        with zipfile.ZipFile(BytesIO(r.content)) as z:
            return "\n".join(z.read(n).decode("utf-8", "replace") for n in z.namelist()
                             if n.endswith(".xml"))
    if kind.startswith("image/") and "svg" not in kind:
        return ""
    return r.text


@pytest.fixture(scope="module")
def server(world: World) -> Iterator[tuple[str, Any]]:
    app = create_app(str(world.db), secret="roles-test", limits=RELAXED)
    with serving(app) as base:
        yield base, app


def _client(base: str) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=httpx.Timeout(10, read=10))


def _csrf(c: httpx.Client) -> str:
    token: str = c.get("/api/session").json()["csrf"]
    return token


def _first_event(c: httpx.Client, url: str) -> tuple[int, str]:
    """A stream's status and its first event (the state at once), then closed."""
    lines: list[str] = []
    with c.stream("GET", url) as r:
        if r.status_code != 200:
            r.read()
            return r.status_code, r.text
        for line in r.iter_lines():
            if not line and any(x.startswith("data:") for x in lines):
                break
            lines.append(line)
    return 200, "\n".join(lines)


class Live:
    """The organizer at the table of the live game, talking to the live API."""

    def __init__(self, c: httpx.Client, tid: int, code: str) -> None:
        self.c = c
        self.url = f"/api/t/{tid}/games/{code}/live"
        self.h = {"X-CSRF-Token": _csrf(c)}
        self.n = 0

    def state(self) -> dict[str, Any]:
        r = self.c.get(self.url)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def send(self, **event: Any) -> dict[str, Any]:
        self.n += 1
        state = self.state()
        r = self.c.post(self.url, headers=self.h, json={
            "base_revision": state["revision"],
            "events": [{"id": f"op-{self.n}", "seq": state["seq"] + 1, "event": event}]})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def speeches(self, nominations: dict[int, int]) -> None:
        state = self.state()
        while state["step"] and "speech" in state["step"]["kinds"] and state["step"]["seat"]:
            seat = state["step"]["seat"]
            event: dict[str, Any] = {"type": "speech", "seat": seat}
            if seat in nominations:
                event["nominates"] = nominations[seat]
            state = self.send(**event)


def _paths(router: Any, world: World, code: str, seated: list[str],
           persons: list[int]) -> list[str]:
    """Every GET path of the app, its ids filled for the live game: the seated players
    (on the people pages, their persons)."""
    out: set[str] = {f"/t/{world.a}/overlay/{code}?key=wrong",
                     f"/t/{world.a}/overlay/{code}/state?lang=en"}
    for path, route in routes_of(router):
        if "GET" not in (route.methods or set()) or path in SKIP:
            continue
        people = path.startswith(("/people", "/api/people"))
        fill = {"tid": [str(world.a)], "code": [code],
                "pid": [str(n) for n in persons] if people else seated}
        found = [path]
        for name in re.findall(r"{(\w+)(?::\w+)?}", path):
            found = [re.sub(r"{" + name + r"(?::\w+)?}", value, p)
                     for p in found for value in fill.get(name, ["1"])]
        out.update(found)
    return sorted(out)


def _sweep(c: httpx.Client, paths: list[str], tmp: Path) -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {}
    for path in paths:
        if path.split("?")[0].endswith("/events"):
            status, text = _first_event(c, path)
        else:
            r = c.get(path)
            status, text = r.status_code, text_of(r, tmp) if r.status_code == 200 else ""
        assert status < 500, (path, status, text[:300])
        out[path] = secrets_in(text) if status == 200 else Counter()
    return out


def _leaks(before: dict[str, Counter[str]], after: dict[str, Counter[str]]) -> list[str]:
    return [f"{path}: {dict(after[path] - before[path])}" for path in after
            if after[path] - before[path]]


def test_no_public_path_carries_a_role_of_a_live_game(server: tuple[str, Any], world: World,
                                                       tmp_path: Path) -> None:
    base, app = server
    svc: Services = app.state.services
    tid, code = world.a, world.demo.open_games[0]
    org = _client(base)
    r = org.post("/api/login", json={"user": ORGANIZER_NAME, "password": DEMO_PASSWORD},
                 headers={"X-CSRF-Token": _csrf(org)})
    assert r.status_code == 200, r.text
    assert not svc.access.visibility(tid).standings_hidden  # the keyless overlay is open
    seated = [s["player"] for s in org.get(f"/api/t/{tid}/games/{code}").json()
              ["protocol"]["seats"]]
    assert len(seated) == 10
    _account, player_code = svc.appeals.player_code(tid, seated[3], actor=ORGANIZER_NAME)
    player = _client(base)
    r = player.post("/login/code", data={"code": player_code, "csrf": _csrf(player)})
    assert player.get("/api/session").json()["user"] == _account, r.text
    anon = _client(base)
    key = svc.screens.make_overlay_key(tid, actor=ORGANIZER_NAME)
    with svc.store.read() as s:
        persons = list(s.scalars(select(db.Participant.player_id).where(
            db.Participant.tournament_id == tid, db.Participant.code.in_(seated))))
    assert len(persons) == 10
    paths = _paths(app.router, world, code, seated, persons)
    assert len(paths) > 100
    viewers = {"signed out": anon, "player of the table": player}
    before = {who: _sweep(c, paths, tmp_path) for who, c in viewers.items()}
    keyed = f"/t/{tid}/overlay/{code}/state?key={key}"
    keyed_before = _sweep(anon, [keyed], tmp_path)

    live = Live(org, tid, code)
    live.send(type="deal", roles=ROLES)
    live.speeches({1: 5, 2: 9})
    live.send(type="vote", votes={"5": [1, 2, 3, 4, 6, 7], "9": [5, 8]})
    live.send(type="last_words", seat=5)
    live.send(type="shot", target=1)
    live.send(type="don_check", target=7)
    live.send(type="sheriff_check", target=3)
    live.send(type="best_move", seat=1, seats=[3, 9])
    assert not live.state().get("ended")

    failures: list[str] = []
    try:
        for delay in (None, 60):
            svc.screens.set_roles_delay(tid, delay, actor=ORGANIZER_NAME)
            # a day later: any delay has long passed
            svc.screens.clock = lambda: dt.datetime.now(dt.UTC) + dt.timedelta(days=1)
            for who, c in viewers.items():
                failures += [f"delay {delay}, {who}: {x}"
                             for x in _leaks(before[who], _sweep(c, paths, tmp_path))]
            shown = _leaks(keyed_before, _sweep(anon, [keyed], tmp_path))
            # the streamer's keyed link: the roles once the delay has passed, not before
            assert bool(shown) == (delay is not None), (delay, shown)
        # the detector sees what the keyed link shows: every role and both checks
        state = anon.get(keyed).json()
        assert [s["role"] for s in state["seats"]] == ROLES
        assert secrets_in(json.dumps(state, ensure_ascii=False))["don_check"] == 1
        # ... and it is the key that shows them: revoked, the link shows none
        svc.screens.revoke_overlay_key(tid, actor=ORGANIZER_NAME)
        state = anon.get(keyed).json()
        if [s["role"] for s in state["seats"]] != [None] * 10 or state["checks"]:
            failures.append(f"revoked key, standings public: {state['seats']}")
    finally:
        svc.screens.clock = lambda: dt.datetime.now(dt.UTC)
    assert not failures, "\n".join(failures)
