"""A player's own page: what one player needs on his phone during the
day, read in one call: his table and seat in the next round, his games with each point and
its clause, his protests and appeals with their deadlines, his place and total.

The pieces come from the services that own them (composed, not inherited): the standings
and explanations from `Services` (the one implementation of standings), the cases from
`Appeals`; the check-in from `CheckinService`. What the public may not see stays
hidden here too: closed standings hide the place and the points, hidden extras hide every
part but the main ones.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Protocol

from mafiatab.domain import appeals as ap
from mafiatab.domain.points import Hundredths
from mafiatab.domain.standings import GameExplanation
from mafiatab.services.access import Access
from mafiatab.services.appeals import Appeals, CaseView
from mafiatab.services.checkin import CheckinService, Presence
from mafiatab.services.errors import PermissionDenied
from mafiatab.services.games import Games
from mafiatab.services.standings import StandingsBoard
from mafiatab.services.tournaments import Tournaments
from mafiatab.services.web_support import MAIN_PARTS
from mafiatab.storage.models import CONFIRMED, PLAYER


@dataclass(frozen=True, slots=True)
class NextSeat:
    stage: str
    round: int
    table: int
    seat: int
    game: str
    judge: str | None
    stage_name: str


@dataclass(frozen=True, slots=True)
class MyCase:
    view: CaseView
    #: the moment filing on the case's game closes (None: the rules set none, or unknown)
    filing_deadline: dt.datetime | None


@dataclass(slots=True)
class MyPage:
    tournament: str
    player: str
    nickname: str
    club: str | None
    next_seat: NextSeat | None
    presence: Presence | None
    games: list[GameExplanation] = field(default_factory=list)
    cases: list[MyCase] = field(default_factory=list)
    standings_hidden: bool = False
    extras_hidden: bool = False
    place: int | None = None
    total: Hundredths | None = None
    players_ranked: int = 0
    lot_needed: bool = False


class Reads(Protocol):
    """The services a player's page reads (the facade that builds this one has them)."""

    @property
    def tournaments(self) -> Tournaments: ...
    @property
    def standings(self) -> StandingsBoard: ...
    @property
    def access(self) -> Access: ...
    @property
    def games(self) -> Games: ...


class MyPageService:
    """The player's page, read for the account signed in (see the module)."""

    def __init__(self, web: Reads, appeals: Appeals, checkin: CheckinService) -> None:
        self.web = web
        self.appeals = appeals
        self.checkin = checkin

    def player_of(self, tournament: int, user: str) -> str:
        """The player the account signs in as in this tournament, or `PermissionDenied`."""
        players = sorted(self.appeals.players_of(tournament, user))
        if not players:
            t, _players, _stages = self.web.tournaments.context(tournament)
            raise PermissionDenied("not_allowed", user=user, action="my_page",
                                   tournament=t.name, roles=[PLAYER])
        return players[0]

    def version(self, tournament: int) -> Hashable:
        """Changes whenever the page may change (the push hub's probe): the public stamp
        (every confirmation, seating change, decision, check-in writes an audit entry)."""
        return self.web.standings.stamp(tournament)

    def page(self, tournament: int, *, actor: str) -> MyPage:
        pid = self.player_of(tournament, actor)
        t, players, _stages = self.web.tournaments.context(tournament)
        me = next(p for p in players if p.id == pid)
        vis = self.web.access.visibility(tournament)
        out = MyPage(t.name, pid, me.nickname, me.club, self._next_seat(tournament, pid),
                     self.checkin.presence(tournament).get(pid),
                     standings_hidden=vis.standings_hidden, extras_hidden=vis.extras_hidden)
        if not vis.standings_hidden:
            games = self.web.standings.explain(tournament, pid)
            if vis.extras_hidden:
                for g in games:
                    g.parts = [x for x in g.parts if x.kind in MAIN_PARTS]
            out.games = games
            standings = self.web.standings.cached(tournament)
            out.players_ranked = len(standings.rows)
            row = next((r for r in standings.rows if r.player == pid), None)
            if row is not None:
                out.place, out.lot_needed = row.place, row.lot_needed
                out.total = row.main if vis.extras_hidden else row.total
        for view in self.appeals.cases(tournament, actor=actor):
            if view.case.filing.player != pid:
                continue
            deadline = None
            if view.case.status is ap.Status.OPEN:
                found, _missing = self.appeals.filing_deadline(tournament, view.case.filing.game,
                                                               view.case.filing.kind,
                                                               actor=actor)
                deadline = found.at if found is not None else None
            out.cases.append(MyCase(view, deadline))
        return out

    def _next_seat(self, tournament: int, pid: str) -> NextSeat | None:
        """The first table, in stage and round order, whose game is not confirmed and
        seats the player: where he plays next."""
        names = {s.id: s.name for s in self.web.tournaments.context(tournament)[2]}
        for g in self.web.games.overview(tournament):
            if g.state == CONFIRMED:
                continue
            head = self.web.games.head(tournament, g.code)
            for seat in head.game_struct().seats:
                if seat.player == pid:
                    return NextSeat(g.stage, g.round, g.table, seat.seat, g.code, g.judge,
                                    names.get(g.stage, g.stage))
        return None


__all__ = ["MyCase", "MyPage", "MyPageService", "NextSeat"]
