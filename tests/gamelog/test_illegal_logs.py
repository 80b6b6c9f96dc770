"""Logs the rules don't allow are refused with the rule they break; nothing is applied."""

from __future__ import annotations

from mafiatab.domain.gamelog import replay
from tests.gamelog.script import ROLES, Script


def test_two_shots_in_a_night(fiim: Script) -> None:
    fiim.speeches().night(1)
    problem = fiim.refused(type="shot", target=2)
    assert problem.code == "log_second_shot" and problem.params == {"night": 1}


def test_no_shot_in_the_agreement_night(fiim: Script) -> None:
    assert fiim.refused(type="shot", target=2).code == "log_shot_agreement"
    assert fiim.refused(type="don_check", target=7).code == "log_check_agreement"


def test_a_night_without_its_shot(fiim: Script) -> None:
    fiim.speeches()
    assert fiim.refused(type="speech", seat=2).code == "log_speeches_over"
    fiim.night(None).speeches({2: 5, 3: 9})
    fiim.vote({5: [1, 2, 3, 4, 6, 7], 9: []})
    assert fiim.refused(type="speech", seat=3).code == "log_speech_not_now"
    fiim.night(None).speeches({3: 9, 4: 4, 6: 8})
    fiim.vote({9: [1, 2, 3], 4: [4, 6, 7], 8: []})  # 3 : 3 : 3, a tie
    fiim.add(type="disqualify", seat=10, rule="FIIM 6.7.1")  # 7.1: night falls at once
    assert fiim.refused(type="speech", seat=4).code == "log_shot_missing"


def test_a_dead_player_speaks(fiim: Script) -> None:
    fiim.speeches().night(2).add(type="last_words", seat=2)
    problem = fiim.refused(type="speech", seat=2)
    assert problem.code == "log_dead_speaks" and problem.seat == 2


def test_a_dead_player_votes(fiim: Script) -> None:
    fiim.speeches().night(1)
    fiim.speeches({2: 5, 3: 9})
    problem = fiim.refused(type="vote", votes={"5": [1, 2]})
    assert problem.code == "log_dead_votes" and problem.seat == 1


