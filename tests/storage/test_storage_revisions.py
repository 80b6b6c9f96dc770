"""Protocol revisions: draft -> submitted -> confirmed (or returned), append-only, checked
by the rules, the confirmer rule, roles; standings read confirmed revisions only."""

from __future__ import annotations

from decimal import Decimal

import msgspec
import pytest

from mafiatab.domain.problems import ProtocolRefused
from mafiatab.domain.protocol import Game, SeatScores
from mafiatab.formats.standings_json import standings_to_dict
from mafiatab.formats.tournament_json import game_to_dict
from mafiatab.sample import sample_tournament
from mafiatab.services.tournaments import (
    ConflictError,
    NotFound,
    PermissionDenied,
    ServiceError,
    StateError,
    TournamentService,
    diff_dicts,
)
from mafiatab.storage.models import CONFIRMED, DRAFT, HEAD_JUDGE, JUDGE, RETURNED, SUBMITTED

ORG, HJ, HJ2, J1, J2 = "org", "head", "head2", "judge1", "judge2"


def _setup(service: TournamentService, *, must_differ: bool = False) -> tuple[int, list[Game]]:
    sample = sample_tournament("fsm", 20, 3, seed=11)
    tid = service.create_tournament("Cup", "fsm", actor=ORG, stages=sample.stages,
                                    confirmer_must_differ=must_differ)
    service.register_players(tid, sample.players, actor=ORG)
    for user, role in ((HJ, HEAD_JUDGE), (HJ2, HEAD_JUDGE), (J1, JUDGE), (J2, JUDGE)):
        service.grant_role(tid, user, role, actor=ORG)
    return tid, sample.games


def _winner_seat(g: Game) -> int:
    return next(s.seat for s in g.seats
                if (s.role in ("red", "sheriff")) == (g.result == "red"))


def _with_extra(g: Game, value: str) -> Game:
    seat = _winner_seat(g)
    return msgspec.structs.replace(g, scores={**g.scores, seat: SeatScores(extra=Decimal(value))})


def test_states_and_standings_read_confirmed_only(service: TournamentService) -> None:
    tid, games = _setup(service)
    g = games[0]
    r1 = service.save_protocol(tid, g, actor=J1, base_revision=0)
    assert (r1.number, r1.state, r1.author) == (1, DRAFT, J1)
    # nothing confirmed yet: the game is not in the standings
    assert service.standings(tid).rows == []
    r2 = service.submit_protocol(tid, g.id, actor=J1, base_revision=1)
    assert (r2.number, r2.state) == (2, SUBMITTED)
    r3 = service.confirm_protocol(tid, g.id, actor=HJ, base_revision=2)
    assert (r3.number, r3.state) == (3, CONFIRMED)
    before = standings_to_dict(service.standings(tid))
    assert sum(r["games"] for r in before["standings"]) == 10
    # an appeal's correction: a new draft does not change the standings until confirmed
    changed = _with_extra(g, _other_extra(g))
    assert changed != g
    r4 = service.save_protocol(tid, changed, actor=HJ, base_revision=3, reason="appeal 7")
    assert r4.state == DRAFT and r4.reason == "appeal 7"
    assert standings_to_dict(service.standings(tid)) == before
    assert service.export(tid).games[0] == g
    service.submit_protocol(tid, g.id, actor=HJ)
    service.confirm_protocol(tid, g.id, actor=HJ2)
    assert standings_to_dict(service.standings(tid)) != before
    assert service.export(tid).games[0] == changed
    # append-only: every step is a revision of its own, with author, time and reason
    revs = service.revisions(tid, g.id)
    assert [r.state for r in revs] == [DRAFT, SUBMITTED, CONFIRMED, DRAFT, SUBMITTED, CONFIRMED]
    assert [r.author for r in revs] == [J1, J1, HJ, HJ, HJ, HJ2]
    assert all(r.at.tzinfo is not None for r in revs)
    assert revs[0].protocol == game_to_dict(g)


def _other_extra(g: Game) -> str:
    """An extra for the winner's seat that differs from the one the sample gave."""
    current = g.scores.get(_winner_seat(g), SeatScores()).extra
    return "0.2" if current == Decimal("0.4") else "0.4"


def test_changes_are_recorded(service: TournamentService) -> None:
    tid, games = _setup(service)
    g = games[0]
    service.save_protocol(tid, g, actor=J1, base_revision=0)
    seat = _winner_seat(g)
    value = _other_extra(g)
    r2 = service.save_protocol(tid, _with_extra(g, value), actor=J1, base_revision=1)
    key = f"scores.{seat}.extra"
    assert key in r2.changes
    old = game_to_dict(g).get("scores", {}).get(str(seat), {}).get("extra")
    assert r2.changes[key] == [old, Decimal(value)]
    moved = msgspec.structs.replace(g, judge="Petrov", table=2)
    r3 = service.save_protocol(tid, moved, actor=J2, base_revision=2)
    assert r3.changes["judge"] == [g.judge, "Petrov"]
    assert r3.changes["table"] == [g.table, 2]


def test_diff_of_seats_item_by_item() -> None:
    old = {"seats": [{"seat": 1, "role": "red"}, {"seat": 2, "role": "don"}], "result": "red"}
    new = {"seats": [{"seat": 1, "role": "red"}, {"seat": 2, "role": "black"}],
           "result": "black", "first_killed": 3}
    assert diff_dicts(old, new) == {"seats.1.role": ["don", "black"],
                                    "result": ["red", "black"], "first_killed": [None, 3]}


