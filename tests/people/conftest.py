"""Fixtures of the people tests: the storage tests' databases (SQLite and PostgreSQL, each
test in its own file or schema), a People service on them, and small tournaments built
by hand whose figures a person can work out on paper."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from mafiatab.domain.protocol import Game, Player, Seat, Stage, Tournament
from mafiatab.formats.tournament_json import dumps_tournament
from mafiatab.services.facade import Services
from mafiatab.services.people import People
from mafiatab.services.tournaments import Tournaments
from mafiatab.storage import models as db
from tests.storage.conftest import (  # noqa: F401 - fixtures
    db_url,
    migrated_engine,
    migrated_sqlite,
    pg_url,
    sqlite_url,
)

ORGANIZER = "federation"
PLAIN = "someone"


@pytest.fixture
def engine(db_url: str, migrated_sqlite: Path) -> Iterator[Engine]:  # noqa: F811
    eng = migrated_engine(db_url, migrated_sqlite)
    yield eng
    eng.dispose()


@pytest.fixture
def sqlite_engine(sqlite_url: str, migrated_sqlite: Path) -> Iterator[Engine]:  # noqa: F811
    eng = migrated_engine(sqlite_url, migrated_sqlite)
    yield eng
    eng.dispose()


def accounts(people: People) -> None:
    """A holder of the global organizer right and an account without it."""
    with people.store.write() as s:
        s.add(db.User(name=ORGANIZER, organizer=True, admin=True))
        s.add(db.User(name=PLAIN, organizer=False))


def people_on(engine: Engine) -> tuple[People, Tournaments]:
    services = Services(engine)
    tournaments, people = services.tournaments, services.people
    accounts(people)
    return people, tournaments


#: roles by seat: 6 civilians, the sheriff at 3, mafia at 5 and 9, the don at 7
DEAL = {1: "red", 2: "red", 3: "sheriff", 4: "red", 5: "black", 6: "red", 7: "don", 8: "red",
        9: "black", 10: "red"}


def game(gid: str, rnd: int, order: list[str], result: str, *, roles: dict[int, str] = DEAL,
         first_killed: int | None = None, best_move: list[int] | None = None,
         date: str = "2026-01-10") -> Game:
    seats = [Seat(seat=i + 1, player=p, role=roles[i + 1]) for i, p in enumerate(order)]
    return Game(id=gid, stage="qual", round=rnd, table=1, date=date, seats=seats,
                result=result, first_killed=first_killed, best_move=best_move or [])


def tournament(name: str, nicknames: list[str], games: list[Game], club: str = "Клуб Север",
               clubs: dict[str, str] | None = None) -> Tournament:
    """Players `a`, `b`, ... with the given nicknames (of `club`, or of the club `clubs`
    names for their id), one qualification stage, FSM."""
    players = [Player(id=chr(ord("a") + i), nickname=n,
                      club=(clubs or {}).get(chr(ord("a") + i), club))
               for i, n in enumerate(nicknames)]
    return Tournament(name=name, rules="fsm", players=players,
                      stages=[Stage(id="qual", name="Отбор", kind="qualification")],
                      games=games)


def load(tournaments: Tournaments, t: Tournament) -> int:
    return tournaments.import_file(dumps_tournament(t))
