"""A tournament's registration through its service, on both databases: sign-ups, the
organizer's accept and decline, the cap and the waiting list moving up on a withdrawal,
the accepted becoming the tournament's players; the attacks that must fail (an outsider
or a player deciding, a wrong key, a flood from one address); and the awards (only the
head judge names them, never for an exhibition player). A hypothesis property drives random
sign-ups, decisions and withdrawals: the accepted never exceed the cap and the waiting
list is served in the order it was filled."""

from __future__ import annotations

import datetime as dt
import itertools
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from limits.storage import MemoryStorage

from mafiatab.domain import protocol as model
from mafiatab.services.awards import AwardError
from mafiatab.services.errors import PermissionDenied
from mafiatab.services.facade import Services
from mafiatab.services.registration import (
    RegistrationError,
    RegistrationNotFound,
    Registrations,
    RegistrationState,
    TooManySignUps,
)
from mafiatab.storage.engine import current_revision, head_revision, make_engine, upgrade
from tests.storage.conftest import migrated_engine

ORG, JUDGE_HEAD, OUTSIDER, PLAYER = "org", "gs", "outsider", "player1"
_names = itertools.count(1)


def _tournament(svc: Services) -> int:
    svc.accounts.add_account(ORG, "organizer-pass-1", actor=ORG)
    tid = svc.tournaments.new_tournament(f"Кубок {next(_names)}", "fsm", actor=ORG, stages=[
        model.Stage(id="qual", name="Отбор", kind="qualification")])
    return tid


def _players(svc: Services, tid: int) -> dict[str, bool]:
    """The tournament's players: nickname -> withdrawn."""
    return {x.nickname: x.withdrawn for x in svc.roster.lines(tid)}


def test_from_the_first_sign_up_to_the_players_list(service: Services) -> None:
    svc = service
    tid = _tournament(svc)
    reg = svc.registrations
    with pytest.raises(RegistrationState):  # closed until the organizer opens it
        reg.sign_up(tid, nickname="Раз", address="a")
    reg.configure(tid, open=True, cap=2, starts_on=dt.date(2099, 5, 1), actor=ORG)
    a = reg.sign_up(tid, nickname="Альфа", club="Север", address="a")
    b = reg.sign_up(tid, nickname="Бета", address="a")
    c = reg.sign_up(tid, nickname="Гамма", address="a")
    d = reg.sign_up(tid, nickname="Дельта", address="a")
    with pytest.raises(RegistrationState):  # the same nickname twice, whatever its case
        reg.sign_up(tid, nickname="альфа", address="a")
    assert [x.state for x in reg.board(tid).applied] == ["applied"] * 4
    assert reg.accept(tid, a.id, actor=ORG).state == "accepted"
    reg.decline(tid, b.id, actor=ORG)
    assert reg.accept(tid, c.id, actor=ORG).state == "accepted"
    # the cap is reached: the next accepted waits
    assert reg.accept(tid, d.id, actor=ORG).state == "waiting"
    assert _players(svc, tid) == {"Альфа": False, "Гамма": False}
    board = reg.board(tid)
    assert [x.nickname for x in board.accepted] == ["Альфа", "Гамма"]
    assert [x.nickname for x in board.waiting] == ["Дельта"]
    assert [(x.nickname, x.state) for x in board.others] == [("Бета", "declined")]
    # Альфа withdraws with her key: Дельта moves up at once and becomes a player
    assert reg.withdraw(tid, a.id, key=a.key).state == "withdrawn"
    board = reg.board(tid)
    assert [x.nickname for x in board.accepted] == ["Гамма", "Дельта"]
    assert board.waiting == []
    assert _players(svc, tid) == {"Альфа": True, "Гамма": False, "Дельта": False}
    # the calendar on the front page lists it with its registration's state
    line = next(c for c in reg.calendar(dt.date(2099, 1, 1)) if c.tournament == tid)
    assert (line.open, line.cap, line.accepted, line.waiting) == (True, 2, 2, 0)
    # the audit log has every step, by whom
    with svc.store.read() as s:
        actions = [a for (a,) in s.execute(sa.text(
            "SELECT action FROM audit_log WHERE tournament_id = :t ORDER BY id"), {"t": tid})]
    for action in ("registration_settings", "sign_up", "accept_registration",
                   "decline_registration", "withdraw_registration"):
        assert action in actions


def test_a_known_person_signs_up_and_comes_back_under_the_same_id(service: Services) -> None:
    svc = service
    tid = _tournament(svc)
    reg = svc.registrations
    reg.configure(tid, open=True, cap=None, starts_on=None, actor=ORG)
    svc.roster.add_text(tid, "Омега;Юг", actor=ORG)
    person = svc.people.person_ids(tid)["p1"]
    svc.roster.withdraw(tid, "p1", actor=ORG)
    with pytest.raises(RegistrationError):
        reg.sign_up(tid, person=10**12, address="b")
    again = reg.sign_up(tid, person=person, address="b")
    line = reg.accept(tid, again.id, actor=ORG)
    assert line.code == "p1" and line.nickname == "Омега"
    assert _players(svc, tid) == {"Омега": False}


