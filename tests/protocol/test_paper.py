"""The paper protocol's columns (domain/paper.py): random legal games reconciled with their
logs, and the cross-checks named after their clause."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from mafiatab.domain.paper import check_paper, reconcile
from mafiatab.domain.protocol import (
    Day,
    Game,
    Nomination,
    Penalty,
    Protest,
    Seat,
    SeatScores,
    VoteRound,
)
from mafiatab.domain.validation import validate_game
from mafiatab.rules import FIIM2018, FSM
from mafiatab.rules.profile import RuleProfile
from tests.gamelog.strategies import PlayedGame, played_games

SETTINGS = settings(max_examples=60, deadline=None,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PLAYERS = {f"p{s}" for s in range(1, 11)}
ROLES = ["red", "red", "don", "red", "black", "red", "sheriff", "red", "black", "red"]


def _blank(played: PlayedGame) -> Game:
    seats = [Seat(seat=s, player=f"p{s}", role=r) for s, r in sorted(played.roles.items())]
    return Game(id="g", stage="q", round=1, table=1, seats=seats, result="", log=played.log)


def _game(**fields: object) -> Game:
    seats = [Seat(seat=i + 1, player=f"p{i + 1}", role=r) for i, r in enumerate(ROLES)]
    base: dict[str, object] = {"id": "g", "stage": "q", "round": 1, "table": 1,
                               "seats": seats, "result": "red"}
    base.update(fields)
    return Game(**base)  # type: ignore[arg-type]


def _codes(game: Game, profile: RuleProfile = FSM) -> list[tuple[str, int | None, str | None]]:
    return [(p.code, p.seat, p.field) for p in check_paper(game, profile)]


@pytest.mark.parametrize("profile", [FIIM2018, FSM], ids=["fiim2018", "fsm"])
def test_a_reconciled_protocol_agrees_with_its_log_and_passes_every_check(
        profile: RuleProfile) -> None:
    @SETTINGS
    @given(played_games(profile), st.data())
    def run(played: PlayedGame, data: st.DataObject) -> None:
        kept, problems = reconcile(_blank(played), None, profile)
        assert problems == [], [p.message() for p in problems]
        state = played.state
        assert kept.result == state.result
        assert kept.fouls == {s: n for s, n in state.fouls.items() if n}
        # the days the log gives meet the paper checks (votes at the table, leavers...)
        assert validate_game(kept, profile, PLAYERS, {"q"}) == []
        assert sum(len(d.left) for d in kept.days if d.day == 1) == kept.day1_vote_left
        votes = [v for d in kept.days for v in d.votes if v.kind != "lift"]
        assert len(votes) == sum(1 for e in played.log if e["type"] == "vote")
        assert all(sum(v.counts.values()) <= 10 for v in votes)
        again, problems = reconcile(kept, kept, profile)
        assert problems == [] and again == kept  # in step: nothing more to change
        other = data.draw(st.sampled_from([r for r in ("red", "black", "draw")
                                           if r != kept.result]))
        changed, problems = reconcile(msgspec.structs.replace(kept, result=other), kept,
                                      profile)
        assert [(p.code, p.field) for p in problems] == [("log_contradicts", "result")]
        assert changed.result == other  # refused as sent: nothing half-applied

    run()


def test_a_save_without_a_log_keeps_the_stored_one() -> None:
    stored = _game(result="", log=[{"type": "deal", "roles": ROLES}], other={"live": {"seq": 1}})
    sent = _game(result="")
    kept, problems = reconcile(sent, stored, FSM)
    assert problems == [] and kept.log == stored.log and kept.other["live"] == {"seq": 1}


def test_an_unfinished_log_refuses_a_written_result() -> None:
    stored = _game(result="", log=[{"type": "deal", "roles": ROLES}])
    _kept, problems = reconcile(_game(result="red"), stored, FSM)
    assert [(p.code, p.field, p.clause) for p in problems] == [
        ("log_contradicts", "result", "docs/gamelog.md")]


def test_fiim_9_5_seats_outside_one_to_ten_are_refused_not_dropped() -> None:
    game = _game(fouls={11: 1}, explanations={0: "x"}, protest=Protest(by=12, text="t"),
                 day1_vote_left=1,
                 days=[Day(day=1, nominations=[Nomination(seat=11, by=2)],
                           votes=[VoteRound(counts={13: 2})], left=[14])])
    codes = {(c, f) for c, _s, f in _codes(game)}
    assert codes == {("seat_number", "fouls"), ("seat_number", "explanations"),
                     ("seat_number", "protest.by"), ("seat_number", "days.1.nominations"),
                     ("seat_number", "days.1.votes.1"), ("seat_number", "days.1.left")}


def test_fiim_7_1_four_fouls_need_the_removal() -> None:
    assert _codes(_game(fouls={4: 4})) == [("fouls_no_removal", 4, "fouls")]
    removed = _game(fouls={4: 4}, scores={4: SeatScores(penalties=[
        Penalty(kind="disqualification", critical=False)])})
    assert _codes(removed) == []
    assert _codes(_game(fouls={4: 5})) == [("fouls_count", 4, "fouls")]


def test_fiim_9_5_votes_cannot_outnumber_the_table() -> None:
    noms = [Nomination(seat=5, by=1), Nomination(seat=9, by=2)]
    ok = _game(days=[Day(day=1, nominations=noms, votes=[VoteRound(counts={5: 6, 9: 4})])])
    assert _codes(ok) == []
    over = _game(days=[Day(day=1, nominations=noms, votes=[VoteRound(counts={5: 7, 9: 4})])])
    assert _codes(over) == [("vote_too_many", None, "days.1.votes.1")]
    # day 2: at most 10 - 1 (day one's leaver) - 1 (the first killed) = 8
    later = _game(first_killed=1, day1_vote_left=1, days=[
        Day(day=1, nominations=noms, votes=[VoteRound(counts={5: 6, 9: 4})], left=[5]),
        Day(day=2, nominations=[Nomination(seat=9, by=3), Nomination(seat=2, by=4)],
            votes=[VoteRound(counts={9: 5, 2: 4})])])
    assert _codes(later) == [("vote_too_many", None, "days.2.votes.1")]
    stranger = _game(days=[Day(day=1, nominations=noms, votes=[VoteRound(counts={3: 2})])])
    assert _codes(stranger) == [("vote_not_nominated", 3, "days.1.votes.1")]


def test_fsm_8_3_6_day_one_leavers_match_the_field() -> None:
    noms = [Nomination(seat=5, by=1), Nomination(seat=9, by=2)]
    both = [Day(day=1, nominations=noms, votes=[VoteRound(counts={5: 5, 9: 5}),
                                                VoteRound(kind="revote", counts={5: 5, 9: 5}),
                                                VoteRound(kind="lift", count=6)], left=[5, 9])]
    problems = check_paper(_game(days=both, day1_vote_left=1), FSM)
    assert [(p.code, p.field, p.clause) for p in problems] == [
        ("day1_left_mismatch", "day1_vote_left", "FSM 8.3.6")]
    assert check_paper(_game(days=both, day1_vote_left=2), FSM) == []


def test_a_nomination_twice_and_a_nominator_twice() -> None:
    day = Day(day=1, nominations=[Nomination(seat=5, by=1), Nomination(seat=5, by=2),
                                  Nomination(seat=7, by=2)])
    assert {c for c, _s, _f in _codes(_game(days=[day]))} == {"nominated_twice",
                                                              "nominates_twice"}
