"""Hypothesis strategies: random legal games, played by asking the engine what comes next.

The table's choices go through a `Chooser`: hypothesis's draws for `played_games` (shrinkable),
or a seeded `random.Random` for `random_game`, which plays the same tables many times faster
(for tests that need thousands of games, each seed drawn by hypothesis)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from hypothesis import strategies as st

from mafiatab.domain.gamelog import GameReplay
from mafiatab.domain.gamelog_events import parse_event
from mafiatab.domain.gamelog_state import Step
from mafiatab.domain.problems import Problem
from mafiatab.domain.protocol import ROLE_COUNTS
from mafiatab.rules.profile import RuleProfile

ROLE_LIST = [role for role, n in ROLE_COUNTS.items() for _ in range(n)]
MAX_EVENTS = 1500
T = TypeVar("T")


class Chooser(Protocol):
    """Where a random table's choices come from."""

    def integer(self, lo: int, hi: int) -> int: ...
    def pick(self, options: Sequence[T]) -> T: ...
    def coin(self) -> bool: ...
    def shuffled(self, items: Sequence[T]) -> list[T]: ...
    def subset(self, items: Sequence[T], max_size: int | None = None) -> list[T]: ...


class Draws:
    """Choices drawn by hypothesis (a failing game shrinks)."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))

    def pick(self, options: Sequence[T]) -> T:
        return self.draw(st.sampled_from(options))

    def coin(self) -> bool:
        return self.draw(st.booleans())

    def shuffled(self, items: Sequence[T]) -> list[T]:
        return self.draw(st.permutations(items))

    def subset(self, items: Sequence[T], max_size: int | None = None) -> list[T]:
        return self.draw(st.lists(st.sampled_from(items), max_size=max_size, unique=True))


class Rolls:
    """Choices rolled by a seeded `random.Random` (no shrinking, far cheaper)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def pick(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def coin(self) -> bool:
        return self.rng.random() < 0.5

    def shuffled(self, items: Sequence[T]) -> list[T]:
        return self.rng.sample(list(items), len(items))

    def subset(self, items: Sequence[T], max_size: int | None = None) -> list[T]:
        top = len(items) if max_size is None else min(max_size, len(items))
        return self.rng.sample(list(items), self.rng.randint(0, top))


@dataclass(frozen=True)
class Style:
    """How a random table plays, in percent: so that quiet games (7.8), ties (7.5, 7.6,
    7.9) and busy ones all come up."""

    nominate: int
    miss: int
    discipline: int  # per mille of events


styles = st.builds(Style, st.sampled_from([3, 15, 50]), st.sampled_from([20, 60, 95]),
                   st.sampled_from([0, 15, 40]))


@dataclass
class PlayedGame:
    roles: dict[int, str]
    log: list[dict[str, Any]]
    state: GameReplay


roles_strategy = st.permutations(ROLE_LIST).map(
    lambda perm: {seat: role for seat, role in zip(range(1, 11), perm, strict=True)})


def _discipline(c: Chooser, state: GameReplay, style: Style) -> dict[str, Any] | None:
    """Now and then a foul, rarely a removal or a team loss; also for the player whose
    last words are being heard (after his `last_words` event)."""
    seats = sorted(state.at_table | ({state.speaking_last} if state.speaking_last else set()))
    if not seats:
        return None
    if style.discipline == 0:
        return None
    roll = c.integer(0, 999)
    if roll >= style.discipline:
        return None
    roll = roll * 33 // style.discipline
    seat = c.pick(seats)
    if roll < 28:
        return {"type": "foul", "seat": seat, "time": c.integer(0, 5400)}
    if roll < 31:
        return {"type": "disqualify", "seat": seat, "rule": "FIIM 6.7.4"}
    if roll < 32:
        return {"type": "team_loss", "seat": seat, "rule": "FIIM 6.8.1"}
    return None


def _votes(c: Chooser, state: GameReplay, candidates: tuple[int, ...]
           ) -> dict[str, Any]:
    """Each voter votes for a candidate or keeps his hand down (last candidate)."""
    votes: dict[str, list[int]] = {str(cand): [] for cand in candidates}
    voters = sorted(state.at_table)
    if c.coin():  # a split table: round robin, ties whenever it divides
        for n, voter in enumerate(c.shuffled(voters)):
            votes[str(candidates[n % len(candidates)])].append(voter)
        return {"type": "vote", "votes": {k: v for k, v in votes.items() if v}}
    for voter in voters:
        choice = c.pick(candidates if c.coin() else (None,))
        if choice is not None:
            votes[str(choice)].append(voter)
    if c.coin():
        return {"type": "vote", "votes": {k: v for k, v in votes.items() if v}}
    return {"type": "vote", "counts": {k: len(v) for k, v in votes.items() if v}}


def _next_event(c: Chooser, state: GameReplay, style: Style) -> dict[str, Any] | None:
    step = state.next_step()
    if step.step is Step.ENDED:
        speaking = state.speaking_last
        if speaking is not None and state.ended_by_vote_or_shot and (
            c.integer(0, 9) == 0
        ):  # FIIM 7.10: a foul or a removal during the last words after the end
            return {"type": c.pick(["foul", "disqualify"]), "seat": speaking}
        if step.last_words and c.coin():
            return {"type": "last_words", "seat": step.last_words[0]}
        return None
    extra = _discipline(c, state, style)
    if extra is not None:
        return extra
    seats = list(step.at_table)
    kinds = step.kinds
    if "last_words" in kinds and step.last_words and c.coin():
        return {"type": "last_words", "seat": step.last_words[0]}
    if "shot" in kinds:
        miss = c.integer(0, 99) < style.miss
        target = None if miss else c.pick(seats)
        return {"type": "shot", "target": target}
    optional = [k for k in ("don_check", "sheriff_check", "best_move") if k in kinds]
    if optional and c.coin():
        kind = c.pick(optional)
        if kind == "best_move":
            seat = state.first_killed
            others = [s for s in range(1, 11) if s != seat]
            named = c.subset(others, 3)
            return {"type": "best_move", "seat": seat, "seats": named}
        role = "don" if kind == "don_check" else "sheriff"
        checker = next(s for s, r in state.roles.items() if r == role)
        targets = [s for s in range(1, 11) if s != checker]
        return {"type": kind, "target": c.pick(targets)}
    if "speech" in kinds and step.seat is not None:
        free = [s for s in seats if s not in state.nominations]
        wants = c.integer(0, 99) < style.nominate
        nominee = c.pick(free) if free and wants else None
        event: dict[str, Any] = {"type": "speech", "seat": step.seat}
        if nominee is not None:
            event["nominates"] = nominee
        return event
    if "defence" in kinds and step.seat is not None and c.coin():
        return {"type": "defence", "seat": step.seat}
    if "vote" in kinds:
        return _votes(c, state, step.candidates)
    if "lift" in kinds:
        voters = c.subset(seats)
        return {"type": "lift", "voters": sorted(voters)}
    raise AssertionError(f"no event offered at {step}")


@st.composite
def played_games(draw: st.DrawFn, profile: RuleProfile) -> PlayedGame:
    """A whole legal game: every event is one the engine accepts at that point."""
    roles = draw(roles_strategy)
    style = draw(styles)
    return play(Draws(draw), profile, roles, style)


def random_game(rng: random.Random, profile: RuleProfile) -> PlayedGame:
    """A whole legal game as `played_games` plays it, its choices rolled by `rng`."""
    c = Rolls(rng)
    roles = dict(zip(range(1, 11), c.shuffled(ROLE_LIST), strict=True))
    style = Style(c.pick([3, 15, 50]), c.pick([20, 60, 95]), c.pick([0, 15, 40]))
    return play(c, profile, roles, style)


def play(c: Chooser, profile: RuleProfile, roles: dict[int, str], style: Style) -> PlayedGame:
    """Play a table to its end, asking the engine what comes next."""
    state = GameReplay(roles, profile, "g")
    log: list[dict[str, Any]] = []
    if c.coin():
        log.append({"type": "deal", "roles": [roles[s] for s in range(1, 11)]})
        state.apply(_parse(log[0], 0), 0)
    while len(log) < MAX_EVENTS:
        event = _next_event(c, state, style)
        if event is None:
            break
        problems = state.apply(_parse(event, len(log)), len(log))
        assert not problems, (event, [p.message() for p in problems], state.next_step())
        log.append(event)
    state.finish(len(log))
    return PlayedGame(roles, log, state)


def _parse(event: dict[str, Any], index: int) -> Any:
    parsed = parse_event(event, index, "g")
    assert not isinstance(parsed, Problem), parsed
    return parsed
