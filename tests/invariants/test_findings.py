"""Findings of the record's seams, through the services on SQLite and PostgreSQL: one
player at two tables of a round and a player removed from the tournament (FIIM 7.3) are
refused at submit and at confirm with the rule, round, table and seat, and a draft keeps
what was typed. These use only the protocol steps, so they run on the code before the
invariants existed too (and fail there)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from mafiatab.domain.problems import ProtocolRefused
from mafiatab.services.facade import Services
from mafiatab.services.protocols import SubmitRefused
from mafiatab.services.tournaments import encode_game
from mafiatab.storage import models as db
from tests.invariants.world import (
    HEAD,
    J1,
    J2,
    SEATING,
    code_of,
    errors_of,
    make_world,
    protocol,
)


def test_one_player_at_two_tables_refused_at_submit(service: Services) -> None:
    svc = service
    tid = make_world(svc)
    t1, t2 = code_of(1, 1, svc, tid), code_of(1, 2, svc, tid)
    typed = list(SEATING[1][1])
    typed[0] = "p11"  # table 2's seat 1
    head = svc.games.head(tid, t1).number
    with pytest.raises(SubmitRefused) as refused:
        svc.protocols.submit(tid, t1, actor=J1, base_revision=head,
                             game=protocol(svc, tid, t1, typed))
    assert set(errors_of(refused.value)) == {("not_seated_here", t1, 1),
                                           ("twice_in_round", t1, 1)}
    ru = " ".join(p.message("ru") for p in refused.value.errors)
    assert "тур 1, стол 1" in ru and "место 1" in ru and "Игрок 11" in ru
    assert "правило турнира: одна игра за тур" in ru
    # nothing typed is dropped: the form's protocol is kept as a draft, not submitted
    kept = refused.value.saved
    assert kept is not None and kept.state == "draft"
    assert kept.game_struct().player_at(1) == "p11"
    assert svc.games.head(tid, t1).state == "draft"
    # the other table submits as seated; the head judge's own submit is refused alike
    svc.protocols.submit(tid, t2, actor=J2, base_revision=svc.games.head(tid, t2).number,
                         game=protocol(svc, tid, t2))
    with pytest.raises(SubmitRefused):
        svc.protocols.submit(tid, t1, actor=HEAD, base_revision=None)
    # the check the form runs while typing says the same beside seat 1
    checked = svc.protocols.check(tid, t1, protocol(svc, tid, t1, typed), actor=J1)
    assert {(p.code, p.seat) for p in checked.errors} == {("not_seated_here", 1),
                                                          ("twice_in_round", 1)}


def test_one_player_at_two_tables_refused_at_confirm(service: Services) -> None:
    """A protocol submitted before the check existed (stored as the old code stored it)
    is refused at confirm, with the rule, round, table and seat."""
    svc = service
    tid = make_world(svc)
    t1, t2 = code_of(1, 1, svc, tid), code_of(1, 2, svc, tid)
    svc.protocols.submit(tid, t2, actor=J2, base_revision=svc.games.head(tid, t2).number,
                         game=protocol(svc, tid, t2))
    typed = list(SEATING[1][1])
    typed[0] = "p11"
    bad = protocol(svc, tid, t1, typed)
    with svc.store.write() as s:
        row = s.scalar(select(db.Game).where(db.Game.tournament_id == tid, db.Game.code == t1))
        assert row is not None
        author = s.scalar(select(db.User).where(db.User.name == J1))
        assert author is not None
        row.head_revision += 1
        s.add(db.ProtocolRevision(game_id=row.id, number=row.head_revision, state="submitted",
                                  protocol=encode_game(bad), author_id=author.id, changes={}))
    with pytest.raises(ProtocolRefused) as refused:
        svc.protocols.confirm(tid, t1, actor=HEAD)
    assert set(errors_of(refused.value)) == {("not_seated_here", t1, 1),
                                           ("twice_in_round", t1, 1)}
    assert svc.games.head(tid, t1).state == "submitted"
    # the other table's protocol is right: it is confirmed
    svc.protocols.confirm(tid, t2, actor=HEAD)


def test_fiim_7_3_removed_player_refused_later(service: Services) -> None:
    svc = service
    tid = make_world(svc)
    r1, r2 = code_of(1, 1, svc, tid), code_of(2, 1, svc, tid)
    # round 2 submitted first, then round 1 records seat 3's removal (FIIM 7.3)
    svc.protocols.submit(tid, r2, actor=J1, base_revision=svc.games.head(tid, r2).number,
                         game=protocol(svc, tid, r2))
    svc.protocols.submit(tid, r1, actor=J1, base_revision=svc.games.head(tid, r1).number,
                         game=protocol(svc, tid, r1, removed=3))
    svc.protocols.confirm(tid, r1, actor=HEAD)
    with pytest.raises(ProtocolRefused) as refused:
        svc.protocols.confirm(tid, r2, actor=HEAD)
    (p,) = refused.value.errors
    assert (p.code, p.game, p.seat, p.clause) == ("removed_plays", r2, 3, "FIIM 7.3")
    assert p.message("ru").endswith("тур 2, стол 1: игрок Игрок 3 удалён с турнира в игре "
                                    f"{r1} (тур 1, стол 1) и дальше не играет (ФИИМ 7.3)")
    # sent back, the judge cannot submit it again with him in it
    svc.protocols.send_back(tid, r2, actor=HEAD, reason="игрок 3 удалён с турнира")
    with pytest.raises(SubmitRefused) as again:
        svc.protocols.submit(tid, r2, actor=J1, base_revision=None)
    assert [(x.code, x.seat) for x in again.value.errors] == [("removed_plays", 3)]
