"""Golden cases of the FSM rules, section 8 (scoring.md, seed 001), named after their clause.

Points are compared exactly, in hundredths (100 = 1 point).
"""

from __future__ import annotations

from typing import Any

from mafiatab.services.tournament_file import load_tournament
from tests.helpers import codes, dumps, game, refused, rows, tournament

S = "fsm"


def _one(g: dict[str, Any], player: str, **kw: Any) -> Any:
    return rows(tournament(S, [g], **kw))[player]


# --- 8.2 main points and removals ---------------------------------------------------------


def test_fsm_8_2_1_and_8_2_2_winners_get_one_point() -> None:
    r = rows(tournament(S, [game(result="black")]))
    assert (r["p4"].main, r["p6"].main, r["p1"].main) == (100, 100, 0)


def test_fsm_8_2_3_draw_gives_nothing() -> None:
    assert all(x.main == 0 for x in rows(tournament(S, [game(result="draw")])).values())


def test_fsm_8_2_4_disqualification_critical_minus_1() -> None:
    g = game(scores={"2": {"penalties": [{"kind": "disqualification", "critical": True}]}})
    assert _one(g, "p2").penalties == -100


def test_fsm_8_2_4_disqualification_not_critical_minus_0_6() -> None:
    g = game(scores={"2": {"penalties": [{"kind": "disqualification", "critical": False}]}})
    r = _one(g, "p2")
    assert (r.penalties, r.extra, r.total) == (-60, -60, 40)


def test_fsm_8_2_5_team_loss_minus_1_5_and_other_team_wins() -> None:
    g = game(result="black", scores={"5": {"penalties": [{"kind": "team_loss"}]}})
    r = rows(tournament(S, [g]))
    assert (r["p5"].penalties, r["p5"].main) == (-150, 0)
    assert r["p4"].main == 100


# --- 8.3 best move -------------------------------------------------------------------------


def test_fsm_8_3_5_best_move_one_black_plus_0_1() -> None:
    assert _one(game(result="black", first_killed=1, best_move=[4, 2, 5]), "p1").best_move == 10


def test_fsm_8_3_5_best_move_two_blacks_plus_0_3() -> None:
    assert _one(game(result="black", first_killed=1, best_move=[4, 6, 5]), "p1").best_move == 30


def test_fsm_8_3_5_best_move_three_blacks_plus_0_6() -> None:
    assert _one(game(result="black", first_killed=3, best_move=[4, 6, 8]), "p3").best_move == 60


def test_fsm_8_3_5_reading_black_first_killed_earns_nothing() -> None:
    assert _one(game(first_killed=4, best_move=[6, 8, 1]), "p4").best_move == 0


def test_fsm_8_3_3_interrupted_best_move_counts_numbers_named() -> None:
    assert _one(game(result="black", first_killed=1, best_move=[4]), "p1").best_move == 10


def test_fsm_8_3_6_no_best_move_after_two_left_by_day_one_vote() -> None:
    g = game(first_killed=1, best_move=[4, 6, 8], day1_vote_left=2)
    problems = refused(tournament(S, [g]))
    assert any(p.code == "bm_not_allowed" and p.clause == "FSM 8.3.6" for p in problems)
    # one leaver is fine
    assert _one(game(first_killed=1, best_move=[4, 6, 8], day1_vote_left=1), "p1").best_move == 60


def test_fsm_8_3_7_first_killed_extra_and_best_move_add_up() -> None:
    g = game(result="black", first_killed=1, best_move=[4, 6, 8], scores={"1": {"pu_extra": 0.4}})
    r = _one(g, "p1")
    assert (r.best_move, r.extra) == (60, 100)


def test_fsm_8_4_8_reading_best_move_dropped_on_a_draw() -> None:
    r = _one(game(result="draw", first_killed=1, best_move=[4, 6, 8]), "p1")
    assert (r.best_move, r.first_killed) == (0, 1)


# --- 8.3.8 will, opinion, protocol --------------------------------------------------------


def test_fsm_8_3_8_3_will_scale() -> None:
    assert _one(game(scores={"2": {"will": -0.2}}), "p2").extra == -20
    assert _one(game(scores={"2": {"will": 0.2}}), "p2").extra == 20
    assert "off_scale" in codes(refused(tournament(S, [game(scores={"2": {"will": 0.1}})])))