def test_rule_problems_block_submission(service: TournamentService) -> None:
    tid, games = _setup(service)
    g = games[0]
    bad = _with_extra(g, "1.2")
    service.save_protocol(tid, bad, actor=J1, base_revision=0)  # a draft may be unfinished
    with pytest.raises(ProtocolRefused) as refused:
        service.submit_protocol(tid, g.id, actor=J1)
    [problem] = [p for p in refused.value.problems if not p.warning]
    assert (problem.game, problem.seat, problem.field, problem.clause) == (
        g.id, _winner_seat(g), "extra", "FSM 8.4.3")
    assert "FSM 8.4.3" in problem.message("en") and "ФСМ 8.4.3" in problem.message("ru")
    assert service.head(tid, g.id).state == DRAFT
    # fixed: the head judge's approval makes it sound
    seat = _winner_seat(g)
    ok = msgspec.structs.replace(
        bad, scores={**bad.scores, seat: SeatScores(extra=Decimal("1.2"), approved=True)})
    service.save_protocol(tid, ok, actor=J1, base_revision=1)
    assert service.submit_protocol(tid, g.id, actor=J1).state == SUBMITTED


def test_unknown_stage_is_refused_on_save(service: TournamentService) -> None:
    tid, games = _setup(service)
    with pytest.raises(ProtocolRefused):
        service.save_protocol(tid, msgspec.structs.replace(games[0], stage="nope"), actor=J1,
                              base_revision=0)


def test_return_and_resubmit(service: TournamentService) -> None:
    tid, games = _setup(service)
    g = games[1]
    service.save_protocol(tid, g, actor=J1, base_revision=0)
    service.submit_protocol(tid, g.id, actor=J1)
    with pytest.raises(ServiceError):
        service.return_protocol(tid, g.id, actor=HJ, reason="  ")
    back = service.return_protocol(tid, g.id, actor=HJ, reason="seat 3 penalty missing")
    assert (back.state, back.reason) == (RETURNED, "seat 3 penalty missing")
    with pytest.raises(StateError):
        service.confirm_protocol(tid, g.id, actor=HJ)
    assert service.submit_protocol(tid, g.id, actor=J1).state == SUBMITTED
    assert service.confirm_protocol(tid, g.id, actor=HJ).state == CONFIRMED
    with pytest.raises(StateError) as state:
        service.submit_protocol(tid, g.id, actor=J1)
    assert "confirmed" in state.value.message("en")
    assert "подтверждён" in state.value.message("ru")


def test_confirmer_must_differ(service: TournamentService) -> None:
    tid, games = _setup(service, must_differ=True)
    g = games[0]
    service.save_protocol(tid, g, actor=HJ, base_revision=0)
    service.submit_protocol(tid, g.id, actor=HJ)
    with pytest.raises(PermissionDenied) as denied:
        service.confirm_protocol(tid, g.id, actor=HJ)
    assert HJ in denied.value.message("en")
    assert service.confirm_protocol(tid, g.id, actor=HJ2).state == CONFIRMED
    # without the setting the same head judge may confirm his own protocol
    service.set_options(tid, actor=ORG, confirmer_must_differ=False)
    h = games[1]
    service.save_protocol(tid, h, actor=HJ, base_revision=0)
    service.submit_protocol(tid, h.id, actor=HJ)
    assert service.confirm_protocol(tid, h.id, actor=HJ).state == CONFIRMED


def test_roles(service: TournamentService) -> None:
    tid, games = _setup(service)
    g = games[0]
    service.grant_role(tid, "guest", "viewer", actor=ORG)
    with pytest.raises(PermissionDenied):
        service.save_protocol(tid, g, actor="guest", base_revision=0)
    with pytest.raises(PermissionDenied):
        service.save_protocol(tid, g, actor="stranger", base_revision=0)
    service.save_protocol(tid, g, actor=J1, base_revision=0)
    service.submit_protocol(tid, g.id, actor=J1)
    with pytest.raises(PermissionDenied):
        service.confirm_protocol(tid, g.id, actor=J2)  # a judge cannot confirm
    with pytest.raises(PermissionDenied):
        service.grant_role(tid, J1, HEAD_JUDGE, actor=J1)
    with pytest.raises(ServiceError):
        service.grant_role(tid, J1, "emperor", actor=ORG)
    assert service.roles_of(tid, J1) == {JUDGE}


def test_stale_base_is_a_conflict(service: TournamentService) -> None:
    tid, games = _setup(service)
    g = games[0]
    service.save_protocol(tid, g, actor=J1, base_revision=0)
    service.save_protocol(tid, _with_extra(g, "0.2"), actor=J1, base_revision=1)
    mine = _with_extra(g, "0.4")
    with pytest.raises(ConflictError) as conflict:
        service.save_protocol(tid, mine, actor=J2, base_revision=1)
    c = conflict.value
    assert (c.head, c.author, c.base) == (2, J1, 1)
    assert c.yours == game_to_dict(mine)
    assert J1 in c.message("en") and "revision 2" in c.message("en")
    # the refused protocol is kept in the audit log
    entries = [e for e in service.audit_log(tid) if e[2] == "conflict"]
    assert entries and entries[-1][3]["protocol"] == game_to_dict(mine)
    # a new game that already exists
    with pytest.raises(ConflictError):
        service.save_protocol(tid, g, actor=J2, base_revision=0)
    with pytest.raises(NotFound):
        service.save_protocol(tid, games[1], actor=J2, base_revision=3)


def test_find_tournament(service: TournamentService) -> None:
    tid, _ = _setup(service)
    assert service.find_tournament(str(tid)) == tid
    assert service.find_tournament("Cup") == tid
    with pytest.raises(NotFound):
        service.find_tournament("Nothing")
    service.create_tournament("Cup", "fiim2018", actor=ORG)
    with pytest.raises(NotFound) as ambiguous:
        service.find_tournament("Cup")
    assert "ids" in ambiguous.value.message("en")
