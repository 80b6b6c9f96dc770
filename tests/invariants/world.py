"""A small FIIM tournament seated round by round (two tables, two rounds, a judge per
table) through the services, and its protocols filled in validly."""

from __future__ import annotations

import msgspec

from mafiatab.domain.problems import ProtocolRefused
from mafiatab.domain.protocol import Game, Penalty, Player, SeatScores, Stage
from mafiatab.services.facade import Services
from tests.helpers import ROLES

ORG, HEAD, J1, J2 = "org", "head", "j1", "j2"
PASSWORD = "invariants-secret"
PLAYERS = [Player(id=f"p{i:02d}", nickname=f"Игрок {i}") for i in range(1, 23)]
#: round -> table -> players by seat
SEATING = {
    1: {1: [f"p{i:02d}" for i in range(1, 11)], 2: [f"p{i:02d}" for i in range(11, 21)]},
    2: {1: [f"p{i:02d}" for i in range(1, 11)], 2: [f"p{i:02d}" for i in range(11, 21)]},
}


def make_world(svc: Services) -> int:
    svc.accounts.add_account(ORG, PASSWORD, actor=ORG)
    tid = svc.tournaments.create_tournament(
        "Кубок", "fiim2018", actor=ORG,
        stages=[Stage(id="qual", name="Отбор", kind="qualification")])
    svc.tournaments.register_players(tid, PLAYERS, actor=ORG)
    svc.access.grant(tid, HEAD, "head_judge", actor=ORG, password=PASSWORD)
    for j in (J1, J2):
        svc.access.grant(tid, j, "judge", actor=ORG, password=PASSWORD)
    for rnd, tables in SEATING.items():
        for table, players in tables.items():
            svc.games.enter_seating(tid, "qual", rnd, table, players, actor=HEAD,
                                    judge=J1 if table == 1 else J2)
    return tid


def code_of(rnd: int, table: int, svc: Services, tid: int) -> str:
    return next(g.code for g in svc.games.overview(tid) if (g.round, g.table) == (rnd, table))


def protocol(svc: Services, tid: int, code: str, players: list[str] | None = None,
              removed: int | None = None) -> Game:
    """The seated game filled in as a valid FIIM protocol (red wins)."""
    g = svc.games.head(tid, code).game_struct()
    seats = sorted(g.seats, key=lambda s: s.seat)
    names = players or [s.player for s in seats]
    scores = {}
    if removed is not None:
        scores[removed] = SeatScores(penalties=[Penalty(kind="disqualification", critical=False,
                                                        rule="7.3")])
    return msgspec.structs.replace(
        g, result="red", scores=scores,
        seats=[msgspec.structs.replace(s, role=ROLES[s.seat], player=names[s.seat - 1])
               for s in seats])


def errors_of(e: ProtocolRefused) -> list[tuple[str, str | None, int | None]]:
    return [(p.code, p.game, p.seat) for p in e.errors]


def submitted_by_old_code(svc: Services, tid: int, code: str, game: Game, author: str) -> None:
    """A submitted revision stored as the code before the invariants stored it (no check
    at submit): what a database of an earlier version holds."""
    from sqlalchemy import select

    from mafiatab.services.tournaments import encode_game
    from mafiatab.storage import models as db

    with svc.store.write() as s:
        row = s.scalar(select(db.Game).where(db.Game.tournament_id == tid, db.Game.code == code))
        user = s.scalar(select(db.User).where(db.User.name == author))
        assert row is not None and user is not None
        row.head_revision += 1
        s.add(db.ProtocolRevision(game_id=row.id, number=row.head_revision, state="submitted",
                                  protocol=encode_game(game), author_id=user.id, changes={}))