def test_fsm_8_3_8_3_will_plus_0_3_needs_approval_except_first_killed() -> None:
    assert "needs_approval" in codes(refused(tournament(S, [game(scores={"2": {"will": 0.3}})])))
    assert _one(game(scores={"2": {"will": 0.3, "approved": True}}), "p2").extra == 30
    fk = game(first_killed=2, scores={"2": {"will": 0.4}})
    assert _one(fk, "p2").extra == 40


def test_fsm_8_3_8_12_protocol_scale_and_approval() -> None:
    assert _one(game(scores={"2": {"protocol": -0.4}}), "p2").extra == -40
    assert "needs_approval" in codes(refused(tournament(S, [game(scores={"2": {"protocol": 0.5}})])))
    assert "off_scale" in codes(refused(tournament(S, [game(scores={"2": {"protocol": 0.3}})])))
    assert _one(game(scores={"2": {"protocol": 0.6, "approved": True}}), "p2").extra == 60


def test_fsm_8_3_8_11_same_protocol_and_will_only_the_larger_counts() -> None:
    g = game(scores={"2": {"will": 0.2, "protocol": 0.4, "same_as_will": True}})
    assert _one(g, "p2").extra == 40
    different = game(scores={"2": {"will": 0.2, "protocol": 0.4}})
    assert _one(different, "p2").extra == 60


# --- 8.3.9 the first killed's extra and protocol ------------------------------------------


def _pu(entries: list[dict[str, Any]], result: str = "black", fk: int = 1,
        **protocol: Any) -> dict[str, Any]:
    return game(result=result, first_killed=fk,
                scores={str(fk): {"pu_protocol": {"entries": entries, **protocol}}})


def _pu_points(entries: list[dict[str, Any]], **kw: Any) -> int:
    fk = kw.get("fk", 1)
    r = _one(_pu(entries, **kw), f"p{fk}")
    assert isinstance(r.extra, int)
    return r.extra


def B(seat: int, tag: str | None = None) -> dict[str, Any]:
    return {"seat": seat, "colour": "black", **({"tag": tag} if tag else {})}


def R(seat: int, tag: str | None = None) -> dict[str, Any]:
    return {"seat": seat, "colour": "red", **({"tag": tag} if tag else {})}


def test_fsm_8_3_9_1_first_killed_extra_up_to_0_8() -> None:
    assert _one(game(first_killed=1, scores={"1": {"pu_extra": 0.8}}), "p1").extra == 80
    assert "off_scale" in codes(refused(tournament(S, [game(first_killed=1,
                                                            scores={"1": {"pu_extra": 1.0}})])))


def test_fsm_8_3_9_1_plain_extra_on_first_killed_refused() -> None:
    g = game(first_killed=1, scores={"1": {"extra": 0.4}})
    assert "extra_on_fk" in codes(refused(tournament(S, [g])))
    # a negative extra stays allowed
    assert _one(game(first_killed=1, scores={"1": {"extra": -0.2}}), "p1").extra == -20


def test_fsm_8_3_9_3_black_entries_first_0_2_then_0_3() -> None:
    assert _pu_points([B(4)]) == 20
    assert _pu_points([B(4), B(6)]) == 50
    assert _pu_points([B(4), B(6), B(8)]) == 80


def test_fsm_8_3_9_3_wrong_blacks_minus_0_2_then_minus_0_3_counted_apart() -> None:
    assert _pu_points([B(2)]) == -20
    assert _pu_points([B(2), B(5)]) == -50
    # a wrong and a right black: each counted from its own first
    assert _pu_points([B(2), B(4)]) == 0


def test_fsm_8_3_9_3_more_than_three_black_entries_refused() -> None:
    g = _pu([B(4), B(6), B(8), B(2)])
    assert "pu_black_entries" in codes(refused(tournament(S, [g])))


def test_fsm_8_3_9_4_reds_first_0_1_then_0_2_capped_at_0_8() -> None:
    assert _pu_points([R(2)]) == 10
    assert _pu_points([R(2), R(3)]) == 30
    # six right reds: 0.1 + 5 * 0.2 = 1.1, capped at 0.8
    assert _pu_points([R(2), R(3), R(5), R(7), R(9), R(10)]) == 80


def test_fsm_8_3_9_4_red_errors_one_minus_0_2_two_or_more_minus_0_4() -> None:
    assert _pu_points([R(4)]) == -20
    assert _pu_points([R(4), R(6)]) == -40
    assert _pu_points([R(4), R(6), R(8)]) == -40


def test_fsm_8_3_9_5_version_on_the_sheriff_plus_minus_0_4() -> None:
    right = {"situation": "sheriff_don", "right": True}
    wrong = {"situation": "sheriff_don", "right": False}
    assert _pu_points([], version=right) == 40
    assert _pu_points([], version=wrong) == -40


