"""Golden cases of the FIIM 2018 rules (scoring.md, seed 000), each named after its clause.

Points are compared exactly, in hundredths (100 = 1 point).
"""

from __future__ import annotations

from fractions import Fraction

from mafiatab.domain.problems import ProtocolRefused
from mafiatab.domain.standings import explain_player
from mafiatab.services.tournament_file import load_tournament, standings_of
from tests.helpers import codes, dumps, game, refused, rows, tournament

F = "fiim2018"


# --- 8.2 main points -------------------------------------------------------------------


def test_fiim_8_2_1_red_team_win_gives_each_red_one_point() -> None:
    r = rows(tournament(F, [game(result="red")], participants=30))
    assert [r[f"p{i}"].main for i in (1, 2, 3, 5, 7, 9, 10)] == [100] * 7
    assert [r[f"p{i}"].main for i in (4, 6, 8)] == [0, 0, 0]
    assert r["p3"].wins_don_sheriff == 1 and r["p1"].wins_don_sheriff == 0


def test_fiim_8_2_2_black_team_win_gives_each_black_one_point() -> None:
    r = rows(tournament(F, [game(result="black")], participants=30))
    assert [r[f"p{i}"].main for i in (4, 6, 8)] == [100, 100, 100]
    assert r["p1"].main == 0
    assert r["p6"].wins_don_sheriff == 1


def test_fiim_8_2_3_draw_gives_no_points() -> None:
    r = rows(tournament(F, [game(result="draw")], participants=30))
    assert all(row.main == 0 and row.wins == 0 for row in r.values())


def test_fiim_8_2_4_disqualification_penalty_is_minus_half_and_extra() -> None:
    g = game(result="red", scores={"5": {"penalties": [{"kind": "disqualification",
                                                        "critical": False}]}})
    r = rows(tournament(F, [g], participants=30))["p5"]
    assert (r.main, r.extra, r.penalties, r.total) == (100, -50, -50, 50)


def test_fiim_6_8_team_loss_penalty_reading_is_the_disqualification_penalty() -> None:
    g = game(result="red", scores={"4": {"penalties": [{"kind": "team_loss"}]}})
    r = rows(tournament(F, [g], participants=30))
    assert r["p4"].penalties == -50
    assert r["p1"].main == 100  # the other team wins (scoring.md 2)


# --- 8.3 best move ----------------------------------------------------------------------


def _bm(first_killed: int, best_move: list[int], result: str = "black") -> dict[str, object]:
    return game(result=result, first_killed=first_killed, best_move=best_move)


def test_fiim_8_3_1_best_move_three_blacks_plus_0_4() -> None:
    r = rows(tournament(F, [_bm(1, [4, 6, 8])], participants=30))["p1"]
    assert (r.best_move, r.extra) == (40, 40)


def test_fiim_8_3_1_best_move_two_blacks_plus_0_25() -> None:
    assert rows(tournament(F, [_bm(1, [4, 6, 2])], participants=30))["p1"].best_move == 25


def test_fiim_8_3_1_best_move_one_black_nothing() -> None:
    assert rows(tournament(F, [_bm(1, [4, 2, 5])], participants=30))["p1"].best_move == 0


def test_fiim_8_3_1_sheriff_earns_best_move_points() -> None:
    assert rows(tournament(F, [_bm(3, [4, 6, 8])], participants=30))["p3"].best_move == 40


def test_fiim_8_3_1_black_first_killed_earns_nothing() -> None:
    r = rows(tournament(F, [_bm(4, [6, 8, 1], result="red")], participants=30))["p4"]
    assert r.best_move == 0 and r.first_killed == 1


def test_fiim_8_4_6_best_move_points_stay_on_a_draw() -> None:
    assert rows(tournament(F, [_bm(1, [4, 6, 8], "draw")], participants=30))["p1"].best_move == 40


def test_fiim_9_6_miss_has_no_first_killed() -> None:
    r = rows(tournament(F, [game(first_killed=None)], participants=30))
    assert all(row.first_killed == 0 for row in r.values())


