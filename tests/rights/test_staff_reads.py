"""The staff's page reads refuse everyone else in the service itself, not only in the
route that shows them: who holds which role, which account is which player, and a game's
warnings (read from drafts and unconfirmed revisions). The administrator is no staff of
a tournament by his right. The public reads (`games.overview`, `roster.lines`) answer
anyone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mafiatab.services.errors import PermissionDenied
from mafiatab.services.facade import Services
from tests.rights.conftest import World

READS: dict[str, Callable[[Services, World, str], Any]] = {
    "access.staff": lambda svc, w, actor: svc.access.staff(w.t, actor=actor),
    "appeals.linked_players": lambda svc, w, actor: svc.appeals.linked_players(w.t,
                                                                             actor=actor),
    "invariants.of_game": lambda svc, w, actor: svc.invariants.of_game(w.t, w.game,
                                                                       actor=actor),
}
STAFF = ("t_org", "t_head")
OTHERS = ("t_judge", "t_viewer", "t_player", "u_judge", "org", "root", "keeper", "plain",
          "nobody-at-all", "")


@pytest.mark.parametrize("read", sorted(READS))
def test_the_staff_reads_refuse_everyone_else(world: World, read: str) -> None:
    for actor in OTHERS:
        with pytest.raises(PermissionDenied) as refused:
            READS[read](world.svc, world, actor)
        assert "Турнир T" in refused.value.message("ru"), (read, actor)


@pytest.mark.parametrize("read", sorted(READS))
def test_the_staff_read_them(world: World, read: str) -> None:
    answers = [READS[read](world.svc, world, actor) for actor in STAFF]
    assert answers[0] == answers[1]


def test_what_the_staff_reads_say(world: World) -> None:
    svc = world.svc
    assert ("t_head", "head_judge") in svc.access.staff(world.t, actor="t_head")
    assert svc.appeals.linked_players(world.t, actor="t_org") == {"p1": "t_player"}


def test_the_public_reads_answer_anyone(world: World) -> None:
    svc = world.svc
    assert [g.code for g in svc.games.overview(world.t)] == [world.game]
    assert len(svc.roster.lines(world.t)) == 10