def test_fsm_8_3_9_10_versions_by_situation() -> None:
    table = {"sheriff_don_vs_red": 40, "red_vs_red": 20, "black_vs_black": 20,
             "second_claim_after_leaving": 20, "single_claim": 0, "sheriff_hides": 20,
             "unreliable_sheriff_info": 0}
    for situation, value in table.items():
        assert _pu_points([], version={"situation": situation, "right": True}) == value
        assert _pu_points([], version={"situation": situation, "right": False}) == -value


def test_fsm_8_3_9_2_colours_and_version_add_up() -> None:
    assert _pu_points([B(4), R(2)], version={"situation": "red_vs_red", "right": True}) == 50


def test_fsm_8_3_9_7_reliable_colour_scores_nothing_and_takes_no_place() -> None:
    # the reliable black scores 0; the next black is scored as the first (+0.2)
    assert _pu_points([B(4, "reliable"), B(6)]) == 20


def test_fsm_8_3_9_6_colour_from_version_scores_nothing() -> None:
    assert _pu_points([R(2, "from_version"), R(3)]) == 10


def test_fsm_8_3_9_9_sheriff_gets_nothing_for_checked_reds() -> None:
    assert _pu_points([R(2, "checked"), R(5)], fk=3) == 10


def test_fsm_8_3_9_8_near_reliable_half_and_next_as_first() -> None:
    # first black near-reliable: 50% of 0.2 = 0.1; the next black again as first: +0.2
    assert _pu_points([B(4, "near_reliable"), B(6)]) == 30
    # second black near-reliable: 50% of 0.3; the third as first: +0.2
    assert _pu_points([B(4), B(6, "near_reliable"), B(8)]) == 20 + 15 + 20
    # reds: 0.1, then near-reliable 50% of 0.2 = 0.1, then as first again 0.1
    assert _pu_points([R(2), R(3, "near_reliable"), R(5)]) == 30


def test_fsm_8_3_9_8_scoring_md_example_red_black_near_reliable_red_is_0_3() -> None:
    """scoring.md 3.3: red ✓, black near-reliable, red ✓ = 0.1 + 0.1 + 0.1 = 0.3: the next
    correctly written entry, whatever its colour, is scored as the first of its colour."""
    assert _pu_points([R(2), B(4, "near_reliable"), R(3)]) == 30


def test_fsm_8_3_9_8_next_entry_of_the_other_colour_scored_as_first() -> None:
    # red, red, black near-reliable (0.1), red as the first red again (0.1), then the
    # red count goes on from it (0.2)
    assert _pu_points([R(2), R(3), B(4, "near_reliable"), R(5), R(7)]) == 10 + 20 + 10 + 10 + 20
    # black, red near-reliable (50% of 0.1), black as the first black again (+0.2, not 0.3)
    assert _pu_points([B(4), R(2, "near_reliable"), B(6)]) == 20 + 5 + 20
    # an error or an entry that scores nothing is not "the next" that scores
    assert _pu_points([R(2), B(4, "near_reliable"), R(6), R(3)]) == 10 + 10 - 20 + 10
    assert _pu_points([R(2), B(4, "near_reliable"), R(5, "reliable"), R(3)]) == 10 + 10 + 0 + 10


def test_fsm_8_3_9_9_checked_only_on_a_red_entry_of_a_sheriff_first_killed() -> None:
    problems = refused(tournament(S, [_pu([R(2, "checked")], fk=1)]))
    assert [(p.code, p.seat, p.field, p.clause) for p in problems] == [
        ("checked_not_sheriff_red", 1, "pu_protocol.entries.tag", "FSM 8.3.9.9")]
    assert "checked_not_sheriff_red" in codes(refused(tournament(S, [_pu([B(4, "checked")], fk=3)])))
    # a black first killed's protocol scores nothing, but a checked tag there is still wrong
    assert "checked_not_sheriff_red" in codes(
        refused(tournament(S, [_pu([R(2, "checked")], fk=4, result="red")])))
    assert _pu_points([R(2, "checked")], fk=3) == 0


