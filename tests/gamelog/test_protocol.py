"""The protocol facts a log gives, by profile, and where a hand-written protocol
contradicts its log."""

from __future__ import annotations

from typing import Any

import msgspec

from mafiatab.domain.gamelog import derive_facts, protocol_from_log
from mafiatab.domain.protocol import Game, Penalty, Seat, SeatScores
from mafiatab.domain.validation import validate_game
from mafiatab.rules import FIIM2018, FSM
from mafiatab.rules.profile import RuleProfile
from tests.gamelog.script import ROLES, Script

PLAYERS = {f"p{s}" for s in range(1, 11)}


def _game(log: list[dict[str, Any]], **fields: Any) -> Game:
    seats = [Seat(seat=s, player=f"p{s}", role=r) for s, r in sorted(ROLES.items())]
    values: dict[str, Any] = {"result": "red", **fields}
    return Game(id="g1", stage="q", round=1, table=1, seats=seats, log=log, **values)


def _red_win(s: Script) -> Script:
    """Day 1: 5 leaves by the vote; night 1: 1 killed, best move; then 9 and 3 leave."""
    s.speeches({1: 5, 2: 9})
    s.vote({5: [1, 2, 3, 4, 6, 7], 9: []}).add(type="last_words", seat=5)
    s.night(1)
    s.add(type="best_move", seat=1, seats=[3, 9, 4]).add(type="last_words", seat=1)
    s.speeches({3: 9}).add(type="last_words", seat=9)
    s.night(2).speeches({4: 3}).add(type="last_words", seat=3)
    return s


def _derive(profile: RuleProfile, log: list[dict[str, Any]], **fields: Any
            ) -> tuple[Game, list[str]]:
    game, problems = protocol_from_log(_game(log, **fields), profile)
    return game, [p.code for p in problems]


def test_a_game_without_a_log_is_left_as_it_is() -> None:
    game = _game([])
    plain = msgspec.structs.replace(game, log=None)
    assert protocol_from_log(plain, FIIM2018) == (plain, [])


def test_the_log_fills_the_protocol(fiim: Script) -> None:
    game, codes = _derive(FIIM2018, _red_win(fiim).log)
    assert codes == []
    assert (game.result, game.first_killed, game.best_move, game.day1_vote_left) == (
        "red", 1, [3, 9, 4], 1)
    assert validate_game(game, FIIM2018, PLAYERS, {"q"}) == []


def test_fsm_first_killed_is_the_first_night_after_the_agreement(fsm: Script) -> None:
    game, codes = _derive(FSM, _red_win(fsm).log)
    assert codes == [] and game.first_killed == 1
    assert FSM.first_killed_night.clause.startswith("FSM 8.3.1")


def test_a_miss_in_the_first_night_leaves_no_first_killed(fiim: Script) -> None:
    fiim.speeches().night(None).speeches().night(2)
    assert derive_facts(fiim.state).first_killed is None
    assert fiim.refused(type="best_move", seat=2, seats=[3]).code == "log_best_move_not_due"


def test_fsm_8_3_6_no_best_move_after_two_left_by_the_day_1_vote(fsm: Script) -> None:
    fsm.speeches({1: 5, 2: 9})
    fsm.vote({5: [1, 2, 3, 4, 6], 9: []})
    fsm.vote({5: [1, 2, 3, 4, 6], 9: []})
    fsm.add(type="lift", voters=[1, 2, 4, 6, 7, 8])
    assert derive_facts(fsm.state).day1_vote_left == 2
    fsm.night(1)
    # the next step does not offer a best move the rule forbids (found by hypothesis)
    assert "best_move" not in fsm.state.next_step().kinds
    problem = fsm.refused(type="best_move", seat=1, seats=[3])
    assert problem.code == "bm_not_allowed" and problem.clause == "FSM 8.3.6"
    assert derive_facts(fsm.state).best_move_allowed is False


