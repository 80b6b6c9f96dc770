"""Fouls during one's own last words, and a speech lost for 3 fouls, as real games have them.

Both came from games recorded by another system and replayed here: a foul the
judge gave a player during his own last words (after his `last_words` event) was refused,
and a speech lost for three fouls was lost again on every following day.
Roles (script.ROLES): blacks 3 (don), 5, 9; sheriff 7; the other seats red.
"""

from __future__ import annotations

from mafiatab.domain.gamelog import derive_facts
from mafiatab.domain.gamelog_state import Step
from tests.gamelog.script import Script
from tests.gamelog.test_fiim_section7 import to_four


def _fouls(s: Script, seat: int, n: int) -> None:
    for _ in range(n):
        s.add(type="foul", seat=seat)


def _speakers(s: Script, since: int) -> list[int]:
    return [e["seat"] for e in s.log[since:] if e["type"] == "speech"]


# --- the 3 fouls' lost speech -----------------------------------------------------------

def test_fiim_7_5_speech_lost_for_three_fouls_is_lost_once(fiim: Script) -> None:
    """3 fouls before the day: seat 2 loses day 1's speech, and speaks again on day 2."""
    _fouls(fiim, 2, 3)
    fiim.add(type="speech", seat=1)  # the speech just before his turn
    fiim.speeches()
    assert 2 not in _speakers(fiim, 0)
    lost = [n for n in fiim.state.applied if n.code == "lost_speech"]
    assert [(n.seat, n.phase.number) for n in lost] == [(2, 1)]
    fiim.night(None)
    start = len(fiim.log)
    assert fiim.state.next_step().seat == 2  # day 2 opens with seat 2
    fiim.add(type="speech", seat=2)
    fiim.speeches().night(None)
    assert 2 in _speakers(fiim, start)
    assert [n.seat for n in fiim.state.applied if n.code == "lost_speech"] == [2]


def test_fiim_7_5_speech_lost_once_when_his_turn_follows_the_day_opener(fiim: Script) -> None:
    """Seat 3 gets his 3rd foul on day 1 after his speech: he loses day 2's speech only."""
    fiim.add(type="speech", seat=1).add(type="speech", seat=2).add(type="speech", seat=3)
    _fouls(fiim, 3, 3)
    fiim.speeches().night(None)
    day2 = len(fiim.log)
    fiim.speeches().night(None)
    assert 3 not in _speakers(fiim, day2)
    day3 = len(fiim.log)
    fiim.speeches()
    assert 3 in _speakers(fiim, day3)


# --- fouls and removals during one's own last words -------------------------------------

def test_gamelog_foul_during_own_last_words_is_accepted(fiim: Script) -> None:
    """docs/gamelog.md: a foul may come for a player "giving last words"."""
    fiim.speeches().night(1)
    fiim.add(type="last_words", seat=1)
    fiim.add(type="foul", seat=1, reason="spoke too long")
    assert fiim.state.fouls[1] == 1
    fiim.add(type="speech", seat=2)
    assert fiim.refused(type="foul", seat=1).code == "log_discipline_gone"


def test_fiim_7_1_fourth_foul_in_own_last_words_gives_only_the_penalty(fiim: Script) -> None:
    """Leaving by the vote, 4th foul during his last words: the penalty, no vote cancelled."""
    _fouls(fiim, 5, 2)
    fiim.speeches({1: 5, 2: 9})
    fiim.vote({5: [1, 2, 3, 4, 6, 7], 9: []})
    fiim.add(type="last_words", seat=5)
    _fouls(fiim, 5, 2)  # his 3rd and 4th fouls
    facts = derive_facts(fiim.state)
    assert [(p.seat, p.kind) for p in facts.penalties] == [(5, "disqualification")]
    assert fiim.state.cancelled == {}
    fiim.night(1).add(type="last_words", seat=1)
    fiim.speeches({2: 9, 3: 4})
    assert fiim.state.next_step().step is Step.VOTE  # day 2's vote is held


def test_fiim_7_1_disqualified_in_own_morning_last_words_gives_only_the_penalty(
    fiim: Script,
) -> None:
    fiim.speeches().night(4)
    fiim.add(type="last_words", seat=4)
    fiim.add(type="disqualify", seat=4, rule="FIIM 6.7.4")
    assert fiim.state.cancelled == {}
    assert [(p.seat, p.kind) for p in derive_facts(fiim.state).penalties] == [
        (4, "disqualification")]
    fiim.speeches({5: 1, 6: 2})
    assert fiim.state.next_step().step is Step.VOTE