def test_fsm_8_3_9_11_will_beside_aside_protocol_of_four_colours_refused() -> None:
    four = [R(2), R(5), R(7), B(4)]
    g = game(result="black", first_killed=1,
             scores={"1": {"will": 0.2, "pu_protocol": {"entries": four, "aside": True}}})
    problems = refused(tournament(S, [g]))
    assert [(p.code, p.field, p.clause) for p in problems] == [
        ("aside_will_and_protocol", "will", "FSM 8.3.9.11")]
    three = game(result="black", first_killed=1,
                 scores={"1": {"will": 0.2, "pu_protocol": {"entries": four[1:], "aside": True}}})
    # three colours aside + 0.2 will: 0.1 + 0.1 + 0.4 + 0.2
    assert _one(three, "p1").extra == 80
    # not aside: no such limit
    plain = game(result="black", first_killed=1,
                 scores={"1": {"will": 0.2, "pu_protocol": {"entries": four}}})
    assert _one(plain, "p1").extra == 20 + 10 + 20 + 20 + 20


def test_fsm_8_3_9_13_aside_will_is_plus_0_2_plus_0_3_minus_0_2_or_0() -> None:
    def aside_will(value: float) -> dict[str, Any]:
        return game(result="black", first_killed=1,
                    scores={"1": {"will": value, "pu_protocol": {"entries": [B(4)], "aside": True}}})
    for value, points in ((0.2, 20), (0.3, 30), (-0.2, -20), (0, 0)):
        assert _one(aside_will(value), "p1").extra == 40 + points
    for value in (0.4, -0.3, -0.4):
        problems = refused(tournament(S, [aside_will(value)]))
        assert [(p.code, p.field, p.clause) for p in problems] == [("off_scale", "will", "FSM 8.3.9.13")]


def test_fsm_8_3_9_14_only_on_the_first_killed_without_will_or_protocol_once() -> None:
    pen = {"kind": "revealed_sheriff_no_will"}
    not_fk = game(first_killed=1, scores={"2": {"penalties": [pen]}})
    assert [(p.code, p.seat, p.clause) for p in refused(tournament(S, [not_fk]))] == [
        ("revealed_not_fk", 2, "FSM 8.3.9.14")]
    no_fk = game(first_killed=None, scores={"2": {"penalties": [pen]}})
    assert codes(refused(tournament(S, [no_fk]))) == {"revealed_not_fk"}
    with_will = game(first_killed=1, scores={"1": {"will": -0.2, "penalties": [pen]}})
    assert codes(refused(tournament(S, [with_will]))) == {"revealed_with_will"}
    with_protocol = game(first_killed=1, scores={"1": {"pu_protocol": {"entries": [B(4)]},
                                                      "penalties": [pen]}})
    assert codes(refused(tournament(S, [with_protocol]))) == {"revealed_with_will"}
    twice = game(first_killed=1, scores={"1": {"penalties": [pen, pen]}})
    assert codes(refused(tournament(S, [twice]))) == {"revealed_twice"}


def test_fsm_8_3_8_11_first_killed_will_against_his_protocol_the_larger_counts() -> None:
    def fk(will: float, entries: list[dict[str, Any]], same: bool = True) -> Any:
        sc: dict[str, Any] = {"will": will, "pu_protocol": {"entries": entries}}
        if same:
            sc["same_as_will"] = True
        return _one(game(result="black", first_killed=1, scores={"1": sc}), "p1")
    # protocol 0.2 + 0.3 = 0.5 against will 0.2: 0.5
    assert fk(0.2, [B(4), B(6)]).extra == 50
    # protocol 0.2 against will 0.4: 0.4
    assert fk(0.4, [B(4)]).extra == 40
    # a wrong protocol (-0.2) against will 0.2: 0.2
    assert fk(0.2, [B(2)]).extra == 20
    # without same_as_will both count
    assert fk(0.2, [B(4), B(6)], same=False).extra == 70
    # no "same_as_will needs both" warning: his protocol is the other half
    loaded = load_tournament(dumps(tournament(S, [game(result="black", first_killed=1, scores={
        "1": {"will": 0.2, "same_as_will": True, "pu_protocol": {"entries": [B(4)]}}})])))
    assert loaded.warnings == []


def test_fsm_8_3_8_11_first_killed_limit_counts_his_will_as_given() -> None:
    scores: dict[str, Any] = {str(s): {"extra": 1.0} for s in (2, 3, 5)}
    scores["7"] = {"extra": 0.8}
    # 3.8 of extras + his will 0.4 = 4.2 > 4.0, whatever same_as_will decides
    scores["1"] = {"will": 0.4, "same_as_will": True, "pu_protocol": {"entries": [B(4), B(6)]}}
    assert "limit_sum" in codes(refused(tournament(S, [game(result="black", first_killed=1,
                                                            scores=scores)])))


