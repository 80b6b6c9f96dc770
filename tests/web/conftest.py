"""Fixtures of the web tests: a demo tournament in a real SQLite file, the real app, and
signed-in clients for each role (one sign-in per role, its session cookie reused)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from weakref import WeakKeyDictionary

import pytest
from fastapi.testclient import TestClient

from mafiatab.domain.protocol import Game, Tournament
from mafiatab.sample import sample_tournament
from mafiatab.storage.engine import make_engine
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD, Demo, build_demo, populate
from mafiatab.web.security import SignInLimits

RELAXED = SignInLimits(per_address="100000/minute", per_account="100000/minute",
                       per_code="100000/minute")

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ROLES = ("anon", "viewer", "judge1", "judge2", "headjudge", "organizer", "player1")


@dataclass
class World:
    demo: Demo
    sample: Tournament
    #: the SQLite file, or a database URL (tests/web/test_live.py: PostgreSQL too)
    db: Path | str
    #: an open appeal of player1 on a round-1 game of judge1
    case: str = ""

    def open_game(self, table: int) -> Game:
        """The sample's protocol of the seated (still open) game at `table`."""
        last = max(g.round for g in self.sample.games if g.stage == "qual")
        return next(g for g in self.sample.games
                    if g.stage == "qual" and g.round == last and g.table == table)


def make_world(folder: Path, url: str | None = None) -> World:
    """The demo tournament in a SQLite file of `folder`, or in the database at `url`."""
    sample = sample_tournament("fsm", 20, 3, seed=2026, final_round=True, name="Web test cup")
    if url is None:
        demo = build_demo(folder / "web.sqlite", sample)
        world = World(demo, sample, folder / "web.sqlite")
    else:
        engine = make_engine(url)
        try:
            demo = populate(engine, sample, folder / "unused.sqlite")
        finally:
            engine.dispose()
        world = World(demo, sample, url)
    from tests.web.appeal_world import add_appeal_case

    world.case = add_appeal_case(world)
    return world


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test module may leave out some of its parametrized cases with a function
    `leave_out(params)` (tests/web/test_access.py: every role on SQLite, each route's
    nearest pair of roles on PostgreSQL); they are deselected, not skipped."""
    kept, left = [], []
    for item in items:
        leave_out = getattr(getattr(item, "module", None), "leave_out", None)
        callspec = getattr(item, "callspec", None)
        if leave_out is not None and callspec is not None and leave_out(callspec.params):
            left.append(item)
        else:
            kept.append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_world(tmp_path_factory.mktemp("web"))


@pytest.fixture(scope="module")
def client_for(world: World) -> Iterator[Callable[[str], TestClient]]:
    """A new client signed in as the role's demo account (anon: nobody)."""
    # the access tests sign in and out hundreds of times from one address; the sign-in
    # limits themselves are tested with the defaults (tests/web/test_attacks.py)
    app = create_app(str(world.db), secret="test-secret", limits=RELAXED)
    cookies: dict[str, dict[str, str]] = {}

    def make(role: str) -> TestClient:
        c = TestClient(app, base_url="http://testserver")
        if role == "anon":
            return c
        if role in cookies:
            for k, v in cookies[role].items():
                c.cookies.set(k, v)
            session = c.get("/api/session").json()
            if session["user"] == role:
                _TOKENS[c] = session["csrf"]
                return c
            c.cookies.clear()  # signed out (sessions are server-side): sign in again
        csrf = c.get("/api/session").json()["csrf"]
        r = c.post("/api/login", json={"user": role, "password": DEMO_PASSWORD},
                   headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200, r.text
        cookies[role] = dict(c.cookies)
        return c

    yield make


#: the CSRF token `client_for` already read for a client, so that `csrf_of` need not ask
#: the server again (a session's token does not change until it signs in or out)
_TOKENS: WeakKeyDictionary[TestClient, str] = WeakKeyDictionary()


def csrf_of(c: TestClient) -> str:
    known = _TOKENS.get(c)
    if known is not None:
        return known
    token: str = c.get("/api/session").json()["csrf"]
    return token
