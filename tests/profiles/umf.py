"""A third federation, registered by the tests only: "UMF" (Ukrainian Mafia Federation of
the tests, «УФМ»), a federation of the FSM kind that starts as FSM's copy and then
changes its own numbers and numbering. It is what adding a real third federation takes:
this one module (its profile, its name in each language) and its `register` line, with
its golden tests beside it (tests/profiles/test_third_federation.py). Nothing else in the
program is told about it."""

from __future__ import annotations

from dataclasses import replace

from mafiatab.rules import FSM, Ruled, RuleProfile, register
from mafiatab.rules.profile import renamed

UMF: RuleProfile = replace(
    renamed(FSM, id="umf2026", title="UMF 2026", federation="UMF",
            names={"ru": "УФМ", "en": "UMF", "uk": "УФМ"}),
    # its own numbers under its own numbering: a win is 1.2, its best move scale
    win_points=Ruled(120, "UMF 4.1"),
    best_move_points=Ruled((0, 20, 40, 70), "UMF 4.3"),
    has_broken_table=Ruled(True, "UMF 4.9"),
    has_first_killed_protocol=Ruled(True, "UMF 4.7"),
)

register(UMF)

__all__ = ["UMF"]