def test_fsm_8_3_9_wrong_entry_scores_as_error_whatever_its_tag() -> None:
    assert _pu_points([B(2, "reliable")]) == -20
    assert _pu_points([R(4, "near_reliable"), R(6)]) == -40


def test_fsm_8_3_9_12_two_claims_protocol_aside() -> None:
    # each right red +0.1, the (last) right black outside the versions +0.4 once, errors -0.2
    assert _pu_points([R(2), R(5), B(4)], aside=True) == 60
    assert _pu_points([R(2), B(4), B(6)], aside=True) == 50
    # Reading: "the last" correctly written black is the one that scores
    assert _pu_points([B(4, "near_reliable"), B(6)], aside=True) == 40
    assert _pu_points([B(4), B(6, "near_reliable")], aside=True) == 20
    assert _pu_points([B(4), B(6, "reliable")], aside=True) == 40
    assert _pu_points([R(4), B(2)], aside=True) == -40
    assert _pu_points([R(2), B(4)], aside=True,
                      version={"situation": "sheriff_don", "right": True}) == 90


def test_fsm_8_3_9_reading_black_first_killed_protocol_scores_nothing() -> None:
    assert _pu_points([B(6), B(8)], fk=4, result="red") == 0


def test_fsm_8_4_8_first_killed_protocol_positive_dropped_on_draw() -> None:
    assert _pu_points([B(4), B(6)], result="draw") == 0
    assert _pu_points([B(2)], result="draw") == -20


def test_fsm_8_3_9_14_revealed_sheriff_without_will_minus_0_2() -> None:
    g = game(first_killed=1, scores={"1": {"penalties": [{"kind": "revealed_sheriff_no_will"}]}})
    r = _one(g, "p1")
    assert (r.penalties, r.extra) == (-20, -20)


def test_fsm_8_3_9_pu_fields_only_on_first_killed() -> None:
    g = game(first_killed=1, scores={"2": {"pu_extra": 0.4}})
    assert "pu_field_not_fk" in codes(refused(tournament(S, [g])))
    g = game(first_killed=1, scores={"2": {"pu_protocol": {"entries": [B(4)]}}})
    assert "pu_field_not_fk" in codes(refused(tournament(S, [g])))


# --- 8.4 extras -----------------------------------------------------------------------------


def test_fsm_8_4_3_positive_scale_reading_steps_of_0_2_and_0_3() -> None:
    for value, expected in ((0.2, 20), (0.3, 30), (0.4, 40), (0.6, 60), (0.8, 80), (1.0, 100)):
        assert _one(game(scores={"2": {"extra": value}}), "p2").extra == expected
    for value in (0.1, 0.5, 0.7, 0.9, 1.1, 2.0):
        assert "off_scale" in codes(refused(tournament(S, [game(scores={"2": {"extra": value}})])))


def test_fsm_8_4_3_rule_option_steps_of_0_1() -> None:
    g = game(scores={"2": {"extra": 0.5}})
    assert _one(g, "p2", rule_options={"extra_scale": "step_0_1"}).extra == 50


def test_fsm_8_4_3_plus_1_2_and_1_5_need_approval() -> None:
    assert "needs_approval" in codes(refused(tournament(S, [game(scores={"2": {"extra": 1.2}})])))
    assert _one(game(scores={"2": {"extra": 1.5, "approved": True}}), "p2").extra == 150


def test_fsm_8_4_4_negative_scale_and_approval() -> None:
    assert _one(game(scores={"2": {"extra": -0.3}}), "p2").extra == -30
    assert "off_scale" in codes(refused(tournament(S, [game(scores={"2": {"extra": -0.5}})])))
    assert "needs_approval" in codes(refused(tournament(S, [game(scores={"2": {"extra": -1.2}})])))
    r = _one(game(scores={"2": {"extra": -1.2, "approved": True}}), "p2")
    assert (r.extra, r.penalties) == (-120, 0)  # a negative extra is not a penalty


def test_fsm_8_4_1_positive_extras_add_up_to_at_most_4() -> None:
    scores = {str(s): {"extra": 1.0} for s in (2, 3, 4, 5)}
    scores["7"] = {"extra": 0.2}
    problems = refused(tournament(S, [game(scores=scores)]))
    assert any(p.code == "limit_sum" and p.clause == "FSM 8.4.1" for p in problems)
    assert _one(game(scores=scores, limits_approved=True), "p7").extra == 20


