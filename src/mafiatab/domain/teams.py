"""Team standings of a team tournament, over the players' standings rows.

A team tournament registers teams of players; a team's line sums its members' lines
(points and every count the tie-breakers use), and teams are ranked by the profile's own
tie-breakers (FIIM 8.8, FSM 8.7) applied to those sums. **Reading**: the rules rank
players, and a team event (gomafia's "Командный", team marathons) ranks teams by the same
criteria over the team's sums; a team tie that no criterion breaks is broken by a recorded
lot of team ids, as a players' tie is by a lot of player ids (FIIM 8.8.5, FSM 8.7.6).

Pure: the player rows come from `domain.standings.compute_standings`, unchanged; this
module never recomputes a point.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from mafiatab.domain.points import Hundredths
from mafiatab.domain.problems import Problem, Refused
from mafiatab.domain.protocol import Tournament
from mafiatab.domain.standings import SUMMED, Row
from mafiatab.rules.profile import RuleProfile


@dataclass(frozen=True, slots=True)
class Team:
    id: str
    name: str
    members: tuple[str, ...]  # player ids


@dataclass(slots=True)
class TeamRow:
    """A team's line: `sums` is a standings `Row` of the team, its members' rows added by
    `Row.add`, so that its counts and its `total` are summed the standings' one way (a
    team row never repeats them); `place` and `lot_needed` are the team's own ranking.
    The counts read through (`row.wins`, `row.main`), as the tie-breakers and pages ask."""

    team: str
    name: str
    members: tuple[str, ...]
    sums: Row
    place: int = 0
    lot_needed: bool = False

    @property
    def total(self) -> Hundredths:
        return self.sums.total

    def __getattr__(self, name: str) -> Hundredths:
        if name in SUMMED:
            value: Hundredths = getattr(self.sums, name)
            return value
        raise AttributeError(name)


class TeamsRefused(Refused):
    """The teams cannot be ranked: a player in two teams, an unknown player, a team id
    twice, or a team without members."""

    def __init__(self, *, in_two: Sequence[str] = (), unknown: Sequence[str] = (),
                 duplicate_ids: Sequence[str] = (), empty: Sequence[str] = ()) -> None:
        self.in_two = sorted(in_two)
        self.unknown = sorted(unknown)
        self.duplicate_ids = sorted(duplicate_ids)
        self.empty = sorted(empty)
        super().__init__(
            [Problem("team_in_two", params={"value": v}) for v in self.in_two]
            + [Problem("team_unknown_player", params={"value": v}) for v in self.unknown]
            + [Problem("team_id_twice", params={"value": v}) for v in self.duplicate_ids]
            + [Problem("team_empty", params={"value": v}) for v in self.empty])


def check_teams(teams: Sequence[Team], players: Sequence[str]) -> None:
    """Raise `TeamsRefused` with every problem of the team list, or return."""
    known = set(players)
    count = Counter(m for t in teams for m in t.members)
    ids = Counter(t.id for t in teams)
    refused = TeamsRefused(
        in_two=[m for m, n in count.items() if n > 1],
        unknown=[m for m in count if m not in known],
        duplicate_ids=[i for i, n in ids.items() if n > 1],
        empty=[t.id for t in teams if not t.members])
    if refused.in_two or refused.unknown or refused.duplicate_ids or refused.empty:
        raise refused


def team_standings(rows: Sequence[Row], teams: Sequence[Team], profile: RuleProfile,
                   players: Sequence[str], lots: Sequence[str] = ()) -> list[TeamRow]:
    """Teams ranked by the profile's tie-breakers over their members' sums.

    `rows` are the players' standings rows (a member without a row, who played no game,
    adds nothing); `players` every player id of the tournament. `lots`: team ids in the
    order a recorded lot drew them; it orders a tied group only when it names every team
    of the group, otherwise they share the place and are marked `lot_needed`.
    """
    check_teams(teams, players)
    by_player = {r.player: r for r in rows}
    out: list[TeamRow] = []
    for t in teams:
        line = TeamRow(t.id, t.name, t.members, Row(t.id, t.name))
        for m in t.members:
            row = by_player.get(m)
            if row is not None:
                line.sums.add(row)
        out.append(line)
    return rank_teams(out, profile, lots)


def _key(profile: RuleProfile, row: TeamRow) -> tuple[int, ...]:
    return tuple(getattr(row, name) for name in profile.tie_breakers.value)


def rank_teams(rows: list[TeamRow], profile: RuleProfile, lots: Sequence[str] = ()
               ) -> list[TeamRow]:
    """Order by the profile's criteria (`tie_breakers`, each larger-is-better), then a lot."""
    rows = sorted(rows, key=lambda r: r.team)
    rows.sort(key=lambda r: _key(profile, r), reverse=True)
    lot_index = {tid: i for i, tid in enumerate(lots)}
    i = 0
    while i < len(rows):
        j = i + 1
        key = _key(profile, rows[i])
        while j < len(rows) and _key(profile, rows[j]) == key:
            j += 1
        group = rows[i:j]
        if len(group) == 1:
            group[0].place, group[0].lot_needed = i + 1, False
        elif all(r.team in lot_index for r in group):
            group.sort(key=lambda r: lot_index[r.team])
            for offset, r in enumerate(group):
                r.place, r.lot_needed = i + 1 + offset, False
            rows[i:j] = group
        else:
            for r in group:
                r.place, r.lot_needed = i + 1, True
        i = j
    return rows


def teams_of(t: Tournament) -> list[Team]:
    """The tournament's teams (format 1 `teams`) as the ranking takes them."""
    return [Team(x.id, x.name, tuple(x.members)) for x in t.teams]


def team_problems(t: Tournament) -> list[Problem]:
    """The problems of a file's `teams`: an unknown player, a player in two teams, a team
    id twice, a team without members (the same checks as `check_teams`, as problems)."""
    if not t.teams:
        return []
    try:
        check_teams(teams_of(t), [p.id for p in t.players])
    except TeamsRefused as e:
        return ([Problem("unknown_player", field="teams.members", params={"value": v})
                 for v in e.unknown]
                + [Problem("team_member_twice", field="teams.members", params={"value": v})
                   for v in e.in_two]
                + [Problem("duplicate_id", field="teams.id", params={"value": v})
                   for v in e.duplicate_ids]
                + [Problem("team_empty", field="teams.members", params={"value": v})
                   for v in e.empty])
    return []


