"""FIIM rules of 2018 (sections 6.7-10), made exact in shared/spec/scoring.md.

All points in hundredths.
"""

from __future__ import annotations

from mafiatab.rules.profile import Distance, ExtraLimits, Ruled, RuleProfile

_NONE: frozenset[int] = frozenset()

FIIM2018 = RuleProfile(
    id="fiim2018",
    title="FIIM 2018",
    federation="FIIM",
    win_points=Ruled(100, "FIIM 8.2.1-8.2.2"),
    k_max_participants=Ruled(20, "FIIM 8.7"),
    k_equal_wins_no_heavy_side=Ruled(True, "FIIM 8.7.1 (Reading: equal wins, no heavy side)"),
    k_formula=Ruled("K = 1 + (N/2 - n)/(N/2), on win points only", "FIIM 8.7.2-8.7.3"),
    best_move_points=Ruled((0, 0, 25, 40), "FIIM 8.3.1"),
    best_move_scored_roles=Ruled(frozenset({"red", "sheriff"}), "FIIM 8.3.1"),
    no_best_move_day1_leavers=Ruled(None, "FIIM 8.3 (no such limit)"),
    best_move_on_draw=Ruled(True, "FIIM 8.4.6 (denies only the judge's extras on a draw)"),
    best_move_max_numbers=Ruled(3, "FIIM 8.3"),
    extra_limits=Ruled(ExtraLimits.BY_TEAM, "FIIM 8.4"),
    extra_max_players=Ruled(3, "FIIM 8.4.1"),
    extra_max_sum=Ruled(100, "FIIM 8.4.2"),
    extra_max_winner=Ruled(70, "FIIM 8.4.3"),
    extra_approval_from=Ruled(60, "FIIM 8.4.3"),
    extra_max_loser=Ruled(40, "FIIM 8.4.4"),
    extra_positive_scale=Ruled(_NONE, "FIIM 8.4 (no scale)"),
    extra_positive_approval=Ruled(_NONE, "FIIM 8.4 (no scale)"),
    extra_negative_scale=Ruled(_NONE, "FIIM 8.5 (no scale)"),
    extra_negative_approval=Ruled(_NONE, "FIIM 8.5 (no scale)"),
    extra_scale_reading=Ruled("none", "FIIM 8.4 (no scale)"),
    no_positive_extra_on_draw=Ruled(True, "FIIM 8.4.6"),
    no_positive_extra_when_removed=Ruled(False, "FIIM 8.4 (no such rule)"),
    has_first_killed_protocol=Ruled(False, "FIIM 8.3 (best move only)"),
    pu_extra_scale=Ruled(_NONE, "FIIM (no first killed's extra)"),
    will_scale=Ruled(_NONE, "FIIM (no will evaluation)"),
    will_approval=Ruled(_NONE, "FIIM (no will evaluation)"),
    protocol_scale=Ruled(_NONE, "FIIM (no protocol evaluation)"),
    protocol_approval=Ruled(_NONE, "FIIM (no protocol evaluation)"),
    same_as_will_larger_counts=Ruled(False, "FIIM (no will evaluation)"),
    limit_counts_will_and_protocol=Ruled(False, "FIIM 8.4.2"),
    pu_protocol_black_correct=Ruled((0, 0, 0), "FIIM (no first killed's protocol)"),
    pu_protocol_black_wrong=Ruled((0, 0, 0), "FIIM (no first killed's protocol)"),
    pu_protocol_red_first=Ruled(0, "FIIM (no first killed's protocol)"),
    pu_protocol_red_next=Ruled(0, "FIIM (no first killed's protocol)"),
    pu_protocol_red_cap=Ruled(0, "FIIM (no first killed's protocol)"),
    pu_protocol_red_errors=Ruled((0, 0), "FIIM (no first killed's protocol)"),
    pu_protocol_max_black_entries=Ruled(0, "FIIM (no first killed's protocol)"),
    pu_protocol_versions=Ruled({}, "FIIM (no first killed's protocol)"),
    pu_protocol_aside_red=Ruled(0, "FIIM (no first killed's protocol)"),
    pu_protocol_aside_black=Ruled(0, "FIIM (no first killed's protocol)"),
    pu_protocol_aside_error=Ruled(0, "FIIM (no first killed's protocol)"),
    pu_protocol_near_reliable_percent=Ruled(0, "FIIM (no first killed's protocol)"),
    pu_protocol_scored_roles=Ruled(frozenset(), "FIIM (no first killed's protocol)"),
    penalty_disqualification=Ruled(-50, "FIIM 8.2.4"),
    penalty_disqualification_critical=Ruled(-50, "FIIM 8.2.4"),
    penalty_team_loss=Ruled(-50, "FIIM 6.8, 8.2.4 (Reading: the disqualification penalty)"),
    penalty_game_action_fixed=Ruled(-40, "FIIM 8.5"),
    penalty_revealed_sheriff_no_will=Ruled(None, "FIIM (no such penalty)"),
    team_loss_excludes_disqualification=Ruled(
        True, "FIIM 6.8 (Reading: one removal, one penalty)"
    ),
    has_broken_table=Ruled(False, "FIIM (no such rule)"),
    comp_distance=Ruled(Distance.QUAL_SEMI_TOGETHER, "FIIM 8.6, 8.6.1"),
    comp_paying_stage_kinds=Ruled(frozenset({"qualification", "semifinal"}), "FIIM 8.6"),
    comp_max=Ruled(40, "FIIM 8.6.1 (Reading: the FSM 8.6.2 formula)"),
    comp_b_percent=Ruled(40, "FIIM 8.6.1"),
    comp_b_minimum=Ruled(0, "FIIM 8.6.1 (Reading: no minimum)"),
    comp_requires_black_in_best_move=Ruled(False, "FIIM 8.6.3"),
    comp_share_on_red_win=Ruled((0, 1), "FIIM 8.6.3"),
    tie_breakers=Ruled(
        ("total", "extra", "wins", "wins_don_sheriff", "first_killed"),
        "FIIM 8.8, 8.8.1-8.8.4",
    ),
    first_killed_night=Ruled(1, "FIIM 8.3 (the first night after the agreement night)"),
    day1_single_nominee_no_vote=Ruled(True, "FIIM 7 (day 1, one nominee: no vote)"),
    revote_when_tie_changes=Ruled(True, "FIIM 7 (Reading: a changed tie is voted again)"),
    removal_cancels_vote=Ruled(True, "FIIM 7.1, 7.2"),
    four_players_tie_no_vote=Ruled(False, "FIIM 7.6, 7.11 (off)"),
    short_speech_table_sizes=Ruled(frozenset({3, 4}), "FIIM 7.7"),
    draw_quiet_cycles=Ruled(3, "FIIM 7.8"),
    no_lift_of_whole_table=Ruled(True, "FIIM 7.9"),
    removal_by_fouls_penalised=Ruled(
        True, "FIIM 8.2.4, 7.10 (Reading: a 4th foul removes from the table)"
    ),
    critical_red_margin=Ruled(None, "FIIM 8.2.4 (one penalty)"),
    killed_may_check_that_night=Ruled(
        True, "FIIM 7 (Reading: the kill is announced in the morning)"
    ),
)