def test_fsm_8_4_1_at_most_seven_players_first_killed_included() -> None:
    scores: dict[str, Any] = {str(s): {"extra": 0.2} for s in (2, 3, 4, 5, 6, 7)}
    scores["1"] = {"pu_extra": 0.2}
    assert _one(game(first_killed=1, scores=scores), "p1").extra == 20  # seven: fine
    scores["8"] = {"extra": 0.2}
    assert "limit_players" in codes(refused(tournament(S, [game(first_killed=1, scores=scores)])))


def test_fsm_8_4_1_penalties_do_not_count_in_the_limit() -> None:
    scores: dict[str, Any] = {str(s): {"extra": 1.0} for s in (2, 3, 4, 5)}
    scores["7"] = {"extra": -1.0}
    scores["8"] = {"penalties": [{"kind": "game_action", "points": -1.0}]}
    assert _one(game(scores=scores), "p8").penalties == -100


def test_fsm_8_4_1_reading_positive_will_and_protocol_count_in_the_limit() -> None:
    scores: dict[str, Any] = {str(s): {"extra": 1.0} for s in (2, 3, 4, 5)}
    scores["7"] = {"will": 0.2}
    assert "limit_sum" in codes(refused(tournament(S, [game(scores=scores)])))


def test_fsm_8_4_7_removed_player_gets_no_positive_extra() -> None:
    g = game(scores={"2": {"extra": 0.4, "penalties": [{"kind": "disqualification",
                                                         "critical": False}]}})
    assert "extra_when_removed" in codes(refused(tournament(S, [g])))


def test_fsm_8_4_8_draw_no_positive_extras_penalties_stay() -> None:
    assert "extra_on_draw" in codes(refused(tournament(S, [game(result="draw",
                                                               scores={"2": {"extra": 0.4}})])))
    g = game(result="draw", scores={"2": {"extra": -0.4, "penalties": [
        {"kind": "disqualification", "critical": True}]}})
    r = _one(g, "p2")
    assert (r.extra, r.penalties) == (-140, -100)


# --- 8.5 penalties ----------------------------------------------------------------------


def test_fsm_8_5_1_game_action_on_the_8_4_4_scale() -> None:
    g = game(scores={"2": {"penalties": [{"kind": "game_action", "points": -0.6, "rule": "8.5.2"}]}})
    assert _one(g, "p2").penalties == -60
    bad = game(scores={"2": {"penalties": [{"kind": "game_action", "points": -0.5}]}})
    assert "off_scale" in codes(refused(tournament(S, [bad])))


def test_fsm_8_5_9_unplayability_minus_1() -> None:
    g = game(scores={"2": {"penalties": [{"kind": "game_action", "points": -1.0, "rule": "8.5.9"}]}})
    assert _one(g, "p2").penalties == -100


def test_fsm_8_5_9_unplayability_is_exactly_minus_1() -> None:
    for points in (-0.4, -0.8, -1.2):
        g = game(scores={"2": {"penalties": [{"kind": "game_action", "points": points,
                                              "rule": "8.5.9"}], "approved": True}})
        problems = refused(tournament(S, [g]))
        assert [(p.code, p.field, p.clause) for p in problems] == [
            ("game_action_fixed", "penalties.points", "FSM 8.5.9")], points
        assert "(FSM 8.5.9)" in problems[0].message("en")
        assert "(ФСМ 8.5.9)" in problems[0].message("ru")
    # other rules keep the 8.4.4 scale
    g = game(scores={"2": {"penalties": [{"kind": "game_action", "points": -0.4, "rule": "8.5.3"}]}})
    assert _one(g, "p2").penalties == -40
    # points are still required in fsm
    g = game(scores={"2": {"penalties": [{"kind": "game_action", "rule": "8.5.9"}]}})
    assert codes(refused(tournament(S, [g]))) == {"game_action_points"}


def test_fsm_8_5_8_one_removal_penalty_per_player_per_game() -> None:
    dq = {"kind": "disqualification", "critical": False}
    for pens in ([dq, dq], [{"kind": "team_loss"}, {"kind": "team_loss"}]):
        g = game(result="black", scores={"2": {"penalties": pens}})
        problems = refused(tournament(S, [g]))
        assert [(p.code, p.seat, p.clause) for p in problems] == [("removal_twice", 2, "FSM 8.5.8")]
    g = game(result="black", scores={"2": {"penalties": [dq, dq]}})
    assert "removal_twice" in codes(refused(tournament("fiim2018", [g])))