def test_attacks_on_the_decisions_fail(service: Services) -> None:
    svc = service
    tid = _tournament(svc)
    reg = svc.registrations
    reg.configure(tid, open=True, cap=1, starts_on=None, actor=ORG)
    svc.accounts.add_account(OUTSIDER, "outsider-pass-1", actor=ORG)
    svc.access.grant_role(tid, PLAYER, "player", actor=ORG)
    x = reg.sign_up(tid, nickname="Икс", address="c")
    y = reg.sign_up(tid, nickname="Игрек", address="c")
    for who in (OUTSIDER, PLAYER, "nobody"):
        with pytest.raises(PermissionDenied):
            reg.accept(tid, x.id, actor=who)
        with pytest.raises(PermissionDenied):
            reg.decline(tid, x.id, actor=who)
        with pytest.raises(PermissionDenied):
            reg.withdraw(tid, x.id, actor=who)
        with pytest.raises(PermissionDenied):
            reg.promote(tid, actor=who)
        with pytest.raises(PermissionDenied):
            reg.configure(tid, open=True, cap=500, starts_on=None, actor=who)
    # a wrong key, another registration's key, another tournament's number
    with pytest.raises(RegistrationError):
        reg.withdraw(tid, x.id, key="guess")
    with pytest.raises(RegistrationError):
        reg.withdraw(tid, x.id, key=y.key)
    other = _tournament(svc)
    with pytest.raises(RegistrationNotFound):
        reg.withdraw(other, x.id, key=x.key)
    # nothing of it changed anything
    assert [z.state for z in reg.board(tid).applied] == ["applied", "applied"]
    assert reg.board(tid).cap == 1
    # bounded inputs
    with pytest.raises(RegistrationError):
        reg.sign_up(tid, nickname="x" * 101, address="c")
    with pytest.raises(RegistrationError):
        reg.sign_up(tid, nickname="ник\x00", address="c")
    with pytest.raises(RegistrationError):
        reg.configure(tid, open=True, cap=0, starts_on=None, actor=ORG)


def test_a_flood_of_sign_ups_from_one_address_is_refused(service: Services) -> None:
    tid = _tournament(service)
    service.registrations.configure(tid, open=True, cap=None, starts_on=None, actor=ORG)
    reg = Registrations(service.store, MemoryStorage(), limit="3/hour")
    for i in range(3):
        reg.sign_up(tid, nickname=f"Бот {i}", address="10.0.0.9")
    with pytest.raises(TooManySignUps) as refused:
        reg.sign_up(tid, nickname="Бот 3", address="10.0.0.9")
    assert refused.value.status == 429 and refused.value.retry >= 1
    # another address is not held back
    reg.sign_up(tid, nickname="Человек", address="10.0.0.10")
    assert len(service.registrations.board(tid).applied) == 4


def test_only_the_head_judge_names_awards(service: Services) -> None:
    svc = service
    tid = _tournament(svc)
    svc.roster.add_text(tid, "Альфа\nБета", actor=ORG)
    svc.access.grant_role(tid, JUDGE_HEAD, "head_judge", actor=ORG)
    svc.access.grant_role(tid, PLAYER, "player", actor=ORG)
    for who in (PLAYER, ORG, OUTSIDER):  # the organizer runs the tournament, not judges it
        with pytest.raises(PermissionDenied):
            svc.awards.name(tid, "mvp", "p1", actor=who)
    named = svc.awards.name(tid, "mvp", "p1", actor=JUDGE_HEAD)
    assert [(a.award, a.nickname) for a in named][:2] == [("mvp", "Альфа"),
                                                          ("best_red", None)]
    with pytest.raises(AwardError):
        svc.awards.name(tid, "best_everything", "p1", actor=JUDGE_HEAD)
    with pytest.raises(AwardError):
        svc.awards.name(tid, "mvp", "p99", actor=JUDGE_HEAD)
    svc.roster.set_exhibition(tid, "p2", True, actor=ORG)
    with pytest.raises(AwardError):
        svc.awards.name(tid, "best_don", "p2", actor=JUDGE_HEAD)
    person = svc.people.person_ids(tid)["p1"]
    assert [(x.tournament, x.award) for x in svc.awards.of_person(person)] == [(tid, "mvp")]
    # taken back
    svc.awards.name(tid, "mvp", None, actor=JUDGE_HEAD)
    assert svc.awards.of_person(person) == []


