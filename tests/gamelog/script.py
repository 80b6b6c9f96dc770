"""Helpers to write a game's log as a scenario: the engine says who speaks next."""

from __future__ import annotations

from typing import Any

from mafiatab.domain.gamelog import GameReplay, Replayed, replay
from mafiatab.domain.gamelog_events import parse_event
from mafiatab.domain.problems import Problem
from mafiatab.rules import FIIM2018
from mafiatab.rules.profile import RuleProfile

#: blacks: 3 (don), 5, 9; sheriff: 7
ROLES: dict[int, str] = {
    1: "red", 2: "red", 3: "don", 4: "red", 5: "black",
    6: "red", 7: "sheriff", 8: "red", 9: "black", 10: "red",
}


class Script:
    """A log written event by event; each event is checked as it is added."""

    def __init__(self, profile: RuleProfile = FIIM2018, roles: dict[int, str] | None = None
                 ) -> None:
        self.profile = profile
        self.roles = dict(roles or ROLES)
        self.log: list[dict[str, Any]] = []
        self.state = GameReplay(self.roles, profile, "g1")

    def add(self, **event: Any) -> Script:
        parsed = parse_event(event, len(self.log), "g1")
        assert not isinstance(parsed, Problem), parsed
        problems = self.state.apply(parsed, len(self.log))
        assert not problems, [p.message() for p in problems]
        self.log.append(event)
        return self

    def refused(self, **event: Any) -> Problem:
        """The problem that refuses this event (which is not added)."""
        parsed = parse_event(event, len(self.log), "g1")
        if isinstance(parsed, Problem):
            return parsed
        problems = self.state.apply(parsed, len(self.log))
        assert problems, f"{event} was accepted"
        return problems[0]

    def speeches(self, nominations: dict[int, int] | None = None) -> Script:
        """Every remaining speech of the day; `nominations`: speaker -> nominee."""
        nominations = nominations or {}
        while True:
            step = self.state.next_step()
            if "speech" not in step.kinds or step.seat is None:
                return self
            seat = step.seat
            if seat in nominations:
                self.add(type="speech", seat=seat, nominates=nominations[seat])
            else:
                self.add(type="speech", seat=seat)

    def night(self, target: int | None) -> Script:
        return self.add(type="shot", target=target)

    def vote(self, votes: dict[int, list[int]]) -> Script:
        return self.add(type="vote", votes={str(k): v for k, v in votes.items()})

    def replayed(self) -> Replayed:
        return replay(self.log, self.roles, self.profile, "g1")
