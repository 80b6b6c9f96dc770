"""The invariants on every write path of the services, on SQLite and PostgreSQL: one
player at two tables of a round and a player removed from the tournament (FIIM 7.3) are
refused at submit and at confirm with the rule, round, table and seat; a draft keeps
what was typed; a replacement is a recorded step of its own."""

from __future__ import annotations

import msgspec
import pytest
from sqlalchemy import select

from mafiatab.domain.problems import ProtocolRefused
from mafiatab.domain.protocol import Game, Penalty, Player, SeatScores, Stage
from mafiatab.services.errors import PermissionDenied, ServiceError
from mafiatab.services.facade import Services
from mafiatab.services.protocols import SubmitRefused
from mafiatab.services.tournaments import encode_game
from mafiatab.storage import models as db
from tests.helpers import ROLES

ORG, HEAD, J1, J2 = "org", "head", "j1", "j2"
PASSWORD = "invariants-secret"
PLAYERS = [Player(id=f"p{i:02d}", nickname=f"Игрок {i}") for i in range(1, 23)]
#: round -> table -> players by seat
SEATING = {
    1: {1: [f"p{i:02d}" for i in range(1, 11)], 2: [f"p{i:02d}" for i in range(11, 21)]},
    2: {1: [f"p{i:02d}" for i in range(1, 11)], 2: [f"p{i:02d}" for i in range(11, 21)]},
}


def _world(svc: Services) -> int:
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


def _code(rnd: int, table: int, svc: Services, tid: int) -> str:
    return next(g.code for g in svc.games.overview(tid) if (g.round, g.table) == (rnd, table))


