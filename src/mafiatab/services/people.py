"""People across tournaments: one identity per person, merges of two identities
found to be one person (audited, reversible), a person's and a club's figures, and the
federation's rating over every rated game of the database with its "what if".

Composed over a `Store` (one transaction per use case, the audit entry inside it) and the
tournament service's public `tournament()` (a stored tournament as the core knows it, from
its confirmed protocols). The figures themselves are the pure `domain.people_stats` and
`domain.ratings`.

An identity is a row of `players`; each tournament's participant points at one. A merge
moves the merged identity's participations to the kept one and deletes the merged row,
keeping in `player_merges` what a split needs to restore exactly what was there (the same
row id, nickname and club, the same participations). Two identities that played in the
same tournament are two people: such a merge is refused. Who may merge and split is the
rights model's (`services.rights`): a holder of the administrator right any records, a
holder of the organizer right those whose every tournament, on both sides, he organizes;
the server's rating setting is for administrators only.

Caches: a tournament's digest (its scoring, the expensive part of a person's page) is kept
until the tournament changes (its stamp: the confirmed revisions and its audit entries);
the rating until anything that counts changes (the last audit entry and the confirmed
revisions, which merges, splits, settings and confirmations all move).
"""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar, Final, Protocol

import msgspec
from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from mafiatab.domain import protocol as model
from mafiatab.domain.numbers import ascii_int
from mafiatab.domain.people_stats import (
    ClubStats,
    PersonStats,
    Played,
    TournamentDigest,
    club_totals,
    digest,
    next_game_what_if,
    person_stats,
)
from mafiatab.domain.protocol import ROLE_COUNTS, ROLES, STAGE_KINDS
from mafiatab.domain.provenance import import_source
from mafiatab.domain.ratings import (
    Bin,
    Model,
    PlayerRating,
    Prediction,
    RatedGame,
    RatedSeat,
    RatingSettings,
    WhatIf,
    brier,
    log_loss,
    ordered,
    outcomes_of,
    rate_base_rate,
    rate_elo,
    rated_games,
    reliability,
    simultaneous,
    slope_if_enough,
    what_if,
)
from mafiatab.services.errors import NotFound, PermissionDenied, ServiceError
from mafiatab.services.rights import Act, MergeRef, PeopleRef, require
from mafiatab.services.store import Store, record_audit
from mafiatab.services.tournament_file import profile_for
from mafiatab.storage import models as db
from mafiatab.texts.refusals import PEOPLE

if TYPE_CHECKING:
    from mafiatab.domain.protocol import Tournament

REASON_LIMIT: Final = 2000
#: tournaments whose digests are kept in memory (a 100-game tournament's is ~1,000 game
#: lines of ~200 bytes, its games' seats shared by their ten lines)
DIGESTS_KEPT: Final = 1024


class PeopleError(ServiceError):
    """A refusal of this service; its words are the catalogue's `people` section."""

    texts: ClassVar[Mapping[str, tuple[str, str]]] = PEOPLE


class PeopleNotFound(PeopleError, NotFound):
    """No such person, club or merge (404)."""


class PeopleDenied(PeopleError, PermissionDenied):
    """Not a holder of the global organizer or administrator right (403)."""


# --- what the pages read ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PersonInfo:
    id: int
    nickname: str
    club: str | None


@dataclass(frozen=True, slots=True)
class MergeInfo:
    id: int
    kept: int
    merged: int
    merged_nickname: str
    merged_club: str | None
    participations: int
    reason: str
    merged_by: str
    merged_at: dt.datetime
    split_by: str | None
    split_at: dt.datetime | None


@dataclass(slots=True)
class PersonPage:
    person: PersonInfo
    stats: PersonStats
    #: every person the page names (partners, opponents) -> nickname
    names: dict[int, str]
    merges: list[MergeInfo]
    rating: PlayerRating | None = None
    #: his tournaments whose standings are not published yet (not counted here)
    unpublished: int = 0
    #: his rating after each day he played, oldest first
    history: list[tuple[str, float]] = field(default_factory=list)
    #: ranked (enough rated games for the federation's minimum)
    ranked: bool = True


@dataclass(slots=True)
class ClubPage:
    name: str
    members: list[tuple[PersonInfo, PersonStats]]
    #: id, name, members who played, the source of results imported as published (None:
    #: played here), where results another system recorded come from (a published
    #: table's or game records'; None: played here)
    tournaments: list[tuple[int, str, int, str | None, str | None]]
    totals: ClubStats


#: the largest minimum of rated games a federation may set
MAX_MIN_GAMES = 1000