# --- 8.4 judge's extras -----------------------------------------------------------------


def test_fiim_8_4_1_at_most_three_players_get_extras() -> None:
    scores = {str(s): {"extra": 0.2} for s in (1, 2, 3, 5)}
    assert "limit_players" in codes(refused(tournament(F, [game(scores=scores)])))
    three = {str(s): {"extra": 0.2} for s in (1, 2, 3)}
    assert rows(tournament(F, [game(scores=three)], participants=30))["p3"].extra == 20


def test_fiim_8_4_1_8_4_2_no_approval_lifts_the_limits() -> None:
    """FIIM gives the head judge no power to lift 8.4.1-8.4.2 (only FSM 8.4.1 does): the
    approval is refused, and the limits are still checked."""
    scores = {str(s): {"extra": 0.2} for s in (1, 2, 3, 5)}
    problems = refused(tournament(F, [game(scores=scores, limits_approved=True)]))
    assert {(p.code, p.field, p.clause) for p in problems} == {
        ("limits_approval_not_in_rules", "limits_approved", "FIIM 8.4.1-8.4.2 (no approval of the limits)"),
        ("limit_players", "scores", "FIIM 8.4.1")}
    # false, the default, is harmless
    ok = game(scores={"1": {"extra": 0.2}}, limits_approved=False)
    assert rows(tournament(F, [ok], participants=30))["p1"].extra == 20


def test_fiim_9_9_negative_extra_is_refused_a_penalty_is_a_penalty() -> None:
    problems = refused(tournament(F, [game(scores={"2": {"extra": -0.4}})]))
    assert [(p.code, p.seat, p.field) for p in problems] == [("negative_extra", 2, "extra")]
    assert problems[0].clause is not None and problems[0].clause.startswith("FIIM 8.4, 9.9")
    # the same -0.4 as a penalty of a listed case is counted as one
    g = game(result="black", scores={"2": {"penalties": [{"kind": "game_action", "rule": "8.5.1"}]}})
    r = rows(tournament(F, [g], participants=30))["p2"]
    assert (r.extra, r.penalties) == (-40, -40)


def test_fiim_8_4_2_extras_add_up_to_at_most_one_point() -> None:
    scores = {"1": {"extra": 0.5}, "2": {"extra": 0.4}, "4": {"extra": 0.2}}
    problems = refused(tournament(F, [game(scores=scores)]))
    assert any(p.code == "limit_sum" and p.clause == "FIIM 8.4.2" for p in problems)
    assert rows(tournament(F, [game(scores={"1": {"extra": 0.5}, "2": {"extra": 0.5}})],
                           participants=30))["p2"].extra == 50


def test_fiim_8_4_3_winner_gets_at_most_0_7_and_0_6_needs_approval() -> None:
    assert "needs_approval" in codes(refused(tournament(F, [game(scores={"1": {"extra": 0.6}})])))
    approved = game(scores={"1": {"extra": 0.7, "approved": True}})
    assert rows(tournament(F, [approved], participants=30))["p1"].extra == 70
    over = game(scores={"1": {"extra": 0.8, "approved": True}})
    assert "extra_winner_max" in codes(refused(tournament(F, [over])))


def test_fiim_8_4_4_loser_gets_at_most_0_4() -> None:
    assert "extra_loser_max" in codes(refused(tournament(F, [game(scores={"4": {"extra": 0.5}})])))
    assert rows(tournament(F, [game(scores={"4": {"extra": 0.4}})], participants=30))["p4"].extra == 40


def test_fiim_8_4_6_no_judge_extras_on_a_draw() -> None:
    g = game(result="draw", scores={"1": {"extra": 0.2}})
    assert "extra_on_draw" in codes(refused(tournament(F, [g])))


def test_fiim_8_5_negative_game_action_is_minus_0_4() -> None:
    g = game(result="black", scores={"3": {"penalties": [{"kind": "game_action", "rule": "8.5.3"}]}})
    r = rows(tournament(F, [g], participants=30))["p3"]
    assert (r.penalties, r.extra) == (-40, -40)
    wrong = game(scores={"3": {"penalties": [{"kind": "game_action", "points": -0.3}]}})
    assert "game_action_fixed" in codes(refused(tournament(F, [wrong])))


