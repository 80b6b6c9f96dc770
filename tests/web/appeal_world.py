"""The appeals in the web tests' world: a player's account ("player1", linked to the first
player of the round-1 game at table 1, whose judge is judge1), a schedule that leaves the
appeal window open, and one open appeal ("A1") on that game."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING

from mafiatab.domain.appeals import Filing, Kind, RoundTime, Schedule, Subject
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import DEMO_PASSWORD, ORGANIZER_NAME

if TYPE_CHECKING:
    from tests.web.conftest import World

PLAYER_ACCOUNT = "player1"


def appeal_game(world: World) -> str:
    return next(g.id for g in world.sample.games
                if g.stage == "qual" and g.round == 1 and g.table == 1)


def player_of(world: World) -> str:
    game = next(g for g in world.sample.games if g.id == appeal_game(world))
    return next(s.player for s in game.seats if s.seat == 1)


def open_schedule(now: datetime, world: World) -> Schedule:
    """Qualification rounds in the past hours of day 1, the final tomorrow."""
    last = max(g.round for g in world.sample.games if g.stage == "qual")
    rounds = [RoundTime(stage="qual", round=r, day=1, starts=now - timedelta(hours=last + 1 - r))
              for r in range(1, last + 1)]
    rounds.append(RoundTime(stage="final", round=1, day=2, starts=now + timedelta(days=1)))
    return Schedule(rounds=rounds)


def add_appeal_case(world: World) -> str:
    engine = make_engine(str(world.db))
    try:
        svc = Services(engine)
        tid = world.demo.tournament
        svc.appeals.link_player(tid, player_of(world), PLAYER_ACCOUNT, actor=ORGANIZER_NAME,
                        password=DEMO_PASSWORD)
        svc.appeals.set_schedule(tid, open_schedule(datetime.now(UTC), world), actor=ORGANIZER_NAME)
        view = svc.appeals.file(tid, Filing(kind=Kind.APPEAL, player=player_of(world),
                                    game=appeal_game(world), subject=Subject.OTHER,
                                    awarded=Decimal("0"), claimed=Decimal("0.5"),
                                    text="the best move was mine"), actor=PLAYER_ACCOUNT)
        return view.id
    finally:
        engine.dispose()