def test_fiim_6_8_team_loss_in_own_last_words_ends_the_game(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    fiim.vote({5: [1, 2, 3, 4, 6, 7], 9: []})
    fiim.add(type="last_words", seat=5)
    fiim.add(type="team_loss", seat=5, rule="FIIM 6.8.1")
    assert fiim.state.result == "red"
    assert [(p.seat, p.kind) for p in derive_facts(fiim.state).penalties] == [(5, "team_loss")]


def test_fiim_7_10_disqualified_in_own_last_words_after_the_end_keeps_the_result(
    fiim: Script,
) -> None:
    """The last black leaves by the vote; he is disqualified during his last words."""
    to_four(fiim)
    fiim.speeches({7: 3})
    fiim.add(type="last_words", seat=3)
    assert fiim.state.result == "red"
    fiim.add(type="foul", seat=3)
    fiim.add(type="disqualify", seat=3, rule="FIIM 6.7.4")
    facts = derive_facts(fiim.state)
    assert facts.result == "red"
    assert [(p.seat, p.kind) for p in facts.penalties] == [(3, "disqualification")]
    assert any(n.code == "result_by_last_vote" and n.clause == "FIIM 7.10"
               for n in facts.applied)


# --- clauses come from the profile --------------------------------------------------------

def test_fsm_game_never_cites_a_fiim_clause(fsm: Script) -> None:
    """3 fouls, a lost speech, a removal that cancels a vote, a tie, the end: FSM words only."""
    _fouls(fsm, 2, 3)
    fsm.speeches({1: 5, 3: 9})
    fsm.vote({5: [1, 2, 3, 4, 6], 9: []})
    fsm.add(type="defence", seat=5).add(type="defence", seat=9)
    fsm.vote({5: [1, 3, 4, 6, 7, 8], 9: []})
    fsm.add(type="last_words", seat=5)
    fsm.add(type="disqualify", seat=8, rule="FSM 8.2.4")  # after the result: next day
    fsm.night(1).add(type="last_words", seat=1)
    problem = fsm.refused(type="shot", target=2)
    fsm.speeches({2: 9, 3: 4})
    refused_vote = fsm.refused(type="vote", counts={"9": 6})
    clauses = [n.clause for n in fsm.state.applied] + [problem.clause, refused_vote.clause]
    assert any(n.code == "lost_speech" for n in fsm.state.applied)
    assert refused_vote.code == "log_vote_cancelled"
    assert all("FIIM" not in c for c in clauses), clauses


def test_fiim_7_5_only_nominee_losing_the_last_speech_has_his_last_words(fiim: Script) -> None:
    """Day 2: seat 1 speaks last; nominated, he gets his 3rd foul just before his turn."""
    fiim.speeches().night(None)  # day 2 opens with seat 2, seat 1 speaks last
    fiim.add(type="foul", seat=1)
    fiim.add(type="speech", seat=2, nominates=1)
    for seat in range(3, 11):
        fiim.add(type="speech", seat=seat)
    assert fiim.state.queue == [1]
    _fouls(fiim, 1, 2)
    step = fiim.state.next_step()
    assert step.last_words == (1,)
    fiim.add(type="last_words", seat=1)
    assert 1 not in fiim.state.at_table
    assert [n.seat for n in fiim.state.applied if n.code == "lost_speech"] == [1]


# --- 7.1: the nearest vote when none is left today ------------------------------------

def test_fiim_7_1_removal_after_speeches_without_a_vote_cancels_the_next_days_vote(
    fiim: Script,
) -> None:
    """Nobody nominated on day 1; seat 4 is removed before the shot: day 2 has no vote."""
    fiim.speeches()
    fiim.add(type="disqualify", seat=4, rule="FIIM 6.7.4")
    assert fiim.state.cancelled == {2: "FIIM 7.1"}
    fiim.night(None).speeches({1: 5, 2: 9})
    assert fiim.refused(type="vote", counts={"5": 9}).code == "log_vote_cancelled"


def test_fiim_7_1_second_removal_of_a_day_cancels_the_next_days_vote(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    _fouls(fiim, 4, 4)  # the day's vote is cancelled
    fiim.add(type="disqualify", seat=6, rule="FIIM 6.7.4")  # the nearest is day 2's
    assert fiim.state.cancelled == {1: "FIIM 7.1", 2: "FIIM 7.1"}


# --- event forms for what a record elsewhere may not have --------------------------------

def test_gamelog_lift_with_unknown_voters_gives_its_outcome(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    fiim.vote({5: [1, 2, 3, 4, 6], 9: []})
    fiim.add(type="defence", seat=5).add(type="defence", seat=9)
    fiim.vote({5: [1, 2, 3, 4, 6], 9: []})
    assert fiim.refused(type="lift", passed=True, count=6).code == "log_vote_form"
    fiim.add(type="lift", passed=True)
    assert not {5, 9} & fiim.state.at_table


def test_gamelog_shot_with_an_unrecorded_aim(fiim: Script) -> None:
    fiim.speeches()
    assert fiim.refused(type="shot", target=4, shots={"3": 4}, unrecorded=[1]).code == (
        "log_shooter")  # seat 1 is not black
    assert fiim.refused(type="shot", target=4, shots={"3": 4, "9": 2},
                        unrecorded=[5]).code == "log_shot_mismatch"
    assert fiim.refused(type="shot", target=4, shots={"3": 4, "5": 4},
                        unrecorded=[5]).code == "log_shooter"  # listed twice
    fiim.add(type="shot", target=4, shots={"3": 4, "9": 4}, unrecorded=[5])
    assert 4 not in fiim.state.at_table and fiim.state.first_killed == 4


def test_gamelog_miss_with_an_unrecorded_aim(fiim: Script) -> None:
    fiim.speeches()
    fiim.add(type="shot", target=None, shots={"3": 4, "9": 4}, unrecorded=[5])
    assert len(fiim.state.at_table) == 10


def test_gamelog_vote_known_only_by_who_left(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    assert fiim.refused(type="vote", leaves=[4]).code == "log_not_candidate"
    assert fiim.refused(type="vote", leaves=[5], counts={"5": 6}).code == "log_vote_form"
    fiim.add(type="vote", leaves=[5])
    assert 5 not in fiim.state.at_table and fiim.state.day1_vote_left == 1
    fiim.add(type="last_words", seat=5).night(1).add(type="last_words", seat=1)
    fiim.speeches({2: 9, 3: 4})
    fiim.add(type="vote", leaves=[9, 4])  # a lift, its votes unrecorded
    assert [d.how for d in fiim.state.departures[-2:]] == ["lifted", "lifted"]


def test_gamelog_vote_known_to_have_removed_nobody(fiim: Script) -> None:
    fiim.speeches({1: 5, 2: 9})
    fiim.add(type="vote", leaves=[])
    assert fiim.state.next_step().step is Step.SHOT
    assert len(fiim.state.at_table) == 10
