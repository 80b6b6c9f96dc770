"""Teams of a team tournament in the database and on the web.

The organizer registers the teams (one call, one transaction, checked by the core's
`check_teams`, audited); the team standings are the core's `team_standings` over the
players' standings rows that `Services` computes (one implementation of standings):
nothing here recomputes a point. An import of a format-1 file with `teams` stores them
(`add_teams`), and the export gives them back (`teams_in`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from mafiatab.domain import protocol as model
from mafiatab.domain.standings import Standings
from mafiatab.domain.teams import Team, TeamRow, TeamsRefused, check_teams, team_standings
from mafiatab.services.access import STAFF
from mafiatab.services.errors import PermissionDenied, ServiceError
from mafiatab.services.reads import staff_in
from mafiatab.services.store import (
    Store,
    profile_of,
    record_audit,
    require_role,
    tournament_row,
)
from mafiatab.storage import models as db
from mafiatab.storage.models import ORGANIZER
from mafiatab.texts.refusals import TEAMS

#: bounds of what a form may register
MAX_TEAMS = 200
MAX_NAME = 200


class TeamsInvalid(ServiceError):
    """Teams typed on the form that cannot be read (422, one of the `Refused` family): its
    code a key of the catalogue's `teams` section."""

    status = 422
    texts: ClassVar[Mapping[str, tuple[str, str]]] = TEAMS


def add_teams(s: Session, tournament: int, teams: Sequence[model.TeamEntry]) -> None:
    """Store a tournament's teams (the import's step; the file was checked already)."""
    for i, x in enumerate(teams):
        row = db.Team(tournament_id=tournament, code=x.id, name=x.name, position=i)
        s.add(row)
        s.flush()
        s.add_all([db.TeamMember(tournament_id=tournament, team_id=row.id, player_code=m,
                                 position=j) for j, m in enumerate(x.members)])


def teams_in(s: Session, tournament: int) -> list[model.TeamEntry]:
    """A stored tournament's teams, in their order (for the export and the standings)."""
    members: dict[int, list[str]] = {}
    for team_id, code in s.execute(select(db.TeamMember.team_id, db.TeamMember.player_code)
                                   .where(db.TeamMember.tournament_id == tournament)
                                   .order_by(db.TeamMember.position)):
        members.setdefault(team_id, []).append(code)
    return [model.TeamEntry(id=r.code, name=r.name, members=members.get(r.id, []))
            for r in s.scalars(select(db.Team).where(db.Team.tournament_id == tournament)
                               .order_by(db.Team.position))]


def parse_teams(text: str, players: Sequence[model.Player]) -> list[Team]:
    """Lines 'Team name: player, player, …' (players by id or nickname) → teams t1, t2, …"""
    by_id = {p.id: p.id for p in players}
    by_nick = {p.nickname.casefold(): p.id for p in players}
    out: list[Team] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        m = re.fullmatch(r"\s*(.+?)\s*:\s*(.*?)\s*", line)
        if m is None or len(m.group(1)) > MAX_NAME:
            raise TeamsInvalid("teams_line", line=line[:80])
        members = []
        for ref in (r.strip() for r in m.group(2).split(",")):
            if not ref:
                continue
            pid = by_id.get(ref) or by_nick.get(ref.casefold())
            if pid is None:
                raise TeamsInvalid("teams_unknown_player", player=ref[:80])
            members.append(pid)
        out.append(Team(f"t{len(out) + 1}", m.group(1), tuple(members)))
        if len(out) > MAX_TEAMS:
            raise TeamsInvalid("teams_too_many", n=MAX_TEAMS)
    return out


class TeamService:
    """The teams of a stored tournament: registration and the team standings."""

    def __init__(self, store: Store, standings: Callable[[int], Standings]) -> None:
        """`standings`: the players' standings of a tournament (the web app passes its
        cached ones, the CLI computes them)."""
        self.store = store
        self.player_standings = standings

    def teams(self, tournament: int) -> list[Team]:
        with self.store.read() as s:
            tournament_row(s, tournament)
            return [Team(x.id, x.name, tuple(x.members)) for x in teams_in(s, tournament)]

    def require_may_register(self, tournament: int, actor: str) -> None:
        """Refused unless `actor` registers teams here (the organizer): what the form asks
        when its text is no teams, so that a refusal for the role comes first."""
        with self.store.read() as s:
            require_role(s, tournament_row(s, tournament), actor, {ORGANIZER}, "manage")

    def register(self, tournament: int, teams: Sequence[Team], *, actor: str) -> None:
        """Replace the tournament's teams. Organizer only; refused (`TeamsRefused`) when a
        player is in two teams, unknown, or a team is empty; audited."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, {ORGANIZER}, "manage")
            players = list(s.scalars(select(db.Participant.code)
                                     .where(db.Participant.tournament_id == t.id)))
            check_teams(teams, players)
            s.execute(delete(db.TeamMember).where(db.TeamMember.tournament_id == t.id))
            s.execute(delete(db.Team).where(db.Team.tournament_id == t.id))
            add_teams(s, t.id, [model.TeamEntry(id=x.id, name=x.name, members=list(x.members))
                                for x in teams])
            record_audit(s, actor, t.id, "register_teams", {
                "teams": [{"id": x.id, "name": x.name, "members": list(x.members)}
                          for x in teams]})

    def view(self, tournament: int, *, actor: str | None, refuse: bool = False
             ) -> list[TeamRow] | None:
        """The team standings as this reader may see them: None while the standings are
        closed to him (staff always see them); with `refuse`, `PermissionDenied` instead
        (the API)."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            web = s.get(db.WebSettings, t.id)
            hidden = bool(web and web.standings_hidden and not web.finished)
            if hidden and not staff_in(s, t, actor):
                if refuse:
                    raise PermissionDenied("not_allowed", user=actor or "-",
                                           action="read_standings", tournament=t.name,
                                           roles=sorted(STAFF))
                return None
        return self.standings(tournament)

    def standings(self, tournament: int) -> list[TeamRow]:
        """The teams ranked by the profile's criteria over their members' rows (the
        tournament's own players' standings, cached by `Services`)."""
        teams = self.teams(tournament)
        if not teams:
            return []
        rows = self.player_standings(tournament).rows
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            profile, _ = profile_of(t)
            players = list(s.scalars(select(db.Participant.code)
                                     .where(db.Participant.tournament_id == t.id)))
        return team_standings(rows, teams, profile, players)


__all__ = ["TeamService", "TeamsInvalid", "TeamsRefused", "add_teams", "parse_teams",
           "teams_in"]
