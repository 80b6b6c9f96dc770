"""Protocol revisions: draft -> submitted -> confirmed (or returned), append-only, checked
by the rules, the confirmer rule, roles; standings read confirmed revisions only. A game
enters as its first draft through `games.add_game` (the staff), its table's judge steps
it on through `protocols` as the web's form and API do."""

from __future__ import annotations

from decimal import Decimal

import msgspec
import pytest

from mafiatab.domain.problems import ProtocolRefused
from mafiatab.domain.protocol import Game, SeatScores
from mafiatab.formats.standings_json import standings_to_dict
from mafiatab.formats.tournament_json import game_to_dict
from mafiatab.sample import sample_tournament
from mafiatab.services.facade import Services
from mafiatab.services.tournaments import (
    ConflictError,
    NotFound,
    PermissionDenied,
    RevisionInfo,
    ServiceError,
    StateError,
    diff_dicts,
)
from mafiatab.storage.models import CONFIRMED, DRAFT, HEAD_JUDGE, JUDGE, RETURNED, SUBMITTED

ORG, HJ, HJ2, J1, J2 = "org", "head", "head2", "judge1", "judge2"


def _setup(service: Services, *, must_differ: bool = False) -> tuple[int, list[Game]]:
    sample = sample_tournament("fsm", 20, 3, seed=11)
    tid = service.tournaments.create_tournament("Cup", "fsm", actor=ORG, stages=sample.stages,
                                    confirmer_must_differ=must_differ)
    service.tournaments.register_players(tid, sample.players, actor=ORG)
    for user, role in ((HJ, HEAD_JUDGE), (HJ2, HEAD_JUDGE), (J1, JUDGE), (J2, JUDGE)):
        service.access.grant_role(tid, user, role, actor=ORG)
    return tid, sample.games


def _enter(service: Services, tid: int, g: Game, judge: str = J1) -> RevisionInfo:
    """A new game's first draft, entered by the head judge, with its table's judge."""
    info = service.games.add_game(tid, g, actor=HJ)
    service.games.assign_judge(tid, g.id, judge, actor=HJ)
    return info


def _winner_seat(g: Game) -> int:
    return next(s.seat for s in g.seats
                if (s.role in ("red", "sheriff")) == (g.result == "red"))


def _with_extra(g: Game, value: str) -> Game:
    seat = _winner_seat(g)
    return msgspec.structs.replace(g, scores={**g.scores, seat: SeatScores(extra=Decimal(value))})


def test_states_and_standings_read_confirmed_only(service: Services) -> None:
    tid, games = _setup(service)
    g = games[0]
    r1 = _enter(service, tid, g)
    assert (r1.number, r1.state, r1.author) == (1, DRAFT, HJ)
    # nothing confirmed yet: the game is not in the standings
    assert service.standings.compute(tid).rows == []
    r2 = service.protocols.submit(tid, g.id, actor=J1, base_revision=1)
    assert (r2.number, r2.state) == (2, SUBMITTED)
    r3 = service.protocols.confirm(tid, g.id, actor=HJ, base_revision=2)
    assert (r3.number, r3.state) == (3, CONFIRMED)
    before = standings_to_dict(service.standings.compute(tid))
    assert sum(r["games"] for r in before["standings"]) == 10
    # an appeal's correction: a new draft does not change the standings until confirmed
    changed = _with_extra(g, _other_extra(g))
    assert changed != g
    r4 = service.protocols.save_draft(tid, g.id, changed, actor=HJ, base_revision=3,
                                      reason="appeal 7")
    assert r4.state == DRAFT and r4.reason == "appeal 7"
    assert standings_to_dict(service.standings.compute(tid)) == before
    assert service.tournaments.export(tid).games[0] == g
    service.protocols.submit(tid, g.id, actor=HJ, base_revision=None)
    service.protocols.confirm(tid, g.id, actor=HJ2)
    assert standings_to_dict(service.standings.compute(tid)) != before
    assert service.tournaments.export(tid).games[0] == changed
    # append-only: every step is a revision of its own, with author, time and reason
    revs = service.games.revisions(tid, g.id)
    assert [r.state for r in revs] == [DRAFT, SUBMITTED, CONFIRMED, DRAFT, SUBMITTED, CONFIRMED]
    assert [r.author for r in revs] == [HJ, J1, HJ, HJ, HJ, HJ2]
    assert all(r.at.tzinfo is not None for r in revs)
    assert revs[0].protocol == game_to_dict(g)