def _action(seat: int, rule: str | None, result: str) -> dict[str, object]:
    pen: dict[str, object] = {"kind": "game_action"}
    if rule is not None:
        pen["rule"] = rule
    return game(result=result, scores={str(seat): {"penalties": [pen]}})


def _action_codes(seat: int, rule: str | None, result: str) -> set[str]:
    try:
        load_tournament(dumps(tournament(F, [_action(seat, rule, result)], participants=30)))
    except ProtocolRefused as e:
        return {p.code for p in e.problems if not p.warning}
    return set()


# default table: 1 red, 3 sheriff, 4 black, 6 don


def test_fiim_8_5_game_action_names_its_case() -> None:
    for rule in (None, "8.5.5", "8.5", "FIIM 8.5.3"):
        problems = refused(tournament(F, [_action(1, rule, "black")]))
        assert [(p.code, p.field, p.clause) for p in problems] == [
            ("game_action_case", "penalties.rule", "FIIM 8.5 (a closed list: 8.5.1-8.5.4)")]


def test_fiim_8_5_1_red_or_sheriff_and_the_red_team_lost() -> None:
    assert _action_codes(1, "8.5.1", "black") == set()
    assert _action_codes(3, "8.5.1", "black") == set()
    assert _action_codes(4, "8.5.1", "black") == {"game_action_case_role"}
    assert _action_codes(1, "8.5.1", "red") == {"game_action_case_result"}
    assert _action_codes(1, "8.5.1", "draw") == {"game_action_case_result"}


def test_fiim_8_5_2_red_not_the_sheriff_any_result() -> None:
    assert _action_codes(1, "8.5.2", "red") == set()
    assert _action_codes(1, "8.5.2", "black") == set()
    assert _action_codes(1, "8.5.2", "draw") == set()
    assert _action_codes(3, "8.5.2", "red") == {"game_action_case_role"}
    assert _action_codes(6, "8.5.2", "red") == {"game_action_case_role"}


def test_fiim_8_5_3_red_or_sheriff_and_the_red_team_lost() -> None:
    assert _action_codes(3, "8.5.3", "black") == set()
    assert _action_codes(3, "8.5.3", "red") == {"game_action_case_result"}
    assert _action_codes(8, "8.5.3", "red") == {"game_action_case_role",
                                                "game_action_case_result"}


def test_fiim_8_5_4_black_or_don_and_the_black_team_lost() -> None:
    assert _action_codes(4, "8.5.4", "red") == set()
    assert _action_codes(6, "8.5.4", "red") == set()
    assert _action_codes(6, "8.5.4", "black") == {"game_action_case_result"}
    assert _action_codes(1, "8.5.4", "red") == {"game_action_case_role"}
    problems = refused(tournament(F, [_action(1, "8.5.4", "black")]))
    messages = {p.message("ru") for p in problems} | {p.message("en") for p in problems}
    assert ("game g1, seat 1, penalties.rule: case 8.5.4 applies only to the roles black, don "
            "(FIIM 8.5.4)") in messages
    assert ("игра g1, место 1, штрафы: случай 8.5.4 — только если чёрная команда "
            "проиграла (ФИИМ 8.5.4)") in messages


def test_fiim_8_5_penalty_cites_its_case() -> None:
    loaded = load_tournament(dumps(tournament(F, [_action(4, "8.5.4", "red")], participants=30)))
    parts = [x for e in explain_player(loaded.tournament, loaded.profile, "p4") for x in e.parts]
    assert [(x.kind, x.points, x.clause) for x in parts] == [("penalty", -40, "FIIM 8.5.4")]
    assert standings_of(loaded).rows


def test_fiim_8_2_4_penalties_stay_on_a_draw() -> None:
    g = game(result="draw", scores={"1": {"penalties": [{"kind": "disqualification",
                                                         "critical": False}]}})
    assert rows(tournament(F, [g], participants=30))["p1"].penalties == -50


