"""The walk through a game that the differential tests of the game's course make on both
sides (the server's `domain.course.Course` here, the phone's engine in the browser or under
Node): each legal event of a random game, with a judge's wrong tap before it now and then,
undone when it turns out legal; the trace of every answer is compared point by point."""

from __future__ import annotations

import json
import random
from typing import Any

from mafiatab.domain.course import Course
from mafiatab.rules import get_profile
from tests.gamelog.strategies import PlayedGame, random_game

#: the rule sets compared: FIIM with and without its optional 7.6, and FSM
RULES: list[tuple[str, dict[str, str]]] = [("fiim2018", {}), ("fiim2018", {"fiim_7_6": "on"}),
                                           ("fsm", {})]
KINDS = ["speech", "shot", "don_check", "sheriff_check", "last_words", "defence", "vote",
         "lift", "best_move", "foul", "deal", "bogus"]


def walk(g: dict[str, Any]) -> list[Any]:
    """The server's side: the walk through `Course`'s JSON boundary."""
    roles = {n + 1: r for n, r in enumerate(g["roles"])}
    course = Course.of_rules(g["rules"], g["options"], roles, g["lang"])
    trace: list[Any] = [json.loads(course.view_json())]
    for wrong, event in g["steps"]:
        if wrong is not None:
            r = json.loads(course.apply_json(json.dumps(wrong)))
            trace.append(r)
            if r["ok"]:
                trace.append(json.loads(course.undo_json()))
        trace.append(json.loads(course.apply_json(json.dumps(event))))
    trace.append(course.log)
    return trace


def wrong_tap(rng: random.Random, log_so_far: int) -> dict[str, Any] | None:
    """A tap the judge may make by mistake (often illegal, now and then legal after all,
    sometimes malformed): a seat out of turn, a second shot, a vote on nobody."""
    if rng.random() < 0.5:
        return None
    kind = rng.choice(KINDS)
    seat = rng.choice([*range(1, 11), 0, 11]) if rng.random() < 0.1 else rng.randint(1, 10)
    if kind == "speech":
        ev: dict[str, Any] = {"type": "speech", "seat": seat}
        if rng.random() < 0.5:
            ev["nominates"] = rng.randint(1, 10)
        return ev
    if kind == "shot":
        return {"type": "shot", "target": None if rng.random() < 0.2 else seat}
    if kind in ("don_check", "sheriff_check"):
        return {"type": kind, "target": seat}
    if kind in ("last_words", "defence", "foul"):
        return {"type": kind, "seat": seat}
    if kind == "vote":
        return {"type": "vote", "counts": {str(seat): rng.randint(0, 11)}}
    if kind == "lift":
        return {"type": "lift", "count": rng.randint(-1, 11)}
    if kind == "best_move":
        return {"type": "best_move", "seat": seat, "seats": rng.sample(range(1, 11), 3)}
    if kind == "deal":
        return {"type": "deal"} if log_so_far else {"type": "deal", "roles": ["red"] * 10}
    return {"type": "bogus", "seat": seat} if rng.random() < 0.5 else {"type": "speech"}


def script(rules: str, options: dict[str, str], played: PlayedGame, rng: random.Random,
           lang: str) -> dict[str, Any]:
    """A game as both sides walk it: each legal event, with a wrong tap before it maybe."""
    steps = [(wrong_tap(rng, n), event) for n, event in enumerate(played.log)]
    return {"rules": rules, "options": options, "lang": lang,
            "roles": [played.roles[s] for s in range(1, 11)], "steps": steps}


def random_scripts(seed: int, per_rules: int) -> list[dict[str, Any]]:
    """`per_rules` games of every rule set, played and mistapped by a `random.Random(seed)`."""
    rng = random.Random(seed)
    out = []
    for rules, options in RULES:
        profile = get_profile(rules, options)
        for _ in range(per_rules):
            out.append(script(rules, options, random_game(rng, profile), rng,
                              rng.choice(["ru", "en"])))
    return out


def rules_key(g: dict[str, Any]) -> str:
    """A game's rule set as the tests count it: "fiim2018+fiim_7_6=on"."""
    return str(g["rules"]) + "".join(f"+{k}={v}" for k, v in g["options"].items())


class Seen:
    """How many games, points and refusals each rule set compared."""

    def __init__(self) -> None:
        self.by: dict[str, list[int]] = {}

    def compare(self, games: list[dict[str, Any]], theirs: list[list[Any]]) -> None:
        """Both sides' traces, point by point (the first difference fails, with its game)."""
        assert len(theirs) == len(games)
        for g, their in zip(games, theirs, strict=True):
            ours = walk(g)
            self.count(g, ours, their)

    def count(self, g: dict[str, Any], ours: list[Any], their: list[Any]) -> None:
        key = rules_key(g)
        for n, (a, b) in enumerate(zip(ours, their, strict=False)):
            assert a == b, (f"{key}, point {n} of {len(ours)}", g, a, b)
        assert len(ours) == len(their)
        seen = self.by.setdefault(key, [0, 0, 0])
        seen[0] += 1
        seen[1] += len(ours)
        seen[2] += sum(1 for x in ours if isinstance(x, dict) and x.get("ok") is False)

    def report(self) -> dict[str, dict[str, int]]:
        return {k: {"games": v[0], "points": v[1], "refusals": v[2]} for k, v in self.by.items()}
