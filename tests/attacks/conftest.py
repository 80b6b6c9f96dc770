"""The attackers' world: two tournaments in one real SQLite database, each with its own
organizer, and signed-in clients for every kind of attacker.

* tournament A: the demo (organizer "organizer", "headjudge", judges, "viewer"), its last
  qualification round seated and waiting, and a player's sign-in code (`code_a`);
* tournament B: made by "org2", who was given the organizer right to run it (and has no
  role in A), with its own players, a seated round and a player's code (`code_b`);
* "root": the server's administrator, with no role in either; A's organizer holds only
  the organizer right, like org2.

Each test module gets a fresh world (module scope), so a test that changes it breaks no
other module's assumptions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mafiatab.sample import sample_tournament
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD, ORGANIZER_NAME, Demo, build_demo
from mafiatab.web.security import SignInLimits

RELAXED = SignInLimits(per_address="100000/minute", per_account="100000/minute",
                       per_code="100000/minute")
ORG2 = "org2"
#: the server's administrator (the organizers of A and B are not)
ADMIN = "root"


@dataclass
class World:
    demo: Demo
    db: Path
    a: int
    b: int
    #: player id -> (account, code) of a player's sign-in code, per tournament
    code_a: tuple[str, str, str] = ("", "", "")
    code_b: tuple[str, str, str] = ("", "", "")
    players_a: list[str] = field(default_factory=list)
    players_b: list[str] = field(default_factory=list)
    games_b: list[str] = field(default_factory=list)


def make_world(folder: Path) -> World:
    sample = sample_tournament("fsm", 20, 3, seed=2026, final_round=True, name="Cup A")
    demo = build_demo(folder / "attack.sqlite", sample)
    engine = make_engine(str(folder / "attack.sqlite"))
    try:
        svc = Services(engine)
        a = demo.tournament
        # the server's administrator is an account of its own: A's organizer (the demo's
        # first account, so both rights) keeps only the organizer right, as org2 holds it
        svc.accounts.add_account(ADMIN, DEMO_PASSWORD, actor=ADMIN)
        svc.account_admin.set_rights(ADMIN, admin=True, actor=ADMIN, operator=True)
        svc.account_admin.set_rights(ORGANIZER_NAME, admin=False, actor=ADMIN)
        svc.accounts.add_account(ORG2, DEMO_PASSWORD, actor=ORG2)
        svc.access.give_organizer(ORG2, actor=ADMIN)
        tb = sample_tournament("fsm", 10, 1, seed=7, name="Cup B")
        for p in tb.players:  # B's players are other people than A's
            p.nickname = f"B-{p.nickname}"
        b = svc.tournaments.create_tournament(tb.name, tb.rules, actor=ORG2, stages=tb.stages,
                                              participants=len(tb.players))
        svc.tournaments.register_players(b, tb.players, actor=ORG2)
        players_b = [p.id for p in tb.players]
        info = svc.games.enter_seating(b, tb.stages[0].id, 1, 1, players_b, actor=ORG2)
        pa = sample.players[0].id
        pb = players_b[0]
        acc_a, code_a = svc.appeals.player_code(a, pa, actor=ORGANIZER_NAME)
        acc_b, code_b = svc.appeals.player_code(b, pb, actor=ORG2)
        return World(demo, folder / "attack.sqlite", a, b, (pa, acc_a, code_a),
                     (pb, acc_b, code_b), [p.id for p in sample.players], players_b,
                     [info.game])
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_world(tmp_path_factory.mktemp("attack"))


@pytest.fixture(scope="module")
def app(world: World) -> object:
    return create_app(str(world.db), secret="attack-secret", limits=RELAXED)


@pytest.fixture(scope="module")
def services(world: World) -> Iterator[Services]:
    engine = make_engine(str(world.db))
    yield Services(engine)
    engine.dispose()


def csrf_of(c: TestClient) -> str:
    token: str = c.get("/api/session").json()["csrf"]
    return token


@pytest.fixture(scope="module")
def client_as(app: object, world: World) -> Callable[[str], TestClient]:
    """A new client signed in as `who`: an account name (password), "code-a"/"code-b"
    (the player's code of A or B), or "anon"."""

    def make(who: str) -> TestClient:
        c = TestClient(app, base_url="http://testserver")  # type: ignore[arg-type]
        if who == "anon":
            return c
        csrf = csrf_of(c)
        if who in ("code-a", "code-b"):
            code = (world.code_a if who == "code-a" else world.code_b)[2]
            r = c.post("/login/code", data={"code": code, "csrf": csrf},
                       follow_redirects=False)
            assert r.status_code == 303, r.text
            return c
        r = c.post("/api/login", json={"user": who, "password": DEMO_PASSWORD},
                   headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200, r.text
        return c

    return make