def _other_extra(g: Game) -> str:
    """An extra for the winner's seat that differs from the one the sample gave."""
    current = g.scores.get(_winner_seat(g), SeatScores()).extra
    return "0.2" if current == Decimal("0.4") else "0.4"


def test_changes_are_recorded(service: Services) -> None:
    tid, games = _setup(service)
    g = games[0]
    _enter(service, tid, g)
    seat = _winner_seat(g)
    value = _other_extra(g)
    r2 = service.protocols.save_draft(tid, g.id, _with_extra(g, value), actor=J1,
                                      base_revision=1)
    key = f"scores.{seat}.extra"
    assert key in r2.changes
    old = game_to_dict(g).get("scores", {}).get(str(seat), {}).get("extra")
    assert r2.changes[key] == [old, Decimal(value)]
    # the game stays where it is stored: a protocol naming another table does not move it
    moved = msgspec.structs.replace(_with_extra(g, value), judge="Petrov", table=g.table + 1)
    r3 = service.protocols.save_draft(tid, g.id, moved, actor=HJ2, base_revision=2)
    assert r3.changes == {"judge": [g.judge, "Petrov"]}


def test_diff_of_seats_item_by_item() -> None:
    old = {"seats": [{"seat": 1, "role": "red"}, {"seat": 2, "role": "don"}], "result": "red"}
    new = {"seats": [{"seat": 1, "role": "red"}, {"seat": 2, "role": "black"}],
           "result": "black", "first_killed": 3}
    assert diff_dicts(old, new) == {"seats.1.role": ["don", "black"],
                                    "result": ["red", "black"], "first_killed": [None, 3]}


def test_rule_problems_block_submission(service: Services) -> None:
    tid, games = _setup(service)
    g = games[0]
    bad = _with_extra(g, "1.2")
    _enter(service, tid, bad)  # a draft may be unfinished
    with pytest.raises(ProtocolRefused) as refused:
        service.protocols.submit(tid, g.id, actor=J1, base_revision=None)
    [problem] = [p for p in refused.value.problems if not p.warning]
    assert (problem.game, problem.seat, problem.field, problem.clause) == (
        g.id, _winner_seat(g), "extra", "FSM 8.4.3")
    assert "FSM 8.4.3" in problem.message("en") and "ФСМ 8.4.3" in problem.message("ru")
    assert service.games.head(tid, g.id).state == DRAFT
    # fixed: the head judge's approval makes it sound
    seat = _winner_seat(g)
    ok = msgspec.structs.replace(
        bad, scores={**bad.scores, seat: SeatScores(extra=Decimal("1.2"), approved=True)})
    service.protocols.save_draft(tid, g.id, ok, actor=HJ, base_revision=1)
    assert service.protocols.submit(tid, g.id, actor=J1, base_revision=None).state == SUBMITTED


def test_unknown_stage_is_refused_on_save(service: Services) -> None:
    tid, games = _setup(service)
    with pytest.raises(ProtocolRefused):
        service.games.add_game(tid, msgspec.structs.replace(games[0], stage="nope"), actor=HJ)


def test_return_and_resubmit(service: Services) -> None:
    tid, games = _setup(service)
    g = games[1]
    _enter(service, tid, g)
    service.protocols.submit(tid, g.id, actor=J1, base_revision=None)
    with pytest.raises(ServiceError):
        service.protocols.send_back(tid, g.id, actor=HJ, reason="  ")
    back = service.protocols.send_back(tid, g.id, actor=HJ, reason="seat 3 penalty missing")
    assert (back.state, back.reason) == (RETURNED, "seat 3 penalty missing")
    with pytest.raises(StateError):
        service.protocols.confirm(tid, g.id, actor=HJ)
    assert service.protocols.submit(tid, g.id, actor=J1, base_revision=None).state == SUBMITTED
    assert service.protocols.confirm(tid, g.id, actor=HJ).state == CONFIRMED
    with pytest.raises(StateError) as state:
        service.protocols.submit(tid, g.id, actor=HJ, base_revision=None)
    assert "confirmed" in state.value.message("en")
    assert "подтверждён" in state.value.message("ru")