@dataclass(frozen=True, slots=True)
class RatingSetup:
    """The federation's setting: which games count."""

    stage_kinds: frozenset[str]
    unrated: frozenset[int]
    elite: frozenset[int]
    updated_by: str | None = None
    updated_at: dt.datetime | None = None
    #: rated games a person needs to be ranked; fewer: listed after, as provisional
    min_games: int = 0


@dataclass(slots=True)
class RatingRow:
    person: int
    nickname: str
    club: str | None
    rating: PlayerRating
    elo: float
    #: fewer rated games than the federation's minimum: listed after the ranked, unplaced
    provisional: bool = False


@dataclass(slots=True)
class RatingTable:
    setup: RatingSetup
    rows: list[RatingRow]
    games: int
    tournaments: int
    role_weights: dict[str, float]
    #: log-loss and Brier of our predictions, of the baseline's and of the running base
    #: rate's ("ours", "elo", "base_rate"), on these games
    measures: dict[str, tuple[float, float]]
    #: the rated games (RatedGame.tournament is the tournament's id), in rating order
    rated: list[RatedGame] = field(repr=False, default_factory=list)
    #: the model after the last game (for a hypothetical table)
    model: Model | None = field(repr=False, default=None)
    tournament_names: dict[int, str] = field(default_factory=dict)
    #: computed before the latest change (a newer one is being computed)
    stale: bool = False
    computed_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))
    index: dict[int, RatingRow] = field(default_factory=dict, repr=False)
    #: what 100 rated games of experience add to a player's strength (rating points)
    experience: float = 0.0
    #: how much a game teaches about its first night's victim (0 to 1) and in how many
    #: rated games one is recorded
    first_killed: float = 0.5
    first_killed_games: int = 0
    #: the reliability tables of ours and of the baseline ("ours", "elo"), and their
    #: calibration slopes
    calibration: dict[str, list[Bin]] = field(default_factory=dict)
    slopes: dict[str, float | None] = field(default_factory=dict)
    #: the rated tournaments whose games another system recorded: id -> where they come
    #: from (domain/provenance.py)
    imported: dict[int, str] = field(default_factory=dict)
    #: each person's rating after each day he played ("YYYY-MM-DD" or "" undated, rating)
    history: dict[int, list[tuple[str, float]]] = field(default_factory=dict, repr=False)

    def of(self, person: int) -> RatingRow | None:
        """A person's row (None: no rated game)."""
        if not self.index:
            self.index.update({r.person: r for r in self.rows})
        return self.index.get(person)


@dataclass(frozen=True, slots=True)
class WhatIfView:
    """One game's "what if": the chance before it and each player's rating before and
    after each result, with the names the page shows."""

    result: WhatIf
    names: dict[str, str]
    actual: str | None  # the game's recorded result (None: a hypothetical table)


# --- the service --------------------------------------------------------------------------


class TournamentSource(Protocol):
    """What this service needs of the tournament service: a stored tournament as the core
    knows it, from its confirmed protocols."""

    def tournament(self, tournament: int) -> Tournament: ...


def _aware(value: dt.datetime | None) -> dt.datetime | None:
    return value if value is None or value.tzinfo else value.replace(tzinfo=dt.UTC)


def _merge_info(m: db.PlayerMerge) -> MergeInfo:
    merged_at = _aware(m.merged_at)
    assert merged_at is not None
    return MergeInfo(m.id, m.kept_id, m.merged_id, m.merged_nickname, m.merged_club,
                     len(m.participants), m.reason, m.merged_by, merged_at, m.split_by,
                     _aware(m.split_at))


def _is_organizer(s: Session, user: str | None) -> bool:
    if not user:
        return False
    return bool(s.scalar(select(db.User.organizer | db.User.admin)
                         .where(db.User.name == user)))


def _is_admin(s: Session, user: str | None) -> bool:
    if not user:
        return False
    return bool(s.scalar(select(db.User.admin).where(db.User.name == user)))


