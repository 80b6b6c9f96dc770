"""The services' unit of work: one read or one write transaction, and the few steps every
use case takes inside one (who the user is, what he may do, what goes into the audit log).

Services are composed over a `Store` rather than inheriting each other's private
helpers: a use case opens `store.write()` once, calls these public functions with the
session, and commits once. Hooks registered with `on_write` run after each committed
write (the web app forgets its cached stamps there, so a confirmation shows on the next
poll).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from mafiatab.domain import protocol as model
from mafiatab.domain.problems import Problem, ProtocolRefused
from mafiatab.domain.validation import validate_game
from mafiatab.rules.profile import RuleProfile
from mafiatab.services.errors import NotFound, PermissionDenied
from mafiatab.services.tournament_file import profile_for
from mafiatab.storage import models as db
from mafiatab.storage.engine import writer


class StaleRevision(Exception):  # noqa: N818 - a state of the data, not a programming error
    """The revision a change was based on is no longer the newest of its game."""


@dataclass(eq=False)
class _Unit:
    """The write transaction open in this thread (or task), and the stores whose hooks
    run once it commits."""

    engine: Engine
    session: Session
    stores: list[Store] = field(default_factory=list)


_UNIT: ContextVar[_Unit | None] = ContextVar("mafiatab_unit", default=None)


class Store:
    """Transactions on one database: `read()` and `write()`, each a `Session` in a
    transaction that commits when the block ends (and rolls back when it raises).

    A `write()` or `read()` opened inside a `write()` on the same engine (by this thread)
    joins it: a use case composed of other services' public calls is then still one
    transaction — nothing of it is stored unless all of it is, and every step sees the
    earlier steps' writes. A joined write is a savepoint (a step that raises takes back
    only its own writes, as its own transaction did). The hooks run once, after the
    outermost commit."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.writer = writer(engine)
        self._after_write: list[Callable[[], None]] = []

    def on_write(self, hook: Callable[[], None]) -> None:
        """Run `hook` after every committed write through this store."""
        self._after_write.append(hook)

    def _joined(self) -> _Unit | None:
        unit = _UNIT.get()
        return unit if unit is not None and unit.engine is self.engine else None

    @contextmanager
    def write(self) -> Iterator[Session]:
        unit = self._joined()
        if unit is not None:
            if self not in unit.stores:
                unit.stores.append(self)
            # a savepoint: a step that fails (and is caught by its caller) leaves nothing
            with unit.session.begin_nested():
                yield unit.session
            return
        with Session(self.writer, expire_on_commit=False) as s, s.begin():
            unit = _Unit(self.engine, s, [self])
            token = _UNIT.set(unit)
            try:
                yield s
            finally:
                _UNIT.reset(token)
        for store in unit.stores:
            for hook in store._after_write:
                hook()

    @contextmanager
    def read(self) -> Iterator[Session]:
        unit = self._joined()
        if unit is not None:
            yield unit.session
            return
        with Session(self.engine, expire_on_commit=False) as s, s.begin():
            yield s


def player_identities(s: Session, players: Sequence[model.Player]) -> list[int]:
    """Each player's identity across tournaments: the one with the same nickname and club,
    or a new one (also when two players of one list would share one). One rule for every
    way a tournament enters the database (import, registration, archive)."""
    nicks = sorted({p.nickname for p in players})
    known: dict[tuple[str, str | None], list[int]] = {}
    for i in range(0, len(nicks), 500):
        rows = s.execute(select(db.Player.id, db.Player.nickname, db.Player.club)
                         .where(db.Player.nickname.in_(nicks[i:i + 500]))
                         .order_by(db.Player.id))
        for pid, nick, club in rows:
            known.setdefault((nick, club), []).append(pid)
    ids: list[int | None] = []
    used: set[int] = set()
    missing: list[model.Player] = []
    for p in players:
        candidates = [c for c in known.get((p.nickname, p.club), []) if c not in used]
        if candidates:
            used.add(candidates[0])
            ids.append(candidates[0])
        else:
            ids.append(None)
            missing.append(p)
    if missing:
        new_ids = iter(s.scalars(
            insert(db.Player).returning(db.Player.id, sort_by_parameter_order=True),
            [{"nickname": p.nickname, "club": p.club} for p in missing]).all())
        ids = [i if i is not None else next(new_ids) for i in ids]
    return [i for i in ids if i is not None]