def test_confirmer_must_differ(service: Services) -> None:
    tid, games = _setup(service, must_differ=True)
    g = games[0]
    _enter(service, tid, g)
    service.protocols.submit(tid, g.id, actor=HJ, base_revision=None)
    with pytest.raises(PermissionDenied) as denied:
        service.protocols.confirm(tid, g.id, actor=HJ)
    assert HJ in denied.value.message("en")
    assert service.protocols.confirm(tid, g.id, actor=HJ2).state == CONFIRMED
    # without the setting the same head judge may confirm his own protocol
    service.tournaments.set_options(tid, actor=ORG, confirmer_must_differ=False)
    h = games[1]
    _enter(service, tid, h)
    service.protocols.submit(tid, h.id, actor=HJ, base_revision=None)
    assert service.protocols.confirm(tid, h.id, actor=HJ).state == CONFIRMED


def test_roles(service: Services) -> None:
    tid, games = _setup(service)
    g = games[0]
    service.access.grant_role(tid, "guest", "viewer", actor=ORG)
    for who in ("guest", "stranger", J1):  # a new game is the staff's to enter
        with pytest.raises(PermissionDenied):
            service.games.add_game(tid, g, actor=who)
    _enter(service, tid, g)
    with pytest.raises(PermissionDenied):  # another table's judge
        service.protocols.submit(tid, g.id, actor=J2, base_revision=None)
    service.protocols.submit(tid, g.id, actor=J1, base_revision=None)
    with pytest.raises(PermissionDenied):
        service.protocols.confirm(tid, g.id, actor=J1)  # a judge cannot confirm
    with pytest.raises(PermissionDenied):
        service.access.grant_role(tid, J1, HEAD_JUDGE, actor=J1)
    with pytest.raises(ServiceError):
        service.access.grant_role(tid, J1, "emperor", actor=ORG)
    assert service.access.roles_of(tid, J1) == {JUDGE}


def test_stale_base_is_a_conflict(service: Services) -> None:
    tid, games = _setup(service)
    g = games[0]
    _enter(service, tid, g)
    service.protocols.save_draft(tid, g.id, _with_extra(g, "0.2"), actor=J1, base_revision=1)
    mine = _with_extra(g, "0.4")
    with pytest.raises(ConflictError) as conflict:
        service.protocols.save_draft(tid, g.id, mine, actor=HJ2, base_revision=1)
    c = conflict.value
    assert (c.head, c.author, c.base) == (2, J1, 1)
    assert c.yours == game_to_dict(mine)
    assert J1 in c.message("en") and "revision 2" in c.message("en")
    # the refused protocol is kept in the audit log
    entries = [e for e in service.tournaments.audit_log(tid, actor=ORG) if e[2] == "conflict"]
    assert entries and entries[-1][3]["protocol"] == game_to_dict(mine)
    # a new game that already exists
    with pytest.raises(ConflictError):
        service.games.add_game(tid, g, actor=HJ2)
    with pytest.raises(NotFound):
        service.protocols.save_draft(tid, games[1].id, games[1], actor=HJ2, base_revision=3)


def test_find_tournament(service: Services) -> None:
    tid, _ = _setup(service)
    assert service.tournaments.find_tournament(str(tid)) == tid
    assert service.tournaments.find_tournament("Cup") == tid
    with pytest.raises(NotFound):
        service.tournaments.find_tournament("Nothing")
    service.tournaments.create_tournament("Cup", "fiim2018", actor=ORG)
    with pytest.raises(NotFound) as ambiguous:
        service.tournaments.find_tournament("Cup")
    assert "ids" in ambiguous.value.message("en")
