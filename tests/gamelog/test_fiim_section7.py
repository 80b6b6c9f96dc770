"""A scenario for every special situation of FIIM section 7, named after its clause.

Roles (conftest.ROLES): blacks 3 (don), 5, 9; sheriff 7; the other seats red.
"""

from __future__ import annotations

from dataclasses import replace

from mafiatab.domain.gamelog import derive_facts
from mafiatab.domain.gamelog_state import Step
from mafiatab.rules import FIIM2018
from mafiatab.rules.profile import with_four_players_tie_rule
from tests.gamelog.script import Script


def _fouls(s: Script, seat: int, n: int) -> None:
    for _ in range(n):
        s.add(type="foul", seat=seat)


def to_four(s: Script) -> Script:
    """Play on to four players at the table: don 3, sheriff 7, reds 8 and 10 (day 5)."""
    s.speeches()  # day 1: nobody nominated
    s.night(1).add(type="last_words", seat=1)
    s.speeches({2: 5}).add(type="last_words", seat=5)  # day 2: the only nominee leaves
    s.night(2).speeches({3: 9}).add(type="last_words", seat=9)
    s.night(4).speeches({6: 6}).add(type="last_words", seat=6)
    s.night(None)
    assert sorted(s.state.at_table) == [3, 7, 8, 10]
    return s


# --- 7.1 ------------------------------------------------------------------------------

