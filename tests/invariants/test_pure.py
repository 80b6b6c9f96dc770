"""The tournament-wide invariants as a pure check (domain/invariants.py), golden cases named
after their rule, a property over random seatings, and `mafiatab check` on a file."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mafiatab.domain.invariants import (
    ONE_GAME_A_ROUND,
    SEATED_PLAYS,
    WITHDRAWN_PLAYS_NO_MORE,
    Replacement,
    Withdrawal,
    check_tournament,
    removed_from_tournament,
)
from mafiatab.domain.protocol import Game, Penalty, Seat, SeatScores
from mafiatab.rules import get_profile
from tests.helpers import ROLES

FIIM = get_profile("fiim2018")
FSM = get_profile("fsm")


def _game(gid: str, players: list[str], *, rnd: int = 1, table: int = 1, stage: str = "qual",
          removed: dict[int, str] | None = None) -> Game:
    scores = {seat: SeatScores(penalties=[Penalty(kind="disqualification", critical=False,
                                                  rule=rule)])
              for seat, rule in (removed or {}).items()}
    return Game(id=gid, stage=stage, round=rnd, table=table, result="red",
                seats=[Seat(seat=i + 1, player=p, role=ROLES[i + 1]) for i, p in enumerate(players)],
                scores=scores)


def _players(first: int) -> list[str]:
    return [f"p{i:02d}" for i in range(first, first + 10)]


def test_one_game_a_round_two_tables_name_both_seats() -> None:
    a, b = _players(1), _players(11)
    a[0] = "p11"  # seat 1 of table 1 typed as table 2's seat 1
    problems = check_tournament([_game("r1t1", a), _game("r1t2", b, table=2)], FIIM,
                                stages=["qual"], names={"p11": "Лис"})
    assert [(p.code, p.game, p.seat, p.clause) for p in problems] == [
        ("twice_in_round", "r1t1", 1, ONE_GAME_A_ROUND),
        ("twice_in_round", "r1t2", 1, ONE_GAME_A_ROUND)]
    ru = problems[1].message("ru")
    assert ru == ("игра r1t2, место 1, игрок: тур 1, стол 2: игрок Лис в этом туре уже "
                  "записан за столом 1 (место 1) (правило турнира: одна игра за тур)")
    en = problems[0].message("en")
    assert "round 1, table 1: player Лис is already recorded at table 2 (seat 1)" in en
    assert problems[0].as_dict("ru")["params"]["player"] == "p11"  # the API keeps the id


def test_one_game_a_round_other_rounds_and_stages_are_free() -> None:
    a = _players(1)
    games = [_game("r1", a), _game("r2", a, rnd=2), _game("f1", a, stage="final")]
    assert check_tournament(games, FIIM, stages=["qual", "final"]) == []


def test_seated_player_plays_unless_replaced_on_record() -> None:
    seated = _players(1)
    typed = list(seated)
    typed[4] = "p30"
    g = _game("r1t1", typed)
    (p,) = check_tournament([g], FIIM, seating={"r1t1": seated})
    assert (p.code, p.seat, p.clause) == ("not_seated_here", 5, SEATED_PLAYS)
    assert "на место 5 рассажен p05, а записан p30; замена не записана" in p.message("ru")
    swap = Replacement("r1t1", 5, "p05", "p30", by="head", at="2026-03-07T11:00:00+00:00",
                       reason="опоздал")
    assert check_tournament([g], FIIM, seating={"r1t1": seated}, replacements=[swap]) == []
    # a replacement of somebody no longer in that seat changes nothing
    stale = Replacement("r1t1", 5, "p06", "p30")
    assert [x.code for x in check_tournament([g], FIIM, seating={"r1t1": seated},
                                             replacements=[stale])] == ["not_seated_here"]


def test_fiim_7_3_removed_player_plays_no_later_game() -> None:
    a = _players(1)
    first = _game("r1", a, removed={3: "7.3"})
    later = _game("r2", a, rnd=2)
    assert removed_from_tournament(first, FIIM) == [3]
    problems = check_tournament([later, first], FIIM, stages=["qual"])
    assert [(p.code, p.game, p.seat, p.clause) for p in problems] == [
        ("removed_plays", "r2", 3, "FIIM 7.3")]
    assert problems[0].message("ru") == (
        "игра r2, место 3, игрок: тур 2, стол 1: игрок p03 удалён с турнира в игре r1 "
        "(тур 1, стол 1) и дальше не играет (ФИИМ 7.3)")
    # a disqualification of another clause removes from the table only
    other = _game("r1", a, removed={3: "6.7.4"})
    assert check_tournament([later, other], FIIM, stages=["qual"]) == []
    # the log's disqualify marked `tournament` removes him too ("FIIM 7.3" written whole)
    logged = _game("r1", a).__class__(**{**{f: getattr(first, f) for f in first.__struct_fields__},
                                         "scores": {}, "log": [{"type": "disqualify", "seat": 3,
                                                                "tournament": True}]})
    assert removed_from_tournament(logged, FIIM) == [3]
    assert removed_from_tournament(_game("x", a, removed={3: "FIIM 7.3"}), FIIM) == [3]


def test_fsm_8_1_1_removal_from_the_tournament() -> None:
    a = _players(1)
    problems = check_tournament([_game("r1", a, removed={8: "8.1.1"}), _game("r2", a, rnd=2)],
                                FSM, stages=["qual"])
    assert [(p.code, p.seat, p.clause) for p in problems] == [("removed_plays", 8, "FSM 8.1.1")]
    assert "ФСМ 8.1.1" in problems[0].message("ru")
    # FIIM's clause number means nothing in an FSM tournament
    assert check_tournament([_game("r1", a, removed={8: "7.3"}), _game("r2", a, rnd=2)], FSM,
                            stages=["qual"]) == []


def test_withdrawn_player_plays_no_later_round() -> None:
    a = _players(1)
    games = [_game("r1", a), _game("r2", a, rnd=2), _game("r3", a, rnd=3)]
    problems = check_tournament(games, FIIM, stages=["qual"],
                                withdrawals=[Withdrawal("p07", ("qual", 1))])
    assert [(p.code, p.game, p.seat, p.clause) for p in problems] == [
        ("withdrawn_plays", "r2", 7, WITHDRAWN_PLAYS_NO_MORE),
        ("withdrawn_plays", "r3", 7, WITHDRAWN_PLAYS_NO_MORE)]
    assert "правило турнира: выбывший игрок дальше не играет" in problems[0].message("ru")


# --- a property: the check finds exactly the doubles a random record holds ------------

POOL = [f"p{i:02d}" for i in range(1, 41)]


@st.composite
def records(draw: st.DrawFn) -> list[Game]:
    games: list[Game] = []
    for rnd in range(1, draw(st.integers(1, 3)) + 1):
        for table in range(1, draw(st.integers(1, 3)) + 1):
            players = draw(st.lists(st.sampled_from(POOL), min_size=10, max_size=10,
                                    unique=True))
            games.append(_game(f"r{rnd}t{table}", players, rnd=rnd, table=table))
    return games


@settings(max_examples=150, deadline=None)
@given(records())
def test_property_twice_in_round_is_exactly_the_doubles(games: list[Game]) -> None:
    problems = check_tournament(games, FIIM, stages=["qual"])
    assert {p.code for p in problems} <= {"twice_in_round"}
    flagged = {(p.game, p.seat) for p in problems}
    # a seat is flagged iff its player sits at another table of the same round
    expected = set()
    for g in games:
        for s in g.seats:
            if any(o.id != g.id and o.round == g.round and s.player in {x.player for x in o.seats}
                   for o in games):
                expected.add((g.id, s.seat))
    assert flagged == expected
    # each problem names its round and table, and they are the game's own
    by_id = {g.id: g for g in games}
    for p in problems:
        assert (p.params["round"], p.params["table"]) == (by_id[str(p.game)].round,
                                                         by_id[str(p.game)].table)


@settings(max_examples=100, deadline=None)
@given(records(), st.data())
def test_property_seating_kept_means_no_seating_problem(games: list[Game], data: st.DataObject
                                                       ) -> None:
    """Recorded as seated: no `not_seated_here`; one seat changed: exactly that seat,
    until the replacement is on record."""
    seating = {g.id: [s.player for s in g.seats] for g in games}
    assert not [p for p in check_tournament(games, FIIM, seating=seating)
                if p.code == "not_seated_here"]
    g = data.draw(st.sampled_from(games))
    seat = data.draw(st.integers(1, 10))
    new = data.draw(st.sampled_from([p for p in POOL if p not in seating[g.id]]))
    changed = [x if x.id != g.id else _game(x.id, [new if i + 1 == seat else p
                                                   for i, p in enumerate(seating[x.id])],
                                            rnd=x.round, table=x.table) for x in games]
    wrong = [(p.game, p.seat) for p in check_tournament(changed, FIIM, seating=seating)
             if p.code == "not_seated_here"]
    assert wrong == [(g.id, seat)]
    swap = Replacement(g.id, seat, seating[g.id][seat - 1], new)
    assert not [p for p in check_tournament(changed, FIIM, seating=seating, replacements=[swap])
                if p.code == "not_seated_here"]


def test_one_game_a_round_the_seated_table_is_right() -> None:
    """With a seating on record, the table where the seating put him is right: only the
    other one's seat is refused (and both when the seating itself seats him twice)."""
    a, b = _players(1), _players(11)
    typed = list(a)
    typed[0] = "p11"
    games = [_game("r1t1", typed), _game("r1t2", b, table=2)]
    problems = check_tournament(games, FIIM, seating={"r1t1": a, "r1t2": b})
    assert {(p.code, p.game, p.seat) for p in problems} == {("twice_in_round", "r1t1", 1),
                                                           ("not_seated_here", "r1t1", 1)}
    twice = check_tournament(games, FIIM, seating={"r1t1": typed, "r1t2": b})
    assert {(p.code, p.game, p.seat) for p in twice} == {("twice_in_round", "r1t1", 1),
                                                        ("twice_in_round", "r1t2", 1)}


@settings(max_examples=100, deadline=None)
@given(records(), st.data())
def test_property_removed_player_flagged_exactly_in_later_rounds(games: list[Game],
                                                                 data: st.DataObject) -> None:
    """FIIM 7.3: the removed player's seats in later rounds are flagged, no others."""
    g = data.draw(st.sampled_from(games))
    seat = data.draw(st.integers(1, 10))
    player = g.seats[seat - 1].player
    removal = _game(g.id, [s.player for s in g.seats], rnd=g.round, table=g.table,
                    removed={seat: "7.3"})
    record = [removal if x.id == g.id else x for x in games]
    flagged = {(p.game, p.seat) for p in check_tournament(record, FIIM, stages=["qual"])
               if p.code == "removed_plays"}
    assert flagged == {(x.id, s.seat) for x in record for s in x.seats
                       if s.player == player and x.round > g.round}
    assert all(p.clause == "FIIM 7.3" for p in check_tournament(record, FIIM, stages=["qual"])
               if p.code == "removed_plays")
