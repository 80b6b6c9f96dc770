"""Setting a tournament up: its rules and their switched readings, changeable
until the first game is entered, and the organizer's first-run path (create → players →
stages → seating → judges → blank protocols → open the round), each step done or next.

Why it is built this way:

* **Rules stay open until a game is entered, then they are closed.** A protocol is scored
  and validated by the tournament's rule profile; once a judge has written one, another
  profile could make it break rules it kept, so the change is refused, naming the game.
  The seating's own drafts (the tables of a published round) are not games entered: they
  hold no roles and no result, and mean the same under either profile.
* **The path is read from the data, not ticked by hand.** Each step is done when the
  database shows it (players registered, a round seated, every table of it with a judge,
  its blank protocols printed, a protocol of it started), so the page cannot say "done"
  for something that is not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Final

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session

from mafiatab.domain import protocol as model
from mafiatab.domain.problems import ProtocolRefused, Word
from mafiatab.i18n import federation
from mafiatab.rules import OPTIONS, PROFILES
from mafiatab.rules.profile import ExtraLimits, RuleProfile
from mafiatab.services.errors import ServiceError, StateError
from mafiatab.services.store import Store, record_audit, require_role, tournament_row
from mafiatab.services.tournament_file import profile_for
from mafiatab.storage import models as db
from mafiatab.storage.models import DRAFT, HEAD_JUDGE, ORGANIZER, Assignment
from mafiatab.texts.refusals import SETUP

MANAGE: Final = frozenset({ORGANIZER, HEAD_JUDGE})
#: the reason the seating gives its drafts (`services.seating_web.SEATING_REASON`)
SEATING_REASON: Final = "seating"
#: a round is seated with at least one table of ten
TABLE: Final = 10

class SetupRefused(StateError):
    """A change the tournament's state no longer allows (409)."""

    texts: ClassVar[Mapping[str, tuple[str, str]]] = SETUP


class SetupInvalid(ServiceError):
    """A set-up value that is not one (400)."""

    texts: ClassVar[Mapping[str, tuple[str, str]]] = SETUP


@dataclass(frozen=True, slots=True)
class RuleOption:
    """A switched reading the tournament's profile offers: its name, values and clause
    (the profile's own, never the other federation's)."""

    name: str
    values: tuple[str, ...]
    clause: str


