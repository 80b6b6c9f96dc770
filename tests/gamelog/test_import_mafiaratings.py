"""mafiaratings' game records through the converter and the log engine, and end to end
through `mafiatab import-game` and `mafiatab check`.

The records (tests/gamelog/mafiaratings_games.py) are written by hand in that system's
public format: what it records is one field per fact, what it does not record (the order
of speeches, lost speeches, cancelled votes) the engine works out.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mafiatab.domain.gamelog import derive_facts, replay
from mafiatab.formats.mafiaratings import RecordError, convert_game, tournament_of
from mafiatab.rules import FIIM2018, FSM
from mafiatab.rules.profile import RuleProfile
from mafiatab.services.tournament_file import load_tournament
from tests.gamelog import mafiaratings_games as games

BIN = Path(sys.executable).parent
GAMES: dict[str, tuple[Callable[[], dict[str, Any]], str]] = {
    "red_win_with_revote": (games.red_win_with_revote, "red"),
    "black_win_with_a_miss": (games.black_win_with_a_miss, "black"),
    "removals_and_fouls": (games.removals_and_fouls, "red"),
    "lift_with_voters": (lambda: games.lift_of_two(True), "red"),
    "lift_without_voters": (lambda: games.lift_of_two(False), "red"),
    "draw_by_quiet_nights": (games.draw_by_quiet_nights, "draw"),
    "split_then_lift_fails": (games.split_then_lift_fails, "red"),
}


def _roles(conv_game: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["role"] for s in conv_game["seats"]}


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
               COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "mafiatab", *args], capture_output=True,
                          text=True, env=env, timeout=120)


@pytest.mark.parametrize("profile", [FIIM2018, FSM], ids=["fiim2018", "fsm"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_mafiaratings_game_replays_to_its_recorded_result(name: str, profile: RuleProfile
                                                          ) -> None:
    make, result = GAMES[name]
    conv = convert_game(make(), profile)
    assert conv.ok, [p.message() for p in conv.problems]
    done = replay(conv.game["log"], _roles(conv.game), profile, conv.game["id"])
    assert done.ok and done.ended
    assert done.state.result == result == conv.game["result"]
    loaded = load_tournament(json.dumps(tournament_of(conv, profile)).encode())
    assert [g.id for g in loaded.tournament.games] == [conv.game["id"]]
    assert all("FIIM" not in n.clause for n in done.state.applied) or profile is FIIM2018


def test_fiim_7_8_recorded_tie_is_the_draw_of_three_quiet_nights_and_days() -> None:
    conv = convert_game(games.draw_by_quiet_nights(), FIIM2018)
    state = replay(conv.game["log"], _roles(conv.game), FIIM2018).state
    assert state.end_reason is not None and state.end_reason.clause == "FIIM 7.8"
    assert state.end_reason.phase.number == 4


def test_mafiaratings_fouls_in_a_split_sit_where_they_were_given() -> None:
    """During the vote on 9 (before it), during 5's 30 s (after his defence), during the
    vote on lifting (before it); the lift fails and night falls."""
    log = convert_game(games.split_then_lift_fails(), FIIM2018).game["log"]
    kinds = [(e["type"], e.get("seat")) for e in log[10:19]]
    assert kinds == [("speech", 10), ("foul", 3), ("vote", None), ("defence", 5),
                     ("foul", 5), ("defence", 9), ("vote", None), ("foul", 8),
                     ("lift", None)]
    assert log[18] == {"type": "lift", "voters": [1, 2, 4, 6]}
    assert log[19]["type"] == "shot"


def test_mafiaratings_revote_and_best_move_become_defences_and_a_best_move() -> None:
    conv = convert_game(games.red_win_with_revote(), FIIM2018)
    log = conv.game["log"]
    assert [e["seat"] for e in log if e["type"] == "defence"] == [5, 9]
    votes = [e["votes"] for e in log if e["type"] == "vote"]
    assert votes[1] == {"5": [1, 2, 3, 4, 6, 7], "9": [5, 8, 9, 10]}
    assert {"type": "best_move", "seat": 1, "seats": [3, 9, 4]} in log
    facts = derive_facts(replay(log, _roles(conv.game), FIIM2018).state)
    assert (facts.first_killed, facts.best_move, facts.day1_vote_left) == (1, [3, 9, 4], 1)
    assert {"type": "don_check", "target": 7} in log
    assert {"type": "sheriff_check", "target": 3} in log


def test_mafiaratings_night_miss_keeps_every_aim() -> None:
    conv = convert_game(games.black_win_with_a_miss(), FIIM2018)
    shots = [e for e in conv.game["log"] if e["type"] == "shot"]
    assert shots[1] == {"type": "shot", "target": None, "shots": {"3": 2, "5": 4, "9": 2}}
    assert conv.unmapped == []


def test_fiim_7_1_and_7_5_in_a_recorded_game_with_removals() -> None:
    """3 fouls lose day 1's speech only; the 4th cancels day 2's vote; a removal at night
    cancels day 3's; a foul during one's own last words; the team loss ends the game."""
    conv = convert_game(games.removals_and_fouls(), FIIM2018)
    assert conv.ok, [p.message() for p in conv.problems]
    log = conv.game["log"]
    state = replay(log, _roles(conv.game), FIIM2018).state
    speeches_of_4 = [state_day for state_day in (e for e in log if e["type"] == "speech")
                     if state_day["seat"] == 4]
    assert len(speeches_of_4) == 1  # day 2 only: lost once
    words = log.index({"type": "last_words", "seat": 1})
    assert log[words + 1] == {"type": "foul", "seat": 1}
    assert state.cancelled == {2: "FIIM 7.1", 3: "FIIM 7.1"}
    kinds = {(p.seat, p.kind) for p in derive_facts(state).penalties}
    assert kinds == {(4, "disqualification"), (10, "disqualification"), (9, "team_loss")}
    unrecorded = [e for e in log if e["type"] == "shot" and "unrecorded" in e]
    assert [(e["target"], e["unrecorded"]) for e in unrecorded] == [(1, [5])]
    unmapped = " | ".join(n.en for n in conv.unmapped)
    for word in ("technical fouls", "bonus", "comment", "aim of seats 5"):
        assert word in unmapped


def test_mafiaratings_lift_with_unknown_voters_is_written_as_its_outcome() -> None:
    known = convert_game(games.lift_of_two(True), FIIM2018)
    unknown = convert_game(games.lift_of_two(False), FIIM2018)
    assert [e for e in known.game["log"] if e["type"] == "lift"] == [
        {"type": "lift", "voters": [1, 2, 4, 6, 7, 8]}]
    assert [e for e in unknown.game["log"] if e["type"] == "lift"] == [
        {"type": "lift", "passed": True}]
    assert any("only its outcome" in n.en for n in unknown.unmapped)
    for conv in (known, unknown):
        state = replay(conv.game["log"], _roles(conv.game), FIIM2018).state
        assert [d.seat for d in state.departures if d.how == "lifted"] == [5, 9]


def test_fsm_8_3_6_best_move_after_two_day1_leavers_is_reported_not_written() -> None:
    conv = convert_game(games.lift_of_two(True), FSM)
    assert conv.ok, [p.message() for p in conv.problems]
    assert not any(e["type"] == "best_move" for e in conv.game["log"])
    assert any("FSM 8.3.6" in n.en for n in conv.unmapped)


def test_a_record_the_rules_refuse_is_reported_with_the_rule() -> None:
    record = games.red_win_with_revote()
    record["players"][3]["nominating"] = [None, 1]  # day 2: seat 4 nominates the killed 1
    conv = convert_game(record, FIIM2018)
    assert not conv.ok
    assert conv.problems[0].code == "log_nominate_gone"
    assert conv.problems[0].clause == "FIIM, course of the game: nominations"


def test_not_a_game_is_refused() -> None:
    with pytest.raises(RecordError):
        convert_game({"players": []}, FIIM2018)
    record = games.red_win_with_revote()
    record["players"][0]["role"] = "werewolf"
    with pytest.raises(RecordError):
        convert_game(record, FIIM2018)


def test_import_game_then_check_end_to_end(tmp_path: Path) -> None:
    """The command writes a game and a report; wrapped in a tournament, `check` accepts it."""
    for name, (make, _result) in GAMES.items():
        src = tmp_path / f"{name}.json"
        src.write_text(json.dumps(make()), encoding="utf-8")
        game_file = tmp_path / f"{name}.game.json"
        p = _run("import-game", "--from", "mafiaratings", str(src), "--out", str(game_file),
                 "--lang", "en")
        assert p.returncode == 0, p.stderr
        assert "Mapped:" in p.stderr and "Traceback" not in p.stderr
        written = json.loads(game_file.read_text(encoding="utf-8"))
        assert written["log"][0]["type"] == "deal"
        whole = tmp_path / f"{name}.tournament.json"
        p = _run("import-game", "--from", "mafiaratings", str(src), "--out", str(whole),
                 "--tournament")
        assert p.returncode == 0, p.stderr
        check = _run("check", str(whole), "--lang", "en")
        assert check.returncode == 0, check.stdout + check.stderr
    fsm_file = tmp_path / "fsm.tournament.json"
    p = _run("import-game", "--from", "mafiaratings", str(tmp_path / "removals_and_fouls.json"),
             "--rules", "fsm", "--tournament", "--out", str(fsm_file))
    assert p.returncode == 0, p.stderr
    assert json.loads(fsm_file.read_text(encoding="utf-8"))["rules"] == "fsm"
    check = _run("check", str(fsm_file), "--lang", "en")
    assert check.returncode == 0, check.stdout + check.stderr
    removals = tmp_path / "removals_and_fouls.json"
    p = _run("import-game", "--from", "mafiaratings", str(removals), "--lang", "en")
    assert p.returncode == 0 and json.loads(p.stdout)["id"] == "mr1003"
    assert "Not mapped:" in p.stderr and "technical fouls" in p.stderr


def test_import_game_refuses_with_the_rule_and_exit_1(tmp_path: Path) -> None:
    record = games.red_win_with_revote()
    record["players"][3]["nominating"] = [None, 1]
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(record), encoding="utf-8")
    p = _run("import-game", "--from", "mafiaratings", str(src), "--out",
             str(tmp_path / "out.json"))
    assert p.returncode == 1
    assert "ход игры: выставление кандидатур" in p.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    p = _run("import-game", "--from", "mafiaratings", str(broken))
    assert p.returncode == 1 and "Traceback" not in p.stderr


def test_removal_by_4_fouls_without_their_times_is_written_at_the_removal() -> None:
    record = games.removals_and_fouls()
    record["players"][3]["warnings"] = 4  # a count only, as a record without "r" has it
    conv = convert_game(record, FIIM2018)
    assert conv.ok, [p.message() for p in conv.problems]
    state = replay(conv.game["log"], _roles(conv.game), FIIM2018).state
    gone = [d for d in state.departures if d.seat == 4]
    assert [(d.how, d.phase.kind, d.phase.number) for d in gone] == [("fouls", "day", 2)]
    assert any("4 foul(s) without their time written" in n.en for n in conv.unmapped)


def test_record_without_votes_writes_who_left() -> None:
    """A record without the "v" feature: the day's voting is known by its deaths only."""
    record = games.red_win_with_revote()
    record["features"] = "gsdutclhnwr"
    for player in record["players"]:
        player.pop("voting", None)
    conv = convert_game(record, FIIM2018)
    assert conv.ok, [p.message() for p in conv.problems]
    assert {"type": "vote", "leaves": [5]} in conv.game["log"]
    assert any("only who left" in n.en for n in conv.unmapped)
    state = replay(conv.game["log"], _roles(conv.game), FIIM2018).state
    assert state.result == "red" and state.day1_vote_left == 1
