"""The rights tests' world: one account of every kind, on SQLite and on PostgreSQL (a world
per backend and module, built through the services as the web app and the CLI build it).

* tournament T, organized by "t_org" (who holds the organizer right, as everyone who
  creates a tournament does), with its head judge, table judge and viewer (accounts with
  passwords) and a player's sign-in code account "t_player" (linked to player `p1`);
* tournament U, organized by "org" (the organizer right), with its judge "u_judge";
* tournament I, imported by the server's operator: nobody organizes it;
* "root": the first account (the administrator and the organizer right);
* "keeper": the administrator right only, as `mafiatab db grant-admin keeper` makes it;
* "plain": a password and nothing else.

Person records: `pT` plays only in T, `pU` only in U, `pI` only in I, and `p0` has no game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import pytest
from sqlalchemy import select

from mafiatab.domain import protocol as model
from mafiatab.formats.tournament_json import dumps_tournament
from mafiatab.services.facade import Services
from mafiatab.storage import models as db
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.storage.models import HEAD_JUDGE, JUDGE, VIEWER
from tests.storage.conftest import BACKENDS, pg_schema

PASSWORD = "rights-world-pass-1"

#: the account kinds, in the tables' order, and the account of each
KINDS: dict[str, str] = {
    "admin": "root",
    "organizer": "org",
    "admin_only": "keeper",
    "t_organizer": "t_org",
    "t_head_judge": "t_head",
    "t_judge": "t_judge",
    "t_viewer": "t_viewer",
    "t_player_code": "t_player",
    "u_account": "u_judge",
    "no_roles": "plain",
}

T = TypeVar("T")


@dataclass
class World:
    svc: Services
    backend: str
    t: int
    u: int
    i: int
    #: person records by name: pT, pU, pI, p0
    people: dict[str, int]
    #: the id of t_player's sign-in code
    player_code_id: int
    #: a seated game of T
    game: str


def _stage() -> list[model.Stage]:
    return [model.Stage(id="qual", name="Отбор", kind="qualification")]


def _players(prefix: str) -> list[model.Player]:
    return [model.Player(id=f"p{k}", nickname=f"{prefix}-{k}", club=None) for k in range(1, 11)]


def build(svc: Services, backend: str) -> World:
    accounts, access = svc.accounts, svc.access
    assert accounts.add_account("root", PASSWORD, actor="root")  # the first: both rights
    for name in ("org", "keeper", "t_org", "plain"):
        accounts.add_account(name, PASSWORD, actor=name)
    access.give_organizer("org", actor="root")
    access.give_organizer("t_org", actor="root")
    # what `mafiatab db grant-admin keeper` does (without --organizer)
    svc.account_admin.set_rights("keeper", actor="keeper", operator=True, admin=True)
    t = svc.tournaments.new_tournament("Турнир T", "fsm", actor="t_org", stages=_stage())
    u = svc.tournaments.new_tournament("Турнир U", "fsm", actor="org", stages=_stage())
    svc.tournaments.register_players(t, _players("T"), actor="t_org")
    svc.tournaments.register_players(u, _players("U"), actor="org")
    access.grant(t, "t_head", HEAD_JUDGE, actor="t_org", password=PASSWORD)
    access.grant(t, "t_judge", JUDGE, actor="t_org", password=PASSWORD)
    access.grant(t, "t_viewer", VIEWER, actor="t_org", password=PASSWORD)
    access.grant(u, "u_judge", JUDGE, actor="org", password=PASSWORD)
    svc.appeals.player_code(t, "p1", actor="t_org", user="t_player")
    seated = svc.games.enter_seating(t, "qual", 1, 1, [f"p{k}" for k in range(1, 11)],
                                     actor="t_org")
    imported = model.Tournament(name="Турнир I", rules="fsm", players=_players("I"),
                                stages=_stage(), games=[])
    i = svc.tournaments.import_file(dumps_tournament(imported))
    with svc.store.write() as s:
        lonely = db.Player(nickname="никогда не играл", club=None)
        s.add(lonely)
        s.flush()
        ids = {tid: s.scalar(select(db.Participant.player_id).where(
            db.Participant.tournament_id == tid, db.Participant.code == "p2"))
            for tid in (t, u, i)}
        code_id = s.scalar(select(db.SignInCode.id).where(db.SignInCode.user_name == "t_player"))
        people = {"pT": int(ids[t] or 0), "pU": int(ids[u] or 0), "pI": int(ids[i] or 0),
                  "p0": lonely.id}
    assert len(set(people.values())) == 4 and code_id is not None
    return World(svc, backend, t, u, i, people, int(code_id), seated.game)


@pytest.fixture(scope="module", params=BACKENDS)
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[World]:
    """The world on SQLite and on PostgreSQL (a fresh schema)."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("rights") / "rights.sqlite"
        engine = make_engine(str(path))
        upgrade(engine)
        yield build(Services(engine), "sqlite")
        engine.dispose()
        return
    with pg_schema() as url:
        engine = make_engine(url)
        upgrade(engine)
        yield build(Services(engine), "postgresql")
        engine.dispose()


class _Undo(Exception):  # noqa: N818 - a signal, not an error
    """Raised to roll the attempt's transaction back."""


def undone(svc: Services, attempt: Callable[[], T]) -> tuple[T | None, Exception | None]:
    """Run a use case inside one write transaction that is then rolled back, so that the
    world stays as it was for the next pair. Returns (its result, or what it raised)."""
    out: list[Any] = [None, None]
    try:
        with svc.store.write():
            try:
                out[0] = attempt()
            except Exception as e:  # noqa: BLE001 - the caller looks at what it was
                out[1] = e
            raise _Undo
    except _Undo:
        pass
    return out[0], out[1]


