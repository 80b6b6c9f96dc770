"""The live screen's course (domain/course.py), which the phone runs too: recorded event by
event it says what the server's whole replay of the same log says, at every point; a
refused event changes nothing; an undo is the log without its last event."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiatab.domain.course import Course, course_view, open_json
from mafiatab.domain.gamelog import replay
from mafiatab.rules import FIIM2018, FSM
from mafiatab.rules.profile import RuleProfile
from tests.gamelog.strategies import PlayedGame, played_games

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(st.sampled_from([FIIM2018, FSM]).flatmap(
    lambda p: st.tuples(st.just(p), played_games(p))), st.sampled_from(["ru", "en"]))
def test_event_by_event_is_the_whole_replay(case: tuple[RuleProfile, PlayedGame],
                                            lang: str) -> None:
    profile, played = case
    course = Course(played.roles, profile, lang)
    for n, event in enumerate(played.log):
        assert course.apply(event) == []
        whole = replay(played.log[:n + 1], played.roles, course.profile, finish=False)
        assert whole.ok
        assert course.view() == course_view(whole.state, lang)
    if played.log:
        before = course.view()
        course.undo()
        shorter = replay(played.log[:-1], played.roles, course.profile, finish=False)
        assert course.view() == course_view(shorter.state, lang)
        assert course.apply(played.log[-1]) == []
        assert course.view() == before


def test_a_refused_event_changes_nothing() -> None:
    roles = {s: {3: "don", 5: "black", 7: "sheriff", 9: "black"}.get(s, "red")
             for s in range(1, 11)}
    course = Course(roles, FIIM2018, "ru")
    assert course.apply({"type": "deal"}) == []
    before = course.view()
    refused = json.loads(course.apply_json(json.dumps({"type": "shot", "target": 3})))
    assert refused["ok"] is False
    [problem] = refused["problems"]
    assert problem["code"] == "log_shot_agreement"
    assert problem["clause"] == "FIIM, course of the game: night 0, the agreement"
    assert problem["text"].endswith("(ФИИМ, ход игры: нулевая ночь, договорка)")
    assert course.view() == before and len(course.log) == 1
    # the browser's way in: the tournament's rules by name, the log recorded as far as legal
    again = open_json(json.dumps({"rules": "fiim2018", "options": {}, "lang": "ru",
                                  "roles": [roles[s] for s in range(1, 11)],
                                  "log": [{"type": "deal"}, {"type": "shot", "target": 3}]}))
    assert again.log == [{"type": "deal"}] and again.view() == before