def test_fiim_7_1_fourth_foul_in_the_day_cancels_the_current_vote(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    step = fiim.state.next_step()
    assert step.step is Step.VOTE and step.candidates == (5, 9)
    _fouls(fiim, 4, 4)
    assert 4 not in fiim.state.at_table
    step = fiim.state.next_step()
    assert step.step is Step.SHOT
    assert [n.clause for n in step.notes] == ["FIIM 7.1"]
    assert "vote cancelled: FIIM 7.1" in step.text()
    problem = fiim.refused(type="vote", counts={"5": 9})
    assert problem.code == "log_vote_cancelled" and problem.clause == "FIIM 7.1"
    assert problem.field == f"log[{len(fiim.log)}]"
    fiim.night(None)
    facts = derive_facts(fiim.state)
    assert facts.departures[0].how == "fouls"
    assert [(p.seat, p.kind) for p in facts.penalties] == [(4, "disqualification")]


def test_fiim_7_1_removal_at_night_cancels_the_next_days_vote(fiim: Script) -> None:
    fiim.speeches().night(None)
    fiim.add(type="disqualify", seat=2, rule="FIIM 6.7.2")
    fiim.speeches({3: 5, 4: 9})
    assert fiim.refused(type="vote", counts={"5": 8}).clause == "FIIM 7.1"
    fiim.night(1)  # no vote: the night follows
    assert fiim.state.phase.number == 2


def test_fiim_7_1_removal_during_the_vote_cancels_it(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    fiim.vote({5: [1, 2, 3, 4, 6], 9: []})  # 5 : 5, a tie
    assert fiim.state.step is Step.DEFENCE
    fiim.add(type="disqualify", seat=10, rule="FIIM 6.7.9")
    assert fiim.refused(type="vote", counts={"5": 9}).code == "log_vote_cancelled"


def test_fiim_7_1_not_when_the_player_was_killed_that_night(fiim: Script) -> None:
    fiim.speeches().night(1)
    fiim.add(type="disqualify", seat=1, rule="FIIM 6.7.4")  # during his last words
    fiim.speeches({2: 5, 4: 9})
    fiim.vote({5: [2, 3, 4, 6, 7, 8], 9: []})
    assert 5 not in fiim.state.at_table
    facts = derive_facts(fiim.state)
    assert [(p.seat, p.kind) for p in facts.penalties] == [(1, "disqualification")]


def test_fiim_7_1_not_when_the_player_leaves_by_the_vote(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    fiim.vote({5: [1, 2, 3, 4, 6, 7], 9: []})
    _fouls(fiim, 5, 4)  # during his last words
    fiim.night(None).speeches({2: 9, 3: 4})
    fiim.vote({9: [1, 2, 4, 6, 7, 8], 4: []})  # the next day's vote is held
    assert 9 not in fiim.state.at_table


# --- 7.2 ------------------------------------------------------------------------------

def test_fiim_7_2_removal_after_the_result_cancels_the_next_days_vote(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    fiim.vote({5: [1, 2, 3, 4, 6, 7], 9: []})
    fiim.add(type="disqualify", seat=8, rule="FIIM 6.7.4")  # during 5's last words
    assert 5 not in fiim.state.at_table and 8 not in fiim.state.at_table
    fiim.night(None)
    step = fiim.state.next_step()
    assert [n.clause for n in step.notes] == ["FIIM 7.2"]
    fiim.speeches({2: 9, 3: 4})
    assert fiim.refused(type="vote", counts={"9": 7}).clause == "FIIM 7.2"


def test_fiim_7_2_single_nomination_on_the_last_speech(fiim: Script) -> None:
    fiim.speeches().night(None)  # day 2 opens with seat 2; seat 1 speaks last
    fiim.speeches({1: 9})
    fiim.add(type="disqualify", seat=4, rule="FIIM 6.7.8")
    fiim.add(type="last_words", seat=9)  # the only nominee still leaves
    assert 9 not in fiim.state.at_table and 4 not in fiim.state.at_table
    fiim.night(None).speeches({3: 5, 6: 8})
    assert fiim.refused(type="vote", counts={"5": 7}).clause == "FIIM 7.2"


def test_fiim_7_2_not_when_the_only_nominee_is_removed(fiim: Script) -> None:
    fiim.speeches().night(None)
    fiim.speeches({1: 9})
    _fouls(fiim, 9, 4)
    fiim.night(None).speeches({3: 5, 6: 8})
    fiim.vote({5: [1, 2, 3, 4, 6, 7], 8: []})
    assert 5 not in fiim.state.at_table


# --- 7.3 ------------------------------------------------------------------------------

def test_fiim_7_3_removed_from_the_tournament(fiim: Script) -> None:
    fiim.add(type="disqualify", seat=6, rule="FIIM 6.7.10", tournament=True)
    facts = derive_facts(fiim.state)
    assert facts.removed_from_tournament == [6]
    assert facts.penalties[0].rule == "FIIM 6.7.10"


# --- 7.4 ------------------------------------------------------------------------------

def test_fiim_7_4_asking_who_is_nominated_is_no_event_of_the_log(fiim: Script) -> None:
    """7.4 (optional) concerns what the judge answers, not the course of the game."""
    problem = fiim.refused(type="ask_nominations", seat=1)
    assert problem.code == "log_malformed" and problem.field == "log[0]"


# --- 7.5 and 7.7 ------------------------------------------------------------------------

def test_fiim_7_5_three_fouls_speak_in_the_repeated_vote(fiim: Script) -> None:
    _fouls(fiim, 5, 3)
    fiim.speeches({1: 5, 2: 9})
    assert 5 not in {e.get("seat") for e in fiim.log if e["type"] == "speech"}
    fiim.vote({5: [1, 2, 3, 4, 6], 9: []})  # tie
    fiim.add(type="defence", seat=5)
    assert any(n.code == "revote_speech" and n.clause == "FIIM 7.5" for n in fiim.state.applied)
    fiim.add(type="defence", seat=9)
    fiim.vote({5: [1, 2, 3, 4, 6, 7], 9: []})
    assert 5 not in fiim.state.at_table


def test_fiim_7_5_three_fouls_lose_the_next_speech(fiim: Script) -> None:
    fiim.add(type="speech", seat=1)
    _fouls(fiim, 2, 3)
    problem = fiim.refused(type="speech", seat=2)
    assert problem.code == "log_speech_out_of_turn" and problem.params["expected"] == 3
    assert any(n.code == "lost_speech" for n in fiim.state.applied) is False
    fiim.add(type="speech", seat=3)
    assert any(n.code == "lost_speech" and n.seat == 2 for n in fiim.state.applied)
    fiim.speeches().night(None)
    fiim.add(type="speech", seat=2)  # day 2: his speech is back


def test_fiim_7_7_three_fouls_with_four_at_the_table_speak_30_seconds(fiim: Script) -> None:
    to_four(fiim)
    _fouls(fiim, 8, 3)
    assert fiim.state.next_step().seat is not None
    fiim.speeches()
    assert 8 in {e.get("seat") for e in fiim.log[-4:] if e["type"] == "speech"}
    assert any(n.code == "short_speech" and n.clause == "FIIM 7.7" for n in fiim.state.applied)


# --- 7.6 ------------------------------------------------------------------------------

def test_fiim_7_6_off_two_tied_twice_at_four_go_to_the_lift(fiim: Script) -> None:
    to_four(fiim)
    fiim.speeches({7: 3, 8: 7})
    fiim.vote({3: [3, 8], 7: []})
    fiim.add(type="defence", seat=3).add(type="defence", seat=7)
    fiim.vote({3: [3, 8], 7: []})
    assert fiim.state.step is Step.LIFT
    fiim.add(type="lift", voters=[3, 8, 10])  # 3 of 4: both leave
    assert fiim.state.result == "red"


def test_fiim_7_6_on_no_further_vote_and_three_misses_give_red(fiim: Script) -> None:
    s = Script(with_four_players_tie_rule(FIIM2018))
    to_four(s)
    s.speeches({7: 3, 8: 7})
    s.vote({3: [3, 8], 7: []})
    s.vote({3: [3, 8], 7: []})
    step = s.state.next_step()
    assert step.step is Step.SHOT
    assert any(n.code == "four_players_tie" and n.clause == "FIIM 7.6, 7.11 (on)"
               for n in s.state.applied)
    assert s.refused(type="lift", count=4).code == "log_no_lift_due"
    for _ in range(2):
        s.night(None).speeches()
    s.night(None)
    assert s.state.result == "red"
    assert s.state.end_reason is not None and s.state.end_reason.code == "four_players_red_win"


# --- 7.8 ------------------------------------------------------------------------------

def test_fiim_7_8_three_quiet_nights_and_days_from_a_night_draw(fiim: Script) -> None:
    fiim.speeches()
    for _ in range(2):
        fiim.night(None).speeches()
    fiim.night(None)
    assert fiim.state.result is None
    fiim.speeches()
    step = fiim.state.next_step()
    assert step.step is Step.ENDED  # the draw is settled when night would fall
    assert [n.clause for n in step.notes] == ["FIIM 7.8"]
    fiim.log.append({"type": "shot", "target": None})
    done = fiim.replayed()
    assert [p.code for p in done.problems] == ["log_after_end"]
    assert done.problems[0].field == "log[43]"


def test_fiim_7_8_draw_is_the_protocols_result(fiim: Script) -> None:
    fiim.speeches()
    for _ in range(3):
        fiim.night(None).speeches()
    done = fiim.replayed()
    assert done.ok and done.state.result == "draw"
    assert done.state.end_reason is not None and done.state.end_reason.clause == "FIIM 7.8"


def test_fiim_7_8_a_departure_restarts_the_count(fiim: Script) -> None:
    fiim.speeches()
    fiim.night(None).speeches()
    fiim.night(None)
    _fouls(fiim, 10, 4)
    fiim.speeches().night(None).speeches().night(None).speeches()
    assert fiim.replayed().state.result is None


# --- 7.9 ------------------------------------------------------------------------------

def test_fiim_7_9_no_lift_of_the_whole_table(fiim: Script) -> None:
    to_four(fiim)
    fiim.speeches({7: 3, 8: 7, 10: 8, 3: 10})
    votes = {3: [7], 7: [8], 8: [10], 10: []}
    fiim.vote(votes)  # 1 : 1 : 1 : 1
    fiim.vote(votes)
    assert any(n.code == "no_whole_table_lift" and n.clause == "FIIM 7.9"
               for n in fiim.state.applied)
    assert fiim.refused(type="lift", count=4).code == "log_no_whole_table_lift"
    fiim.night(10)
    assert sorted(fiim.state.at_table) == [3, 7, 8]


# --- 7.10 -----------------------------------------------------------------------------

def test_fiim_7_10_last_words_after_the_last_vote(fiim: Script) -> None:
    to_four(fiim)
    fiim.speeches({7: 3})
    fiim.add(type="last_words", seat=3)
    assert fiim.state.result == "red"


def test_fiim_7_10_disqualification_in_the_last_words_keeps_the_result(fiim: Script) -> None:
    to_four(fiim)
    fiim.speeches({7: 10})  # the only nominee leaves: 3 : 7, 8 -> the game goes on
    fiim.add(type="last_words", seat=10)
    fiim.night(8)  # 3 and 7: black wins by the shot
    assert fiim.state.result == "black"
    fiim.add(type="disqualify", seat=3, rule="FIIM 6.7.4")
    fiim.add(type="last_words", seat=8)
    assert fiim.state.result == "black"
    facts = derive_facts(fiim.state)
    assert [(p.seat, p.kind) for p in facts.penalties] == [(3, "disqualification")]
    assert any(n.clause == "FIIM 7.10" for n in facts.applied)
    assert fiim.refused(type="speech", seat=7).code == "log_after_end"


# --- 7.11 -----------------------------------------------------------------------------

def test_fiim_7_11_geographic_rule_is_a_tournament_setting() -> None:
    assert FIIM2018.four_players_tie_no_vote.value is False
    on = with_four_players_tie_rule(FIIM2018)
    assert on.four_players_tie_no_vote.value is True
    assert replace(on, four_players_tie_no_vote=FIIM2018.four_players_tie_no_vote) == FIIM2018


# --- readings of the hand-computed cases (scoring.md section 9) -------------------------

def test_fiim_7_9_a_lift_vote_of_the_whole_table_is_refused_citing_7_9(fiim: Script) -> None:
    """After the whole table tied twice, a recorded lift vote is refused by 7.9 itself,
    not by the general rule of voting."""
    to_four(fiim)
    fiim.speeches({7: 3, 8: 7, 10: 8, 3: 10})
    votes = {3: [7], 7: [8], 8: [10], 10: []}
    fiim.vote(votes)
    fiim.vote(votes)
    problem = fiim.refused(type="lift", count=4)
    assert problem.code == "log_no_whole_table_lift"
    assert problem.clause == "FIIM 7.9"
    assert "ФИИМ 7.9" in problem.message("ru") and "всего стола" in problem.message("ru")


def test_fiim_7_9_a_lift_vote_with_nobody_tied_keeps_the_general_rule(fiim: Script) -> None:
    fiim.speeches()
    problem = fiim.refused(type="lift", count=4)
    assert problem.code == "log_no_lift_due" and problem.clause != "FIIM 7.9"


def test_fiim_7_10_team_loss_in_the_last_words_keeps_the_result_and_gives_8_2_4(
        fiim: Script) -> None:
    """Reading (7.10 against 6.8): a team-loss violation in the last words after the last
    shot leaves the result as the shot decided it; the player gets the 8.2.4 penalty."""
    to_four(fiim)
    fiim.speeches({7: 10})
    fiim.add(type="last_words", seat=10)
    fiim.night(8)  # 3 (don) and 7 (sheriff) remain: black wins by the shot
    assert fiim.state.result == "black"
    fiim.add(type="team_loss", seat=3, rule="FIIM 6.8.1")  # the don swears an oath
    fiim.add(type="last_words", seat=8)
    done = fiim.replayed()
    assert done.ok and done.state.result == "black"
    facts = derive_facts(done.state)
    assert [(p.seat, p.kind, p.rule) for p in facts.penalties] == [
        (3, "disqualification", "FIIM 6.8.1")]
    assert any(n.code == "result_by_last_vote" and n.clause == "FIIM 7.10"
               for n in facts.applied)


def test_fiim_7_10_team_loss_in_the_last_words_after_the_last_vote(fiim: Script) -> None:
    to_four(fiim)
    fiim.speeches({7: 3, 8: 10})
    fiim.vote({3: [7, 8, 10], 10: [3]})  # the don is voted out: red wins by the vote
    assert fiim.state.result == "red"
    fiim.add(type="team_loss", seat=8, rule="FIIM 6.8.2")  # a red threatens in 3's words
    fiim.add(type="last_words", seat=3)
    assert fiim.state.result == "red"
    facts = derive_facts(fiim.state)
    assert [(p.seat, p.kind) for p in facts.penalties] == [(8, "disqualification")]
