"""FSM rules, section 8, made exact in shared/spec/scoring.md.

All points in hundredths.
"""

from __future__ import annotations

from dataclasses import replace

from mafiatab.rules.profile import Distance, ExtraLimits, Ruled, RuleProfile

_POSITIVE_STEP_0_2 = frozenset({20, 30, 40, 60, 80, 100})
_POSITIVE_STEP_0_1 = frozenset(range(20, 101, 10))


def _neg(values: frozenset[int]) -> frozenset[int]:
    return frozenset(-v for v in values)


FSM = RuleProfile(
    id="fsm",
    title="FSM",
    paper_clause="FSM, course of the game: the judge's protocol",
    federation="FSM",
    names={"ru": "ФСМ", "en": "FSM"},
    win_points=Ruled(100, "FSM 8.2.1-8.2.2"),
    k_max_participants=Ruled(None, "FSM (no coefficient K)"),
    k_equal_wins_no_heavy_side=Ruled(True, "FSM (no coefficient K)"),
    k_formula=Ruled("", "FSM (no coefficient K)"),
    best_move_points=Ruled((0, 10, 30, 60), "FSM 8.3.5"),
    best_move_scored_roles=Ruled(
        frozenset({"red", "sheriff"}), "FSM 8.3.5 (Reading: a black first killed earns nothing)"
    ),
    no_best_move_day1_leavers=Ruled(2, "FSM 8.3.6"),
    best_move_on_draw=Ruled(False, "FSM 8.4.8 (Reading: no positive points on a draw)"),
    best_move_max_numbers=Ruled(3, "FSM 8.3.1"),
    extra_limits=Ruled(ExtraLimits.BY_SCALE, "FSM 8.4"),
    extra_max_players=Ruled(7, "FSM 8.4.1"),
    extra_max_sum=Ruled(400, "FSM 8.4.1"),
    extra_max_winner=Ruled(150, "FSM 8.4.2 (one scale for winners and losers)"),
    extra_approval_from=Ruled(120, "FSM 8.4.3"),
    extra_max_loser=Ruled(150, "FSM 8.4.2 (one scale for winners and losers)"),
    extra_positive_scale=Ruled(
        _POSITIVE_STEP_0_2, "FSM 8.4.3 (Reading: steps of 0.2, and +0.3)"
    ),
    extra_positive_approval=Ruled(frozenset({120, 150}), "FSM 8.4.3"),
    extra_negative_scale=Ruled(
        _neg(_POSITIVE_STEP_0_2), "FSM 8.4.4 (Reading: steps of 0.2, and -0.3)"
    ),
    extra_negative_approval=Ruled(frozenset({-120, -150}), "FSM 8.4.4"),
    extra_scale_reading=Ruled("step_0_2", "FSM 8.4.3-8.4.4 (Reading)"),
    no_positive_extra_on_draw=Ruled(True, "FSM 8.4.8"),
    no_positive_extra_when_removed=Ruled(True, "FSM 8.4.7"),
    has_first_killed_protocol=Ruled(True, "FSM 8.3.9"),
    pu_extra_scale=Ruled(frozenset({20, 30, 40, 60, 80}), "FSM 8.3.9.1"),
    will_scale=Ruled(frozenset({-40, -30, -20, 0, 20, 30, 40}), "FSM 8.3.8.3"),
    will_approval=Ruled(frozenset({30, 40}), "FSM 8.3.8.3"),
    protocol_scale=Ruled(frozenset({-60, -50, -40, 0, 40, 50, 60}), "FSM 8.3.8.12"),
    protocol_approval=Ruled(frozenset({50, 60}), "FSM 8.3.8.12"),
    same_as_will_larger_counts=Ruled(True, "FSM 8.3.8.11"),
    limit_counts_will_and_protocol=Ruled(
        True, "FSM 8.4.1 (Reading: extra, first killed's extra, positive will and protocol)"
    ),
    pu_protocol_black_correct=Ruled((20, 30, 30), "FSM 8.3.9.3"),
    pu_protocol_black_wrong=Ruled((-20, -30, -30), "FSM 8.3.9.3"),
    pu_protocol_red_first=Ruled(10, "FSM 8.3.9.4"),
    pu_protocol_red_next=Ruled(20, "FSM 8.3.9.4"),
    pu_protocol_red_cap=Ruled(80, "FSM 8.3.9.4"),
    pu_protocol_red_errors=Ruled((-20, -40), "FSM 8.3.9.4"),
    pu_protocol_max_black_entries=Ruled(3, "FSM 8.3.9.3"),
    pu_protocol_versions=Ruled(
        {
            "sheriff_don": (40, -40),
            "sheriff_don_vs_red": (40, -40),
            "red_vs_red": (20, -20),
            "black_vs_black": (20, -20),
            "second_claim_after_leaving": (20, -20),
            "single_claim": (0, 0),
            "sheriff_hides": (20, -20),
            "unreliable_sheriff_info": (0, 0),
        },
        "FSM 8.3.9.5, 8.3.9.10",
    ),
    pu_protocol_aside_red=Ruled(10, "FSM 8.3.9.12"),
    pu_protocol_aside_black=Ruled(40, "FSM 8.3.9.12"),
    pu_protocol_aside_error=Ruled(-20, "FSM 8.3.9.12"),
    pu_protocol_near_reliable_percent=Ruled(50, "FSM 8.3.9.8"),
    pu_protocol_scored_roles=Ruled(
        frozenset({"red", "sheriff"}), "FSM 8.3.9 (Reading: as for the best move)"
    ),
    penalty_disqualification=Ruled(-60, "FSM 8.2.4, 8.5.8"),
    penalty_disqualification_critical=Ruled(-100, "FSM 8.2.4, 8.5.8"),
    penalty_team_loss=Ruled(-150, "FSM 8.2.5, 8.5.8"),
    penalty_game_action_fixed=Ruled(None, "FSM 8.5.1 (the 8.4.4 scale)"),
    penalty_revealed_sheriff_no_will=Ruled(-20, "FSM 8.3.9.14"),
    team_loss_excludes_disqualification=Ruled(True, "FSM 8.5.8"),
    has_broken_table=Ruled(True, "FSM 8.6.6"),
    comp_distance=Ruled(Distance.SAME_PARTICIPANTS, "FSM 8.6.2, 8.6.5"),
    comp_paying_stage_kinds=Ruled(
        frozenset({"qualification", "semifinal", "final"}), "FSM 8.6"
    ),
    comp_max=Ruled(40, "FSM 8.6.2"),
    comp_b_percent=Ruled(40, "FSM 8.6.2"),
    comp_b_minimum=Ruled(4, "FSM 8.6.2"),
    comp_requires_black_in_best_move=Ruled(True, "FSM 8.6.4, 8.6.4.3"),
    comp_share_on_red_win=Ruled((1, 2), "FSM 8.6.4.2"),
    comp_per_team=Ruled(False, "FSM 8.6.2 (Reading: Ci per player)"),
    tie_breakers=Ruled(
        ("total", "extra", "wins", "wins_don_sheriff", "first_killed"),
        "FSM 8.7.1-8.7.5",
    ),
    first_killed_night=Ruled(1, "FSM 8.3.1 (the second game night, the first after the agreement)"),
    day1_single_nominee_no_vote=Ruled(True, "FSM 7 (Reading: day 1, one nominee: no vote)"),
    revote_when_tie_changes=Ruled(True, "FSM 7 (Reading: a changed tie is voted again)"),
    removal_cancels_vote=Ruled(
        True, "FSM 7 (Reading: a removal by fouls cancels the current or nearest vote)"
    ),
    four_players_tie_no_vote=Ruled(False, "FSM 7 (Reading: four players tied twice, off)"),
    short_speech_table_sizes=Ruled(
        frozenset({3, 4}), "FSM 7 (Reading: 3 fouls at 3 or 4 players: 30 seconds)"
    ),
    draw_quiet_cycles=Ruled(3, "FSM 7 (Reading: three nights and days with nobody leaving)"),
    no_lift_of_whole_table=Ruled(True, "FSM 7 (Reading: no vote on lifting the whole table)"),
    removal_by_fouls_penalised=Ruled(
        True, "FSM 8.2.4, 8.5.8 (Reading: a 4th foul removes from the table)"
    ),
    critical_red_margin=Ruled(
        1, "FSM 8.2.4 (Reading: critical when reds outnumber blacks by at most 1)"
    ),
    killed_may_check_that_night=Ruled(
        True, "FSM 7 (Reading: the kill is announced in the morning)"
    ),
    protest_minutes_after_game=Ruled(None, "FSM 8.8.2 (no deadline set)"),
    protest_deadline_inclusive=Ruled(True, "FSM 8.8.2 (no deadline set)"),
    removal_from_tournament=Ruled("8.1.1", "FSM 8.1.1"),
    protest_deciders=Ruled(frozenset({"head_judge", "appeals_commission"}), "FSM 8.8.3"),
    protest_decision_final=Ruled(True, "FSM 8.8.5"),
    score_appeals=Ruled(True, "FSM 8.9"),
    appeal_rounds_after_publication=Ruled(
        2, "FSM 8.9.1 (Reading: closed when the third round after publication starts)"
    ),
    appeal_before_next_day=Ruled(
        1, "FSM 8.9.2 (Reading: the first game day only; later days: 8.9.1 and the last round)"
    ),
    appeal_closed_before_last_round=Ruled(True, "FSM 8.9.2"),
    appeal_not_after_tables_closed=Ruled(True, "FSM 8.9.2"),
    appeal_max_positive_extra=Ruled(3, "FSM 8.4.9, 8.9.6"),
    appeal_max_penalty=Ruled(3, "FSM 8.4.9, 8.9.6"),
    appeal_ignored_difference=Ruled(10, "FSM 8.9.5"),
    replay_allowed=Ruled(True, "FSM 8.10.1"),
    result_change_needs_committee=Ruled(True, "FSM 8.10.1"),
    pu_protocol_aside_black_entry=Ruled(
        "last", "FSM 8.3.9.12 (Reading: the last correctly written black)"
    ),
    removal_after_result_cancels_next_vote=Ruled(
        True, "FSM 7 (Reading: a removal after the vote's result cancels the next day's vote)"
    ),
    three_fouls_speak_at_revote=Ruled(
        True, "FSM 7 (Reading: 3 fouls, a repeated vote: he speaks)"
    ),
    last_words_after_end=Ruled(
        True, "FSM 7 (Reading: last words after the last vote or shot; the result stands)"
    ),
    extra_negative_allowed=Ruled(True, "FSM 8.4.4"),
    limits_approval=Ruled(True, "FSM 8.4.1"),
    game_action_cases=Ruled({}, "FSM 8.5 (an open list: \"в том числе\")"),
    game_action_fixed_by_rule=Ruled({"8.5.9": -100}, "FSM 8.5.9"),
    one_removal_per_game=Ruled(True, "FSM 8.5.8"),
    pu_protocol_checked_roles=Ruled(frozenset({"sheriff"}), "FSM 8.3.9.9"),
    pu_protocol_near_reliable_next_as_first=Ruled(True, "FSM 8.3.9.8"),
    pu_protocol_aside_will_max_entries=Ruled(3, "FSM 8.3.9.11"),
    pu_protocol_aside_will_scale=Ruled(frozenset({-20, 0, 20, 30}), "FSM 8.3.9.13"),
    best_move_needs_first_killed=Ruled(True, "FSM 8.3.1"),
    best_move_fixed_numbers=Ruled(True, "FSM 8.3.4"),
    exhibition_are_participants=Ruled(
        False, "FSM 8.6.2, 8.6.5 (Reading: exhibition players are not participants)"),
    awards=Ruled(("mvp", "best_red", "best_sheriff", "best_black", "best_don"),
                 "FSM (federation setting: awards)"),
)


def with_extra_steps_of_0_1(profile: RuleProfile) -> RuleProfile:
    """The other reading of FSM 8.4.3-8.4.4: every value from 0.2 to 1.0 in steps of 0.1."""
    clause = "FSM 8.4.3-8.4.4 (Reading: steps of 0.1)"
    return replace(
        profile,
        extra_positive_scale=Ruled(_POSITIVE_STEP_0_1, clause),
        extra_negative_scale=Ruled(_neg(_POSITIVE_STEP_0_1), clause),
        extra_scale_reading=Ruled("step_0_1", clause),
)
