"""Random legal games: they always end, with a consistent result, and their protocol passes
the core's validation; a broken copy of a legal log is refused; garbage never crashes."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from mafiatab.domain.gamelog import derive_facts, protocol_from_log, replay
from mafiatab.domain.gamelog_state import Step
from mafiatab.domain.protocol import BLACK_ROLES, Game, Seat
from mafiatab.domain.validation import validate_game
from mafiatab.rules import FIIM2018, FSM
from mafiatab.rules.profile import RuleProfile, with_four_players_tie_rule
from tests.gamelog.strategies import PlayedGame, played_games

PROFILES = [FIIM2018, FSM, with_four_players_tie_rule(FIIM2018)]
SETTINGS = settings(max_examples=150, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _game(played: PlayedGame, log: list[dict[str, Any]] | None = None) -> Game:
    seats = [Seat(seat=s, player=f"p{s}", role=r) for s, r in sorted(played.roles.items())]
    return Game(id="g", stage="q", round=1, table=1, seats=seats, result="red",
                log=played.log if log is None else log)


def _consistent(played: PlayedGame) -> None:
    state = played.state
    assert state.step is Step.ENDED, state.next_step()
    blacks = sum(1 for s in state.at_table if played.roles[s] in BLACK_ROLES)
    reds = len(state.at_table) - blacks
    reason = state.end_reason
    assert reason is not None
    if reason.code == "red_win":
        assert state.result == "red" and blacks == 0
    elif reason.code == "black_win":
        assert state.result == "black" and blacks >= reds
    elif reason.code == "draw":
        assert state.result == "draw" and 0 < blacks < reds
    elif reason.code == "four_players_red_win":
        assert state.result == "red" and len(state.at_table) == 4
    else:
        assert reason.code == "team_loss"
        loser = next(p for p in state.penalties if p.kind == "team_loss")
        lost = "black" if played.roles[loser.seat] in BLACK_ROLES else "red"
        assert state.result != lost
    facts = derive_facts(state)
    assert len({d.seat for d in facts.departures}) == len(facts.departures)
    assert {d.seat for d in facts.departures} | state.at_table == set(range(1, 11))
    assert facts.day1_vote_left == sum(
        1 for d in facts.departures if d.phase.kind == "day" and d.phase.number == 1
        and d.how in ("voted", "lifted"))


def _check_protocol(played: PlayedGame, profile: RuleProfile) -> None:
    game, problems = protocol_from_log(_game(played), profile)
    codes = [p.code for p in problems]
    if played.state.result != "red":
        # the hand-written result "red" contradicts the log: reported, nothing applied
        assert codes == ["log_contradicts"] and problems[0].field == "result"
        game, problems = protocol_from_log(
            _game(played).__class__(**{**_fields(_game(played)),
                                       "result": played.state.result}), profile)
    assert problems == [], [p.message() for p in problems]
    assert game.result == played.state.result
    assert validate_game(game, profile, {f"p{s}" for s in range(1, 11)}, {"q"}) == []
    again = replay(played.log, played.roles, profile, "g")
    assert again.ok and again.state.result == played.state.result


def _fields(game: Game) -> dict[str, Any]:
    return {f: getattr(game, f) for f in game.__struct_fields__}


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.four_players_tie_no_vote.clause)
def test_random_legal_games_end_consistently(profile: RuleProfile) -> None:
    @SETTINGS
    @given(played_games(profile))
    def run(played: PlayedGame) -> None:
        _consistent(played)
        _check_protocol(played, profile)

    run()


@SETTINGS
@given(played_games(FIIM2018), st.data())
def test_events_after_the_end_are_refused(played: PlayedGame, data: st.DataObject) -> None:
    extra = data.draw(st.sampled_from([
        {"type": "shot", "target": None},
        {"type": "speech", "seat": 1},
        {"type": "vote", "counts": {}},
    ]))
    done = replay([*played.log, extra], played.roles, FIIM2018, "g")
    assert [p.code for p in done.problems] == ["log_after_end"]
    assert done.problems[0].field == f"log[{len(played.log)}]"


@SETTINGS
@given(played_games(FSM), st.data())
def test_a_dead_player_never_speaks_or_votes(played: PlayedGame, data: st.DataObject) -> None:
    """Cut a game after a departure and add an event of the departed player."""
    deps = [d for d in played.state.departures if d.how != "team_loss"]
    if not deps:
        return
    dep = data.draw(st.sampled_from(deps))
    prefix = played.log[:dep.index + 1]
    state = replay(prefix, played.roles, FSM, "g", finish=False).state
    if state.step is Step.ENDED:
        return
    event = {"type": "speech", "seat": dep.seat}
    done = replay([*prefix, event], played.roles, FSM, "g", finish=False)
    assert done.problems and done.problems[0].field == f"log[{len(prefix)}]"
    assert done.problems[0].code in (
        "log_dead_speaks", "log_speech_not_now", "log_shot_missing", "log_last_words_not_due",
        "log_after_end")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(
    st.dictionaries(st.sampled_from(["type", "seat", "target", "votes", "counts", "roles",
                                     "voters", "count", "seats", "nominates", "shots"]),
                    st.one_of(st.none(), st.integers(-3, 12), st.text(max_size=3),
                              st.booleans(),
                              st.lists(st.integers(-1, 11), max_size=4),
                              st.dictionaries(st.text(max_size=2), st.integers(-1, 11),
                                              max_size=3))),
    st.fixed_dictionaries({"type": st.sampled_from([
        "deal", "shot", "don_check", "sheriff_check", "speech", "defence", "vote", "lift",
        "last_words", "foul", "disqualify", "team_loss", "best_move"])},
        optional={"seat": st.integers(-1, 12), "target": st.one_of(st.none(), st.integers(0, 11)),
                  "nominates": st.integers(0, 11),
                  "counts": st.dictionaries(st.sampled_from(["1", "5", "x", "10"]),
                                            st.integers(-2, 12), max_size=3),
                  "votes": st.dictionaries(st.sampled_from(["1", "5", "x", "10"]),
                                           st.lists(st.integers(0, 11), max_size=4),
                                           max_size=3),
                  "voters": st.lists(st.integers(0, 11), max_size=5),
                  "seats": st.lists(st.integers(0, 11), max_size=4)}),
    st.integers(), st.text(max_size=3)), max_size=40))
def test_garbage_is_refused_never_crashes(raw: list[Any]) -> None:
    roles = {1: "red", 2: "red", 3: "don", 4: "red", 5: "black", 6: "red", 7: "sheriff",
             8: "red", 9: "black", 10: "red"}
    done = replay(raw, roles, FSM, "g")
    for problem in done.problems:
        assert problem.field is not None and problem.field.startswith("log")
        problem.message("ru")
        problem.message("en")
    done.next_step().text("ru")


@SETTINGS
@given(played_games(FIIM2018), st.data())
def test_a_repeated_shot_is_refused(played: PlayedGame, data: st.DataObject) -> None:
    shots = [i for i, e in enumerate(played.log) if e["type"] == "shot"]
    if not shots:
        return
    i = data.draw(st.sampled_from(shots))
    log = [*played.log[:i + 1], played.log[i], *played.log[i + 1:]]
    done = replay(log, played.roles, FIIM2018, "g")
    assert done.problems and done.problems[0].field == f"log[{i + 1}]"
    assert done.problems[0].code in ("log_second_shot", "log_after_end",
                                     "log_shot_not_at_table")


@SETTINGS
@given(played_games(FSM), st.data())
def test_more_votes_than_voters_are_refused(played: PlayedGame, data: st.DataObject) -> None:
    votes = [i for i, e in enumerate(played.log) if e["type"] == "vote"]
    if not votes:
        return
    i = data.draw(st.sampled_from(votes))
    state = replay(played.log[:i], played.roles, FSM, "g", finish=False).state
    first = str(state.next_step().candidates[0])
    log = [*played.log[:i], {"type": "vote", "counts": {first: 11}}]
    done = replay(log, played.roles, FSM, "g")
    assert [(p.code, p.field) for p in done.problems] == [("log_too_many_votes", f"log[{i}]")]