# --- 8.6 compensation -------------------------------------------------------------------


def _games_for_p1(n: int, fk_losses: int, fk_wins: int = 0) -> list[dict[str, object]]:
    """n games of p1 (always seat 1, red); the first `fk_losses` he is first killed and red
    loses, the next `fk_wins` he is first killed and red wins."""
    out = []
    for i in range(n):
        if i < fk_losses:
            out.append(game(f"g{i}", rnd=i + 1, result="black", first_killed=1))
        elif i < fk_losses + fk_wins:
            out.append(game(f"g{i}", rnd=i + 1, result="red", first_killed=1))
        else:
            out.append(game(f"g{i}", rnd=i + 1, result="red", first_killed=2))
    return out


def test_fiim_8_6_1_ci_is_0_4_i_over_b() -> None:
    # 10 games: B = 4; first killed twice as red, red lost both: Ci = 0.4 * 2 / 4 = 0.2 each
    r = rows(tournament(F, _games_for_p1(10, 2), participants=30))["p1"]
    assert r.compensation == 40 and r.first_killed == 2
    assert r.main == 8 * 100 + 40


def test_fiim_8_6_1_ci_is_0_4_when_i_exceeds_b() -> None:
    # 2 games: B = round(0.8) = 1; i = 2 > B: Ci = 0.4 in each
    r = rows(tournament(F, _games_for_p1(2, 2), participants=30))["p1"]
    assert r.compensation == 80


def test_fiim_8_6_1_b_rounds_to_nearest_whole() -> None:
    # 7 games: B = round(2.8) = 3; i = 1: Ci = 0.4 / 3
    r = rows(tournament(F, _games_for_p1(7, 1), participants=30))["p1"]
    assert r.compensation == Fraction(40, 3)
    # 6 games: B = round(2.4) = 2; i = 1: Ci = 0.2
    assert rows(tournament(F, _games_for_p1(6, 1), participants=30))["p1"].compensation == 20


def test_fiim_8_6_3_ci_only_when_red_lost() -> None:
    r = rows(tournament(F, _games_for_p1(10, 0, fk_wins=2), participants=30))["p1"]
    assert r.compensation == 0 and r.first_killed == 2


def test_fiim_8_6_3_ci_needs_no_black_in_best_move() -> None:
    g = game(result="black", first_killed=1, best_move=[2, 5])
    r = rows(tournament(F, [g], participants=30))["p1"]
    # one game: B = 0, i = 1 > B: Ci = 0.4
    assert r.compensation == 40


def test_fiim_8_6_draw_is_no_loss() -> None:
    g = game(result="draw", first_killed=1)
    assert rows(tournament(F, [g], participants=30))["p1"].compensation == 0


def test_fiim_8_6_finals_are_a_distance_of_their_own_and_do_not_pay() -> None:
    stages = [{"id": "qual", "name": "Q", "kind": "qualification"},
              {"id": "semi", "name": "S", "kind": "semifinal"},
              {"id": "final", "name": "F", "kind": "final"}]
    games = [game("q1", stage="qual", result="black", first_killed=1)]
    games += [game(f"q{i}", stage="qual", rnd=i, first_killed=2) for i in range(2, 6)]
    games += [game(f"s{i}", stage="semi", rnd=i, first_killed=2) for i in range(1, 6)]
    games += [game("f1", stage="final", result="black", first_killed=1)]
    t = tournament(F, games, stages=stages, participants=30)
    r = rows(t)["p1"]
    # qual + semi: 10 games, B = 4, i = 1: Ci = 0.1 in q1; the final pays nothing
    assert r.compensation == 10
    # a final that pays (stage setting): its own distance of 1 game, B = 0, i = 1 > B: 0.4
    stages[2]["compensation"] = True
    assert rows(tournament(F, games, stages=stages, participants=30))["p1"].compensation == 50


