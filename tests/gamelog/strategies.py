"""Hypothesis strategies: random legal games, played by asking the engine what comes next."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from mafiatab.domain.gamelog import GameReplay
from mafiatab.domain.gamelog_events import parse_event
from mafiatab.domain.gamelog_state import Step
from mafiatab.domain.problems import Problem
from mafiatab.domain.protocol import ROLE_COUNTS
from mafiatab.rules.profile import RuleProfile

ROLE_LIST = [role for role, n in ROLE_COUNTS.items() for _ in range(n)]
MAX_EVENTS = 1500


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


def _discipline(draw: st.DrawFn, state: GameReplay, style: Style) -> dict[str, Any] | None:
    """Now and then a foul, rarely a removal or a team loss; also for the player whose
    last words are being heard (after his `last_words` event)."""
    seats = sorted(state.at_table | ({state.speaking_last} if state.speaking_last else set()))
    if not seats:
        return None
    if style.discipline == 0:
        return None
    roll = draw(st.integers(0, 999))
    if roll >= style.discipline:
        return None
    roll = roll * 33 // style.discipline
    seat = draw(st.sampled_from(seats))
    if roll < 28:
        return {"type": "foul", "seat": seat, "time": draw(st.integers(0, 5400))}
    if roll < 31:
        return {"type": "disqualify", "seat": seat, "rule": "FIIM 6.7.4"}
    if roll < 32:
        return {"type": "team_loss", "seat": seat, "rule": "FIIM 6.8.1"}
    return None


def _votes(draw: st.DrawFn, state: GameReplay, candidates: tuple[int, ...]
           ) -> dict[str, Any]:
    """Each voter votes for a candidate or keeps his hand down (last candidate)."""
    votes: dict[str, list[int]] = {str(c): [] for c in candidates}
    voters = sorted(state.at_table)
    if draw(st.booleans()):  # a split table: round robin, ties whenever it divides
        for n, voter in enumerate(draw(st.permutations(voters))):
            votes[str(candidates[n % len(candidates)])].append(voter)
        return {"type": "vote", "votes": {k: v for k, v in votes.items() if v}}
    for voter in voters:
        choice = draw(st.sampled_from(candidates if draw(st.booleans()) else (None,)))
        if choice is not None:
            votes[str(choice)].append(voter)
    if draw(st.booleans()):
        return {"type": "vote", "votes": {k: v for k, v in votes.items() if v}}
    return {"type": "vote", "counts": {k: len(v) for k, v in votes.items() if v}}


def _next_event(draw: st.DrawFn, state: GameReplay, style: Style) -> dict[str, Any] | None:
    step = state.next_step()
    if step.step is Step.ENDED:
        speaking = state.speaking_last
        if speaking is not None and state.ended_by_vote_or_shot and (
            draw(st.integers(0, 9)) == 0
        ):  # FIIM 7.10: a foul or a removal during the last words after the end
            return {"type": draw(st.sampled_from(["foul", "disqualify"])), "seat": speaking}
        if step.last_words and draw(st.booleans()):
            return {"type": "last_words", "seat": step.last_words[0]}
        return None
    extra = _discipline(draw, state, style)
    if extra is not None:
        return extra
    seats = list(step.at_table)
    kinds = step.kinds
    if "last_words" in kinds and step.last_words and draw(st.booleans()):
        return {"type": "last_words", "seat": step.last_words[0]}
    if "shot" in kinds:
        miss = draw(st.integers(0, 99)) < style.miss
        target = None if miss else draw(st.sampled_from(seats))
        return {"type": "shot", "target": target}
    optional = [k for k in ("don_check", "sheriff_check", "best_move") if k in kinds]
    if optional and draw(st.booleans()):
        kind = draw(st.sampled_from(optional))
        if kind == "best_move":
            seat = state.first_killed
            others = [s for s in range(1, 11) if s != seat]
            named = draw(st.lists(st.sampled_from(others), max_size=3, unique=True))
            return {"type": "best_move", "seat": seat, "seats": named}
        role = "don" if kind == "don_check" else "sheriff"
        checker = next(s for s, r in state.roles.items() if r == role)
        targets = [s for s in range(1, 11) if s != checker]
        return {"type": kind, "target": draw(st.sampled_from(targets))}
    if "speech" in kinds and step.seat is not None:
        free = [s for s in seats if s not in state.nominations]
        wants = draw(st.integers(0, 99)) < style.nominate
        nominee = draw(st.sampled_from(free)) if free and wants else None
        event: dict[str, Any] = {"type": "speech", "seat": step.seat}
        if nominee is not None:
            event["nominates"] = nominee
        return event
    if "defence" in kinds and step.seat is not None and draw(st.booleans()):
        return {"type": "defence", "seat": step.seat}
    if "vote" in kinds:
        return _votes(draw, state, step.candidates)
    if "lift" in kinds:
        voters = draw(st.lists(st.sampled_from(seats), unique=True))
        return {"type": "lift", "voters": sorted(voters)}
    raise AssertionError(f"no event offered at {step}")


@st.composite
def played_games(draw: st.DrawFn, profile: RuleProfile) -> PlayedGame:
    """A whole legal game: every event is one the engine accepts at that point."""
    roles = draw(roles_strategy)
    style = draw(styles)
    state = GameReplay(roles, profile, "g")
    log: list[dict[str, Any]] = []
    if draw(st.booleans()):
        log.append({"type": "deal", "roles": [roles[s] for s in range(1, 11)]})
        state.apply(_parse(log[0], 0), 0)
    while len(log) < MAX_EVENTS:
        event = _next_event(draw, state, style)
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