def _protocol(svc: Services, tid: int, code: str, players: list[str] | None = None,
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


def _errors(e: ProtocolRefused) -> list[tuple[str, str | None, int | None]]:
    return [(p.code, p.game, p.seat) for p in e.errors]


def test_one_player_at_two_tables_refused_at_submit(service: Services) -> None:
    svc = service
    tid = _world(svc)
    t1, t2 = _code(1, 1, svc, tid), _code(1, 2, svc, tid)
    typed = list(SEATING[1][1])
    typed[0] = "p11"  # table 2's seat 1
    head = svc.games.head(tid, t1).number
    with pytest.raises(SubmitRefused) as refused:
        svc.protocols.submit(tid, t1, actor=J1, base_revision=head,
                             game=_protocol(svc, tid, t1, typed))
    assert set(_errors(refused.value)) == {("not_seated_here", t1, 1),
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
                         game=_protocol(svc, tid, t2))
    with pytest.raises(SubmitRefused):
        svc.protocols.submit(tid, t1, actor=HEAD, base_revision=None)
    # the check the form runs while typing says the same beside seat 1
    checked = svc.protocols.check(tid, t1, _protocol(svc, tid, t1, typed), actor=J1)
    assert {(p.code, p.seat) for p in checked.errors} == {("not_seated_here", 1),
                                                          ("twice_in_round", 1)}
    assert svc.invariants.problems(tid) == []  # nothing wrong is confirmed


def test_one_player_at_two_tables_refused_at_confirm(service: Services) -> None:
    """A protocol submitted before the check existed (stored as the old code stored it)
    is refused at confirm, with the rule, round, table and seat."""
    svc = service
    tid = _world(svc)
    t1, t2 = _code(1, 1, svc, tid), _code(1, 2, svc, tid)
    svc.protocols.submit(tid, t2, actor=J2, base_revision=svc.games.head(tid, t2).number,
                         game=_protocol(svc, tid, t2))
    typed = list(SEATING[1][1])
    typed[0] = "p11"
    bad = _protocol(svc, tid, t1, typed)
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
    assert set(_errors(refused.value)) == {("not_seated_here", t1, 1),
                                           ("twice_in_round", t1, 1)}
    assert svc.games.head(tid, t1).state == "submitted"
    # the head judge's view of what is coming shows it at the table that is wrong: the
    # seating put him at table 2
    coming = svc.invariants.problems(tid, confirmed=False)
    assert {(p.code, p.game, p.seat) for p in coming} == {("twice_in_round", t1, 1),
                                                          ("not_seated_here", t1, 1)}
    # the other table's protocol is right: it is confirmed
    svc.protocols.confirm(tid, t2, actor=HEAD)
    assert svc.invariants.problems(tid) == []


def test_fiim_7_3_removed_player_refused_later(service: Services) -> None:
    svc = service
    tid = _world(svc)
    r1, r2 = _code(1, 1, svc, tid), _code(2, 1, svc, tid)
    # round 2 submitted first, then round 1 records seat 3's removal (FIIM 7.3)
    svc.protocols.submit(tid, r2, actor=J1, base_revision=svc.games.head(tid, r2).number,
                         game=_protocol(svc, tid, r2))
    svc.protocols.submit(tid, r1, actor=J1, base_revision=svc.games.head(tid, r1).number,
                         game=_protocol(svc, tid, r1, removed=3))
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
    # a replacement by the removed player himself is refused too
    with pytest.raises(ProtocolRefused):
        svc.replacements.replace(tid, _code(2, 2, svc, tid), 5, "p03", reason="замена",
                                 actor=HEAD)
    # his seat replaced on record (who, when, why): the protocol goes through
    svc.replacements.replace(tid, r2, 3, "p21", reason="игрок 3 удалён с турнира", actor=J1)
    svc.protocols.submit(tid, r2, actor=J1, base_revision=None)
    svc.protocols.confirm(tid, r2, actor=HEAD)
    assert svc.invariants.problems(tid) == []
    entry = next(d for _at, who, action, d in svc.tournaments.audit_log(tid)
                 if action == "replace_player")
    assert entry == {"game": r2, "seat": 3, "before": "p03", "after": "p21",
                     "reason": "игрок 3 удалён с турнира"}


def test_replacement_is_a_recorded_step(service: Services) -> None:
    svc = service
    tid = _world(svc)
    t1 = _code(1, 1, svc, tid)
    # not another table's player of the round
    with pytest.raises(ProtocolRefused) as refused:
        svc.replacements.replace(tid, t1, 1, "p11", reason="заболел", actor=J1)
    assert [p.code for p in refused.value.errors] == ["twice_in_round"]
    # a reason is needed; the other table's judge may not
    with pytest.raises(ServiceError) as no_reason:
        svc.replacements.replace(tid, t1, 1, "p21", reason="  ", actor=J1)
    assert no_reason.value.code == "replacement_reason"
    with pytest.raises(PermissionDenied):
        svc.replacements.replace(tid, t1, 1, "p21", reason="заболел", actor=J2)
    before = len(svc.tournaments.audit_log(tid))
    info = svc.replacements.replace(tid, t1, 1, "p21", reason="заболел", actor=J1)
    assert info.state == "draft" and info.game_struct().player_at(1) == "p21"
    assert len(svc.tournaments.audit_log(tid)) == before + 1
    svc.protocols.submit(tid, t1, actor=J1, base_revision=info.number,
                         game=_protocol(svc, tid, t1))
    svc.protocols.confirm(tid, t1, actor=HEAD)
    assert svc.invariants.problems(tid) == []


def test_withdrawn_player_refused_in_a_later_round(service: Services) -> None:
    svc = service
    tid = _world(svc)
    r1, r2 = _code(1, 1, svc, tid), _code(2, 1, svc, tid)
    svc.protocols.submit(tid, r1, actor=J1, base_revision=None, game=_protocol(svc, tid, r1))
    svc.roster.withdraw(tid, "p04", actor=ORG)
    with pytest.raises(SubmitRefused) as refused:
        svc.protocols.submit(tid, r2, actor=J1, base_revision=None,
                             game=_protocol(svc, tid, r2))
    assert [(p.code, p.seat) for p in refused.value.errors] == [("withdrawn_plays", 4)]
    svc.protocols.confirm(tid, r1, actor=HEAD)  # his game before withdrawing stays
