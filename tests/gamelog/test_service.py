"""A tournament file whose games carry logs: read, facts from the logs, validated."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from mafiatab.domain.gamelog import protocol_from_log
from mafiatab.domain.protocol import Game
from mafiatab.domain.validation import validate_tournament
from mafiatab.formats.tournament_json import dumps_tournament, read_tournament
from mafiatab.rules import FIIM2018
from mafiatab.services.gamelog import apply_game_logs
from tests.gamelog.script import ROLES, Script


def _file(log: list[dict[str, Any]], **game: Any) -> str:
    return json.dumps({
        "format": "mafiatab.tournament/1", "name": "Cup", "rules": "fiim2018",
        "players": [{"id": f"p{s}", "nickname": f"P{s}"} for s in range(1, 11)],
        "stages": [{"id": "q", "name": "Qualification", "kind": "qualification"}],
        "games": [{"id": "q1-t1", "stage": "q", "round": 1, "table": 1,
                   "seats": [{"seat": s, "player": f"p{s}", "role": r}
                             for s, r in sorted(ROLES.items())],
                   "result": game.pop("result", "red"), "log": log, **game}],
    })


def _game_log() -> list[dict[str, Any]]:
    s = Script(FIIM2018)
    s.speeches({1: 5, 2: 9}).vote({5: [1, 2, 3, 4, 6, 7], 9: []})
    s.add(type="last_words", seat=5).night(1)
    s.add(type="best_move", seat=1, seats=[3, 9]).add(type="last_words", seat=1)
    s.add(type="foul", seat=8, time="31:05")
    s.speeches({3: 9}).add(type="last_words", seat=9)
    s.night(2).speeches({4: 3})
    return s.log


def test_a_logged_game_gets_its_facts_and_passes_validation() -> None:
    tournament, problems = read_tournament(_file(_game_log()))
    assert tournament is not None and not [p for p in problems if not p.warning]
    derived, problems = apply_game_logs(tournament, FIIM2018)
    assert problems == []
    game = derived.games[0]
    assert (game.result, game.first_killed, game.best_move, game.day1_vote_left) == (
        "red", 1, [3, 9], 1)
    assert validate_tournament(derived, FIIM2018) == []
    again, _ = read_tournament(dumps_tournament(derived))
    assert again is not None and again.games[0].log == _game_log()


def test_a_contradicting_file_is_refused_whole() -> None:
    tournament, _ = read_tournament(_file(_game_log(), result="black"))
    assert tournament is not None
    same, problems = apply_game_logs(tournament, FIIM2018)
    assert same is tournament
    assert [(p.game, p.field, p.code) for p in problems] == [
        ("q1-t1", "result", "log_contradicts")]


def test_an_illegal_log_in_a_file() -> None:
    log = [*_game_log()[:13], {"type": "shot", "target": 2}]
    tournament, _ = read_tournament(_file(log))
    assert tournament is not None
    _, problems = apply_game_logs(tournament, FIIM2018)
    assert [(p.field, p.code, p.clause) for p in problems] == [
        ("log[13]", "log_second_shot", "FIIM, course of the game: one shot a night")]


def test_the_documented_example_is_a_legal_game() -> None:
    text = (Path(__file__).parents[2] / "docs" / "gamelog.md").read_text(encoding="utf-8")
    block = text.split("```json\n", 1)[1].split("```", 1)[0]
    game = msgspec.convert(json.loads(block), Game)
    derived, problems = protocol_from_log(game, FIIM2018)
    assert problems == []
    assert (derived.result, derived.first_killed, derived.best_move,
            derived.day1_vote_left) == ("red", 1, [3, 9, 4], 1)
    assert isinstance(derived, Game)


def test_the_file_loader_takes_facts_from_the_log() -> None:
    """What `mafiatab standings` and `import` read: the log's facts count."""
    from mafiatab.domain.problems import ProtocolRefused
    from mafiatab.services.tournament_file import load_tournament, standings_of

    loaded = load_tournament(_file(_game_log(), participants=30))
    game = loaded.tournament.games[0]
    assert (game.result, game.first_killed, game.best_move) == ("red", 1, [3, 9])
    rows = {r.player: r for r in standings_of(loaded).rows}
    assert rows["p1"].first_killed == 1 and rows["p1"].wins == 1
    try:
        load_tournament(_file(_game_log(), result="black"))
    except ProtocolRefused as refused:
        assert [(p.game, p.field, p.code) for p in refused.problems] == [
            ("q1-t1", "result", "log_contradicts")]
    else:
        raise AssertionError("a protocol contradicting its log was accepted")


def test_fiim_7_11_rule_option_switches_7_6_on() -> None:
    from mafiatab.services.tournament_file import profile_for

    tournament, _ = read_tournament(_file(_game_log()))
    assert tournament is not None
    off, _ = profile_for(tournament)
    on, problems = profile_for(msgspec.structs.replace(tournament,
                                                       rule_options={"fiim_7_6": "on"}))
    assert problems == []
    assert (off.four_players_tie_no_vote.value, on.four_players_tie_no_vote.value) == (False, True)


def test_the_rules_of_the_course_of_a_game_read_in_russian() -> None:
    """Every rule the log cites without a number reads in Russian, not half in English."""
    import re

    from mafiatab.domain.problems import COURSE_OF_THE_GAME_RU, translate_clause

    src = Path(__file__).parents[2] / "src" / "mafiatab" / "domain"
    cited = set()
    for path in src.glob("gamelog*.py"):
        cited |= set(re.findall(r'_basic\("([^"]*)"\)', path.read_text(encoding="utf-8")))
    assert cited and cited <= set(COURSE_OF_THE_GAME_RU)
    assert translate_clause("FSM, course of the game: one shot a night", "ru") == (
        "ФСМ, ход игры: один выстрел за ночь")
