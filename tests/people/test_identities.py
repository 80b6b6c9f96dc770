"""One person, two identities: a merge joins them (audited), a split restores exactly what
was there before, on SQLite and PostgreSQL alike; only a holder of the global organizer
right may do either."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine, select

from mafiatab.services.people import PeopleError, PeopleNotFound
from mafiatab.services.rights import RightsDenied
from mafiatab.storage import models as db
from tests.people.conftest import ORGANIZER, PLAIN, game, load, people_on, tournament

NICKS = ["Альфа", "Бета", "Гамма", "Дельта", "Эхо", "Фокс", "Гольф", "Отель", "Индия", "Кило"]
ORDER = list("abcdefghij")


def two_tournaments(engine: Engine) -> tuple[Any, Any, int, int, int, int]:
    """The same ten people in two tournaments, except that the first one's `a` ("Альфа",
    club Север) is written "Альфа М." of another club in the second: two identities."""
    people, tournaments = people_on(engine)
    t1 = load(tournaments, tournament("Осень", NICKS, [
        game("g1", 1, ORDER, "red"), game("g2", 2, ORDER[::-1], "black")]))
    t2 = load(tournaments, tournament("Зима", ["Альфа М.", *NICKS[1:]], [
        game("g1", 1, ORDER, "black", date="2026-02-01")], clubs={"a": "Клуб Юг"}))
    with people.store.read() as s:
        ids = dict(s.execute(select(db.Participant.tournament_id, db.Participant.player_id)
                             .where(db.Participant.code == "a")).all())
    return people, tournaments, t1, t2, ids[t1], ids[t2]


def snapshot(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every row that says who is who: identities and participations."""
    with engine.connect() as conn:
        return {
            "players": [tuple(r) for r in conn.execute(
                select(db.Player.id, db.Player.nickname, db.Player.club).order_by(db.Player.id))],
            "participants": [tuple(r) for r in conn.execute(
                select(db.Participant.id, db.Participant.tournament_id,
                       db.Participant.player_id, db.Participant.code, db.Participant.position)
                .order_by(db.Participant.id))],
        }


def test_merge_joins_histories_and_split_restores_exactly(engine: Engine) -> None:
    people, _, t1, t2, first, second = two_tournaments(engine)
    assert first != second
    # the other nine are one identity each across both tournaments already
    shared = people.page(people.find("Бета")[0].id)
    assert [t.tournament for t in shared.stats.tournaments] == [t1, t2]
    before = snapshot(engine)
    assert [t.tournament for t in people.page(first).stats.tournaments] == [t1]

    merge = people.merge(first, second, actor=ORGANIZER, reason="один человек, два ника")
    page = people.page(first)
    assert [t.tournament for t in page.stats.tournaments] == [t1, t2]
    assert page.stats.all.games == 3
    with pytest.raises(PeopleNotFound):
        people.person(second)
    assert people.merged_into(second) == first
    [record] = people.merges(first)
    assert (record.id, record.kept, record.merged, record.merged_nickname,
            record.merged_club, record.participations, record.merged_by) == (
        merge, first, second, "Альфа М.", "Клуб Юг", 1, ORGANIZER)
    with people.store.read() as s:
        audit = s.scalars(select(db.AuditEntry).where(
            db.AuditEntry.action == "merge_players")).one()
    assert audit.user_name == ORGANIZER
    assert (audit.detail["kept"], audit.detail["merged"]) == (first, second)
    assert audit.detail["reason"] == "один человек, два ника"

    people.split(merge, actor=ORGANIZER)
    assert snapshot(engine) == before
    assert [t.tournament for t in people.page(first).stats.tournaments] == [t1]
    assert [t.tournament for t in people.page(second).stats.tournaments] == [t2]
    assert people.merged_into(second) is None
    [record] = people.merges(first)
    assert record.split_by == ORGANIZER and record.split_at is not None
    with people.store.read() as s:
        actions = list(s.scalars(select(db.AuditEntry.action).where(
            db.AuditEntry.tournament_id.is_(None)).order_by(db.AuditEntry.id)))
    assert actions == ["merge_players", "split_players"]
    with pytest.raises(PeopleError) as e:
        people.split(merge, actor=ORGANIZER)
    assert e.value.code == "already_split"


def test_merges_in_a_chain_split_back_in_reverse_order(engine: Engine) -> None:
    people, tournaments, t1, t2, first, second = two_tournaments(engine)
    t3 = load(tournaments, tournament("Весна", ["Альфа-3", *NICKS[1:]], [
        game("g1", 1, ORDER, "red", date="2026-03-01")], clubs={"a": "Клуб Восток"}))
    third = people.find("Альфа-3")[0].id
    before = snapshot(engine)
    inner = people.merge(second, third, actor=ORGANIZER)
    outer = people.merge(first, second, actor=ORGANIZER)
    assert [t.tournament for t in people.page(first).stats.tournaments] == [t1, t2, t3]
    assert people.merged_into(third) == first
    with pytest.raises(PeopleError) as e:
        people.split(inner, actor=ORGANIZER)
    assert e.value.code == "split_later_first"
    people.split(outer, actor=ORGANIZER)
    people.split(inner, actor=ORGANIZER)
    assert snapshot(engine) == before


def test_who_may_merge_and_what_is_refused(engine: Engine) -> None:
    people, _, _, _, first, second = two_tournaments(engine)
    before = snapshot(engine)
    with pytest.raises(RightsDenied):
        people.merge(first, second, actor=PLAIN)
    with pytest.raises(RightsDenied):
        people.merge(first, second, actor="nobody-at-all")
    beta = people.find("Бета")[0].id
    with pytest.raises(PeopleError) as e:  # both played in the same tournaments
        people.merge(first, beta, actor=ORGANIZER)
    assert e.value.code == "same_tournament"
    with pytest.raises(PeopleError) as e:
        people.merge(first, first, actor=ORGANIZER)
    assert e.value.code == "same_person"
    with pytest.raises(PeopleNotFound):
        people.merge(first, 10**9, actor=ORGANIZER)
    merge = people.merge(first, second, actor=ORGANIZER)
    with pytest.raises(RightsDenied):
        people.split(merge, actor=PLAIN)
    assert e.value.message("ru") == "нельзя объединить игрока с самим собой"
    people.split(merge, actor=ORGANIZER)
    assert snapshot(engine) == before


def test_numbers_past_the_database_integers_name_nobody(engine: Engine) -> None:
    people, _, _, _, first, _ = two_tournaments(engine)
    assert people.merged_into(10**30) is None
    for bad in (0, -1, 2**31, 10**30):
        with pytest.raises(PeopleNotFound):
            people.person(bad)
        with pytest.raises(PeopleNotFound):
            people.split(bad, actor=ORGANIZER)
        with pytest.raises(PeopleNotFound):
            people.merge(first, bad, actor=ORGANIZER)