class People:
    """People, clubs and the federation's rating on one store (see the module's text)."""

    def __init__(self, store: Store, tournaments: TournamentSource) -> None:
        self.store = store
        self.tournaments = tournaments
        self.digests: OrderedDict[int, tuple[tuple[int, ...], TournamentDigest]] = OrderedDict()
        self.lock = threading.Lock()
        self.rating_cache: tuple[tuple[object, ...], RatingTable] | None = None
        self.rating_lock = threading.Lock()
        self.refresh: threading.Thread | None = None
        self.refresh_error: Exception | None = None

    # --- rights ---------------------------------------------------------------------------

    def may_manage(self, user: str | None) -> bool:
        """Whether the user may merge and split (the organizer or administrator right)."""
        with self.store.read() as s:
            return _is_organizer(s, user)

    def may_administer(self, user: str | None) -> bool:
        """Whether the user holds the global administrator right (the rating setting)."""
        with self.store.read() as s:
            return _is_admin(s, user)

    @staticmethod
    def _require_admin(s: Session, actor: str) -> None:
        if not _is_admin(s, actor):
            raise PeopleDenied("not_admin", user=actor)

    # --- identities -----------------------------------------------------------------------

    def person(self, person: int) -> PersonInfo:
        with self.store.read() as s:
            return self._person(s, person)

    @staticmethod
    def _person(s: Session, person: int) -> PersonInfo:
        row = s.get(db.Player, person) if 0 < person < 2**31 else None
        if row is None:
            raise PeopleNotFound("no_person", ref=person)
        return PersonInfo(row.id, row.nickname, row.club)

    def merged_into(self, person: int) -> int | None:
        """Where a merged identity went (following later merges), or None."""
        if not 0 < person < 2**31:
            return None
        with self.store.read() as s:
            seen: set[int] = set()
            current = person
            while current not in seen:
                seen.add(current)
                kept = s.scalar(select(db.PlayerMerge.kept_id).where(
                    db.PlayerMerge.merged_id == current, db.PlayerMerge.split_at.is_(None))
                    .order_by(db.PlayerMerge.id.desc()).limit(1))
                if kept is None:
                    return current if current != person else None
                if s.get(db.Player, kept) is not None:
                    return int(kept)
                current = kept
            return None

    def merge(self, kept: int, merged: int, *, actor: str, reason: str = "") -> int:
        """One person known under two identities: `merged`'s games become `kept`'s. Returns
        the merge record's id (what `split` takes)."""
        if len(reason) > REASON_LIMIT:
            raise PeopleError("reason_too_long", n=REASON_LIMIT)
        with self.store.write() as s:
            require(s, actor, Act.MERGE, PeopleRef(kept, merged))
            if kept == merged:
                raise PeopleError("same_person")
            keep = self._person(s, kept)
            gone = self._person(s, merged)
            mine = dict(s.execute(select(db.Participant.tournament_id, db.Participant.id)
                                  .where(db.Participant.player_id == merged)).all())
            shared = s.scalar(select(db.Tournament.name).join(
                db.Participant, db.Participant.tournament_id == db.Tournament.id)
                .where(db.Participant.player_id == kept,
                       db.Participant.tournament_id.in_(list(mine) or [-1])).limit(1))
            if shared is not None:
                raise PeopleError("same_tournament", kept=kept, merged=merged,
                                  tournament=shared)
            moved = sorted(mine.values())
            if moved:
                s.execute(update(db.Participant).where(db.Participant.id.in_(moved))
                          .values(player_id=kept).execution_options(synchronize_session=False))
            s.execute(delete(db.Player).where(db.Player.id == merged))
            record = db.PlayerMerge(kept_id=kept, merged_id=merged,
                                    merged_nickname=gone.nickname, merged_club=gone.club,
                                    participants=moved, reason=reason, merged_by=actor,
                                    merged_at=dt.datetime.now(dt.UTC))
            s.add(record)
            s.flush()
            record_audit(s, actor, None, "merge_players", {
                "merge": record.id, "kept": kept, "kept_nickname": keep.nickname,
                "merged": merged, "merged_nickname": gone.nickname,
                "merged_club": gone.club, "participants": moved, "reason": reason})
            return record.id

    def split(self, merge: int, *, actor: str) -> None:
        """Undo a merge exactly: the merged identity comes back with its id, nickname and
        club, and the participations that moved go back to it. The merge record stays,
        stamped with who split it and when."""
        with self.store.write() as s:
            require(s, actor, Act.SPLIT, MergeRef(merge))
            m = s.get(db.PlayerMerge, merge) if 0 < merge < 2**31 else None
            if m is None:
                raise PeopleNotFound("no_merge", ref=merge)
            if m.split_at is not None:
                raise PeopleError("already_split", ref=merge, at=_aware(m.split_at))
            later = s.scalar(select(db.PlayerMerge.id).where(
                db.PlayerMerge.merged_id == m.kept_id, db.PlayerMerge.split_at.is_(None),
                db.PlayerMerge.id > m.id).limit(1))
            owners = set(s.scalars(select(db.Participant.player_id)
                                   .where(db.Participant.id.in_(list(m.participants) or [-1]))))
            if later is not None or s.get(db.Player, m.kept_id) is None or owners - {m.kept_id}:
                raise PeopleError("split_later_first", later=later or "—", kept=m.kept_id)
            if s.get(db.Player, m.merged_id) is not None:  # pragma: no cover - ids never reused
                raise PeopleError("split_later_first", later="—", kept=m.merged_id)
            s.add(db.Player(id=m.merged_id, nickname=m.merged_nickname, club=m.merged_club))
            s.flush()
            if m.participants:
                s.execute(update(db.Participant)
                          .where(db.Participant.id.in_(list(m.participants)))
                          .values(player_id=m.merged_id)
                          .execution_options(synchronize_session=False))
            m.split_at = dt.datetime.now(dt.UTC)
            m.split_by = actor
            record_audit(s, actor, None, "split_players", {
                "merge": m.id, "kept": m.kept_id, "restored": m.merged_id,
                "restored_nickname": m.merged_nickname, "participants": list(m.participants)})

    def merges(self, person: int | None = None) -> list[MergeInfo]:
        """Merge records, newest first (of one person: those he was kept or merged in)."""
        with self.store.read() as s:
            q = select(db.PlayerMerge).order_by(db.PlayerMerge.id.desc())
            if person is not None:
                q = q.where((db.PlayerMerge.kept_id == person)
                            | (db.PlayerMerge.merged_id == person))
            return [_merge_info(m) for m in s.scalars(q.limit(500))]

    def find(self, text: str, limit: int = 20) -> list[PersonInfo]:
        """People whose nickname contains `text` (case as typed; for picking a person)."""
        text = text.strip()[:100]
        if not text:
            return []
        with self.store.read() as s:
            rows = s.execute(select(db.Player.id, db.Player.nickname, db.Player.club)
                             .where(db.Player.nickname.contains(text, autoescape=True))
                             .order_by(db.Player.nickname, db.Player.id).limit(limit))
            return [PersonInfo(i, n, c) for i, n, c in rows]

    # --- a person's and a club's figures ----------------------------------------------------

    @staticmethod
    def _stamps(s: Session, tids: Sequence[int]) -> dict[int, tuple[int, ...]]:
        """Each tournament's stamp: what changes whenever its figures may change."""
        out: dict[int, list[int]] = {t: [0, 0, 0] for t in tids}
        for i in range(0, len(tids), 500):
            chunk = list(tids[i:i + 500])
            for tid, n, total in s.execute(
                    select(db.Game.tournament_id, func.count(),
                           func.coalesce(func.sum(db.Game.confirmed_revision), 0))
                    .where(db.Game.tournament_id.in_(chunk))
                    .group_by(db.Game.tournament_id)):
                out[tid][0], out[tid][1] = int(n), int(total)
            for audited, last in s.execute(
                    select(db.AuditEntry.tournament_id, func.max(db.AuditEntry.id))
                    .where(db.AuditEntry.tournament_id.in_(chunk))
                    .group_by(db.AuditEntry.tournament_id)):
                if audited is not None:
                    out[audited][2] = int(last)
        return {t: tuple(v) for t, v in out.items()}

    def digest_of(self, tournament: int, stamp: tuple[int, ...]) -> TournamentDigest:
        """The tournament's digest, scored again only when its stamp moved."""
        with self.lock:
            hit = self.digests.get(tournament)
            if hit is not None and hit[0] == stamp:
                self.digests.move_to_end(tournament)
                return hit[1]
        t = self.tournaments.tournament(tournament)
        profile, _ = profile_for(t)
        d = digest(t, profile)
        with self.lock:
            self.digests[tournament] = (stamp, d)
            self.digests.move_to_end(tournament)
            while len(self.digests) > DIGESTS_KEPT:
                self.digests.popitem(last=False)
        return d

    @staticmethod
    def hidden(s: Session, tids: Sequence[int], *, extras: bool = True) -> set[int]:
        """The tournaments among `tids` whose standings (or, with `extras`, extra points)
        the public may not see yet: the same rule as a tournament's own pages."""
        out: set[int] = set()
        for i in range(0, len(tids), 500):
            chunk = list(tids[i:i + 500])
            rows = s.execute(
                select(db.Tournament.id, db.Tournament.hide_extras_until_end,
                       db.WebSettings.standings_hidden, db.WebSettings.finished)
                .outerjoin(db.WebSettings, db.WebSettings.tournament_id == db.Tournament.id)
                .where(db.Tournament.id.in_(chunk)))
            for tid, extras_hidden, standings_hidden, finished in rows:
                if not finished and (standings_hidden or (extras and extras_hidden)):
                    out.add(tid)
        return out

    def _played(self, s: Session, people: Iterable[int]
                ) -> tuple[dict[int, list[tuple[int, str]]], dict[int, dict[str, int]],
                           dict[int, tuple[int, ...]], dict[int, int]]:
        wanted = list(people)
        mine: dict[int, list[tuple[int, str]]] = {p: [] for p in wanted}
        for i in range(0, len(wanted), 500):
            for pid, tid, code in s.execute(
                    select(db.Participant.player_id, db.Participant.tournament_id,
                           db.Participant.code)
                    .where(db.Participant.player_id.in_(wanted[i:i + 500]))):
                mine[pid].append((tid, code))
        secret = self.hidden(s, sorted({tid for v in mine.values() for tid, _ in v}))
        unseen = {p: sum(1 for t, _ in v if t in secret) for p, v in mine.items()}
        mine = {p: [(t, c) for t, c in v if t not in secret] for p, v in mine.items()}
        tids = sorted({tid for v in mine.values() for tid, _ in v})
        person_of: dict[int, dict[str, int]] = {t: {} for t in tids}
        for i in range(0, len(tids), 500):
            for tid, code, pid in s.execute(
                    select(db.Participant.tournament_id, db.Participant.code,
                           db.Participant.player_id)
                    .where(db.Participant.tournament_id.in_(tids[i:i + 500]))):
                person_of[tid][code] = pid
        return mine, person_of, self._stamps(s, tids), unseen

    def _stats(self, people: Sequence[int], s: Session
               ) -> tuple[dict[int, PersonStats], dict[int, int]]:
        """Each person's figures over the published tournaments, and how many of his
        tournaments are not published yet."""
        mine, person_of, stamps, unseen = self._played(s, people)
        out = {}
        for pid in people:
            played = [Played(tid, self.digest_of(tid, stamps[tid]), code, person_of[tid])
                      for tid, code in mine[pid]]
            out[pid] = person_stats(pid, played)
        return out, unseen

    def chart(self, person: int, kind: str, lang: str) -> bytes:
        """A person's wins by role (`roles`) or by seat (`seats`) as the SVG chart of his
        page (public, read-only)."""
        from mafiatab.formats.charts import roles_chart, seats_chart

        page = self.page(person)
        stats, nick = page.stats, page.person.nickname
        if kind == "roles":
            return roles_chart({r: stats.by_role[r].rate for r in ROLES}, nick, lang, "svg")
        return seats_chart({s: stats.by_seat[s].rate for s in model.SEATS}, nick, lang, "svg")

    def page(self, person: int) -> PersonPage:
        """Everything a person's page shows (public, read-only)."""
        with self.store.read() as s:
            info = self._person(s, person)
            everyone, unseen = self._stats([person], s)
            stats = everyone[person]
            named = {m.person for m in stats.partners + stats.opponents}
            names = dict(s.execute(select(db.Player.id, db.Player.nickname)
                                   .where(db.Player.id.in_(list(named) or [-1]))).all())
        cached = self.rating_cache
        row = cached[1].of(person) if cached is not None else None
        rating = row.rating if row is not None else None
        history = cached[1].history.get(person, []) if cached is not None else []
        return PersonPage(info, stats, names, self.merges(person), rating, unseen[person],
                          history, row is None or not row.provisional)

    def person_ids(self, tournament: int) -> dict[str, int]:
        """A tournament's players (their ids in its protocols) with the person each one
        is: the standings link every player to his page across tournaments."""
        with self.store.read() as s:
            rows = s.execute(select(db.Participant.code, db.Participant.player_id)
                             .where(db.Participant.tournament_id == tournament))
            return {str(code): int(pid) for code, pid in rows}

    def clubs(self) -> list[tuple[str, int]]:
        """Every club with its number of members, by name."""
        with self.store.read() as s:
            rows = s.execute(select(db.Player.club, func.count())
                             .where(db.Player.club.is_not(None), db.Player.club != "")
                             .group_by(db.Player.club).order_by(db.Player.club))
            return [(str(c), int(n)) for c, n in rows]

    def club(self, name: str) -> ClubPage:
        """A club's page: its members (people whose club it is), tournaments, totals."""
        name = name.strip()[:200]
        with self.store.read() as s:
            rows = s.execute(select(db.Player.id, db.Player.nickname, db.Player.club)
                             .where(db.Player.club == name).order_by(db.Player.id)).all()
            if not rows:
                raise PeopleNotFound("no_club", ref=name)
            infos = [PersonInfo(i, n, c) for i, n, c in rows]
            stats, _ = self._stats([p.id for p in infos], s)
        members = [(p, stats[p.id]) for p in infos]
        members.sort(key=lambda m: (-m[1].all.points, -m[1].all.games, m[0].nickname))
        played: dict[int, tuple[str, str | None, str | None, set[int]]] = {}
        for p, st in members:
            for t in st.tournaments:
                played.setdefault(t.tournament,
                                  (t.name, t.imported, t.source, set()))[3].add(p.id)
        tournaments = sorted(((tid, nm, len(who), published, source)
                              for tid, (nm, published, source, who) in played.items()),
                             key=lambda x: x[0])
        return ClubPage(name, members, tournaments, club_totals([st for _, st in members]))

    def tournament_list(self) -> list[tuple[int, str]]:
        """Every tournament's id and name (the setting's and the "what if"'s choices)."""
        with self.store.read() as s:
            return [(int(i), str(n)) for i, n in s.execute(
                select(db.Tournament.id, db.Tournament.name).order_by(db.Tournament.id))]

    # --- the federation's setting ---------------------------------------------------------

    def setup(self) -> RatingSetup:
        with self.store.read() as s:
            return self._setup(s)

    @staticmethod
    def _setup(s: Session) -> RatingSetup:
        row = s.get(db.FederationSettings, 1)
        if row is None:
            return RatingSetup(frozenset(STAGE_KINDS), frozenset(), frozenset())
        return RatingSetup(frozenset(row.stage_kinds), frozenset(int(x) for x in row.unrated),
                           frozenset(int(x) for x in row.elite), row.updated_by,
                           _aware(row.updated_at), row.min_games or 0)

    def set_setup(self, *, actor: str, stage_kinds: Iterable[str], unrated: Iterable[int],
                  elite: Iterable[int], min_games: int | None = None) -> RatingSetup:
        """Which games count, for the whole server (audited). Who may comes first: anyone
        else is refused whatever he sent."""
        kinds = sorted(set(stage_kinds))
        with self.store.write() as s:
            self._require_admin(s, actor)
            for k in kinds:
                if k not in STAGE_KINDS:
                    raise PeopleError("bad_stage_kind", value=k)
            if not kinds:
                raise PeopleError("no_stage_kind")
            if min_games is not None and not 0 <= min_games <= MAX_MIN_GAMES:
                raise PeopleError("bad_min_games", most=MAX_MIN_GAMES)
            known = set(s.scalars(select(db.Tournament.id)))
            off = sorted(set(unrated) & known)
            top = sorted(set(elite) & known)
            row = s.get(db.FederationSettings, 1)
            if row is None:
                row = db.FederationSettings(id=1)
                s.add(row)
            least = row.min_games or 0 if min_games is None else min_games
            before = {"stage_kinds": list(row.stage_kinds or []),
                      "unrated": list(row.unrated or []), "elite": list(row.elite or []),
                      "min_games": row.min_games or 0}
            row.stage_kinds, row.unrated, row.elite, row.min_games = kinds, off, top, least
            row.updated_by, row.updated_at = actor, dt.datetime.now(dt.UTC)
            record_audit(s, actor, None, "set_rating_setup", {
                "before": before,
                "after": {"stage_kinds": kinds, "unrated": off, "elite": top,
                          "min_games": least}})
            s.flush()
            return self._setup(s)

    # --- the rating ----------------------------------------------------------------------------

    @staticmethod
    def _rating_stamp(s: Session) -> tuple[object, ...]:
        """What the rating depends on: the confirmed protocols, the identities (merges and
        splits), the setting, the tournaments and their stages, which standings are
        hidden. A draft saved or a sign-in does not move it."""
        n, total = s.execute(select(func.count(), func.coalesce(
            func.sum(db.Game.confirmed_revision), 0))).one()
        merges, splits = s.execute(select(func.count(), func.count(db.PlayerMerge.split_at))
                                   .select_from(db.PlayerMerge)).one()
        tours, last = s.execute(select(func.count(), func.max(db.Tournament.id))).one()
        stages = s.scalar(select(func.count()).select_from(db.Stage))
        setting = s.scalar(select(db.FederationSettings.updated_at))
        hidden = tuple(s.scalars(select(db.WebSettings.tournament_id).where(
            db.WebSettings.standings_hidden.is_(True), db.WebSettings.finished.is_(False))
            .order_by(db.WebSettings.tournament_id)))
        return (int(n), int(total), int(merges), int(splits), int(tours), last, stages,
                setting, hidden)

    def rating(self, wait: float = 3.0) -> RatingTable:
        """The rating over every rated game of the database, recomputed when anything
        that counts has changed since the last time. The recomputation runs in a thread
        of its own; a caller waits for it up to `wait` seconds and, when it takes longer
        and an older table exists, gets the older one marked `stale` (a large federation's
        page does not hang on a confirmation elsewhere)."""
        with self.store.read() as s:
            stamp = self._rating_stamp(s)
        cached = self.rating_cache
        if cached is not None and cached[0] == stamp:
            return cached[1]
        with self.rating_lock:
            worker = self.refresh
            if worker is None or not worker.is_alive():
                worker = self.refresh = threading.Thread(
                    target=self._refresh, args=(stamp,), name="rating", daemon=True)
                worker.start()
        worker.join(timeout=wait if cached is not None else None)
        cached = self.rating_cache
        if cached is None:
            if self.refresh_error is not None:
                raise self.refresh_error
            worker.join()
            cached = self.rating_cache
            assert cached is not None
        if cached[0] == stamp:
            return cached[1]
        return replace(cached[1], stale=True)

    def _refresh(self, stamp: tuple[object, ...]) -> None:
        try:
            table = self.compute_rating()
        except Exception as e:  # handed to the caller that waits
            self.refresh_error = e
            return
        self.refresh_error = None
        self.rating_cache = (stamp, table)

    def rated_games(self) -> tuple[list[RatedGame], RatingSetup, dict[int, str]]:
        """Every game that counts under the federation's setting, in rating order; a
        person is the identity id (as text), a tournament its id (as text).

        The confirmed protocols of every tournament come in one streamed query, and only
        what a rating reads of them is decoded (the game's place in time, the seats and
        the result): at a federation's size loading is most of the work."""
        with self.store.read() as s:
            setup = self._setup(s)
            rows = s.execute(select(db.Tournament.id, db.Tournament.name, db.Tournament.rules)
                             .order_by(db.Tournament.id)).all()
            names = {int(i): str(n) for i, n, _ in rows}
            tids = list(names)
            person_of: dict[int, dict[str, str]] = {t: {} for t in tids}
            for tid, code, pid in s.execute(select(db.Participant.tournament_id,
                                                   db.Participant.code,
                                                   db.Participant.player_id)):
                person_of[tid][code] = str(pid)
            stages: dict[int, list[model.Stage]] = {t: [] for t in tids}
            for st in s.scalars(select(db.Stage).order_by(db.Stage.tournament_id,
                                                          db.Stage.position)):
                stages[st.tournament_id].append(model.Stage(id=st.code, name=st.name,
                                                            kind=st.kind))
            skip = set(setup.unrated) | self.hidden(s, tids, extras=False)
            place = {int(i): k for k, (i, _, _) in enumerate(rows)}
            games: list[RatedGame] = []

            def rate(tid: int, texts: list[str]) -> None:
                _, name, rules = rows[place[tid]]
                t = model.Tournament(name=name, rules=rules, players=[], stages=stages[tid],
                                     games=_rating_view(texts))
                settings = RatingSettings(stage_kinds=setup.stage_kinds,
                                          elite=frozenset({name}) if tid in setup.elite
                                          else frozenset())
                games.extend(replace(g, tournament=str(tid))
                             for g in rated_games(t, place[tid], settings, person_of[tid]))

            rev = db.ProtocolRevision
            stream = s.execute(
                select(db.Game.tournament_id, rev.protocol)
                .join(rev, (rev.game_id == db.Game.id)
                      & (rev.number == db.Game.confirmed_revision))
                .order_by(db.Game.tournament_id, db.Game.position)
                .execution_options(yield_per=5000))
            current, texts = -1, list[str]()
            for tid, text in stream:  # one tournament at a time: memory stays small
                if tid != current:
                    if texts:
                        rate(current, texts)
                    current, texts = tid, []
                if tid not in skip:
                    texts.append(text)
            if texts:
                rate(current, texts)
        return ordered(games), setup, names

    def compute_rating(self) -> RatingTable:
        """The rating from scratch (no cache)."""
        games, setup, names = self.rated_games()
        model = Model()
        preds: list[Prediction] = []
        history: dict[str, list[tuple[str, float]]] = {}
        for batch in simultaneous(games):
            for g, p in zip(batch, model.rate_batch(batch), strict=True):
                preds.append(Prediction(g.tournament, g.game, p))
            day = batch[0].when[0]
            played = sorted({s.person for g in batch for s in g.seats})
            for person, shown in zip(played, model.shown(played), strict=True):
                line = history.setdefault(person, [])
                if line and line[-1][0] == day:
                    line[-1] = (day, shown)  # one point a day: his rating after its games
                else:
                    line.append((day, shown))
        elo = rate_elo(games)
        y = outcomes_of(games)
        ours_p = [p.p_red for p in preds]
        elo_p = [p.p_red for p in elo.predictions]
        base_p = [p.p_red for p in rate_base_rate(games)]
        players = model.ratings()
        elo_of = {r.person: r.rating for r in elo.players}
        with self.store.read() as s:
            ids = [int(r.person) for r in players]
            info: dict[int, tuple[str, str | None]] = {}
            for i in range(0, len(ids), 500):
                for pid, nick, club in s.execute(
                        select(db.Player.id, db.Player.nickname, db.Player.club)
                        .where(db.Player.id.in_(ids[i:i + 500]))):
                    info[pid] = (nick, club)
        rows = [RatingRow(int(r.person), *info.get(int(r.person), (r.person, None)), r,
                          elo_of.get(r.person, 0.0), r.games < setup.min_games)
                for r in players]
        rows.sort(key=lambda r: r.provisional)  # stable: each part stays in rating order
        rated_tournaments = {g.tournament for g in games}
        return RatingTable(
            setup, rows, len(games), len(rated_tournaments),
            {r: model.weight(r) for r in ROLES},
            {"ours": (log_loss(ours_p, y), brier(ours_p, y)),
             "elo": (log_loss(elo_p, y), brier(elo_p, y)),
             "base_rate": (log_loss(base_p, y), brier(base_p, y))},
            games, model, names, experience=model.experience_gain(),
            first_killed=model.first_killed_teaches(),
            first_killed_games=sum(1 for g in games if g.first_killed is not None),
            calibration={"ours": reliability(ours_p, y), "elo": reliability(elo_p, y)},
            history={int(k): v for k, v in history.items()},
            slopes={"ours": slope_if_enough(ours_p, y), "elo": slope_if_enough(elo_p, y)},
            imported=self.import_sources(int(t) for t in rated_tournaments))

    def import_sources(self, tournaments: Iterable[int]) -> dict[int, str]:
        """Where the results of these tournaments come from, for those another system
        recorded (domain/provenance.py)."""
        wanted = sorted(set(tournaments))
        out: dict[int, str] = {}
        with self.store.read() as s:
            for i in range(0, len(wanted), 500):
                for tid, other in s.execute(select(db.Tournament.id, db.Tournament.other)
                                            .where(db.Tournament.id.in_(wanted[i:i + 500]))):
                    source = import_source(other or {})
                    if source is not None:
                        out[int(tid)] = source
        return out

    def what_if_game(self, tournament: int, game: str) -> WhatIfView:
        """A rated game of the database: its chance before it was played and what each
        result would do to its ten players' ratings (never its own result)."""
        table = self.rating()
        found = next((g for g in table.rated
                      if g.tournament == str(tournament) and g.game == game), None)
        if found is None:
            raise PeopleNotFound("not_rated", ref=tournament, game=game)
        result = what_if(table.rated, found.tournament, found.game)
        assert result is not None
        return WhatIfView(result, self._names(table, [s.person for s in found.seats]),
                          found.result)

    def what_if_table(self, seats: Sequence[tuple[int, str]], rules: str) -> WhatIfView:
        """A table that has not played: ten people (identity ids, in seat order) with
        their roles, rated after every game of the database."""
        from mafiatab.rules import PROFILES

        if rules not in PROFILES:
            raise PeopleError("bad_rules", value=rules)
        people = [p for p, _ in seats]
        roles = [r for _, r in seats]
        counts = {r: roles.count(r) for r in ROLES}
        if len(seats) != 10 or len(set(people)) != 10 or counts != dict(ROLE_COUNTS):
            raise PeopleError("bad_table")
        with self.store.read() as s:
            for p in people:
                self._person(s, p)
        table = self.rating()
        assert table.model is not None
        game = RatedGame("", "", rules, ("~", 0, 0), (0, 0),
                         tuple(RatedSeat(str(p), r) for p, r in seats), "red")
        return WhatIfView(next_game_what_if(table.model, game),
                          self._names(table, [str(p) for p in people]), None)

    def _names(self, table: RatingTable, people: Sequence[str]) -> dict[str, str]:
        known = {str(r.person): r.nickname for r in table.rows}
        missing = [n for p in people if p not in known and (n := ascii_int(p)) is not None]
        if missing:
            with self.store.read() as s:
                known.update({str(i): n for i, n in s.execute(
                    select(db.Player.id, db.Player.nickname).where(db.Player.id.in_(missing)))})
        return {p: known.get(p, p) for p in people}