def test_fsm_8_5_1_game_action_needs_points() -> None:
    g = game(scores={"2": {"penalties": [{"kind": "game_action"}]}})
    assert "game_action_points" in codes(refused(tournament(S, [g])))


def test_fsm_8_5_8_team_loss_and_disqualification_not_both() -> None:
    g = game(result="black", scores={"2": {"penalties": [
        {"kind": "team_loss"}, {"kind": "disqualification", "critical": True}]}})
    assert "team_loss_and_dq" in codes(refused(tournament(S, [g])))


def test_fsm_8_5_8_penalties_add_up() -> None:
    g = game(result="black", scores={"2": {"penalties": [
        {"kind": "team_loss"}, {"kind": "game_action", "points": -0.4}]}})
    assert _one(g, "p2").penalties == -190


# --- 8.6 compensation -------------------------------------------------------------------


def _p1_games(n: int, special: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`special` games of p1 first, then ordinary ones up to n games in all."""
    out = [dict(g, id=f"x{i}", round=i + 1) for i, g in enumerate(special)]
    out += [game(f"g{i}", rnd=100 + i, first_killed=2) for i in range(n - len(special))]
    return out


def test_fsm_8_6_2_ci_with_b_at_least_4() -> None:
    # 5 games: 40% = 2, but B = 4; i = 1: Ci = 0.1
    games = _p1_games(5, [game(result="black", first_killed=1, best_move=[4])])
    r = rows(tournament(S, games))["p1"]
    assert r.compensation == 10


def test_fsm_8_6_2_ci_0_4_when_i_exceeds_b() -> None:
    special = [game(result="black", first_killed=1, best_move=[4]) for _ in range(5)]
    r = rows(tournament(S, _p1_games(5, special)))["p1"]
    assert r.compensation == 5 * 40


def test_fsm_8_6_2_b_is_40_percent_rounded() -> None:
    # 13 games: B = round(5.2) = 5; i = 1: Ci = 0.08
    games = _p1_games(13, [game(result="black", first_killed=1, best_move=[4])])
    assert rows(tournament(S, games))["p1"].compensation == 8


def test_fsm_8_6_4_2_half_ci_when_red_won() -> None:
    games = _p1_games(5, [game(result="red", first_killed=1, best_move=[4])])
    r = rows(tournament(S, games))["p1"]
    assert r.compensation == 5 and r.main == 500 + 5


def test_fsm_8_6_4_3_no_ci_without_a_black_in_best_move() -> None:
    games = _p1_games(5, [game(result="black", first_killed=1, best_move=[2, 5])])
    assert rows(tournament(S, games))["p1"].compensation == 0
    games = _p1_games(5, [game(result="black", first_killed=1)])
    assert rows(tournament(S, games))["p1"].compensation == 0


def test_fsm_8_6_4_reading_no_ci_on_a_draw() -> None:
    games = _p1_games(5, [game(result="draw", first_killed=1, best_move=[4])])
    assert rows(tournament(S, games))["p1"].compensation == 0


def test_fsm_8_6_ci_only_for_red_or_sheriff() -> None:
    roles = {1: "black", 2: "red", 3: "sheriff", 4: "red", 5: "red", 6: "don", 7: "red",
             8: "black", 9: "red", 10: "red"}
    games = _p1_games(5, [game(roles=roles, result="red", first_killed=1, best_move=[6])])
    r = rows(tournament(S, games))["p1"]
    assert r.compensation == 0 and r.first_killed == 1


def test_fsm_8_6_5_new_distance_when_participants_change() -> None:
    stages = [{"id": "qual", "name": "Q", "kind": "qualification"},
              {"id": "semi", "name": "S", "kind": "semifinal"}]
    other = [f"p{i}" for i in range(11, 21)]
    qual = [game("q1", result="black", first_killed=1, best_move=[4])]
    qual += [game(f"q{i}", rnd=i, first_killed=2) for i in range(2, 6)]
    qual += [game(f"q{i}o", rnd=i, players=other) for i in range(1, 6)]  # 20 participants
    semi = [game("s1", stage="semi", result="black", first_killed=1, best_move=[4])]
    semi += [game(f"s{i}", stage="semi", rnd=i, first_killed=2) for i in range(2, 6)]  # 10
    r = rows(tournament(S, qual + semi, stages=stages, n_players=20))["p1"]
    # qual alone: 5 games, B = 4, i = 1: 0.1; semi alone: the same: 0.1
    assert r.compensation == 20


def test_fsm_8_6_2_same_participants_one_distance() -> None:
    stages = [{"id": "qual", "name": "Q", "kind": "qualification"},
              {"id": "semi", "name": "S", "kind": "semifinal"}]
    qual = [game("q1", result="black", first_killed=1, best_move=[4])]
    qual += [game(f"q{i}", rnd=i, first_killed=2) for i in range(2, 6)]
    semi = [game("s1", stage="semi", result="black", first_killed=1, best_move=[4])]
    semi += [game(f"s{i}", stage="semi", rnd=i, first_killed=2) for i in range(2, 6)]
    r = rows(tournament(S, qual + semi, stages=stages))["p1"]
    # 10 games, B = 4, i = 2: Ci = 0.2 in each of the two games
    assert r.compensation == 40


def test_fsm_8_6_stage_setting_stops_payment_but_not_counting() -> None:
    stages = [{"id": "qual", "name": "Q", "kind": "qualification", "compensation": False},
              {"id": "semi", "name": "S", "kind": "semifinal"}]
    qual = [game("q1", result="black", first_killed=1, best_move=[4])]
    qual += [game(f"q{i}", rnd=i, first_killed=2) for i in range(2, 6)]
    semi = [game("s1", stage="semi", result="black", first_killed=1, best_move=[4])]
    semi += [game(f"s{i}", stage="semi", rnd=i, first_killed=2) for i in range(2, 6)]
    r = rows(tournament(S, qual + semi, stages=stages))["p1"]
    assert r.compensation == 20  # i = 2 still, but only the semifinal game pays


def test_fsm_8_6_6_broken_table_best_move_but_no_ci_and_no_first_night_death() -> None:
    special = [game(result="black", first_killed=1, best_move=[4, 6], day1_vote_left=1,
                    broken_table=True)]
    r = rows(tournament(S, _p1_games(5, special)))["p1"]
    assert (r.best_move, r.compensation, r.first_killed) == (30, 0, 0)


def test_fsm_8_6_6_broken_table_not_counted_in_i() -> None:
    special = [game(result="black", first_killed=1, best_move=[4], day1_vote_left=1,
                    broken_table=True)] + [game(result="black", first_killed=1, best_move=[4])]
    # 5 games, B = 4: i = 1 (the broken table does not count): Ci = 0.1 once
    assert rows(tournament(S, _p1_games(5, special)))["p1"].compensation == 10


def test_fsm_8_6_6_night_killed_counts_in_i_and_first_night_deaths() -> None:
    # seat 2 (p2) shot in the first shooting night of a broken table: i = 1, a death on the
    # first night; he made no best move, so no Ci in that game
    broken = game(result="black", first_killed=1, best_move=[4], day1_vote_left=1,
                  broken_table=True, night_killed=2)
    later = game(result="black", first_killed=2, best_move=[4])
    games = [dict(broken, id="x0", round=1), dict(later, id="x1", round=2)]
    games += [game(f"g{i}", rnd=100 + i, first_killed=5) for i in range(3)]
    r = rows(tournament(S, games))
    # p2: 5 games, B = 4, i = 2: Ci = 0.2 paid in x1 only
    assert (r["p2"].first_killed, r["p2"].compensation) == (2, 20)
    assert (r["p1"].first_killed, r["p1"].compensation, r["p1"].best_move) == (0, 0, 10)
    # without night_killed p2 has i = 1: Ci = 0.1
    games[0] = dict(games[0])
    del games[0]["night_killed"]
    assert rows(tournament(S, games))["p2"].compensation == 10


def test_fsm_8_6_6_night_killed_refusals() -> None:
    without = game(first_killed=1, night_killed=2)
    assert [(p.code, p.field, p.clause) for p in refused(tournament(S, [without]))] == [
        ("night_killed_without_broken_table", "night_killed", "FSM 8.6.6")]
    same = game(first_killed=1, broken_table=True, night_killed=1)
    assert codes(refused(tournament(S, [same]))) == {"night_killed_is_fk"}
    off = game(first_killed=1, broken_table=True, night_killed=11)
    assert codes(refused(tournament(S, [off]))) == {"seat_number"}


# --- 8.7 standings ----------------------------------------------------------------------


def test_fsm_8_7_2_extra_points_include_penalties_and_best_move() -> None:
    g = game(result="black", first_killed=1, best_move=[4, 6],
             scores={"1": {"pu_extra": 0.2}, "2": {"penalties": [{"kind": "game_action",
                                                                   "points": -0.4}]}})
    r = rows(tournament(S, [g]))
    assert r["p1"].extra == 50 and r["p2"].extra == -40