def add_players_and_stages(s: Session, tournament: db.Tournament,
                           players: Sequence[model.Player],
                           stages: Sequence[model.Stage]) -> dict[str, int]:
    """A new tournament's participants (in file order, with their identities) and stages;
    returns each stage's row id by its code."""
    ids = player_identities(s, players)
    if players:
        s.execute(insert(db.Participant), [
            {"tournament_id": tournament.id, "player_id": pid, "code": p.id, "position": i,
             "exhibition": p.exhibition}
            for i, (p, pid) in enumerate(zip(players, ids, strict=True))])
    stage_ids: dict[str, int] = {}
    for i, st in enumerate(stages):
        row = db.Stage(tournament_id=tournament.id, code=st.id, name=st.name, kind=st.kind,
                       compensation=st.compensation, position=i)
        s.add(row)
        s.flush()
        stage_ids[st.id] = row.id
    return stage_ids


def aware(value: dt.datetime) -> dt.datetime:
    """SQLite gives back naive datetimes; they were written in UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


def profile_of(t: db.Tournament) -> tuple[RuleProfile, list[Problem]]:
    """The rule profile of a stored tournament with its switched readings (and the
    problems of unknown ones): the one road to it for every service."""
    probe = model.Tournament(name=t.name, rules=t.rules, players=[], stages=[],
                             rule_options=dict(t.rule_options))
    return profile_for(probe)


def user_row(s: Session, name: str) -> db.User:
    """The account named `name`, made when missing (a revision or audit entry names it)."""
    user = s.scalar(select(db.User).where(db.User.name == name))
    if user is None:
        user = db.User(name=name)
        s.add(user)
        s.flush()
    return user


def roles_in(s: Session, tournament: int, user: str) -> set[str]:
    """The user's roles in the tournament."""
    rows = s.scalars(
        select(db.RoleGrant.role).join(db.User, db.User.id == db.RoleGrant.user_id)
        .where(db.RoleGrant.tournament_id == tournament, db.User.name == user))
    return set(rows)


def account_players(s: Session, tournament: int, user: str) -> set[str]:
    """The player codes the account signs in as in the tournament (one, or none)."""
    return set(s.scalars(
        select(db.PlayerUser.player_code).join(db.User, db.User.id == db.PlayerUser.user_id)
        .where(db.PlayerUser.tournament_id == tournament, db.User.name == user)))


def tournament_row(s: Session, tournament: int) -> db.Tournament:
    t = s.get(db.Tournament, tournament) if 0 < tournament < 2**63 else None
    if t is None:
        raise NotFound("no_tournament", ref=str(tournament))
    return t


def require_role(s: Session, t: db.Tournament, user: str, allowed: Collection[str],
                 action: str) -> set[str]:
    """The user's roles, when one of them is `allowed`; else `PermissionDenied`."""
    roles = roles_in(s, t.id, user)
    if not roles & set(allowed):
        raise PermissionDenied("not_allowed", user=user, action=action, tournament=t.name,
                               roles=sorted(allowed))
    return roles


def record_audit(s: Session, user: str, tournament: int | None, action: str,
                 detail: dict[str, Any]) -> db.AuditEntry:
    """An entry of the audit log, written in the same transaction as the change."""
    entry = db.AuditEntry(user_name=user, tournament_id=tournament, action=action,
                          detail=detail)
    s.add(entry)
    return entry


def game_row(s: Session, tournament: int, code: str) -> db.Game:
    g = s.scalar(select(db.Game).where(db.Game.tournament_id == tournament,
                                       db.Game.code == code))
    if g is None:
        raise NotFound("no_game", game=code)
    return g


