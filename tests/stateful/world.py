"""What the stateful test plays with: the people of a tournament, the protocols a judge
types (well, or with a planted mistake) and a game log that removes a player from the
tournament (FIIM 7.3), all built from the same records the services take.
"""

from __future__ import annotations

import json
from decimal import Decimal
from functools import cache
from typing import Any, Final

import msgspec

from mafiatab.domain import protocol as model
from mafiatab.domain.gamelog import GameReplay
from mafiatab.domain.gamelog_events import parse_event
from mafiatab.domain.gamelog_state import Step
from mafiatab.domain.problems import Problem
from mafiatab.rules import FIIM2018, FSM
from mafiatab.rules.profile import RuleProfile

PASSWORD: Final = "stateful-secret-1"
NEW_PASSWORD: Final = "stateful-secret-2"
STAGE: Final = "q"
PLAYERS: Final = 24
TABLES: Final = 2
#: rounds the test seats at most (each with TABLES tables)
ROUNDS: Final = 3
#: the deal of every protocol (seat 3 the don, 5 and 9 black, 7 the sheriff)
ROLES: Final = {1: "red", 2: "red", 3: "don", 4: "red", 5: "black", 6: "red",
                7: "sheriff", 8: "red", 9: "black", 10: "red"}

#: who acts: the tournament's organizer, two head judges (one with a password), three
#: table judges, a player signed in with his code, the organizer of another tournament and
#: a player's code account there, an account with no role anywhere, the server's
#: administrator
ACTORS: Final = ("org", "hj1", "hj2", "j1", "j2", "j3", "player", "other", "stranger",
                 "nobody", "admin")
#: what a protocol carries: a good one, or one of the planted mistakes
VARIANTS: Final = ("valid", "valid", "valid", "other_table", "removed", "seat11",
                   "removal_log")


def profile(rules: str) -> RuleProfile:
    return FIIM2018 if rules == "fiim2018" else FSM


def player_list(prefix: str, nickname: str, n: int) -> list[model.Player]:
    return [model.Player(id=f"{prefix}{i}", nickname=f"{nickname} {i}", club=None)
            for i in range(1, n + 1)]


@cache
def removal_log(rules: str, seat: int) -> tuple[str, ...] | None:
    """A whole legal game log (as JSON texts of its events) whose first event removes
    `seat` from the tournament (FIIM 7.3: `disqualify` with `tournament: true`), played
    to its end by the engine's own next step; None when this simple player cannot."""
    state = GameReplay(dict(ROLES), profile(rules), "g")
    log: list[dict[str, Any]] = []

    def add(event: dict[str, Any]) -> None:
        parsed = parse_event(event, len(log), "g")
        assert not isinstance(parsed, Problem), parsed
        problems = state.apply(parsed, len(log))
        assert not problems, [p.message() for p in problems]
        log.append(event)

    try:
        add({"type": "disqualify", "seat": seat, "rule": "FIIM 7.3", "tournament": True})
        for _ in range(300):
            step = state.next_step()
            kinds = set(step.kinds)
            at = sorted(step.at_table)
            if step.step is Step.ENDED:
                return tuple(json.dumps(e) for e in log)
            if step.step is Step.SPEECHES and step.seat is not None:
                add({"type": "speech", "seat": step.seat})
            elif "vote" in kinds and step.candidates:
                add({"type": "vote", "counts": {str(step.candidates[0]): len(at)}})
            elif "defence" in kinds and step.seat is not None:
                add({"type": "defence", "seat": step.seat})
            elif "lift" in kinds:
                add({"type": "lift", "passed": True})
            elif "last_words" in kinds and step.last_words:
                add({"type": "last_words", "seat": step.last_words[0]})
            elif "shot" in kinds:
                reds = [s for s in at if ROLES[s] in ("red", "sheriff")]
                add({"type": "shot", "target": reds[-1] if reds else None})
            elif "speech" in kinds and step.seat is not None:
                add({"type": "speech", "seat": step.seat})
            else:
                return None
    except AssertionError:
        return None
    return None


def typed_protocol(head: model.Game, *, result: str, extra_seat: int | None,
                   variant: str, rules: str, other_table: list[str], removed: list[str],
                   seat: int) -> tuple[model.Game, str]:
    """The protocol a judge types on the form opened on `head` (its seating), and what it
    carries: `variant` or "valid" when the planted mistake has nothing to plant (no other
    table's player, nobody removed yet)."""
    seats = [model.Seat(seat=s.seat, player=s.player, role=ROLES.get(s.seat, "red"))
             for s in sorted(head.seats, key=lambda x: x.seat)]
    scores: dict[int, model.SeatScores] = {}
    if extra_seat is not None:
        scores[extra_seat] = model.SeatScores(extra=Decimal("0.3"))
    log: list[dict[str, Any]] | None = None
    done = "valid"
    here = {s.player for s in seats}
    if variant == "other_table":
        strangers = [p for p in other_table if p not in here]
        if strangers and 1 <= seat <= len(seats):
            seats[seat - 1] = msgspec.structs.replace(seats[seat - 1], player=strangers[0])
            done = variant
    elif variant == "removed":
        gone = [p for p in removed if p not in here and p not in other_table]
        if gone and 1 <= seat <= len(seats):
            seats[seat - 1] = msgspec.structs.replace(seats[seat - 1], player=gone[0])
            done = variant
    elif variant == "seat11":
        scores[11] = model.SeatScores(extra=Decimal("0.2"))
        done = variant
    elif variant == "removal_log" and head.log is None:
        events = removal_log(rules, seat)
        if events is not None:
            log = [json.loads(e) for e in events]
            result = ""
            done = variant
    if head.log is not None:
        result = ""  # the stored log gives the result (a form carries no log)
    game = model.Game(id=head.id, stage=head.stage, round=head.round, table=head.table,
                      judge=head.judge, seats=seats, result=result, scores=scores, log=log)
    return game, done


def tournament_file(name: str, rules: str, *, valid: bool) -> bytes:
    """A small format-1 file to import: one confirmed game; invalid: a seat 11 scored."""
    players = [{"id": f"f{i}", "nickname": f"Файл {i}"} for i in range(1, 11)]
    game: dict[str, Any] = {
        "id": "f1", "stage": "q", "round": 1, "table": 1, "result": "red",
        "seats": [{"seat": s, "player": f"f{s}", "role": r} for s, r in ROLES.items()]}
    if not valid:
        game["scores"] = {"11": {"extra": 0.2}}
    return json.dumps({"format": "mafiatab.tournament/1", "name": name, "rules": rules,
                       "players": players,
                       "stages": [{"id": "q", "name": "Отбор", "kind": "qualification"}],
                       "games": [game]}, ensure_ascii=False).encode()


__all__ = ["ACTORS", "NEW_PASSWORD", "PASSWORD", "PLAYERS", "ROLES", "ROUNDS", "STAGE",
           "TABLES", "VARIANTS", "player_list", "profile", "removal_log",
           "tournament_file", "typed_protocol"]