class _RatedProtocol(msgspec.Struct):
    """What a rating reads of a stored protocol (the rest of it is not decoded)."""

    id: str
    stage: str
    round: int
    table: int
    seats: list[model.Seat]
    result: str
    first_killed: int | None = None
    date: str | None = None


_RATED_DECODER = msgspec.json.Decoder(list[_RatedProtocol])


def _rating_view(texts: Sequence[str]) -> list[model.Game]:
    """Stored protocols as games with their time, seats, result and first killed only."""
    if not texts:
        return []
    return [model.Game(id=g.id, stage=g.stage, round=g.round, table=g.table, date=g.date,
                       seats=g.seats, result=g.result, first_killed=g.first_killed)
            for g in _RATED_DECODER.decode("[" + ",".join(texts) + "]")]


def parse_ids(values: Iterable[str]) -> list[int]:
    """Tournament or person ids from a form (what is not a number is left out)."""
    out = []
    for v in values:
        n = ascii_int(v.strip(), 11)
        if n is not None:
            out.append(n)
    return out


__all__ = ["ClubPage", "MergeInfo", "People", "PeopleDenied", "PeopleError",
           "PeopleNotFound", "PersonInfo", "PersonPage", "RatingRow", "RatingSetup",
           "RatingTable", "WhatIfView", "parse_ids"]