def test_migration_0018_both_ways(db_url: str) -> None:
    from alembic import command

    from mafiatab.storage.engine import _alembic_config, writer  # noqa: PLC2701

    engine = make_engine(db_url)
    try:
        upgrade(engine)
        assert current_revision(engine) == head_revision()
        tables = set(sa.inspect(engine).get_table_names())
        assert {"registrations", "registration_settings", "awards"} <= tables
        with writer(engine).begin() as conn:
            command.downgrade(_alembic_config(conn), "0017")
        inspector = sa.inspect(engine)
        assert "registrations" not in inspector.get_table_names()
        assert "exhibition" not in {c["name"] for c in
                                    inspector.get_columns("tournament_participants")}
        upgrade(engine)
        assert "awards" in sa.inspect(engine).get_table_names()
    finally:
        engine.dispose()


# --- the property -----------------------------------------------------------------------------

#: after the sign-ups (all accepted, in some order), the steps: what and on which one
KINDS = ["withdraw", "withdraw", "staff_withdraw", "decline", "promote", "cap", "sign_up",
         "accept"]
STEPS = st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 30)),
                 min_size=1, max_size=20)


@pytest.fixture(scope="module")
def one_db(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> Services:
    url = f"sqlite:///{tmp_path_factory.mktemp('reg') / 'property.sqlite'}"
    return Services(migrated_engine(url, migrated_sqlite))


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(order=st.integers(2, 9).flatmap(lambda n: st.permutations(range(n))),
       steps=STEPS, cap=st.integers(1, 4))
def test_the_cap_holds_and_the_waiting_list_is_served_in_order(
        one_db: Services, order: list[int], steps: list[tuple[str, int]], cap: int) -> None:
    svc = one_db
    tid = _tournament(svc)
    reg = Registrations(svc.store, MemoryStorage(), limit="1000/second")
    reg.configure(tid, open=True, cap=cap, starts_on=None, actor=ORG)
    keys: dict[int, str] = {}
    signed = [reg.sign_up(tid, nickname=f"Игрок {i}", address="p") for i in range(len(order))]
    keys.update({x.id: x.key for x in signed})
    queue: list[int] = []  # the waiting list as it was filled, by number
    served: list[int] = []  # those who left it for a place, in that order
    steps = [("accept", signed[i].id) for i in order] + steps
    for n, (what, pick) in enumerate(steps):
        board = reg.board(tid)
        before = [x.id for x in board.waiting]
        was_accepted = {x.id for x in board.accepted}
        rid = 0
        try:
            if what == "sign_up":
                got = reg.sign_up(tid, nickname=f"Игрок {n + 100}", address="p")
                keys[got.id] = got.key
            elif what == "cap":
                cap_asked = 1 + pick % 4
                reg.configure(tid, open=True, cap=cap_asked, starts_on=None, actor=ORG)
                cap = cap_asked
            elif what == "promote":
                reg.promote(tid, actor=ORG)
            elif what == "accept" and n < len(order):
                reg.accept(tid, pick, actor=ORG)
            else:
                board = reg.board(tid)
                # each step on the registrations it applies to (the others are refused)
                pool = {"accept": board.applied, "decline": [*board.applied, *board.waiting],
                        "withdraw": [*board.accepted, *board.waiting, *board.applied],
                        }.get(what, board.accepted)
                if pool:
                    rid = pool[pick % len(pool)].id
                    if what == "accept":
                        reg.accept(tid, rid, actor=ORG)
                    elif what == "decline":
                        reg.decline(tid, rid, actor=ORG)
                    elif what == "withdraw":
                        reg.withdraw(tid, rid, key=keys[rid])
                    else:
                        reg.withdraw(tid, rid, actor=ORG)
        except RegistrationState:
            pass  # a step the state refuses (a full list, a cap below the accepted) changes nothing
        board = reg.board(tid)
        now = [x.id for x in board.waiting]
        queue += [r for r in now if r not in before and r not in queue]
        accepted = {x.id for x in board.accepted}
        moved = [r for r in before if r not in now and r in accepted]
        # who moved up is the head of the waiting list as it stood
        assert moved == before[:len(moved)]
        served += moved
        # the accepted never exceed the cap
        assert len(board.accepted) <= cap
        # an accepted one's withdrawal leaves no free place beside a waiting list
        if what in ("withdraw", "staff_withdraw") and rid in was_accepted:
            assert not (board.waiting and len(board.accepted) < cap)
        # the waiting list in its order is the order it was filled
        assert now == [r for r in queue if r in now]
        # the accepted are exactly the tournament's players who have not withdrawn
        playing = {nick for nick, gone in _players(svc, tid).items() if not gone}
        assert playing == {x.nickname for x in board.accepted}
    # those served left the waiting list first come first served
    assert served == [r for r in queue if r in served]