def rule_options_of(profile: RuleProfile) -> list[RuleOption]:
    """The readings a tournament under `profile` may switch (from the profile's data)."""
    out = []
    for name, choices in OPTIONS.items():
        if name == "extra_scale":
            if profile.extra_limits.value is not ExtraLimits.BY_SCALE:
                continue
            clause = profile.extra_limits.clause
        elif name == "comp_per_team":
            clause = profile.comp_per_team.clause
        else:
            clause = profile.four_players_tie_no_vote.clause
        out.append(RuleOption(name, tuple(choices), clause))
    return out


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the first-run path: done, or the next one, or later."""

    key: str
    done: bool
    #: a number the step shows (players registered, tables of the round, …)
    count: int = 0
    of: int = 0


@dataclass(frozen=True, slots=True)
class Entered:
    """The first game entered (what the refusal of a rules change names)."""

    game: str
    state: str
    author: str


def first_entered(s: Session, tournament: int) -> Entered | None:
    """The first protocol revision a person wrote (not the seating's own draft)."""
    rev = db.ProtocolRevision
    row = s.execute(
        select(db.Game.code, rev.state, db.User.name)
        .join(rev, rev.game_id == db.Game.id)
        .join(db.User, db.User.id == rev.author_id)
        .where(db.Game.tournament_id == tournament,
               or_(rev.state != DRAFT, rev.reason.is_(None), rev.reason != SEATING_REASON))
        .order_by(rev.id).limit(1)).first()
    return None if row is None else Entered(str(row[0]), str(row[1]), str(row[2]))


def rule_choices() -> Word:
    """The rule sets to choose from: their codes for the API, their titles for people."""
    codes = sorted(PROFILES)
    return Word(", ".join(codes), ", ".join(federation(PROFILES[c].title, "ru") for c in codes),
                ", ".join(PROFILES[c].title for c in codes))


class TournamentSetup:
    """The rules of a tournament before its first game, and its first-run path."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def first_entered(self, tournament: int) -> Entered | None:
        with self.store.read() as s:
            return first_entered(s, tournament_row(s, tournament).id)

    def change_rules(self, tournament: int, rules: str, options: Mapping[str, str], *,
                     actor: str) -> None:
        """Set the rule profile and its switched readings; refused once a game is entered
        (with the game), or for a profile or reading that does not exist (after the role
        is checked)."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, MANAGE, "manage")
            if rules not in PROFILES:
                raise SetupInvalid("rules_needed", choices=rule_choices())
            offered = {o.name: o for o in rule_options_of(PROFILES[rules])}
            chosen = {k: v for k, v in options.items() if k in offered}
            probe = model.Tournament(name="", rules=rules, players=[], stages=[],
                                     rule_options=chosen)
            _, problems = profile_for(probe)
            if problems:
                raise ProtocolRefused(problems)
            entered = first_entered(s, t.id)
            if entered is not None:
                raise SetupRefused("rules_locked", game=entered.game, state=entered.state,
                                   author=entered.author)
            old = (t.rules, dict(t.rule_options))
            t.rules, t.rule_options = rules, chosen
            record_audit(s, actor, t.id, "change_rules",
                         {"rules": [old[0], rules], "rule_options": [old[1], chosen]})

    def record_print(self, tournament: int, stage: str | None, rnd: int, *,
                     actor: str) -> None:
        """The blank protocols of a round are printed (a step of the path): the staff's,
        asked before the sheets are made. `stage` None: the form named no round (refused
        after the role is checked)."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, MANAGE, "manage")
            if stage is None:
                raise ServiceError("bad_input", field="round")
            record_audit(s, actor, t.id, "print_blanks", {"stage": stage, "round": rnd})

    def steps(self, tournament: int, *, actor: str) -> list[Step]:
        """The first-run path as the data shows it, for the tournament's newest round
        (the organizer's and the head judge's)."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, MANAGE, "manage")
            players = s.scalar(select(func.count()).select_from(db.Participant).where(
                db.Participant.tournament_id == t.id,
                db.Participant.withdrawn.is_(False))) or 0
            stages = s.scalar(select(func.count()).select_from(db.Stage)
                              .where(db.Stage.tournament_id == t.id)) or 0
            newest = s.execute(
                select(db.Stage.code, db.Round.number)
                .join(db.Round, db.Round.stage_id == db.Stage.id)
                .join(db.GameTable, db.GameTable.round_id == db.Round.id)
                .join(db.Game, db.Game.table_id == db.GameTable.id)
                .where(db.Stage.tournament_id == t.id)
                .order_by(db.Stage.position.desc(), db.Round.number.desc()).limit(1)).first()
            tables = judged = 0
            printed = started = False
            if newest is not None:
                stage, rnd = str(newest[0]), int(newest[1])
                codes = list(s.scalars(
                    select(db.Game.code)
                    .join(db.GameTable, db.GameTable.id == db.Game.table_id)
                    .join(db.Round, db.Round.id == db.GameTable.round_id)
                    .join(db.Stage, db.Stage.id == db.Round.stage_id)
                    .where(db.Game.tournament_id == t.id, db.Stage.code == stage,
                           db.Round.number == rnd)))
                tables = len(codes)
                judged = s.scalar(select(func.count()).select_from(Assignment).where(
                    Assignment.tournament_id == t.id, Assignment.game_code.in_(codes))) or 0
                printed = any(
                    d.get("stage") == stage and d.get("round") == rnd
                    for d in s.scalars(select(db.AuditEntry.detail).where(
                        db.AuditEntry.tournament_id == t.id,
                        db.AuditEntry.action == "print_blanks")))
                rev = db.ProtocolRevision
                started = s.scalar(
                    select(func.count()).select_from(rev)
                    .join(db.Game, and_(db.Game.id == rev.game_id))
                    .where(db.Game.code.in_(codes), db.Game.tournament_id == t.id,
                           or_(rev.state != DRAFT, rev.reason.is_(None),
                               rev.reason != SEATING_REASON))) != 0
        return [
            Step("create", True),
            Step("players", players >= TABLE, players, TABLE),
            Step("stages", stages > 0, stages),
            Step("seating", tables > 0, tables),
            Step("judges", tables > 0 and judged == tables, judged, tables),
            Step("blanks", printed),
            Step("open", started),
        ]


def next_step(steps: list[Step]) -> str | None:
    """The first step not done (the one the page points at), or None."""
    return next((st.key for st in steps if not st.done), None)


__all__ = ["Entered", "RuleOption", "SetupInvalid", "SetupRefused", "Step", "TournamentSetup",
           "first_entered", "next_step", "rule_options_of"]
