"""The one rights model: whether an actor may act on an account, a tournament or a
person's records. Every use case that changes who can do what (a password reset, the
global rights, a role, a sign-in code, a merge or a split of records) and the reads that
are not public (a tournament's audit log, a game's filing deadline) ask `decide`, inside
their own transaction.

Rights form an order. Globally, the server's administrator is above the organizer right
(which creates tournaments). In a tournament, its organizer is above its head judge, who
is above its table judges, appeals commission, viewers and players. From that order:

* **Acting on an account** (its password, its global rights) needs the act's own right
  (a reset: the organizer or administrator right; the rights: the administrator's) and
  that the actor hold every right the account holds: the administrator reaches every
  account; anyone else no holder of a global right (a peer organizer is not below him)
  and no account with a role in a tournament he does not organize. Never one's own
  account. An account with no role anywhere and no right is nobody's but the
  administrator's: an organizer could otherwise take an account that a right will be
  given to later, or one the operator keeps for himself (`db grant-admin` without
  `--organizer` makes exactly such an account).
* **Acting on an account within a tournament** (a role given or taken, a sign-in code
  issued or revoked) needs a role there that hands out that role (an organizer every
  role; a head judge judge, viewer and player: the appeals commission reviews the head
  judge's decisions, so the organizer appoints it), and that every role the account
  holds there be one the actor hands out. Never one's own roles. A code opens the whole
  account, so it is issued only for an account with no right and no role elsewhere. A
  role is not given to an account that exists and holds nothing anywhere (no role, no
  right, not a code account of this tournament): that account is the administrator's,
  and the role would make it the giver's to reset (the vacuous case again).
* **Acting on a person's records** (a merge, a split) changes each tournament the records
  were played in, on both sides: the kept record's and the merged one's. The actor needs
  the organizer or administrator right and to organize every such tournament. A
  tournament nobody organizes (imported by the operator) and records without a game are
  the administrator's.
* **Restoring an archived role on an existing account** (an archive import brings a new
  tournament whose roles name accounts that may already exist here) is acting on that
  account: it needs the organizer or administrator right (the import makes a
  tournament), and that the importer hold every right the account holds, as a reset
  does: the administrator reaches every account; anyone else no holder of a global
  right, no account that holds nothing anywhere, and no account with a role in a
  tournament he does not organize. His own account he may restore a role to (the new
  tournament is his as one he creates). An account the import itself makes is not
  decided: it holds nothing but what the archive gives it.
* **A tournament's own reads**: its audit log and its jobs are its staff's (organizers
  and head judges), a game's filing deadline is for those with a role in it.

The administrator is not a tournament's staff by his right: inside a tournament (roles,
codes, its log) he has only the roles he was given there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, Final

from sqlalchemy import select
from sqlalchemy.orm import Session

from mafiatab.services.errors import PermissionDenied
from mafiatab.storage import models as db
from mafiatab.storage.models import HEAD_JUDGE, JUDGE, ORGANIZER, PLAYER, ROLES, VIEWER
from mafiatab.texts.rights import RIGHTS


class RightsDenied(PermissionDenied):
    """An act the rights model refuses (403); its words are the catalogue's `rights`."""

    texts: ClassVar[Mapping[str, tuple[str, str]]] = RIGHTS


class Act(StrEnum):
    """What an actor does to a target."""

    RESET_PASSWORD = "reset_password"
    SET_RIGHTS = "set_rights"
    GRANT_ROLE = "grant_role"
    REVOKE_ROLE = "revoke_role"
    ISSUE_CODE = "issue_code"
    REVOKE_CODE = "revoke_code"
    MERGE = "merge"
    SPLIT = "split"
    #: an archived role restored on an account that exists already (an archive import)
    RESTORE_ROLE = "restore_role"
    #: a tournament's staff's reads and acts (its audit log, cancelling its job)
    MANAGE = "manage"
    #: what those with a role in the tournament see (a game's filing deadline)
    SEE = "see"


@dataclass(frozen=True, slots=True)
class AccountRef:
    """An account by name; for the acts within a tournament, the tournament and the role
    given, taken, or carried by the code."""

    name: str
    tournament: int | None = None
    role: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentRef:
    id: int


@dataclass(frozen=True, slots=True)
class PeopleRef:
    """The person records a merge joins (both sides)."""

    kept: int
    merged: int


@dataclass(frozen=True, slots=True)
class MergeRef:
    """A merge a split undoes."""

    id: int


Target = AccountRef | TournamentRef | PeopleRef | MergeRef

#: the roles each role hands out (and may take back) in its tournament
GRANTS: Final[Mapping[str, frozenset[str]]] = {
    ORGANIZER: frozenset(ROLES),
    HEAD_JUDGE: frozenset({JUDGE, VIEWER, PLAYER}),
}
#: a tournament's staff
STAFF: Final = frozenset({ORGANIZER, HEAD_JUDGE})
ACCOUNT_ACTS: Final = frozenset({Act.RESET_PASSWORD, Act.SET_RIGHTS})
TOURNAMENT_ACCOUNT_ACTS: Final = frozenset({Act.GRANT_ROLE, Act.REVOKE_ROLE, Act.ISSUE_CODE,
                                            Act.REVOKE_CODE})


