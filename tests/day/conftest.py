"""Fixtures of the day's tests: a tournament whose qualification is seated by the real
generator (clubs apart, one player pinned) and published round by round as seating
drafts, in a real SQLite file, served by the real app."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mafiatab.domain.protocol import Player, Stage
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.web.app import create_app
from tests.web.conftest import RELAXED

ORGANIZER = "org"
HEAD = "head"
PASSWORD = "day-secret-pass"
#: 35 players, clubs of two; three tables a round: five sit out each round (7 rounds)
PLAYERS = [Player(id=f"p{i + 1:02d}", nickname=f"Игрок {i + 1}", club=f"Клуб {i // 2 + 1}")
           for i in range(35)]
GAMES = 6
TABLES = 3
#: p01 plays every game at table 1 (a streamed table)
PINS = {"p01": 1}


@dataclass
class Seated:
    """The generator's seating: rounds[r][t] = player ids by seat."""

    rounds: list[list[list[str]]]


@pytest.fixture(scope="session")
def seating() -> Seated:
    from mafiatab.seating.generate import generate
    from mafiatab.seating.model import build_request

    index = {p.id: i for i, p in enumerate(PLAYERS)}
    request = build_request(len(PLAYERS), GAMES, TABLES, seed=7,
                            clubs={i: p.club for i, p in enumerate(PLAYERS) if p.club},
                            pins={index[p]: t - 1 for p, t in PINS.items()})
    result = generate(request, time_limit=5.0)
    assert result.metrics.hard_violations == 0
    return Seated([[[PLAYERS[p].id for p in table] for table in rnd]
                   for rnd in result.seating.rounds])


@dataclass
class Day:
    db: Path
    svc: Services
    seating: Seated

    def tournament(self, name: str) -> int:
        """A new tournament with every round of the seating published (seating drafts)."""
        tid = self.svc.tournaments.create_tournament(name, "fsm", actor=ORGANIZER,
                                         stages=[Stage(id="qual", name="Отбор",
                                                       kind="qualification")])
        self.svc.tournaments.register_players(tid, PLAYERS, actor=ORGANIZER)
        self.svc.access.grant(tid, HEAD, "head_judge", actor=ORGANIZER)
        for r, tables in enumerate(self.seating.rounds, start=1):
            for t, seats in enumerate(tables, start=1):
                self.svc.games.enter_seating(tid, "qual", r, t, seats, actor=ORGANIZER)
        return tid


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory, seating: Seated) -> Iterator[Day]:
    db = tmp_path_factory.mktemp("day") / "day.sqlite"
    engine = make_engine(str(db))
    upgrade(engine)
    svc = Services(engine)
    svc.accounts.add_account(ORGANIZER, PASSWORD, actor=ORGANIZER)  # the first account: an organizer
    svc.accounts.add_account(HEAD, PASSWORD, actor=ORGANIZER)
    yield Day(db, svc, seating)
    engine.dispose()


@pytest.fixture(scope="module")
def client_for(day: Day) -> Callable[[str], TestClient]:
    app = create_app(str(day.db), secret="day-test", limits=RELAXED)

    def make(user: str) -> TestClient:
        c = TestClient(app, base_url="http://testserver")
        if user == "anon":
            return c
        csrf = c.get("/api/session").json()["csrf"]
        r = c.post("/api/login", json={"user": user, "password": PASSWORD},
                   headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200, r.text
        return c

    return make


def csrf_of(c: TestClient) -> str:
    token: str = c.get("/api/session").json()["csrf"]
    return token


def code_client(client_for: Callable[[str], TestClient], code: str) -> TestClient:
    """A phone that signed in with a player's code (the QR of `/code?c=`)."""
    c = client_for("anon")
    page = c.get(f"/code?c={code}")
    assert page.status_code == 200 and code in page.text
    r = c.post("/code", data={"code": code, "csrf": csrf_of(c)}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return c
