"""The head judge's awards: MVP and the best of each role. Which awards a tournament has is
its federation's setting (`RuleProfile.awards`); the head judge names one player for each
(or takes the name back). The standings, the person pages and the exports show them.

Why the head judge alone: naming the best is a judging decision, as confirming a protocol
is; the organizer runs the tournament but does not judge it. An exhibition player is not
ranked, so he gets no award either.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from mafiatab.services.errors import ServiceError
from mafiatab.services.store import (
    Store,
    profile_of,
    record_audit,
    require_role,
    tournament_row,
)
from mafiatab.storage import models as db
from mafiatab.storage.models import HEAD_JUDGE
from mafiatab.texts.register import AWARD_REFUSAL


class AwardError(ServiceError):
    """A refusal of the awards' (400); its words are the catalogue's `award_refusal`."""

    texts: ClassVar[Mapping[str, tuple[str, str]]] = AWARD_REFUSAL


@dataclass(frozen=True, slots=True)
class Named:
    """An award and the player named for it (None: not named yet)."""

    award: str
    player: str | None
    nickname: str | None


@dataclass(frozen=True, slots=True)
class PersonAward:
    """An award of one person, in one tournament (the person's page)."""

    tournament: int
    name: str
    award: str


def _named(s: Session, t: db.Tournament) -> list[Named]:
    profile, _problems = profile_of(t)
    got = {a: code for a, code in s.execute(
        select(db.Award.award, db.Award.player_code).where(db.Award.tournament_id == t.id))}
    nicks = {code: nick for code, nick in s.execute(
        select(db.Participant.code, db.Player.nickname)
        .join(db.Player, db.Player.id == db.Participant.player_id)
        .where(db.Participant.tournament_id == t.id,
               db.Participant.code.in_(list(got.values()) or [""])))}
    return [Named(a, got.get(a), nicks.get(got.get(a, ""))) for a in profile.awards.value]


class Awards:
    """The awards of a tournament: read by everyone, named by its head judge."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def named(self, tournament: int) -> list[Named]:
        """Every award the tournament's rules have, in their order, with who got it."""
        with self.store.read() as s:
            return _named(s, tournament_row(s, tournament))

    def name(self, tournament: int, award: str, player: str | None, *, actor: str
             ) -> list[Named]:
        """Name `player` (a tournament's player id) for `award`, or none (None or empty):
        the head judge only."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, {HEAD_JUDGE}, "name_awards")
            profile, _problems = profile_of(t)
            if award not in profile.awards.value:
                raise AwardError("no_award", award=award[:40])
            old = s.scalar(select(db.Award.player_code).where(
                db.Award.tournament_id == t.id, db.Award.award == award))
            s.execute(delete(db.Award).where(db.Award.tournament_id == t.id,
                                             db.Award.award == award))
            if player:
                found = s.execute(
                    select(db.Participant.code, db.Participant.exhibition, db.Player.nickname)
                    .join(db.Player, db.Player.id == db.Participant.player_id)
                    .where(db.Participant.tournament_id == t.id,
                           db.Participant.code == player[:100])).first()
                if found is None:
                    raise AwardError("no_player", player=player[:100])
                if found[1]:
                    raise AwardError("exhibition", player=found[2])
                s.add(db.Award(tournament_id=t.id, award=award, player_code=player,
                               named_by=actor))
            record_audit(s, actor, t.id, "name_award",
                         {"award": award, "player": [old, player or None]})
            s.flush()
            return _named(s, t)

    def of_person(self, person: int) -> list[PersonAward]:
        """The awards a person got, tournament by tournament."""
        with self.store.read() as s:
            rows = s.execute(
                select(db.Tournament.id, db.Tournament.name, db.Award.award)
                .join(db.Award, db.Award.tournament_id == db.Tournament.id)
                .join(db.Participant, (db.Participant.tournament_id == db.Tournament.id)
                      & (db.Participant.code == db.Award.player_code))
                .where(db.Participant.player_id == person)
                .order_by(db.Tournament.id, db.Award.id))
            return [PersonAward(tid, name, award) for tid, name, award in rows]


__all__ = ["AwardError", "Awards", "Named", "PersonAward"]
