"""Every route × every role: who may call what.

The table below names, for each route of the app, the roles allowed; the test calls each
route as each role (with a valid CSRF token, so only the role decides) and checks that an
allowed role is not refused (401/403 or a redirect to the sign-in page) and that every
other role is. A route added to the app without a line here fails `test_every_route_listed`.

The whole matrix runs against the built app on SQLite; on PostgreSQL (a fresh schema of its
own) every route is called by its nearest pair of roles, the least privileged one allowed and
the most privileged one refused: the refusals come from the services' transactions, the same
code on both backends, so the pair shows each backend's transaction reaching its decision
without calling every route 7 times twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from mafiatab.web.app import create_app
from tests.storage.conftest import BACKENDS, pg_schema
from tests.web.conftest import ROLES, World, csrf_of, make_world

ALL = frozenset(ROLES)
SIGNED = ALL - {"anon"}
STAFF = frozenset({"headjudge", "organizer"})
EDIT = STAFF | {"judge1"}  # judge1 is the judge of the open table 1; judge2 is not
JUDGES = STAFF | {"judge1", "judge2"}
ORG = frozenset({"organizer"})
# the appeals: player1 filed the open case on judge1's round-1 game
INVOLVED = JUDGES | {"player1"}
FILERS = STAFF | {"player1"}
THREAD = STAFF | {"judge1", "player1"}
WRITERS = frozenset({"headjudge", "judge1", "player1"})

# the seating (bodies refused for their content -- no seating yet, an impossible
# request, a round that does not exist -- so that no search runs)
SEATING_ROUTES: list[tuple[str, str, frozenset[str], dict[str, Any] | None]] = [
    ("GET", "/t/{tid}/seating", STAFF, None),
    ("GET", "/t/{tid}/seating/status", STAFF, None),
    ("POST", "/t/{tid}/seating/generate", STAFF, {"games": "1", "tables": "7"}),
    ("POST", "/t/{tid}/seating/publish", STAFF, {"round": "99"}),
    ("POST", "/t/{tid}/seating/cancel", STAFF, {}),
    ("GET", "/t/{tid}/seating/print", STAFF, None),
    ("GET", "/t/{tid}/seating/download", STAFF, None),
    ("POST", "/api/t/{tid}/seating/generate", STAFF, {"games": 1, "tables": 7}),
    ("GET", "/api/t/{tid}/seating/status", STAFF, None),
    ("GET", "/api/t/{tid}/seating", STAFF, None),
    ("POST", "/api/t/{tid}/seating/publish", STAFF, {"round": 99}),
    ("POST", "/api/t/{tid}/seating/cancel", STAFF, None),
    ("POST", "/t/{tid}/seating/swap", STAFF, {"round": "99", "first": "p1", "second": "p2"}),
    ("POST", "/api/t/{tid}/seating/swap", STAFF, {"round": 99, "first": "p1", "second": "p2"}),
]

# (method, path, allowed roles, form or json body)
OPEN = "{open}"
ROUTES: list[tuple[str, str, frozenset[str], dict[str, Any] | None]] = [
    ("GET", "/", ALL, None),
    ("GET", "/lang/{lang}", ALL, None),
    ("GET", "/login", ALL, None),
    ("POST", "/login", ALL, {"user": "nobody", "password": "wrong"}),
    ("POST", "/login/code", ALL, {"code": "NOPE"}),
    ("POST", "/logout", ALL, {}),
    ("GET", "/t/{tid}", ALL, None),
    ("GET", "/t/{tid}/standings", ALL, None),
    ("GET", "/t/{tid}/games/{code}", ALL, None),
    ("GET", "/t/{tid}/players/{pid}", ALL, None),
    ("GET", "/t/{tid}/judge", JUDGES, None),
    ("GET", "/t/{tid}/games/{code}/edit", EDIT, None),
    ("POST", "/t/{tid}/games/{code}/check", EDIT, {"base": "1"}),
    ("POST", "/t/{tid}/games/{code}/draft", EDIT, {"base": "1"}),
    ("POST", "/t/{tid}/games/{code}/submit", EDIT, {"base": "1"}),
    # the form's saves queued on the phone; the installable app's worker and manifest
    ("POST", "/t/{tid}/games/{code}/queued", EDIT,
     {"base": "1", "queue_id": "access-test", "action": "draft"}),
    ("GET", "/sw.js", ALL, None),
    ("GET", "/manifest.webmanifest", ALL, None),
    ("GET", "/t/{tid}/games/{code}/replace", EDIT, None),
    ("POST", "/t/{tid}/games/{code}/replace", EDIT, {"seat": "1", "player": "", "reason": ""}),
    ("GET", "/t/{tid}/manage", STAFF, None),
    ("POST", "/t/{tid}/games/{code}/confirm", STAFF, {}),
    ("POST", "/t/{tid}/games/{code}/return", STAFF, {"reason": "test"}),
    ("POST", "/t/{tid}/games/{code}/correct", STAFF, {"base": "1", "correction_reason": ""}),
    ("POST", "/t/{tid}/setup/four-eyes", ORG, {}),
    ("POST", "/t/{tid}/manage/options", STAFF, {}),
    ("POST", "/t/{tid}/manage/lots", STAFF, {"seed": ""}),
    ("POST", "/t/{tid}/manage/lots/redraw", STAFF, {"seed": "", "reason": ""}),
    ("GET", "/t/{tid}/setup", STAFF, None),
    ("POST", "/t/{tid}/setup/players", ORG, {"players": ""}),
    # set-up: rules, a player's correction, the judges' codes and blanks, accounts
    ("POST", "/t/{tid}/setup/rules", STAFF, {"rules": ""}),
    ("POST", "/t/{tid}/setup/players/{pid}", STAFF, {"nickname": ""}),
    ("POST", "/t/{tid}/setup/round-codes", STAFF, {"round": ""}),
    ("POST", "/t/{tid}/setup/blank.pdf", STAFF, {"round": ""}),
    ("GET", "/admin/accounts", ORG, None),
    ("GET", "/c/{code}", ALL, None),
    ("POST", "/api/t/{tid}/players/paste", ORG, {"text": ""}),
    ("POST", "/api/t/{tid}/players/{pid}", STAFF, {}),
    ("POST", "/api/t/{tid}/rules", STAFF, {"rules": "nope"}),
    ("GET", "/api/t/{tid}/setup/steps", STAFF, None),
    ("POST", "/admin/accounts/reset", ORG, {"user": "", "password": ""}),
    ("POST", "/admin/accounts/rights", ORG, {"user": "nobody-at-all"}),
    ("POST", "/t/{tid}/setup/stages", STAFF, {"stages": ""}),
    ("POST", "/t/{tid}/setup/seating", STAFF, {"seating": ""}),
    ("POST", "/t/{tid}/setup/seating-file", STAFF, {}),
    ("POST", "/t/{tid}/setup/staff", STAFF, {"user": ""}),
    ("POST", "/t/{tid}/setup/assign", STAFF, {"game": "nope", "judge": "x"}),
    ("GET", "/t/{tid}/audit", STAFF, None),
    ("POST", "/new", ORG, {"name": ""}),
    ("POST", "/import", ORG, {}),
    ("POST", "/logout/everywhere", SIGNED, {}),
    ("POST", "/account/password", SIGNED, {"old": "", "new": ""}),
    ("POST", "/t/{tid}/setup/codes/{cid}/revoke", STAFF, {}),
    ("GET", "/api/session", ALL, None),
    ("POST", "/api/login", ALL, {"user": "nobody", "password": "wrong"}),
    ("POST", "/api/logout", ALL, {}),
    ("GET", "/api/tournaments", ALL, None),
    ("POST", "/api/tournaments", ORG, {"name": "x", "rules": "nope"}),
    ("POST", "/api/logout/everywhere", SIGNED, {}),
    ("POST", "/api/account/password", SIGNED, {"old": "", "new": ""}),
    ("POST", "/api/organizers", ORG, {"user": "nobody-at-all"}),
    ("POST", "/api/admin/rights", ORG, {"user": "nobody-at-all", "admin": True}),
    ("DELETE", "/api/t/{tid}/staff", STAFF, {"user": "nobody-at-all", "role": "viewer"}),
    ("GET", "/api/t/{tid}/codes", STAFF, None),
    ("DELETE", "/api/t/{tid}/codes/{cid}", STAFF, None),
    ("GET", "/api/t/{tid}/standings", ALL, None),
    ("GET", "/api/t/{tid}/players/{pid}", ALL, None),
    ("GET", "/api/t/{tid}/games", ALL, None),
    ("GET", "/api/t/{tid}/games/{code}", ALL, None),
    ("POST", "/api/t/{tid}/games/{code}/check", EDIT, {"base_revision": 1, "protocol": {}}),
    ("PUT", "/api/t/{tid}/games/{code}/draft", EDIT, {"base_revision": 1, "protocol": {}}),
    ("POST", "/api/t/{tid}/games/{code}/submit", EDIT, {"base_revision": 0}),
    ("POST", "/api/t/{tid}/games/{code}/confirm", STAFF, {}),
    ("POST", "/api/t/{tid}/games/{code}/return", STAFF, {"reason": "x"}),
    ("POST", "/api/t/{tid}/games/{code}/correct", STAFF,
     {"base_revision": 1, "protocol": {}, "reason": "x"}),
    ("PUT", "/api/t/{tid}/four-eyes", ORG, {"on": False}),
    ("GET", "/api/t/{tid}/four-eyes", STAFF, None),
    ("POST", "/api/t/{tid}/players", ORG, {"players": []}),
    ("POST", "/api/t/{tid}/seating", STAFF,
     {"stage": "nope", "round": 1, "table": 9, "players": [f"x{i}" for i in range(10)]}),
    ("POST", "/api/t/{tid}/options", STAFF, {}),
    ("POST", "/api/t/{tid}/staff", STAFF, {"user": "x", "role": "bogus"}),
    ("POST", "/api/t/{tid}/assign", STAFF, {"game": "nope", "judge": "x"}),
    ("POST", "/api/t/{tid}/lots", STAFF, {"seed": "s"}),
    ("GET", "/api/t/{tid}/lots", STAFF, None),
    ("POST", "/api/t/{tid}/lots/redraw", STAFF, {"seed": "s", "reason": "r"}),
    ("GET", "/api/t/{tid}/audit", STAFF, None),
    ("GET", "/t/{tid}/games/{code}/live", EDIT, None),
    ("GET", "/api/t/{tid}/games/{code}/live", EDIT, None),
    ("POST", "/api/t/{tid}/games/{code}/live", EDIT, {"base_revision": 1, "events": []}),
    ("GET", "/t/{tid}/appeals", INVOLVED, None),
    ("GET", "/t/{tid}/games/{code}/appeal", FILERS, None),
    ("POST", "/t/{tid}/games/{code}/appeal", FILERS, {}),
    ("GET", "/t/{tid}/appeals/{case}", THREAD, None),
    ("POST", "/t/{tid}/appeals/{case}/messages", WRITERS, {"text": ""}),
    ("POST", "/t/{tid}/appeals/{case}/withdraw", frozenset({"player1"}), {}),
    ("POST", "/t/{tid}/appeals/{case}/decision", frozenset({"headjudge"}), {}),
    ("POST", "/t/{tid}/appeals-schedule", STAFF, {"schedule": ""}),
    ("POST", "/t/{tid}/appeals-players", STAFF, {"player": ""}),
    ("POST", "/t/{tid}/games/{code}/ended", EDIT, {"ended": ""}),
    ("GET", "/t/{tid}/charts/roles.svg", ALL, None),
    ("GET", "/t/{tid}/charts/seats.svg", ALL, None),
    ("GET", "/t/{tid}/players/{pid}/places.svg", ALL, None),
    ("GET", "/t/{tid}/export/standings.xlsx", ALL, None),
    ("GET", "/t/{tid}/export/standings.csv", ALL, None),
    ("GET", "/t/{tid}/export/standings.pdf", ALL, None),
    ("GET", "/t/{tid}/games/{code}/protocol.pdf", ALL, None),
    ("GET", "/t/{tid}/export/blank.pdf", JUDGES, None),
    ("GET", "/api/t/{tid}/appeals", INVOLVED, None),
    ("POST", "/api/t/{tid}/games/{code}/appeals", FILERS, {"kind": "appeal", "subject": "other"}),
    ("GET", "/api/t/{tid}/games/{code}/deadline", SIGNED, None),
    ("GET", "/api/t/{tid}/appeals/{case}", THREAD, None),
    ("POST", "/api/t/{tid}/appeals/{case}/messages", WRITERS, {"text": ""}),
    ("POST", "/api/t/{tid}/appeals/{case}/withdraw", frozenset({"player1"}), {}),
    ("POST", "/api/t/{tid}/appeals/{case}/decision", frozenset({"headjudge"}), {"outcome": "bogus"}),
    ("GET", "/api/t/{tid}/schedule", INVOLVED, None),
    ("PUT", "/api/t/{tid}/schedule", STAFF, {"rounds": "bad"}),
    ("PUT", "/api/t/{tid}/games/{code}/ended", EDIT, {"ended": "bad"}),
    ("POST", "/api/t/{tid}/player-access", STAFF, {"player": ""}),
    # the tournament's zone, the paper columns, a game's video and moments
    ("POST", "/t/{tid}/time-zone", STAFF, {"time_zone": ""}),
    ("GET", "/api/t/{tid}/time-zone", ALL, None),
    ("PUT", "/api/t/{tid}/time-zone", STAFF, {"time_zone": ""}),
    ("GET", "/t/{tid}/export/paper.csv", ALL, None),
    ("POST", "/t/{tid}/games/{code}/video", STAFF, {"url": "", "offset": "0"}),
    ("PUT", "/api/t/{tid}/games/{code}/video", STAFF, {"url": None}),
    ("GET", "/api/t/{tid}/games/{code}/moments", ALL, None),
    # players' photos ({pid} is not player1's own player: he may not change it;
    # his own photo is tests/day/test_photos.py's)
    ("POST", "/t/{tid}/players/{pid}/photo", STAFF, {}),
    ("POST", "/t/{tid}/players/{pid}/photo/remove", STAFF, {}),
    ("GET", "/t/{tid}/players/{pid}/photo.jpg", ALL, None),
    ("PUT", "/api/t/{tid}/players/{pid}/photo", STAFF, {}),
    ("DELETE", "/api/t/{tid}/players/{pid}/photo", STAFF, None),
]
# the day's desk, a player's own page, teams; the screens (overlay, hall);
# people and clubs, the rating. {pid} under /people is a person's number.
PLAYER = frozenset({"player1"})
DAY_ROUTES: list[tuple[str, str, frozenset[str], dict[str, Any] | None]] = [
    ("GET", "/t/{tid}/checkin", STAFF, None),
    ("POST", "/t/{tid}/checkin/player/{pid}", STAFF, {"present": "1"}),
    ("POST", "/t/{tid}/checkin/player/{pid}/code", STAFF, {}),
    ("POST", "/t/{tid}/checkin/replace", STAFF, {"stage": "nope", "round": "1"}),
    ("POST", "/t/{tid}/checkin/reseat", STAFF, {"stage": "nope", "round": "1"}),
    ("POST", "/t/{tid}/checkin/publish", STAFF, {"round": "99"}),
    ("POST", "/t/{tid}/checkin/key", STAFF, {}),
    ("GET", "/api/t/{tid}/checkin", STAFF, None),
    ("POST", "/api/t/{tid}/checkin/{pid}", STAFF, {"present": True}),
    # the desk's QR: others are asked for a player's code; player1's key is wrong (404)
    ("GET", "/t/{tid}/here/{key}", ALL, None),
    ("GET", "/code", ALL, None),
    ("POST", "/code", ALL, {"code": "NOPE"}),
    ("GET", "/t/{tid}/me", PLAYER, None),
    ("GET", "/t/{tid}/me/part", PLAYER, None),
    ("GET", "/t/{tid}/me/events", PLAYER, None),
    ("GET", "/api/t/{tid}/me", PLAYER, None),
    ("GET", "/t/{tid}/teams", ALL, None),
    ("POST", "/t/{tid}/teams", ORG, {"teams": "Север: nobody-here"}),
    ("GET", "/api/t/{tid}/teams", ALL, None),
    ("GET", "/t/{tid}/overlay/{code}", ALL, None),  # the standings are public in the demo
    ("GET", "/t/{tid}/overlay/{code}/state", ALL, None),
    ("GET", "/t/{tid}/overlay/{code}/events", ALL, None),
    ("GET", "/api/t/{tid}/games/{code}/live/events", EDIT, None),
    ("GET", "/t/{tid}/screens", STAFF, None),
    ("POST", "/t/{tid}/screens/overlay-key", STAFF, {}),
    ("POST", "/t/{tid}/screens/overlay-key/revoke", STAFF, {}),
    ("POST", "/t/{tid}/screens/settings", STAFF, {"roles_delay": "bad"}),
    ("POST", "/t/{tid}/screens/settings", STAFF, {}),  # nothing to set is refused too
    ("GET", "/api/t/{tid}/screens", STAFF, None),
    ("POST", "/api/t/{tid}/screens", STAFF, {}),
    ("POST", "/api/t/{tid}/screens/overlay-key", STAFF, None),
    ("DELETE", "/api/t/{tid}/screens/overlay-key", STAFF, None),
    ("GET", "/t/{tid}/hall", ALL, None),
    ("GET", "/t/{tid}/hall/state", ALL, None),
    ("GET", "/t/{tid}/hall/events", ALL, None),
    ("GET", "/t/{tid}/standings/events", ALL, None),
    ("GET", "/people", ALL, None),
    ("GET", "/people/{pid}", ALL, None),
    ("GET", "/people/{pid}/roles.svg", ALL, None),
    ("GET", "/people/{pid}/seats.svg", ALL, None),
    ("POST", "/people/{pid}/merge", ORG, {"other": "0"}),
    ("POST", "/people/merges/{mid}/split", ORG, {}),
    ("GET", "/clubs", ALL, None),
    ("GET", "/clubs/{name:path}", ALL, None),
    ("GET", "/rating", ALL, None),
    ("POST", "/rating/what-if", ALL, {}),
    ("POST", "/rating/settings", ORG, {"kind": "nope"}),
    ("GET", "/api/people/{pid}", ALL, None),
    ("GET", "/api/rating", ALL, None),
    # an operator's: health for anyone; metrics for no role at all (this machine or a
    # token only: tests/web/test_watch.py)
    ("GET", "/healthz", ALL, None),
    # the phone's engine (web/course_files.py): the pure core's source and the runtime's
    # list, as public as the static files
    ("GET", "/course/mafiatab-{digest}.zip", ALL, None),
    ("GET", "/course/worker.js", ALL, None),
    ("GET", "/course/files.json", ALL, None),
    ("GET", "/metrics", frozenset(), None),
    ("POST", "/api/people/{pid}/merge", ORG, {"other": 999_999}),
    ("POST", "/api/people/merges/{mid}/split", ORG, None),
]
#: sign-ups (public, or the staff's decisions) and the awards (the head judge names them)
REGISTER_ROUTES: list[tuple[str, str, frozenset[str], dict[str, Any] | None]] = [
    ("GET", "/t/{tid}/register", ALL, None),
    ("POST", "/t/{tid}/register", ALL, {"nickname": ""}),
    ("POST", "/t/{tid}/register/withdraw", ALL, {"registration": "999999", "key": "x"}),
    ("POST", "/t/{tid}/register/{rid}/{action}", STAFF, {}),
    ("POST", "/t/{tid}/register/promote", STAFF, {}),
    ("POST", "/t/{tid}/register/settings", STAFF, {"cap": ""}),
    ("GET", "/t/{tid}/awards", ALL, None),
    ("POST", "/t/{tid}/awards", frozenset({"headjudge"}), {"award": "nope"}),
    ("GET", "/api/t/{tid}/registrations", ALL, None),
    ("POST", "/api/t/{tid}/registrations", ALL, {"nickname": ""}),
    ("POST", "/api/t/{tid}/registrations/{rid}/withdraw", ALL, {"key": "x"}),
    ("POST", "/api/t/{tid}/registrations/{rid}/accept", STAFF, None),
    ("POST", "/api/t/{tid}/registrations/{rid}/decline", STAFF, None),
    ("DELETE", "/api/t/{tid}/registrations/{rid}", STAFF, None),
    ("POST", "/api/t/{tid}/registration/promote", STAFF, None),
    ("PUT", "/api/t/{tid}/registration", STAFF, {"open": False}),
    ("GET", "/api/t/{tid}/awards", ALL, None),
    ("PUT", "/api/t/{tid}/awards/{award}", frozenset({"headjudge"}), {"player": None}),
]
ROUTES += SEATING_ROUTES + DAY_ROUTES + REGISTER_ROUTES
#: server-sent event streams: an allowed role's stream never ends, so only the refusals
#: are checked here (tests/attacks/test_streams.py opens them on a real server)
STREAMS = frozenset(p for _m, p, _a, _b in ROUTES if p.endswith("/events"))
#: routes whose {code} is the open (seated, draft) game; others read a confirmed one
OPEN_GAME_ROUTES = ("edit", "check", "draft", "submit", "confirm", "return", "live",
                    "replace", "queued")
#: public routes: any answer but a refusal for want of a role (a wrong password is 401)
PUBLIC_WRITES = {"/login", "/login/code", "/api/login", "/code", "/t/{tid}/register",
                 "/t/{tid}/register/withdraw", "/api/t/{tid}/registrations",
                 "/api/t/{tid}/registrations/{rid}/withdraw"}


#: roles from the most to the least privileged, for PostgreSQL's pair of each route
BY_PRIVILEGE = ("organizer", "headjudge", "judge1", "judge2", "player1", "viewer", "anon")


def nearest_pair(allowed: frozenset[str]) -> list[str]:
    """The least privileged allowed role and the most privileged refused one: the boundary a
    rights check draws (all roles when every one is allowed or none is)."""
    yes = [r for r in BY_PRIVILEGE if r in allowed]
    no = [r for r in BY_PRIVILEGE if r not in allowed]
    return ([yes[-1]] if yes else []) + ([no[0]] if no else [])


def leave_out(params: dict[str, Any]) -> bool:
    """The cases left out on PostgreSQL (tests/web/conftest.py deselects them): every role
    but the route's nearest pair, every crossing role but the organizer (who holds every
    right in his own tournament), the route list (one app is enough)."""
    if params.get("world") != "postgresql":
        return False
    if "allowed" in params:
        return params["role"] not in nearest_pair(params["allowed"])
    return params.get("role", "organizer") != "organizer" or "method" not in params


@pytest.fixture(scope="module", params=BACKENDS)
def world(request: pytest.FixtureRequest,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """The web tests' demo tournament on SQLite and on PostgreSQL (only this module's
    matrix runs twice; the other web tests keep their SQLite world)."""
    folder = tmp_path_factory.mktemp("access")
    if request.param == "sqlite":
        yield make_world(folder)
        return
    with pg_schema() as url:
        yield make_world(folder, url)


def app_routes(routes: list[Any]) -> Iterator[tuple[str, str]]:
    """(method, path) of every route the app answers, also those of included routers
    (FastAPI ≥ 0.16x keeps an included router as one route that yields its own)."""
    for r in routes:
        if isinstance(r, APIRoute):
            yield from ((m, r.path) for m in r.methods)
        elif hasattr(r, "effective_route_contexts"):
            for c in r.effective_route_contexts():
                if isinstance(c.original_route, APIRoute):
                    yield from ((m, c.path) for m in c.methods or ())


def test_every_route_listed(world: World) -> None:
    """Every route of the app (not of a list of routers: a router added to the app without
    its lines here fails too) has its line in the table, and every line a route."""
    app = create_app(str(world.db), secret="route-list")
    routes = set(app_routes(app.router.routes))
    assert len(routes) > len(SEATING_ROUTES + DAY_ROUTES)  # the walk found the routers
    listed = {(m, p) for m, p, _, _ in ROUTES}
    assert routes - listed == set(), "routes without an access rule"
    assert listed - routes == set(), "rules for routes that do not exist"


def _url(path: str, world: World) -> str:
    d = world.demo
    confirmed = next(g.id for g in world.sample.games if g.stage == "qual" and g.round == 1)
    code = d.open_games[0] if path.rsplit("/", 1)[-1] in OPEN_GAME_ROUTES else confirmed
    person = path.startswith(("/people", "/api/people"))
    return path.replace("{name:path}", "Клуб/нет такого").format(
        tid=d.tournament, code=code, pid=1 if person else world.sample.players[0].id,
        lang="en", case=world.case, cid=0, key="not-the-desks-key", mid=0, digest="0",
        rid=999999, action="accept", award="nope")


def _refused(r: Any) -> bool:
    if r.status_code in (401, 403):
        return True
    return r.status_code == 303 and r.headers.get("location", "").startswith("/login")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("method", "path", "allowed", "body"), ROUTES,
                         ids=[f"{m} {p}" for m, p, _, _ in ROUTES])
def test_access(world: World, client_for: Callable[[str], TestClient], role: str, method: str,
                path: str, allowed: frozenset[str], body: dict[str, Any] | None) -> None:
    if path in STREAMS and role in allowed:
        pytest.skip("an open stream never ends (tests/attacks/test_streams.py)")
    c = client_for(role)
    url = _url(path, world)
    headers = {"X-CSRF-Token": csrf_of(c)}
    if body is None:
        r = c.request(method, url, headers=headers, follow_redirects=False)
    elif path.startswith("/api"):
        r = c.request(method, url, json=body, headers=headers, follow_redirects=False)
    else:
        r = c.request(method, url, data=body, headers=headers, follow_redirects=False)
    assert r.status_code < 500, r.text
    if path in PUBLIC_WRITES:
        assert r.status_code != 403
    elif role in allowed:
        assert not _refused(r), f"{role} refused: {r.status_code} {r.text[:200]}"
    else:
        assert _refused(r), f"{role} let in: {r.status_code} {r.text[:200]}"


# --- every write route with another tournament's ids --------------------------------

WRITES = [(m, p, body) for m, p, _, body in ROUTES
          if m != "GET" and "{tid}" in p and p not in PUBLIC_WRITES]


@pytest.fixture(scope="module")
def other_tournament(world: World) -> int:
    """The same sample imported as a second tournament by another organizer: the same
    game, player and stage ids, and none of the demo's accounts has a role in it."""
    from mafiatab.formats.tournament_json import dumps_tournament
    from mafiatab.services.facade import Services
    from mafiatab.storage.engine import make_engine

    engine = make_engine(str(world.db))
    try:
        return Services(engine).tournaments.import_file(dumps_tournament(world.sample), actor="outsider-org")
    finally:
        engine.dispose()


@pytest.mark.parametrize("role", sorted(SIGNED))
@pytest.mark.parametrize(("method", "path", "body"), WRITES, ids=[f"{m} {p}" for m, p, _ in WRITES])
def test_no_write_crosses_into_another_tournament(world: World, other_tournament: int,
                                                  client_for: Callable[[str], TestClient],
                                                  role: str, method: str, path: str,
                                                  body: dict[str, Any] | None) -> None:
    c = client_for(role)
    url = _url(path, world).replace(f"/t/{world.demo.tournament}/", f"/t/{other_tournament}/", 1)
    headers = {"X-CSRF-Token": csrf_of(c)}
    if path.startswith("/api"):
        r = c.request(method, url, json=body, headers=headers, follow_redirects=False)
    else:
        r = c.request(method, url, data=body, headers=headers, follow_redirects=False)
    assert r.status_code < 500, r.text
    assert _refused(r) or r.status_code == 404, f"{role} wrote into tournament {other_tournament}: " \
        f"{r.status_code} {r.text[:200]}"