def test_fiim_has_no_day_1_limit_on_the_best_move(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    fiim.vote({5: [1, 2, 3, 4, 6], 9: []})
    fiim.vote({5: [1, 2, 3, 4, 6], 9: []})
    fiim.add(type="lift", voters=[1, 2, 4, 6, 7, 8])
    fiim.night(1).add(type="best_move", seat=1, seats=[3])


def test_a_lift_needs_more_than_half_of_the_table(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    fiim.vote({5: [1, 2, 3, 4, 6], 9: []})
    fiim.vote({5: [1, 2, 3, 4, 6], 9: []})
    fiim.add(type="lift", count=5)  # 5 of 10 is not more than half
    assert fiim.state.at_table == set(range(1, 11))


def test_a_smaller_tie_is_voted_again(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9, 3: 4})
    fiim.vote({5: [1, 2, 3], 9: [4, 6, 7], 4: [8, 10]})  # 3 : 3 : 4 -> 4 leaves
    assert 4 not in fiim.state.at_table


def test_removal_penalties_come_from_the_log_fsm(fsm: Script) -> None:
    fsm.add(type="disqualify", seat=6, rule="FSM 6.x")  # 10 at the table: not critical
    _red_win_after_removal(fsm)
    game, codes = _derive(FSM, fsm.log)
    assert codes == []
    assert game.scores[6].penalties == [Penalty(kind="disqualification", critical=False,
                                                rule="FSM 6.x", note="from the log, log[0]")]
    assert validate_game(game, FSM, PLAYERS, {"q"}) == []


def _red_win_after_removal(s: Script) -> None:
    s.speeches({1: 5, 2: 9})
    assert s.refused(type="vote", counts={"5": 9}).code == "log_vote_cancelled"
    s.night(None).speeches({2: 5, 3: 9})
    s.vote({5: [1, 2, 3, 4, 7, 8], 9: []})
    s.night(None).speeches({3: 9}).night(None).speeches({4: 3})


def test_fsm_critical_removal_is_derived(fsm: Script) -> None:
    fsm.speeches({1: 5, 2: 9})
    fsm.vote({5: [1, 2, 3, 4, 6, 7], 9: []}).night(1).speeches({2: 2})
    fsm.night(4).speeches()  # 6 at the table: 3, 6, 7, 8, 9, 10 (2 blacks, 4 reds)
    fsm.night(6)  # 2 blacks, 3 reds: a critical table
    for _ in range(4):
        fsm.add(type="foul", seat=8)
    pen = derive_facts(fsm.state).penalties[0]
    assert (pen.seat, pen.critical, pen.rule) == (8, True, "4 fouls")


def test_team_loss_ends_the_game(fsm: Script) -> None:
    fsm.speeches({1: 5})
    fsm.add(type="team_loss", seat=7, rule="FSM 6.9")
    assert fsm.state.result == "black"
    game, codes = _derive(FSM, fsm.log, result="black")
    assert codes == []
    assert [p.kind for p in game.scores[7].penalties] == ["team_loss"]
    assert validate_game(game, FSM, PLAYERS, {"q"}) == []
    assert fsm.refused(type="speech", seat=3).code == "log_after_end"


def test_written_facts_that_contradict_the_log(fiim: Script) -> None:
    log = _red_win(fiim).log
    scores = {2: SeatScores(penalties=[Penalty(kind="disqualification")])}
    game, codes = _derive(FIIM2018, log, result="black", first_killed=2, best_move=[3],
                          day1_vote_left=2, scores=scores)
    assert codes == ["log_contradicts"] * 5
    _, problems = protocol_from_log(_game(log, result="black"), FIIM2018)
    assert problems[0].message() == (
        "game g1, result: the protocol says black, the log says red (docs/gamelog.md)")
    assert game.result == "black"  # refused: nothing of the log is applied


def test_written_facts_that_agree_are_kept(fiim: Script) -> None:
    log = _red_win(fiim).log
    game, codes = _derive(FIIM2018, log, first_killed=1, best_move=[3, 9, 4],
                          day1_vote_left=1)
    assert codes == [] and game.best_move == [3, 9, 4]


def test_an_unfinished_log_is_refused(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    _, problems = protocol_from_log(_game(fiim.log), FIIM2018)
    assert [p.code for p in problems] == ["log_unfinished"]
    assert "vote on 5, 9" in problems[0].message()


def test_an_illegal_log_is_refused_with_its_rule(fiim: Script) -> None:
    log = [*_red_win(fiim).log[:3], {"type": "speech", "seat": 3}]
    _, problems = protocol_from_log(_game(log), FIIM2018)
    assert [(p.code, p.field) for p in problems] == [("log_speaks_twice", "log[3]")]


def test_the_next_step_in_both_languages(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    fiim.add(type="foul", seat=4, time="07:30").add(type="foul", seat=4)
    fiim.add(type="foul", seat=4).add(type="foul", seat=4)
    step = fiim.state.next_step()
    assert step.text() == "night 1: the black team shoots — vote cancelled: FIIM 7.1"
    assert step.text("ru") == "ночь 1: стрельба — голосование не проводится: FIIM 7.1"
    assert fiim.state.foul_log[0].time == "07:30"
    assert fiim.state.foul_log[0].phase.label() == "day 1"