@dataclass(frozen=True, slots=True)
class Holder:
    """Everything an account holds: its global rights and its roles per tournament (a
    player's link counts as the player role)."""

    name: str
    exists: bool = False
    password: bool = False
    admin: bool = False
    organizer: bool = False
    roles: Mapping[int, frozenset[str]] = field(default_factory=dict)
    #: the tournament a code account belongs to (it signs in nowhere else)
    code_tournament: int | None = None

    def in_(self, tournament: int) -> frozenset[str]:
        return self.roles.get(tournament, frozenset())

    def gives(self, tournament: int) -> frozenset[str]:
        """The roles this account hands out in the tournament."""
        out: frozenset[str] = frozenset()
        for role in self.in_(tournament):
            out |= GRANTS.get(role, frozenset())
        return out


@dataclass(slots=True)
class Known:
    """What one transaction has read already: holders by name, tournaments' names. A
    page that decides for many accounts at once loads them in bulk (`load`)."""

    holders: dict[str, Holder] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)

    def load(self, s: Session, names: Sequence[str]) -> None:
        """Every account of `names` in three queries a 500 of them."""
        todo = [n for n in dict.fromkeys(names) if n not in self.holders]
        for i in range(0, len(todo), 500):
            part = todo[i:i + 500]
            # a NUL is in no account's name, and PostgreSQL's text refuses it in a query
            names_asked = [n for n in part if "\x00" not in n]
            users = {u.id: u for u in s.scalars(
                select(db.User).where(db.User.name.in_(names_asked)))}
            roles: dict[int, dict[int, set[str]]] = {uid: {} for uid in users}
            for uid, tid, role in s.execute(
                    select(db.RoleGrant.user_id, db.RoleGrant.tournament_id, db.RoleGrant.role)
                    .where(db.RoleGrant.user_id.in_(list(users) or [-1]))):
                roles[uid].setdefault(tid, set()).add(role)
            for uid, tid in s.execute(
                    select(db.PlayerUser.user_id, db.PlayerUser.tournament_id)
                    .where(db.PlayerUser.user_id.in_(list(users) or [-1]))):
                roles[uid].setdefault(tid, set()).add(PLAYER)
            for uid, u in users.items():
                self.holders[u.name] = Holder(
                    u.name, True, u.password_hash is not None, bool(u.admin),
                    bool(u.organizer), {t: frozenset(r) for t, r in roles[uid].items()},
                    u.code_tournament_id)
            for name in part:
                self.holders.setdefault(name, Holder(name))

    def holder(self, s: Session, name: str) -> Holder:
        if name not in self.holders:
            self.load(s, [name])
        return self.holders[name]

    def name(self, s: Session, tournament: int) -> str:
        if tournament not in self.names:
            found = s.scalar(select(db.Tournament.name).where(db.Tournament.id == tournament))
            self.names[tournament] = str(found) if found is not None else str(tournament)
        return self.names[tournament]


def holder(s: Session, name: str) -> Holder:
    """What the account `name` holds now (an unknown name holds nothing)."""
    return Known().holder(s, name)


def decide(s: Session, actor: str, act: Act, target: Target, *,
           known: Known | None = None) -> RightsDenied | None:
    """None when `actor` may do `act` to `target` now; else the refusal (not raised).
    `known`: what the caller's transaction has read already (a list of many decisions).

    The one place that decides it (see the module's text for the order and the rule)."""
    k = known if known is not None else Known()
    me = k.holder(s, actor)
    if act in ACCOUNT_ACTS and isinstance(target, AccountRef):
        return _on_account(s, k, me, act, target)
    if act in TOURNAMENT_ACCOUNT_ACTS and isinstance(target, AccountRef):
        return _in_tournament(s, k, me, act, target)
    if act is Act.RESTORE_ROLE and isinstance(target, AccountRef):
        return _restore(s, k, me, target)
    if act in (Act.MERGE, Act.SPLIT) and isinstance(target, PeopleRef | MergeRef):
        return _on_records(s, k, me, target)
    if act in (Act.MANAGE, Act.SEE) and isinstance(target, TournamentRef):
        mine = me.in_(target.id)
        if act is Act.SEE:
            return None if mine else RightsDenied("no_role_here", user=actor,
                                                  tournament=k.name(s, target.id))
        if mine & STAFF:
            return None
        return RightsDenied("not_allowed", user=actor, action="manage",
                            tournament=k.name(s, target.id), roles=sorted(STAFF))
    raise TypeError(f"{act} does not act on {type(target).__name__}")


