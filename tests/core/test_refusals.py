"""scoring.md section 8: every case that refuses a protocol, with place and clause."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from mafiatab.domain.problems import ProtocolRefused
from mafiatab.services.tournament_file import load_tournament
from tests.helpers import ROLES, codes, dumps, game, refused, tournament


def _swap_role(g: dict[str, Any], seat: int, role: str) -> dict[str, Any]:
    g = copy.deepcopy(g)
    g["seats"][seat - 1]["role"] = role
    return g


@pytest.mark.parametrize("rules", ["fsm", "fiim2018"])
def test_section_1_nine_seats_refused(rules: str) -> None:
    g = game()
    g["seats"].pop()
    g["seats"][0]["role"] = "red"
    assert "seat_count" in codes(refused(tournament(rules, [g])))


@pytest.mark.parametrize("rules", ["fsm", "fiim2018"])
def test_section_1_seat_out_of_range_or_twice(rules: str) -> None:
    g = game()
    g["seats"][9]["seat"] = 11
    assert "seat_number" in codes(refused(tournament(rules, [g])))
    g = game()
    g["seats"][9]["seat"] = 1
    assert "seat_twice" in codes(refused(tournament(rules, [g])))


@pytest.mark.parametrize("rules", ["fsm", "fiim2018"])
def test_section_1_player_twice_or_unknown(rules: str) -> None:
    g = game(players=["p1"] * 2 + [f"p{i}" for i in range(3, 11)])
    problems = refused(tournament(rules, [g]))
    assert any(p.code == "player_twice" and p.seat == 2 for p in problems)
    t = tournament(rules, [game()])
    t["players"] = [p for p in t["players"] if p["id"] != "p7"]
    problems = refused(t)
    assert any(p.code == "unknown_player" and p.seat == 7 and p.game == "g1" for p in problems)


@pytest.mark.parametrize("rules", ["fsm", "fiim2018"])
def test_section_1_role_count_off(rules: str) -> None:
    problems = refused(tournament(rules, [_swap_role(game(), 1, "black")]))
    assert {p.params.get("role") for p in problems if p.code == "role_count"} == {"red", "black"}
    assert "bad_choice" in codes(refused(tournament(rules, [_swap_role(game(), 1, "mafia")])))


@pytest.mark.parametrize("rules", ["fsm", "fiim2018"])
def test_section_1_result_and_stage(rules: str) -> None:
    assert "bad_result" in codes(refused(tournament(rules, [game(result="tie")])))
    assert "unknown_stage" in codes(refused(tournament(rules, [game(stage="nope")])))


@pytest.mark.parametrize("rules", ["fsm", "fiim2018"])
def test_best_move_refusals(rules: str) -> None:
    cases = {
        "bm_too_many": game(first_killed=1, best_move=[2, 3, 4, 5]),
        "bm_repeat": game(first_killed=1, best_move=[4, 4]),
        "bm_own_seat": game(first_killed=1, best_move=[1, 4]),
        "bm_without_fk": game(first_killed=None, best_move=[4, 6]),
    }
    for code, g in cases.items():
        assert code in codes(refused(tournament(rules, [g]))), code


@pytest.mark.parametrize("rules", ["fsm", "fiim2018"])
def test_team_loss_on_a_team_that_did_not_lose(rules: str) -> None:
    for result in ("black", "draw"):
        g = game(result=result, scores={"4": {"penalties": [{"kind": "team_loss"}]}})
        assert "team_loss_not_lost" in codes(refused(tournament(rules, [g])))


@pytest.mark.parametrize("rules", ["fsm", "fiim2018"])
def test_team_loss_and_disqualification_on_one_player(rules: str) -> None:
    g = game(result="red", scores={"4": {"penalties": [
        {"kind": "team_loss"}, {"kind": "disqualification", "critical": False}]}})
    assert "team_loss_and_dq" in codes(refused(tournament(rules, [g])))


@pytest.mark.parametrize("field", ["pu_extra", "will", "protocol"])
def test_fiim_file_using_fsm_only_points(field: str) -> None:
    g = game(first_killed=1, scores={"1": {field: 0.2}})
    problems = refused(tournament("fiim2018", [g]))
    assert any(p.code == "fsm_only" and p.field == field for p in problems)


def test_fiim_file_using_fsm_only_fields() -> None:
    g = game(first_killed=1, broken_table=True, day1_vote_left=1,
             scores={"1": {"pu_protocol": {"entries": []}},
                     "2": {"will": 0.2, "protocol": 0.4, "same_as_will": True},
                     "3": {"penalties": [{"kind": "revealed_sheriff_no_will"}]}})
    found = {(p.code, p.field) for p in refused(tournament("fiim2018", [g]))}
    assert ("broken_table_not_in_rules", "broken_table") in found
    assert ("fsm_only", "pu_protocol") in found
    assert ("fsm_only", "same_as_will") in found
    assert ("fsm_only", "penalties.kind") in found


def test_fsm_game_action_without_points() -> None:
    g = game(scores={"2": {"penalties": [{"kind": "game_action"}]}})
    problems = refused(tournament("fsm", [g]))
    assert [(p.code, p.seat, p.field) for p in problems] == [
        ("game_action_points", 2, "penalties.points")]


def test_fiim_game_action_points_may_be_left_out() -> None:
    g = game(scores={"2": {"penalties": [{"kind": "game_action", "rule": "8.5.2"}]}})
    load_tournament(dumps(tournament("fiim2018", [g])))


def test_more_than_two_decimal_places() -> None:
    g = game(scores={"2": {"extra": 0.255}})
    problems = refused(tournament("fiim2018", [g]))
    assert [(p.code, p.seat, p.field) for p in problems] == [("points_format", 2, "extra")]


def test_every_problem_listed_with_place_and_clause() -> None:
    g1 = game("a1", scores={"2": {"extra": 1.2}, "1": {"pu_extra": 0.4}}, first_killed=3)
    g2 = game("a2", result="draw", scores={"5": {"extra": 0.2}})
    problems = refused(tournament("fsm", [g1, g2]))
    messages = [p.message("en") for p in problems]
    assert "game a1, seat 2, extra: +1.2 needs the head judge's approval (FSM 8.4.3)" in messages
    assert any(m.startswith("game a1, seat 1, pu_extra:") and "(FSM 8.3.9.1)" in m
               for m in messages)
    assert "game a2, seat 5, extra: a draw gives no positive extra points (+0.2) (FSM 8.4.8)" \
        in messages
    ru = [p.message("ru") for p in problems]
    assert ("игра a1, место 2, extra: значение +1,2 требует согласования с главным судьёй "
            "(ФСМ 8.4.3)") in ru


def test_refused_file_is_refused_whole() -> None:
    t = tournament("fsm", [game("ok"), game("bad", rnd=2, result="x")])
    with pytest.raises(ProtocolRefused) as info:
        load_tournament(dumps(t))
    assert {p.game for p in info.value.problems} == {"bad"}


# --- the file itself -------------------------------------------------------------------


@pytest.mark.parametrize("data", [b"", b"{", b"[1, 2", b"\xff\xfe", b"null", b"[]", b"42"])
def test_not_json_or_not_an_object(data: bytes) -> None:
    with pytest.raises(ProtocolRefused) as info:
        load_tournament(data)
    assert codes(info.value.problems) & {"not_json", "not_object"}


def test_wrong_types_are_listed_with_their_place() -> None:
    t = tournament("fsm", [game()])
    t["games"][0]["round"] = "one"
    t["games"][0]["seats"][2]["player"] = 5
    t["games"][0]["scores"] = {"2": {"extra": "0.4"}, "x": {}}
    t["format"] = "other/2"
    with pytest.raises(ProtocolRefused) as info:
        load_tournament(dumps(t))
    found = {(p.code, p.game, p.seat, p.field) for p in info.value.problems}
    assert ("type", "g1", None, "round") in found
    assert ("type", "g1", 3, "player") in found
    assert ("type", "g1", 2, "extra") in found
    assert ("seat_number", "g1", None, "scores") in found
    assert any(code == "format" for code, *_ in found)


@pytest.mark.parametrize(("field", "value", "code"), [
    ("round", 0, "positive_int"), ("table", -1, "positive_int"),
    ("day1_vote_left", -1, "nonneg_int")])
def test_numbers_out_of_range(field: str, value: int, code: str) -> None:
    problems = refused(tournament("fsm", [game(**{field: value})]))
    assert [(p.code, p.field) for p in problems] == [(code, field)]


def test_unknown_words_in_scores() -> None:
    g = game(first_killed=1, scores={
        "1": {"pu_protocol": {"entries": [{"seat": 4, "colour": "blue", "tag": "sure"}],
                              "version": {"situation": "guess", "right": True}}},
        "2": {"penalties": [{"kind": "yellow_card"}]}, "11": {"extra": 0.2}})
    found = {(p.code, p.seat, p.field) for p in refused(tournament("fsm", [g]))}
    assert found == {
        ("bad_choice", 1, "pu_protocol.entries.colour"), ("bad_choice", 1, "pu_protocol.entries.tag"),
        ("bad_choice", 1, "pu_protocol.version.situation"), ("bad_choice", 2, "penalties.kind"),
        ("seat_number", None, "scores")}


def test_unknown_rules() -> None:
    t = tournament("fsm", [game()])
    t["rules"] = "mafia-club"
    assert "unknown_rules" in codes(refused(t))


def test_unknown_field_is_a_warning_and_kept() -> None:
    from mafiatab.formats.tournament_json import dumps_tournament

    t = tournament("fsm", [game(extar=0.4, scores={"2": {"extar": 0.4}})], sponsor="ACME")
    loaded = load_tournament(dumps(t))
    assert {(w.code, w.field) for w in loaded.warnings} >= {
        ("unknown_field", "extar"), ("unknown_field", "sponsor")}
    text = dumps_tournament(loaded.tournament)
    assert '"sponsor": "ACME"' in text and '"extar": 0.4' in text


def test_duplicate_game_and_player_ids() -> None:
    t = tournament("fsm", [game("g1"), game("g1", rnd=2)])
    assert "duplicate_id" in codes(refused(t))


def test_lot_naming_unknown_player() -> None:
    t = tournament("fsm", [game()], lots=["p1", "nobody", "p1"])
    assert codes(refused(t)) == {"lot_unknown_player", "lot_duplicate"}


def test_roles_constant_matches_section_1() -> None:
    assert sorted(ROLES.values()).count("red") == 6


def test_points_on_a_fixed_penalty_are_a_warning_and_ignored() -> None:
    """Only a game action takes its size from the judge; a disqualification's is the
    rules' (FSM 8.2.4): points written on it are not counted, and the judge is told."""
    from tests.helpers import rows

    g = game(scores={"2": {"penalties": [{"kind": "disqualification", "critical": True,
                                          "points": -0.3}]}})
    loaded = load_tournament(dumps(tournament("fsm", [g])))
    assert [(w.code, w.seat, w.clause) for w in loaded.warnings] == [
        ("penalty_points_ignored", 2, "FSM 8.2.4, 8.5.8")]
    assert "(-1" in loaded.warnings[0].message("en") and "ignored" in loaded.warnings[0].message("en")
    assert rows(tournament("fsm", [g]))["p2"].penalties == -100


@pytest.mark.parametrize("unknown", [False, True])
def test_duplicate_player_and_stage_ids_on_both_read_paths(unknown: bool) -> None:
    """The same problems whichever reader takes the file (an unknown field sends it to the
    careful one)."""
    t = tournament("fsm", [game()], stages=[{"id": "qual", "name": "Q", "kind": "qualification"},
                                            {"id": "qual", "name": "Q2", "kind": "final"}])
    t["players"].append(dict(t["players"][0]))
    if unknown:
        t["sponsor"] = "x"
    found = {(p.code, p.field) for p in refused(t)}
    assert found == {("duplicate_id", "players.id"), ("duplicate_id", "stages.id")}
