"""The engine's own step text (what `log_unfinished` says, and the live screen's line)
is right in every phase of random legal games: a repeated vote is called one,
"night falls" only once the day's vote is over, no empty item, both languages; the
words are the live screen's (one catalogue: `domain.words.STEP`)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from mafiatab.domain.gamelog_engine import GameReplay
from mafiatab.domain.gamelog_state import Step
from mafiatab.rules import PROFILES
from mafiatab.web.live import step_line
from tests.gamelog.strategies import PlayedGame, _parse, played_games

NIGHT = {"ru": "ночь наступает", "en": "night falls"}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(PROFILES)).flatmap(lambda p: st.tuples(
    st.just(p), played_games(PROFILES[p]))))
def test_every_step_of_a_legal_game_reads_right(case: tuple[str, PlayedGame]) -> None:
    profile, played = case
    state = GameReplay(played.roles, PROFILES[profile], "g")
    for index, event in enumerate([None, *played.log]):
        if event is not None:
            assert not state.apply(_parse(event, index - 1), index - 1)
        step = state.next_step()
        for lang in ("ru", "en"):
            text = step.text(lang)
            line = step.line(lang)
            assert text.startswith(line) and line.startswith(step.phase.label(lang) + ": ")
            # the live screen says the same (without the best move it may add)
            assert step_line(step, None, False, lang) == line
            assert not re.search(r":\s*(;|$)|;\s*;|;\s*$", line), line
            if step.step is not Step.LAST_WORDS:
                assert NIGHT[lang] not in text, (step.step, text)
            if step.step is Step.DEFENCE and step.seat is not None:
                assert str(step.seat) in line  # the defence names its speaker
            elif step.step in (Step.VOTE, Step.DEFENCE, Step.LIFT):
                assert all(str(c) in line for c in step.candidates), line
