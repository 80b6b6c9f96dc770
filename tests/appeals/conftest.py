"""Fixtures of the appeal service tests: a stored tournament on SQLite (and PostgreSQL for
the tests that ask for `db_url`), its head judge, a game's judge and a player's account."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine

from mafiatab.domain.appeals import RoundTime, Schedule
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.storage.models import HEAD_JUDGE, VIEWER
from tests.helpers import dumps, game, tournament
from tests.storage.conftest import pg_url, sqlite_url  # noqa: F401  (fixtures)

ORG = "org"
HJ = "hj"
JUDGE = "j1"
PLAYER = "u-p3"  # the account of player p3
OTHER = "u-p4"  # the account of player p4
VIEWER_NAME = "watcher"


@dataclass
class Cup:
    svc: Services
    tid: int
    #: when the protocols were published (confirmed at import)
    published: datetime


def make_cup(engine: Engine, rules: str = "fsm") -> Cup:
    """Four qualification games (rounds 1-4) of p1..p10, confirmed; a schedule with rounds
    5-7 later that day and a final on day 2."""
    svc = Services(engine)
    games = [game(f"g{r}", rnd=r) for r in range(1, 5)]
    stages = [{"id": "qual", "name": "Qual", "kind": "qualification"},
              {"id": "final", "name": "Final", "kind": "final"}]
    tid = svc.tournaments.import_file(dumps(tournament(rules, games, stages=stages)), actor=ORG)
    published = svc.appeals.game_times(tid, "g1").published
    assert published is not None
    svc.access.grant(tid, HJ, HEAD_JUDGE, actor=ORG)
    svc.access.grant(tid, VIEWER_NAME, VIEWER, actor=ORG)
    for r in range(1, 5):
        svc.games.assign_judge(tid, f"g{r}", JUDGE, actor=ORG)
    svc.appeals.link_player(tid, "p3", PLAYER, actor=ORG)
    svc.appeals.link_player(tid, "p4", OTHER, actor=ORG)
    p = published
    rounds = [RoundTime(stage="qual", round=r, day=1, starts=p - timedelta(hours=5 - r))
              for r in range(1, 5)]
    rounds += [RoundTime(stage="qual", round=r, day=1, starts=p + timedelta(hours=r - 4))
               for r in range(5, 8)]
    rounds.append(RoundTime(stage="final", round=1, day=2, starts=p + timedelta(days=1)))
    svc.appeals.set_schedule(tid, Schedule(rounds=rounds), actor=HJ)
    return Cup(svc, tid, published)


@pytest.fixture
def cup(tmp_path: object) -> Iterator[Cup]:
    engine = make_engine(str(tmp_path) + "/appeals.sqlite")  # type: ignore[operator]
    upgrade(engine)
    yield make_cup(engine)
    engine.dispose()


@pytest.fixture
def fiim_cup(tmp_path: object) -> Iterator[Cup]:
    engine = make_engine(str(tmp_path) + "/fiim.sqlite")
    upgrade(engine)
    yield make_cup(engine, "fiim2018")
    engine.dispose()


__all__ = ["Cup", "make_cup", "UTC"]
