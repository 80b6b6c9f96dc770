"""Nothing the judge typed is dropped, as a property of the form: for
any text typed in the fields the form reads, each field either reads or keeps its text
exactly as typed with its problem, and a save and a reload (the protocol shown with the
kept texts over it) read back to the same protocol and the same kept texts."""

from __future__ import annotations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from mafiatab.domain.problems import Typed
from mafiatab.domain.protocol import Game
from mafiatab.rules import PROFILES
from mafiatab.web import forms
from tests.helpers import game

FIELDS = ("extra_3", "will_4", "fouls_2", "day_1_nominated", "day_1_votes", "day_2_left",
          "day_1_lift", "best_move_1", "day1_vote_left", "pen_points_5", "pen2_note_6",
          "pu_extra")
#: what judges' thumbs type: digits, separators, a Cyrillic о and з, signs, spaces
TEXT = st.text(alphabet="0123456789,.:;>-−оз 1", max_size=8)


def _read(values: dict[str, str]) -> forms.Parsed:
    return forms.game_from_form(values, code="g1", stage="qual", rnd=1, table=1,
                                profile=PROFILES["fsm"])


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS), TEXT, max_size=5), st.booleans())
def test_every_typed_text_is_read_or_kept(typed: dict[str, str], shot: bool) -> None:
    g = msgspec.convert(game(result="red", first_killed=1 if shot else None), type=Game)
    values = forms.form_from_game(g)
    values.update(typed)
    if "pen_points_5" in typed:
        values["pen_kind_5"] = "game_action"
    first = _read(values)
    for name, rf in first.typed.items():
        assert rf.text == values[name].strip() and rf.problems
        # the message quotes a value the judge typed, never a reading of it
        for p in rf.problems:
            quoted = [v for v in p.params.values() if isinstance(v, Typed)]
            assert quoted and all(q in rf.text for q in quoted)
    # every typing problem belongs to a kept field
    kept = [p for rf in first.typed.values() for p in rf.problems]
    assert all(p in kept for p in first.problems)
    # a save and a reload: the same protocol, the same kept texts and problems
    again = _read({**forms.form_with_typed(first.game, first.typed),
                   **({"pen_kind_5": "game_action"} if "pen_points_5" in typed else {})})
    assert again.game == first.game
    assert again.typed == first.typed