def revision_row(s: Session, game_id: int, number: int) -> db.ProtocolRevision:
    rev = s.scalar(select(db.ProtocolRevision).where(
        db.ProtocolRevision.game_id == game_id, db.ProtocolRevision.number == number))
    assert rev is not None
    return rev


def advance_head(s: Session, row: db.Game, base: int, confirmed: bool = False) -> int:
    """Move the game's head from `base` to `base + 1`, atomically (a conditional UPDATE,
    the same on SQLite and PostgreSQL), or raise `StaleRevision`."""
    values: dict[str, Any] = {"head_revision": base + 1}
    if confirmed:
        values["confirmed_revision"] = base + 1
    result = s.execute(
        update(db.Game).where(db.Game.id == row.id, db.Game.head_revision == base)
        .values(**values).execution_options(synchronize_session=False))
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise StaleRevision()
    return base + 1


def players_in(s: Session, tid: int) -> list[model.Player]:
    """The tournament's players in their order, as the core knows them."""
    rows = s.execute(
        select(db.Participant.code, db.Player.nickname, db.Player.club,
               db.Participant.exhibition)
        .join(db.Player, db.Player.id == db.Participant.player_id)
        .where(db.Participant.tournament_id == tid).order_by(db.Participant.position))
    return [model.Player(id=c, nickname=n, club=club, exhibition=bool(x))
            for c, n, club, x in rows]


def stages_in(s: Session, tid: int) -> list[model.Stage]:
    """The tournament's stages in their order."""
    rows = s.scalars(select(db.Stage).where(db.Stage.tournament_id == tid)
                     .order_by(db.Stage.position))
    return [model.Stage(id=r.code, name=r.name, kind=r.kind, compensation=r.compensation)
            for r in rows]


def game_context(s: Session, tid: int) -> tuple[db.Tournament, set[str], set[str]]:
    """The tournament row and the codes of its players and stages (what validating a
    protocol needs)."""
    t = tournament_row(s, tid)
    players = set(s.scalars(select(db.Participant.code)
                            .where(db.Participant.tournament_id == tid)))
    stages = set(s.scalars(select(db.Stage.code).where(db.Stage.tournament_id == tid)))
    return t, players, stages


def check_rules(t: db.Tournament, game: model.Game, players: set[str], stages: set[str]) -> None:
    """Refuse (`ProtocolRefused`, with every problem) a protocol that breaks a rule."""
    profile, problems = profile_of(t)
    problems = problems + validate_game(game, profile, players, stages)
    if [p for p in problems if not p.warning]:
        raise ProtocolRefused(problems)


def numbered(s: Session, row: type[db.Round] | type[db.GameTable], parent: str,
             parent_id: int, number: int) -> int:
    """The id of a round (of a stage) or a table (of a round), made when missing; a
    concurrent maker of the same row is waited for, not failed on."""
    query = select(row.id).where(getattr(row, parent) == parent_id, row.number == number)
    found = s.scalar(query)
    if found is not None:
        return found
    try:
        with s.begin_nested():
            found = s.scalar(insert(row).returning(row.id),
                             {parent: parent_id, "number": number})
    except IntegrityError:
        found = s.scalar(query)
    assert found is not None
    return found


def table_id(s: Session, stage_id: int, rnd: int, table: int) -> int:
    """The id of a stage's round's table, made (with its round) when missing."""
    round_id = numbered(s, db.Round, "stage_id", stage_id, rnd)
    return numbered(s, db.GameTable, "round_id", round_id, table)


__all__ = ["StaleRevision", "Store", "add_players_and_stages", "advance_head", "aware",
           "check_rules", "game_context", "game_row", "numbered", "player_identities",
           "players_in", "profile_of", "record_audit", "require_role", "revision_row",
           "roles_in", "stages_in", "table_id", "tournament_row", "user_row"]