def test_more_votes_than_voters(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    problem = fiim.refused(type="vote", counts={"5": 6, "9": 5})
    assert problem.code == "log_too_many_votes"
    assert problem.params == {"count": 11, "max": 10}


def test_a_player_votes_twice(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    assert fiim.refused(type="vote", votes={"5": [1, 2], "9": [2]}).code == "log_votes_twice"


def test_a_vote_for_who_is_not_a_candidate(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    assert fiim.refused(type="vote", counts={"4": 3}).code == "log_not_candidate"


def test_a_nomination_of_an_already_nominated_player(fiim: Script) -> None:
    fiim.add(type="speech", seat=1, nominates=5)
    problem = fiim.refused(type="speech", seat=2, nominates=5)
    assert problem.code == "log_nominated_twice" and problem.params == {"value": 5}


def test_a_nomination_of_a_player_not_at_the_table(fiim: Script) -> None:
    fiim.speeches().night(4).add(type="last_words", seat=4)
    assert fiim.refused(type="speech", seat=2, nominates=4).code == "log_nominate_gone"


def test_a_speech_out_of_turn(fiim: Script) -> None:
    problem = fiim.refused(type="speech", seat=3)
    assert problem.code == "log_speech_out_of_turn" and problem.params == {"expected": 1}


def test_a_second_speech_in_a_day(fiim: Script) -> None:
    fiim.add(type="speech", seat=1)
    assert fiim.refused(type="speech", seat=1).code == "log_speaks_twice"


def test_a_vote_before_the_speeches_are_over(fiim: Script) -> None:
    fiim.add(type="speech", seat=1, nominates=5).add(type="speech", seat=2, nominates=9)
    problem = fiim.refused(type="vote", counts={"5": 6})
    assert problem.code == "log_speeches_missing" and problem.params == {"expected": 3}


def test_night_falls_without_the_vote(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    assert fiim.refused(type="shot", target=None).code == "log_vote_missing"


def test_a_vote_on_day_one_with_a_single_nominee(fiim: Script) -> None:
    fiim.speeches({1: 5})
    problem = fiim.refused(type="vote", counts={"5": 10})
    assert problem.code == "log_no_vote_due"


def test_a_check_by_a_player_who_left(fiim: Script) -> None:
    fiim.speeches({1: 7, 2: 9})
    fiim.vote({7: [1, 2, 3, 4, 5, 6], 9: []})
    fiim.night(None)
    problem = fiim.refused(type="sheriff_check", target=3)
    assert problem.code == "log_checker_gone"


def test_the_killed_sheriff_still_checks_that_night(fiim: Script) -> None:
    fiim.speeches().night(7)
    fiim.add(type="sheriff_check", target=3, black=True)
    assert fiim.refused(type="sheriff_check", target=5).code == "log_second_check"


def test_a_wrong_answer_to_a_check(fiim: Script) -> None:
    fiim.speeches().night(None)
    problem = fiim.refused(type="sheriff_check", target=3, black=False)
    assert problem.code == "log_check_answer"
    assert fiim.refused(type="don_check", target=7, sheriff=False).code == "log_check_answer"


def test_a_best_move_by_who_is_not_the_first_killed(fiim: Script) -> None:
    fiim.speeches().night(1)
    assert fiim.refused(type="best_move", seat=2, seats=[3]).code == "log_best_move_not_due"
    problem = fiim.refused(type="best_move", seat=1, seats=[3, 3])
    assert problem.code == "bm_repeat"
    assert fiim.refused(type="best_move", seat=1, seats=[1]).code == "bm_own_seat"
    assert fiim.refused(type="best_move", seat=1, seats=[2, 3, 4, 5]).code == "bm_too_many"


def test_a_shot_at_a_player_not_at_the_table(fiim: Script) -> None:
    fiim.speeches().night(4).speeches()
    problem = fiim.refused(type="shot", target=4)
    assert problem.code == "log_shot_not_at_table"


def test_shots_of_each_black_player(fiim: Script) -> None:
    fiim.speeches()
    assert fiim.refused(type="shot", shots={"3": 4, "1": 4}).code == "log_shooter"
    assert fiim.refused(type="shot", target=4, shots={"3": 4, "5": 4, "9": 6}).code == (
        "log_shot_mismatch")
    fiim.add(type="shot", shots={"3": 4, "5": 4, "9": 6})  # not the same player: a miss
    assert fiim.state.at_table == set(range(1, 11))


def test_a_foul_of_a_player_who_left(fiim: Script) -> None:
    fiim.speeches().night(4).add(type="last_words", seat=4)
    fiim.add(type="speech", seat=2)
    assert fiim.refused(type="foul", seat=4).code == "log_discipline_gone"


def test_a_lift_vote_when_none_is_due(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    assert fiim.refused(type="lift", count=6).code == "log_no_lift_due"


def test_the_deal_must_match_the_seats(fiim: Script) -> None:
    roles = [ROLES[s] for s in range(1, 11)]
    assert fiim.refused(type="deal", roles=roles[::-1]).code == "log_deal_mismatch"
    fiim.add(type="deal", roles=roles)
    assert fiim.refused(type="deal").code == "log_deal_not_first"


def test_malformed_events_are_each_a_problem() -> None:
    log = [{"type": "speech", "seat": 1}, {"type": "speach", "seat": 2}, 7,
           {"type": "speech", "seat": "3"}, {"type": "foul", "seat": 4, "colour": "red"}]
    done = replay(log, ROLES, Script().profile, "g1")
    assert [(p.code, p.field) for p in done.problems] == [
        ("log_malformed", "log[1]"), ("log_malformed", "log[2]"),
        ("log_malformed", "log[3]"), ("log_malformed", "log[4]")]
    assert done.state.count == 1  # nothing after the first malformed event is applied


def test_a_log_that_is_not_a_list() -> None:
    done = replay("speech", ROLES, Script().profile, "g1")  # type: ignore[arg-type]
    assert [p.code for p in done.problems] == ["log_malformed"]


def test_a_refused_event_changes_nothing(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    before = fiim.state.next_step()
    fiim.refused(type="vote", counts={"5": 11})
    assert fiim.state.next_step() == before


def test_one_check_each_every_night(fiim: Script) -> None:
    fiim.speeches().night(None)
    fiim.add(type="don_check", target=7).add(type="sheriff_check", target=3)
    assert fiim.refused(type="don_check", target=8).code == "log_second_check"
    fiim.speeches().night(None)
    fiim.add(type="don_check", target=8).add(type="sheriff_check", target=5)
    assert "don_check" not in fiim.state.next_step().kinds
