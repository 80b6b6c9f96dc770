"""scoring.md section 8: every case that refuses a protocol, with place and clause."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from mafiatab.domain.problems import FIELD_WORDS, ProtocolRefused
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
    assert ("игра a1, место 2, доп. балл: значение +1,2 требует согласования с главным судьёй "
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


# --- scoring.md section 8, one by one, with the clause in both languages --------------

_PU = "pu_protocol"
_DQ = {"kind": "disqualification", "critical": False}
_RS = {"kind": "revealed_sheriff_no_will"}

#: (section 8's case, rules, game, code, seat, field, clause in English) -- the default
#: table: 1 red, 2 red, 3 sheriff, 4 black, 5 red, 6 don, 7 red, 8 black, 9 red, 10 red
SECTION_8: list[tuple[str, str, dict[str, Any], str, int | None, str, str]] = [
    ("section 1: a seat twice", "fsm", game(seats=[{"seat": 1 if i == 2 else i, "player": f"p{i}",
                                                    "role": ROLES[i]} for i in range(1, 11)]),
     "seat_twice", 1, "seats", "scoring.md 1"),
    ("the result", "fiim2018", game(result="tie"), "bad_result", None, "result", "scoring.md 1"),
    ("best move of four", "fsm", game(first_killed=1, best_move=[2, 4, 6, 8]), "bm_too_many",
     None, "best_move", "FSM 8.3.1"),
    ("best move of four (FIIM)", "fiim2018", game(first_killed=1, best_move=[2, 4, 6, 8]),
     "bm_too_many", None, "best_move", "FIIM 8.3"),
    ("best move repeats", "fsm", game(first_killed=1, best_move=[4, 4]), "bm_repeat", None,
     "best_move", "FSM 8.3.4"),
    ("best move repeats (FIIM)", "fiim2018", game(first_killed=1, best_move=[4, 4]), "bm_repeat",
     None, "best_move", "FIIM 8.3"),
    ("best move names his own seat", "fsm", game(first_killed=1, best_move=[1, 4]), "bm_own_seat",
     None, "best_move", "FSM 8.3.4"),
    ("best move without a first killed", "fsm", game(best_move=[4]), "bm_without_fk", None,
     "best_move", "FSM 8.3.1"),
    ("best move without a first killed (FIIM)", "fiim2018", game(best_move=[4]), "bm_without_fk",
     None, "best_move", "FIIM 9.6"),
    ("team loss on a team that did not lose", "fsm",
     game(scores={"1": {"penalties": [{"kind": "team_loss"}]}}), "team_loss_not_lost", 1,
     "penalties", "FSM 8.2.5, 8.5.8"),
    ("a value off its scale", "fsm", game(scores={"2": {"extra": 0.5}}), "off_scale", 2, "extra",
     "FSM 8.4.3"),
    ("an approval not recorded", "fsm", game(scores={"2": {"extra": 1.2}}), "needs_approval", 2,
     "extra", "FSM 8.4.3"),
    ("FIIM 8.4.1: four players", "fiim2018",
     game(scores={str(s): {"extra": 0.2} for s in (1, 2, 3, 5)}), "limit_players", None, "scores",
     "FIIM 8.4.1"),
    ("FIIM 8.4.2: more than 1.0", "fiim2018",
     game(scores={"1": {"extra": 0.5}, "2": {"extra": 0.5}, "3": {"extra": 0.1}}), "limit_sum",
     None, "scores", "FIIM 8.4.2"),
    ("FSM 8.4.1: more than 4.0", "fsm",
     game(scores={str(s): {"extra": 1.0} for s in (1, 2, 3, 5, 7)}), "limit_sum", None, "scores",
     "FSM 8.4.1"),
    ("FSM 8.4.7: a removed player's positive extra", "fsm",
     game(scores={"2": {"extra": 0.2, "penalties": [_DQ]}}), "extra_when_removed", 2, "extra",
     "FSM 8.4.7"),
    ("FSM 8.4.8: a positive extra on a draw", "fsm", game(result="draw", scores={"2": {"extra": 0.2}}),
     "extra_on_draw", 2, "extra", "FSM 8.4.8"),
    ("FIIM 8.4.6: an extra on a draw", "fiim2018", game(result="draw", scores={"2": {"extra": 0.2}}),
     "extra_on_draw", 2, "extra", "FIIM 8.4.6"),
    ("FIIM 8.4.4: a loser over +0.4", "fiim2018", game(scores={"4": {"extra": 0.5}}),
     "extra_loser_max", 4, "extra", "FIIM 8.4.4"),
    ("FIIM: a negative extra", "fiim2018", game(scores={"2": {"extra": -0.2}}), "negative_extra", 2,
     "extra", "FIIM 8.4, 9.9"),
    ("FIIM: limits_approved", "fiim2018", game(limits_approved=True), "limits_approval_not_in_rules",
     None, "limits_approved", "FIIM 8.4.1-8.4.2"),
    ("FIIM: a game action naming no case", "fiim2018",
     game(scores={"2": {"penalties": [{"kind": "game_action"}]}}), "game_action_case", 2,
     "penalties.rule", "FIIM 8.5"),
    ("FIIM 8.5.1: the red team did not lose", "fiim2018",
     game(scores={"2": {"penalties": [{"kind": "game_action", "rule": "8.5.1"}]}}),
     "game_action_case_result", 2, "penalties.rule", "FIIM 8.5.1"),
    ("FIIM 8.5.2: not on the sheriff", "fiim2018",
     game(scores={"3": {"penalties": [{"kind": "game_action", "rule": "8.5.2"}]}}),
     "game_action_case_role", 3, "penalties.rule", "FIIM 8.5.2"),
    ("FIIM 8.5.3: not on a black", "fiim2018",
     game(result="black", scores={"4": {"penalties": [{"kind": "game_action", "rule": "8.5.3"}]}}),
     "game_action_case_role", 4, "penalties.rule", "FIIM 8.5.3"),
    ("FIIM 8.5.4: the black team did not lose", "fiim2018",
     game(result="black", scores={"4": {"penalties": [{"kind": "game_action", "rule": "8.5.4"}]}}),
     "game_action_case_result", 4, "penalties.rule", "FIIM 8.5.4"),
    ("FSM 8.5.9 other than -1.0", "fsm",
     game(scores={"2": {"penalties": [{"kind": "game_action", "rule": "8.5.9", "points": -0.6}]}}),
     "game_action_fixed", 2, "penalties.points", "FSM 8.5.9"),
    ("two removal penalties", "fsm", game(scores={"2": {"penalties": [_DQ, _DQ]}}), "removal_twice",
     2, "penalties", "FSM 8.5.8"),
    ("two removal penalties (FIIM)", "fiim2018", game(scores={"2": {"penalties": [_DQ, _DQ]}}),
     "removal_twice", 2, "penalties", "FIIM 8.2.4"),
    ("8.3.9.14 twice", "fsm", game(first_killed=1, scores={"1": {"penalties": [_RS, _RS]}}),
     "revealed_twice", 1, "penalties", "FSM 8.3.9.14"),
    ("8.3.9.14 not on the first killed", "fsm", game(first_killed=1, scores={"2": {"penalties": [_RS]}}),
     "revealed_not_fk", 2, "penalties", "FSM 8.3.9.14"),
    ("8.3.9.14 beside his will", "fsm",
     game(first_killed=1, scores={"1": {"will": 0.2, "penalties": [_RS]}}), "revealed_with_will", 1,
     "penalties", "FSM 8.3.9.14"),
    ("checked on a red first killed's entry", "fsm",
     game(first_killed=1, scores={"1": {_PU: {"entries": [{"seat": 2, "colour": "red",
                                                          "tag": "checked"}]}}}),
     "checked_not_sheriff_red", 1, "pu_protocol.entries.tag", "FSM 8.3.9.9"),
    ("a will beside a four-entry aside protocol", "fsm",
     game(first_killed=1, scores={"1": {"will": 0.2, _PU: {"aside": True, "entries": [
         {"seat": s, "colour": "red"} for s in (2, 3, 5, 7)]}}}),
     "aside_will_and_protocol", 1, "will", "FSM 8.3.9.11"),
    ("an aside will of +0.4", "fsm",
     game(first_killed=1, scores={"1": {"will": 0.4, _PU: {"aside": True, "entries": []}}}),
     "off_scale", 1, "will", "FSM 8.3.9.13"),
    ("night_killed without broken_table", "fsm", game(first_killed=1, night_killed=2),
     "night_killed_without_broken_table", None, "night_killed", "FSM 8.6.6"),
    ("night_killed is the first killed", "fsm", game(first_killed=1, broken_table=True, night_killed=1),
     "night_killed_is_fk", None, "night_killed", "FSM 8.6.6"),
    ("night_killed not a seat", "fsm", game(first_killed=1, broken_table=True, night_killed=0),
     "seat_number", None, "night_killed", "FSM 8.6.6"),
    ("four black entries", "fsm",
     game(first_killed=1, scores={"1": {_PU: {"entries": [
         {"seat": s, "colour": "black"} for s in (2, 4, 6, 8)]}}}),
     "pu_black_entries", 1, "pu_protocol", "FSM 8.3.9.3"),
    ("pu_extra on another seat", "fsm", game(first_killed=1, scores={"2": {"pu_extra": 0.2}}),
     "pu_field_not_fk", 2, "pu_extra", "FSM 8.3.9.1"),
    ("a plain positive extra on the first killed", "fsm",
     game(first_killed=1, scores={"1": {"extra": 0.2}}), "extra_on_fk", 1, "extra", "FSM 8.3.9.1"),
    ("team loss and disqualification", "fsm",
     game(result="black", scores={"2": {"penalties": [{"kind": "team_loss"}, _DQ]}}),
     "team_loss_and_dq", 2, "penalties", "FSM 8.5.8"),
    ("a best move after two left by the first day's vote", "fsm",
     game(first_killed=1, best_move=[4], day1_vote_left=2), "bm_not_allowed", None, "best_move",
     "FSM 8.3.6"),
    ("a fiim2018 file with an FSM field", "fiim2018", game(scores={"2": {"will": 0.2}}), "fsm_only",
     2, "will", "FIIM 8.3"),
    ("a fiim2018 file with broken_table", "fiim2018", game(first_killed=1, broken_table=True),
     "broken_table_not_in_rules", None, "broken_table", "FIIM"),
    ("an fsm game action without points", "fsm",
     game(scores={"2": {"penalties": [{"kind": "game_action"}]}}), "game_action_points", 2,
     "penalties.points", "FSM 8.5.1"),
]


@pytest.mark.parametrize(("case", "rules", "g", "code", "seat", "field", "clause"), SECTION_8,
                         ids=[c[0] for c in SECTION_8])
def test_section_8_refusal_with_its_clause_in_russian_and_english(
        case: str, rules: str, g: dict[str, Any], code: str, seat: int | None, field: str,
        clause: str) -> None:
    problems = [p for p in refused(tournament(rules, [g])) if p.code == code]
    assert problems, case
    p = problems[0]
    assert (p.game, p.seat, p.field) == ("g1", seat, field)
    assert p.clause is not None and p.clause.split(" (")[0] == clause
    ru_clause = clause.replace("FIIM", "ФИИМ").replace("FSM", "ФСМ")
    where = f"seat {seat}, " if seat is not None else ""
    assert p.message("en").startswith(f"game g1, {where}{field}: ")
    # a rule's clause is cited; the program's own documents (scoring.md) are not
    cited = not clause.startswith("scoring.md")
    assert p.message("en").endswith(f" ({clause})") == cited
    # the Russian place names the field in words (its path is the file's code)
    word = FIELD_WORDS.get(field.split(".", 1)[0].split("[", 1)[0])
    place = ["игра g1"] + ([f"место {seat}"] if seat is not None else []) + (
        [word[0]] if word else [])
    assert p.message("ru").startswith(", ".join(place) + ": "), p.message("ru")
    assert p.message("ru").endswith(f" ({ru_clause})") == cited
    # the Russian text is Russian: no English word of the English message left in it
    assert p.message("ru") != p.message("en")


def test_an_fsm_game_never_cites_a_fiim_clause() -> None:
    """The clauses of an FSM file's refusals and points are FSM's (or the format's)."""
    from mafiatab.domain.standings import explain_games

    for _case, rules, g, *_ in SECTION_8:
        if rules != "fsm":
            continue
        for p in refused(tournament(rules, [g])):
            assert p.clause is not None and not p.clause.startswith("FIIM"), (p.code, p.clause)
    t = tournament("fsm", [game(result="black", first_killed=1, best_move=[4, 6],
                                scores={"1": {"pu_extra": 0.2, "will": 0.2, "same_as_will": True,
                                              _PU: {"entries": [{"seat": 4, "colour": "black"}]}},
                                        "2": {"penalties": [_DQ]}, "3": {"extra": 0.4},
                                        "5": {"will": -0.2, "protocol": 0.4, "same_as_will": True}})])
    loaded = load_tournament(dumps(t))
    clauses = {x.clause for _pid, e in explain_games(loaded.tournament, loaded.profile)
               for x in e.parts}
    assert clauses and all(c.startswith("FSM") for c in clauses), clauses