def _on_account(s: Session, k: Known, me: Holder, act: Act, target: AccountRef
                ) -> RightsDenied | None:
    if act is Act.SET_RIGHTS:
        if not me.admin:
            return RightsDenied("not_admin", user=me.name)
    elif not (me.admin or me.organizer):
        return RightsDenied("not_organizer", user=me.name)
    if target.name == me.name:
        return RightsDenied("rights_self" if act is Act.SET_RIGHTS else "reset_self",
                            user=me.name)
    if me.admin:
        return None
    them = k.holder(s, target.name)
    if them.admin or them.organizer:
        return RightsDenied("account_right", user=me.name, target=target.name)
    if not them.roles:
        return RightsDenied("account_no_roles", user=me.name, target=target.name)
    for tid in sorted(them.roles):
        if ORGANIZER not in me.in_(tid):
            return RightsDenied("account_elsewhere", user=me.name, target=target.name,
                                tournament=k.name(s, tid))
    return None


def _restore(s: Session, k: Known, me: Holder, target: AccountRef) -> RightsDenied | None:
    if not (me.admin or me.organizer):
        return RightsDenied("not_organizer", user=me.name)
    if me.admin or target.name == me.name:
        return None
    them = k.holder(s, target.name)
    if them.admin or them.organizer:
        return RightsDenied("restore_right", user=me.name, target=target.name)
    if not them.roles:
        return RightsDenied("restore_unowned", user=me.name, target=target.name)
    for tid in sorted(them.roles):
        if ORGANIZER not in me.in_(tid):
            return RightsDenied("restore_elsewhere", user=me.name, target=target.name,
                                tournament=k.name(s, tid))
    return None


def _in_tournament(s: Session, k: Known, me: Holder, act: Act, target: AccountRef
                   ) -> RightsDenied | None:
    tid, role = target.tournament, target.role
    assert tid is not None and role is not None, "an act within a tournament names both"
    gives = me.gives(tid)
    if role not in gives:
        holders = sorted(r for r, g in GRANTS.items() if role in g)
        return RightsDenied("not_allowed", user=me.name, action="manage",
                            tournament=k.name(s, tid), roles=holders)
    if target.name == me.name:
        return RightsDenied("role_self", user=me.name, tournament=k.name(s, tid))
    them = k.holder(s, target.name)
    above = sorted(them.in_(tid) - gives)
    if above:
        return RightsDenied("role_above", user=me.name, target=target.name,
                            tournament=k.name(s, tid), role=above[0])
    if act is Act.ISSUE_CODE and (them.admin or them.organizer or set(them.roles) - {tid}):
        return RightsDenied("code_elsewhere", user=me.name, target=target.name)
    if (act is Act.GRANT_ROLE and them.exists and not me.admin and not them.roles
            and not (them.admin or them.organizer) and them.code_tournament != tid):
        return RightsDenied("grant_unowned", user=me.name, target=target.name)
    return None


def _touched(s: Session, target: PeopleRef | MergeRef) -> set[int]:
    """The tournaments whose records the merge or the split changes, both sides."""
    if isinstance(target, PeopleRef):
        people = [p for p in (target.kept, target.merged) if 0 < p < 2**31]
        return set(s.scalars(select(db.Participant.tournament_id)
                             .where(db.Participant.player_id.in_(people or [-1]))))
    m = s.get(db.PlayerMerge, target.id) if 0 < target.id < 2**31 else None
    if m is None:
        return set()
    moved = set(s.scalars(select(db.Participant.tournament_id)
                          .where(db.Participant.id.in_(list(m.participants) or [-1]))))
    kept = set(s.scalars(select(db.Participant.tournament_id)
                         .where(db.Participant.player_id == m.kept_id)))
    return moved | kept


def _on_records(s: Session, k: Known, me: Holder, target: PeopleRef | MergeRef
                ) -> RightsDenied | None:
    if not (me.admin or me.organizer):
        return RightsDenied("not_federation_organizer", user=me.name)
    if me.admin:
        return None
    touched = _touched(s, target)
    if not touched:
        return RightsDenied("records_unplayed", user=me.name)
    owned: dict[int, set[str]] = {}
    for tid, name in s.execute(select(db.RoleGrant.tournament_id, db.User.name)
                               .join(db.User, db.User.id == db.RoleGrant.user_id)
                               .where(db.RoleGrant.tournament_id.in_(sorted(touched)),
                                      db.RoleGrant.role == ORGANIZER,
                                      db.User.password_hash.is_not(None))):
        owned.setdefault(tid, set()).add(name)
    for tid in sorted(touched):
        if tid not in owned:
            return RightsDenied("records_unowned", user=me.name, tournament=k.name(s, tid))
        if me.name not in owned[tid]:
            return RightsDenied("not_their_organizer", user=me.name, tournament=k.name(s, tid))
    return None


def require(s: Session, actor: str, act: Act, target: Target) -> None:
    """`decide`, raised: the use cases' check."""
    refused = decide(s, actor, act, target)
    if refused is not None:
        raise refused


def allowed(s: Session, actor: str, act: Act, target: Target, *,
            known: Known | None = None) -> bool:
    """`decide` as a yes or no (what a page offers)."""
    return decide(s, actor, act, target, known=known) is None


__all__ = ["GRANTS", "STAFF", "AccountRef", "Act", "Holder", "MergeRef", "PeopleRef",
           "Known", "RightsDenied", "Target", "TournamentRef", "allowed", "decide", "holder", "require"]