def test_fiim_8_6_ci_over_whole_distance_whatever_the_scope() -> None:
    stages = [{"id": "qual", "name": "Q", "kind": "qualification"},
              {"id": "semi", "name": "S", "kind": "semifinal"}]
    games = [game("q1", stage="qual", result="black", first_killed=1)]
    games += [game(f"q{i}", stage="qual", rnd=i, first_killed=2) for i in range(2, 6)]
    games += [game(f"s{i}", stage="semi", rnd=i, first_killed=2) for i in range(1, 6)]
    t = tournament(F, games, stages=stages, participants=30)
    # in scope qual only, Ci still uses B over qual + semi (10 games: B = 4): 0.1
    assert rows(t, ["qual"])["p1"].compensation == 10


# --- 8.7 coefficient K ------------------------------------------------------------------


def test_fiim_8_7_2_k_multiplies_wins_of_heavy_games() -> None:
    # 4 games, 3 red wins, 1 black win: N = 4, n = 1, K = 1 + (2 - 1) / 2 = 1.5
    games = [game(f"g{i}", rnd=i + 1, result="red") for i in range(3)]
    games.append(game("g3", rnd=4, result="black"))
    r = rows(tournament(F, games))
    assert r["p4"].main == 150  # one heavy (black) win
    assert r["p1"].main == 300  # three ordinary wins


def test_fiim_8_7_2_draws_count_in_n() -> None:
    # N = 5 (one draw), n = 1: K = 1 + (2.5 - 1) / 2.5 = 1.6
    games = [game(f"g{i}", rnd=i + 1, result="red") for i in range(3)]
    games += [game("g3", rnd=4, result="black"), game("g4", rnd=5, result="draw")]
    assert rows(tournament(F, games))["p4"].main == 160


def test_fiim_8_7_3_k_applies_only_to_win_points() -> None:
    games = [game(f"g{i}", rnd=i + 1, result="red") for i in range(3)]
    games.append(game("g3", rnd=4, result="black", scores={"4": {"extra": 0.4}}))
    r = rows(tournament(F, games))["p4"]
    assert (r.main, r.extra) == (150, 40)


def test_fiim_8_7_no_k_over_20_participants() -> None:
    games = [game(f"g{i}", rnd=i + 1, result="red") for i in range(3)]
    games.append(game("g3", rnd=4, result="black"))
    assert rows(tournament(F, games, participants=21))["p4"].main == 100
    assert rows(tournament(F, games, participants=20))["p4"].main == 150


def test_fiim_8_7_reading_equal_wins_no_heavy_side() -> None:
    games = [game("g0", result="red"), game("g1", rnd=2, result="black")]
    r = rows(tournament(F, games))
    assert r["p4"].main == 100 and r["p1"].main == 100


def test_fiim_8_7_k_over_whole_tournament_whatever_the_scope() -> None:
    stages = [{"id": "qual", "name": "Q", "kind": "qualification"},
              {"id": "final", "name": "F", "kind": "final"}]
    games = [game(f"g{i}", rnd=i + 1, result="red") for i in range(3)]
    games.append(game("f1", stage="final", result="black"))
    t = tournament(F, games, stages=stages)
    assert rows(t, ["final"])["p4"].main == 150


def test_fiim_8_7_k_with_ci_is_exact() -> None:
    # K = 1.5 on the heavy black win; Ci of p1 is not multiplied (8.7.3)
    games = [game(f"g{i}", rnd=i + 1, result="red") for i in range(3)]
    games.append(game("g3", rnd=4, result="black", first_killed=1))
    r = rows(tournament(F, games))["p1"]
    # 4 games: B = round(1.6) = 2, i = 1: Ci = 0.2
    assert (r.main, r.compensation) == (300 + 20, 20)


# --- 8.8 standings ----------------------------------------------------------------------


def test_fiim_8_8_total_is_main_plus_extra() -> None:
    g = game(result="red", first_killed=3, best_move=[4, 6, 8], scores={"1": {"extra": 0.3}})
    r = rows(tournament(F, [g], participants=30))
    assert r["p3"].total == 140 and r["p1"].total == 130
