"""The protocol form <-> the protocol: nothing the judge writes is dropped."""

from __future__ import annotations

from decimal import Decimal

import msgspec

from mafiatab.domain.protocol import Game, Penalty, SeatScores
from mafiatab.web import forms
from tests.helpers import game


def test_several_penalties_of_one_player_survive_the_form() -> None:
    """FSM 8.5.1: penalties for different actions add up -- the form keeps each of them."""
    g = msgspec.convert(game(result="black", first_killed=1), type=Game)
    g.scores = {5: SeatScores(penalties=[
        Penalty(kind="team_loss", note="6.9"),
        Penalty(kind="game_action", points=Decimal("-0.4"), rule="8.5.3"),
    ])}
    values = forms.form_from_game(g)
    assert values["pen_kind_5"] == "team_loss" and values["pen2_kind_5"] == "game_action"
    parsed = forms.game_from_form(values, code=g.id, stage=g.stage, rnd=g.round, table=g.table)
    assert not [p for p in parsed.problems if not p.warning]
    assert parsed.game.scores[5].penalties == g.scores[5].penalties
