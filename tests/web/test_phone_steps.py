"""The live screen's step line: for every step the engine can name, in both
languages, the line says what comes next and never shows an empty item; the repeated vote
is called one, never "night falls"; a night whose checks are done says only the morning."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from mafiatab.domain.gamelog_state import NextStep, Phase, Step
from mafiatab.web.live import step_line

EMPTY_ITEM = re.compile(r":\s*;|;\s*;|[:;]\s*$|:\s*$|\{|\}")
KINDS = ("don_check", "sheriff_check", "best_move", "last_words", "speech", "vote", "defence",
         "lift", "shot")
seats = st.integers(min_value=1, max_value=10)
steps = st.builds(
    NextStep,
    phase=st.builds(Phase, kind=st.sampled_from(["night", "day"]),
                    number=st.integers(min_value=0, max_value=9)),
    step=st.sampled_from(list(Step)),
    kinds=st.lists(st.sampled_from(KINDS), unique=True, max_size=4).map(tuple),
    seat=st.none() | seats,
    candidates=st.lists(seats, unique=True, max_size=4).map(tuple),
    last_words=st.lists(seats, unique=True, max_size=2).map(tuple),
)


@given(step=steps, first_killed=st.none() | seats, open_bm=st.booleans(),
       lang=st.sampled_from(["ru", "en"]))
def test_every_step_has_a_line_without_an_empty_item(step: NextStep, first_killed: int | None,
                                                     open_bm: bool, lang: str) -> None:
    line = step_line(step, first_killed, open_bm, lang)
    where, _, what = line.partition(": ")
    assert where == step.phase.label(lang) and what.strip()
    assert not EMPTY_ITEM.search(line), line
    assert all(part.strip() for part in what.split(";")), line


@given(seat=st.none() | seats, cands=st.lists(seats, unique=True, min_size=2, max_size=4))
def test_the_repeated_vote_is_called_one_never_night(seat: int | None, cands: list[int]) -> None:
    step = NextStep(Phase("day", 2), Step.DEFENCE, ("vote",) if seat is None else ("defence", "vote"),
                    seat, tuple(cands))
    ru, en = step_line(step, None, False, "ru"), step_line(step, None, False, "en")
    assert "ночь" not in ru and "night" not in en
    if seat is None:
        names = ", ".join(map(str, cands))
        assert f"переголосование: {names}" in ru and f"repeated vote on {names}" in en
    else:
        assert f"оправдательная речь места {seat}" in ru


def test_a_night_with_its_checks_done_says_only_the_morning() -> None:
    """The engine's own line was "ночь 1: ; утром говорит место 2" here."""
    step = NextStep(Phase("night", 1), Step.CHECKS, ("speech",), 2)
    assert step_line(step, 7, False, "ru") == "ночь 1: утром говорит место 2"
    checks = NextStep(Phase("night", 1), Step.CHECKS, ("don_check", "best_move", "speech"), 2,
                      last_words=(7,))
    assert step_line(checks, 7, True, "ru") == (
        "ночь 1: проверка дона; лучший ход места 7; последнее слово места 7; "
        "утром говорит место 2")
