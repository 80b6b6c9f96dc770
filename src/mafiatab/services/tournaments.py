"""Tournaments in a database: the use cases, each one transaction (issue 3).

The CLI and the web app call these and nothing below them, so that every way of changing
a tournament meets the same checks, the same transaction boundaries and leaves the same
trace in the audit log.

Protocols go through revisions that are only ever appended:

    draft --submit--> submitted --confirm--> confirmed
      ^                   |
      +---- returned <----+  (a head judge sends it back, with a reason)

A save starts a new draft from any state (an appeal's correction of a confirmed protocol
is a new draft, submitted and confirmed again; until then standings keep reading the
older confirmed revision). Standings and exports read only the newest *confirmed*
revision of each game, through the core's one standings function.

Two judges saving the same protocol at once: every save names the revision it was based
on, and the database accepts it only if that is still the newest (a conditional UPDATE of
`games.head_revision`, atomic on SQLite and PostgreSQL alike). The loser gets a
`ConflictError` that says who saved what and when; the protocol he sent is kept in the
audit log, so nothing typed is lost.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final

import msgspec
from sqlalchemy import Engine, and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from mafiatab.domain import protocol as model
from mafiatab.domain.problems import Problem, ProtocolRefused
from mafiatab.domain.standings import Standings, compute_standings
from mafiatab.domain.validation import validate_game
from mafiatab.formats.tournament_json import (
    FORMAT,
    game_to_dict,
    plain_json,
    tournament_from_dict,
)
from mafiatab.rules import PROFILES
from mafiatab.services.errors import (
    ConflictError,
    NotFound,
    PermissionDenied,
    ServiceError,
    StateError,
)
from mafiatab.services.gc_pause import gc_paused
from mafiatab.services.store import (
    StaleRevision,
    Store,
    add_players_and_stages,
    advance_head,
    aware,
    game_row,
    player_identities,
    profile_of,
    record_audit,
    require_role,
    revision_row,
    roles_in,
    tournament_row,
    user_row,
)
from mafiatab.services.teams import add_teams, teams_in
from mafiatab.services.tournament_file import LoadedTournament, load_tournament, profile_for
from mafiatab.storage import models as db
from mafiatab.storage.models import (
    CONFIRMED,
    DRAFT,
    HEAD_JUDGE,
    JUDGE,
    ORGANIZER,
    RETURNED,
    ROLES,
    SUBMITTED,
)

#: the author of revisions made by importing a file
IMPORT_AUTHOR: Final = "import"
#: games per bulk insert (and per progress step) in an import
IMPORT_CHUNK: Final = 500

_EDIT: Final = frozenset({ORGANIZER, HEAD_JUDGE, JUDGE})
_CONFIRM: Final = frozenset({ORGANIZER, HEAD_JUDGE})
_MANAGE: Final = frozenset({ORGANIZER})

_ENCODER = msgspec.json.Encoder(decimal_format="number")
_GAME_DECODER = msgspec.json.Decoder(model.Game)
_GAMES_DECODER = msgspec.json.Decoder(list[model.Game])

# --- results -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RevisionInfo:
    """One stored revision of a protocol."""

    game: str
    number: int
    state: str
    author: str
    at: dt.datetime
    reason: str | None
    changes: dict[str, Any]
    protocol: dict[str, Any]

    def game_struct(self) -> model.Game:
        return decode_game(encode_game_dict(self.protocol))


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    id: int
    name: str
    rules: str
    players: int
    games: int
    confirmed: int
    created_at: dt.datetime


@dataclass(slots=True)
class ImportProgress:
    """Told to the caller after each chunk of an import (the CLI draws a progress bar)."""

    done: int
    total: int


# --- JSON of a protocol ---------------------------------------------------------------


def encode_game_dict(d: Mapping[str, Any]) -> str:
    """The stored text of a protocol: format-1 game JSON, Decimal points exact."""
    return _ENCODER.encode(d).decode("utf-8")


def encode_game(g: model.Game) -> str:
    return encode_game_dict(game_to_dict(g))


def _parse(text: str | bytes) -> Any:
    return json.loads(text, parse_float=Decimal)


def decode_game(text: str | bytes) -> model.Game:
    """A stored protocol back into the model: the fast decoder, or, for a protocol with
    fields the model does not know, the file's careful reader (which keeps them)."""
    try:
        return _GAME_DECODER.decode(text)
    except (msgspec.ValidationError, msgspec.DecodeError):
        pass
    games = _careful_games([_parse(text)])
    return games[0]


def _careful_games(raw: list[Any]) -> list[model.Game]:
    t, problems = tournament_from_dict(
        {"format": FORMAT, "name": "", "rules": "", "players": [], "stages": [], "games": raw}
    )
    errors = [p for p in problems if not p.warning]
    if t is None or errors or len(t.games) != len(raw):
        raise ProtocolRefused(errors or [Problem("not_object")])
    return t.games


def decode_games(texts: Sequence[str]) -> list[model.Game]:
    """Many stored protocols at once: one decoder call over a JSON array of them."""
    if not texts:
        return []
    try:
        return _GAMES_DECODER.decode("[" + ",".join(texts) + "]")
    except (msgspec.ValidationError, msgspec.DecodeError):
        return [decode_game(t) for t in texts]


def diff_dicts(old: Mapping[str, Any], new: Mapping[str, Any],
               prefix: str = "") -> dict[str, list[Any]]:
    """What changed between two format-1 game dicts: {"scores.4.extra": [old, new]}.

    Nested objects are compared key by key, lists of objects of the same length item by
    item (`seats.3.role`); anything else is one value. A missing key reads as null.
    """
    out: dict[str, list[Any]] = {}
    for key in list(old) + [k for k in new if k not in old]:
        a, b = old.get(key), new.get(key)
        path = f"{prefix}{key}"
        _diff_value(a, b, path, out)
    return out


def _diff_value(a: Any, b: Any, path: str, out: dict[str, list[Any]]) -> None:
    if a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        out.update(diff_dicts(a, b, path + "."))
    elif (
        isinstance(a, list) and isinstance(b, list) and len(a) == len(b)
        and all(isinstance(x, dict) for x in a + b)
    ):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _diff_value(x, y, f"{path}.{i}", out)
    else:
        out[path] = [a, b]


def revision_info(s: Session, code: str, rev: db.ProtocolRevision) -> RevisionInfo:
    """A stored revision as the services hand it out."""
    author = s.get(db.User, rev.author_id)
    return RevisionInfo(game=code, number=rev.number, state=rev.state,
                        author=author.name if author else "?",
                        at=aware(rev.created_at), reason=rev.reason,
                        changes=dict(rev.changes), protocol=_parse(rev.protocol))


# --- the service ------------------------------------------------------------------------


class TournamentService:
    """Every use case on stored tournaments; each public method is one transaction."""

    def __init__(self, engine: Engine, store: Store | None = None) -> None:
        self.engine = engine
        #: the unit of work; services built on the same store share its write hooks
        self.store = store if store is not None else Store(engine)
        self._writer = self.store.writer

    # --- transactions (the subclasses still use these names; new code uses the store) ---
    @contextmanager
    def _write(self) -> Iterator[Session]:
        with self.store.write() as s:
            yield s

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with self.store.read() as s:
            yield s

    # --- users and roles ---
    @staticmethod
    def _user(s: Session, name: str) -> db.User:
        return user_row(s, name)

    @staticmethod
    def _roles(s: Session, tid: int, user: str) -> set[str]:
        return roles_in(s, tid, user)

    def _require(self, s: Session, t: db.Tournament, user: str, allowed: frozenset[str],
                 action: str) -> None:
        require_role(s, t, user, allowed, action)

    def grant_role(self, tournament: int, user: str, role: str, *, actor: str) -> None:
        """Give `user` a role in the tournament (organizers only)."""
        if role not in ROLES:
            raise ServiceError("bad_role", role=role, choices=", ".join(ROLES))
        with self._write() as s:
            t = self._tournament(s, tournament)
            self._require(s, t, actor, _MANAGE, "manage")
            u = self._user(s, user)
            exists = s.scalar(select(db.RoleGrant.id).where(
                db.RoleGrant.user_id == u.id, db.RoleGrant.tournament_id == t.id,
                db.RoleGrant.role == role))
            if exists is None:
                s.add(db.RoleGrant(user_id=u.id, tournament_id=t.id, role=role))
                self._audit(s, actor, t.id, "grant_role", {"user": user, "role": role})

    def roles_of(self, tournament: int, user: str) -> set[str]:
        with self._read() as s:
            return self._roles(s, tournament, user)

    @staticmethod
    def _audit(s: Session, user: str, tid: int | None, action: str,
               detail: dict[str, Any]) -> db.AuditEntry:
        return record_audit(s, user, tid, action, detail)

    # --- tournaments ---
    @staticmethod
    def _tournament(s: Session, tid: int) -> db.Tournament:
        return tournament_row(s, tid)

    def find_tournament(self, ref: str) -> int:
        """A tournament by id, or by its exact name when that is unique."""
        with self._read() as s:
            if ref.isdigit() and s.get(db.Tournament, int(ref)) is not None:
                return int(ref)
            ids = list(s.scalars(select(db.Tournament.id).where(db.Tournament.name == ref)
                                 .order_by(db.Tournament.id)))
        if not ids:
            raise NotFound("no_tournament", ref=ref)
        if len(ids) > 1:
            raise NotFound("ambiguous_tournament", ref=ref, ids=", ".join(map(str, ids)))
        return ids[0]

    def create_tournament(self, name: str, rules: str, *, actor: str,
                          stages: Sequence[model.Stage] = (),
                          participants: int | None = None,
                          rule_options: Mapping[str, str] | None = None,
                          confirmer_must_differ: bool = False,
                          hide_extras_until_end: bool = False) -> int:
        """A new tournament; its creator becomes its organizer."""
        if rules not in PROFILES:
            raise ServiceError("unknown_rules", value=rules)
        probe = model.Tournament(name=name, rules=rules, players=[], stages=list(stages),
                                 rule_options=dict(rule_options or {}))
        _, problems = profile_for(probe)
        if problems:
            raise ProtocolRefused(problems)
        with self._write() as s:
            t = db.Tournament(name=name, rules=rules, participants=participants,
                              rule_options=dict(rule_options or {}), lots=[], lot_draws=[],
                              other={}, confirmer_must_differ=confirmer_must_differ,
                              hide_extras_until_end=hide_extras_until_end)
            s.add(t)
            s.flush()
            for i, st in enumerate(stages):
                s.add(db.Stage(tournament_id=t.id, code=st.id, name=st.name, kind=st.kind,
                               compensation=st.compensation, position=i))
            u = self._user(s, actor)
            s.add(db.RoleGrant(user_id=u.id, tournament_id=t.id, role=ORGANIZER))
            self._audit(s, actor, t.id, "create_tournament", {"name": name, "rules": rules})
            return t.id

    def set_options(self, tournament: int, *, actor: str,
                    confirmer_must_differ: bool | None = None,
                    hide_extras_until_end: bool | None = None) -> None:
        with self._write() as s:
            t = self._tournament(s, tournament)
            self._require(s, t, actor, _MANAGE, "manage")
            changed: dict[str, Any] = {}
            if confirmer_must_differ is not None:
                t.confirmer_must_differ = confirmer_must_differ
                changed["confirmer_must_differ"] = confirmer_must_differ
            if hide_extras_until_end is not None:
                t.hide_extras_until_end = hide_extras_until_end
                changed["hide_extras_until_end"] = hide_extras_until_end
            self._audit(s, actor, t.id, "set_options", changed)

    def list_tournaments(self) -> list[TournamentSummary]:
        with self._read() as s:
            def counts(query: Any) -> dict[int, int]:
                return {tid: n for tid, n in s.execute(query)}

            players = counts(select(db.Participant.tournament_id, func.count())
                             .group_by(db.Participant.tournament_id))
            games = counts(select(db.Game.tournament_id, func.count())
                           .group_by(db.Game.tournament_id))
            confirmed = counts(select(db.Game.tournament_id, func.count())
                               .where(db.Game.confirmed_revision > 0)
                               .group_by(db.Game.tournament_id))
            return [
                TournamentSummary(t.id, t.name, t.rules, players.get(t.id, 0),
                                  games.get(t.id, 0), confirmed.get(t.id, 0), t.created_at)
                for t in s.scalars(select(db.Tournament).order_by(db.Tournament.id))
            ]

    # --- players ---
    def register_players(self, tournament: int, players: Sequence[model.Player], *,
                         actor: str) -> None:
        """Add players to the tournament under their ids (`code`)."""
        with self._write() as s:
            t = self._tournament(s, tournament)
            self._require(s, t, actor, _MANAGE, "manage")
            taken = set(s.scalars(select(db.Participant.code)
                                  .where(db.Participant.tournament_id == t.id)))
            for p in players:
                if p.id in taken:
                    raise ServiceError("duplicate_player", value=p.id)
                taken.add(p.id)
            start = s.scalar(select(func.coalesce(func.max(db.Participant.position) + 1, 0))
                             .where(db.Participant.tournament_id == t.id)) or 0
            ids = player_identities(s, players)
            existing = set(s.scalars(select(db.Participant.player_id)
                                     .where(db.Participant.tournament_id == t.id)))
            rows = []
            for i, (p, pid) in enumerate(zip(players, ids, strict=True)):
                if pid in existing:  # the same nickname and club twice: a new identity
                    new_id = s.scalar(insert(db.Player).returning(db.Player.id),
                                      {"nickname": p.nickname, "club": p.club})
                    assert new_id is not None
                    pid = new_id
                existing.add(pid)
                rows.append({"tournament_id": t.id, "player_id": pid, "code": p.id,
                             "position": start + i})
            if rows:
                s.execute(insert(db.Participant), rows)
            self._audit(s, actor, t.id, "register_players", {"players": [p.id for p in players]})

    # --- reading a tournament back ---
    @staticmethod
    def _players(s: Session, tid: int) -> list[model.Player]:
        rows = s.execute(
            select(db.Participant.code, db.Player.nickname, db.Player.club)
            .join(db.Player, db.Player.id == db.Participant.player_id)
            .where(db.Participant.tournament_id == tid).order_by(db.Participant.position))
        return [model.Player(id=c, nickname=n, club=club) for c, n, club in rows]

    @staticmethod
    def _stages(s: Session, tid: int) -> list[model.Stage]:
        rows = s.scalars(select(db.Stage).where(db.Stage.tournament_id == tid)
                         .order_by(db.Stage.position))
        return [model.Stage(id=r.code, name=r.name, kind=r.kind, compensation=r.compensation)
                for r in rows]

    @staticmethod
    def _confirmed_texts(s: Session, tid: int) -> list[str]:
        rev = db.ProtocolRevision
        return list(s.scalars(
            select(rev.protocol)
            .join(db.Game, and_(rev.game_id == db.Game.id,
                                rev.number == db.Game.confirmed_revision))
            .where(db.Game.tournament_id == tid)
            .order_by(db.Game.position)))

    def tournament(self, tournament: int) -> model.Tournament:
        """The tournament as the core knows it, from the confirmed revisions only."""
        with self._read() as s, gc_paused():
            t = self._tournament(s, tournament)
            games = decode_games(self._confirmed_texts(s, t.id))
            return model.Tournament(
                format=t.format, name=t.name, rules=t.rules, participants=t.participants,
                rule_options=dict(t.rule_options), players=self._players(s, t.id),
                stages=self._stages(s, t.id), games=games, lots=list(t.lots),
                lot_draws=[model.LotDraw(seed=d["seed"], group=list(d["group"]),
                                         order=list(d["order"])) for d in t.lot_draws],
                teams=teams_in(s, t.id),
                # the JSON column gives Decimal; free-form numbers are floats in the model
                other=plain_json(dict(t.other)))

    export = tournament

    def standings(self, tournament: int, stages: Iterable[str] | None = None) -> Standings:
        """Standings from the confirmed revisions, by the core's one function."""
        t = self.tournament(tournament)
        profile, problems = profile_for(t)
        if problems:
            raise ProtocolRefused(problems)
        with gc_paused():
            return compute_standings(t, profile, stages)

    # --- import ---
    def import_file(self, data: bytes | str, *, actor: str = IMPORT_AUTHOR,
                    progress: Callable[[ImportProgress], None] | None = None) -> int:
        """Import a format-1 file: checked whole first, then written in one transaction
        (all or nothing); its games become confirmed revisions authored by `actor`."""
        loaded = load_tournament(data)
        return self.import_loaded(loaded, actor=actor, progress=progress)

    def import_loaded(self, loaded: LoadedTournament, *, actor: str = IMPORT_AUTHOR,
                      progress: Callable[[ImportProgress], None] | None = None) -> int:
        src = loaded.tournament
        total = len(src.games)
        with self._write() as s, gc_paused():
            t = db.Tournament(
                name=src.name, rules=src.rules, format=src.format,
                participants=src.participants, rule_options=dict(src.rule_options),
                lots=list(src.lots),
                lot_draws=[{"seed": d.seed, "group": list(d.group), "order": list(d.order)}
                           for d in src.lot_draws],
                other=dict(src.other))
            s.add(t)
            s.flush()
            author = self._user(s, actor)
            s.add(db.RoleGrant(user_id=author.id, tournament_id=t.id, role=ORGANIZER))
            stage_ids = add_players_and_stages(s, t, src.players, src.stages)
            add_teams(s, t.id, src.teams)  # format 1 `teams` (docs/teams.md)
            tables = self._new_tables(s, stage_ids,
                                      [(g.stage, g.round, g.table) for g in src.games])
            now = dt.datetime.now(dt.UTC)
            if progress is not None:
                progress(ImportProgress(0, total))
            for start in range(0, total, IMPORT_CHUNK):
                chunk = src.games[start:start + IMPORT_CHUNK]
                game_ids = s.scalars(
                    insert(db.Game).returning(db.Game.id, sort_by_parameter_order=True),
                    [{"tournament_id": t.id, "table_id": tables[(g.stage, g.round, g.table)],
                      "code": g.id, "position": start + i, "head_revision": 1,
                      "confirmed_revision": 1} for i, g in enumerate(chunk)]).all()
                s.execute(insert(db.ProtocolRevision), [
                    {"game_id": gid, "number": 1, "state": CONFIRMED,
                     "protocol": encode_game(g), "author_id": author.id, "created_at": now,
                     "reason": "import", "changes": {}}
                    for gid, g in zip(game_ids, chunk, strict=True)])
                if progress is not None:
                    progress(ImportProgress(min(start + IMPORT_CHUNK, total), total))
            self._audit(s, actor, t.id, "import",
                        {"name": src.name, "games": total, "players": len(src.players)})
            return t.id

    @staticmethod
    def _new_tables(s: Session, stage_ids: Mapping[str, int],
                    wanted: Iterable[tuple[str, int, int]]) -> dict[tuple[str, int, int], int]:
        """Rows of `rounds` and `tables` for a new tournament's games, in two bulk inserts."""
        keys = sorted(set(wanted))
        round_keys = sorted({(stage, rnd) for stage, rnd, _ in keys})
        if not keys:
            return {}
        round_ids = s.scalars(
            insert(db.Round).returning(db.Round.id, sort_by_parameter_order=True),
            [{"stage_id": stage_ids[stage], "number": rnd} for stage, rnd in round_keys]).all()
        rounds = dict(zip(round_keys, round_ids, strict=True))
        table_ids = s.scalars(
            insert(db.GameTable).returning(db.GameTable.id, sort_by_parameter_order=True),
            [{"round_id": rounds[(stage, rnd)], "number": table}
             for stage, rnd, table in keys]).all()
        return dict(zip(keys, table_ids, strict=True))

    @staticmethod
    def _numbered(s: Session, row: type[db.Round] | type[db.GameTable], parent: str,
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

    def _table(self, s: Session, stage_id: int, rnd: int, table: int) -> int:
        round_id = self._numbered(s, db.Round, "stage_id", stage_id, rnd)
        return self._numbered(s, db.GameTable, "round_id", round_id, table)

    # --- protocols ---
    @staticmethod
    def _game(s: Session, tid: int, code: str) -> db.Game:
        return game_row(s, tid, code)

    @staticmethod
    def _revision(s: Session, game_id: int, number: int) -> db.ProtocolRevision:
        return revision_row(s, game_id, number)

    @staticmethod
    def _info(s: Session, code: str, rev: db.ProtocolRevision) -> RevisionInfo:
        return revision_info(s, code, rev)

    def _context(self, s: Session, tid: int) -> tuple[db.Tournament, set[str], set[str]]:
        t = self._tournament(s, tid)
        players = set(s.scalars(select(db.Participant.code)
                                .where(db.Participant.tournament_id == tid)))
        stages = set(s.scalars(select(db.Stage.code).where(db.Stage.tournament_id == tid)))
        return t, players, stages

    def _check_rules(self, t: db.Tournament, game: model.Game, players: set[str],
                     stages: set[str]) -> None:
        profile, problems = profile_of(t)
        problems = problems + validate_game(game, profile, players, stages)
        if [p for p in problems if not p.warning]:
            raise ProtocolRefused(problems)

    def save_protocol(self, tournament: int, game: model.Game, *, actor: str,
                      base_revision: int, reason: str | None = None) -> RevisionInfo:
        """Save a draft of a game's protocol, based on revision `base_revision` (0: a new
        game). Raises `ConflictError` if someone saved in between."""
        text = encode_game(game)
        new_dict = _parse(text)
        try:
            with self._write() as s:
                t, _players, stages = self._context(s, tournament)
                self._require(s, t, actor, _EDIT, "save")
                if game.stage not in stages:
                    raise ProtocolRefused([Problem("unknown_stage", game.id, None, "stage",
                                                   "format 1", {"value": game.stage})])
                author = self._user(s, actor)
                stage_id = s.scalar(select(db.Stage.id).where(
                    db.Stage.tournament_id == t.id, db.Stage.code == game.stage))
                assert stage_id is not None
                table_id = self._table(s, stage_id, game.round, game.table)
                row = s.scalar(select(db.Game).where(db.Game.tournament_id == t.id,
                                                     db.Game.code == game.id))
                if row is None:
                    if base_revision != 0:
                        raise NotFound("no_game", game=game.id)
                    position = s.scalar(select(func.coalesce(func.max(db.Game.position) + 1, 0))
                                        .where(db.Game.tournament_id == t.id)) or 0
                    with s.begin_nested():
                        row = db.Game(tournament_id=t.id, table_id=table_id, code=game.id,
                                      position=position, head_revision=1,
                                      confirmed_revision=0)
                        s.add(row)
                        s.flush()
                    changes: dict[str, Any] = {}
                    number = 1
                else:
                    number = self._advance(s, row, base_revision)
                    previous = self._revision(s, row.id, base_revision)
                    changes = diff_dicts(_parse(previous.protocol), new_dict)
                    if row.table_id != table_id:
                        s.execute(update(db.Game).where(db.Game.id == row.id)
                                  .values(table_id=table_id))
                rev = db.ProtocolRevision(game_id=row.id, number=number, state=DRAFT,
                                          protocol=text, author_id=author.id, reason=reason,
                                          changes=changes)
                s.add(rev)
                s.flush()
                self._audit(s, actor, t.id, "save", {"game": game.id, "revision": number})
                return self._info(s, game.id, rev)
        except _Stale as stale:
            raise self._conflict(tournament, game.id, base_revision, actor, new_dict,
                                 "save") from stale
        except IntegrityError as e:  # two first saves of one new game
            try:
                conflict = self._conflict(tournament, game.id, base_revision, actor, new_dict,
                                          "save")
            except NotFound:
                raise e from None
            raise conflict from e

    @staticmethod
    def _advance(s: Session, row: db.Game, base: int, confirmed: bool = False) -> int:
        return advance_head(s, row, base, confirmed)

    def _conflict(self, tid: int, code: str, base: int, actor: str,
                  yours: dict[str, Any] | None, action: str) -> ConflictError:
        """After a lost race: keep the refused protocol in the audit log, say who won."""
        with self._write() as s:
            row = self._game(s, tid, code)
            head = self._revision(s, row.id, row.head_revision)
            author = s.get(db.User, head.author_id)
            entry = self._audit(s, actor, tid, "conflict", {
                "game": code, "action": action, "base": base, "head": row.head_revision,
                "protocol": yours})
            s.flush()
            return ConflictError(game=code, base=base, head=row.head_revision,
                                 author=author.name if author else "?",
                                 at=_aware(head.created_at), yours=yours, audit_id=entry.id)

    def _step(self, tournament: int, code: str, *, actor: str, base_revision: int | None,
              action: str, allowed_from: tuple[str, ...], new_state: str,
              reason: str | None) -> RevisionInfo:
        """A state change: a new revision with the same protocol and a new state."""
        try:
            with self._write() as s:
                t, players, stages = self._context(s, tournament)
                self._require(s, t, actor, _CONFIRM if new_state in (CONFIRMED, RETURNED)
                              else _EDIT, action)
                row = self._game(s, t.id, code)
                base = row.head_revision if base_revision is None else base_revision
                if base != row.head_revision:
                    raise _Stale()
                head = self._revision(s, row.id, base)
                if head.state not in allowed_from:
                    raise StateError("bad_state", game=code, action=action, state=head.state)
                if new_state == RETURNED and not (reason and reason.strip()):
                    raise ServiceError("reason_needed", game=code)
                if new_state in (SUBMITTED, CONFIRMED):
                    self._check_rules(t, decode_game(head.protocol), players, stages)
                if new_state == CONFIRMED and t.confirmer_must_differ:
                    submitter = s.get(db.User, head.author_id)
                    if submitter is not None and submitter.name == actor:
                        raise PermissionDenied("same_confirmer", game=code, author=actor)
                author = self._user(s, actor)
                number = self._advance(s, row, base, confirmed=new_state == CONFIRMED)
                rev = db.ProtocolRevision(game_id=row.id, number=number, state=new_state,
                                          protocol=head.protocol, author_id=author.id,
                                          reason=reason, changes={})
                s.add(rev)
                s.flush()
                self._audit(s, actor, t.id, action, {"game": code, "revision": number})
                return self._info(s, code, rev)
        except _Stale as stale:
            raise self._conflict(tournament, code, base_revision or 0, actor, None,
                                 action) from stale

    def submit_protocol(self, tournament: int, game: str, *, actor: str,
                        base_revision: int | None = None,
                        reason: str | None = None) -> RevisionInfo:
        """Submit the newest draft for confirmation; refused with every rule problem."""
        return self._step(tournament, game, actor=actor, base_revision=base_revision,
                          action="submit", allowed_from=(DRAFT, RETURNED),
                          new_state=SUBMITTED, reason=reason)

    def confirm_protocol(self, tournament: int, game: str, *, actor: str,
                         base_revision: int | None = None,
                         reason: str | None = None) -> RevisionInfo:
        """Confirm a submitted protocol (head judge); from now standings count it."""
        return self._step(tournament, game, actor=actor, base_revision=base_revision,
                          action="confirm", allowed_from=(SUBMITTED,), new_state=CONFIRMED,
                          reason=reason)

    def return_protocol(self, tournament: int, game: str, *, actor: str, reason: str,
                        base_revision: int | None = None) -> RevisionInfo:
        """Send a submitted protocol back to the judges, with the reason."""
        return self._step(tournament, game, actor=actor, base_revision=base_revision,
                          action="return", allowed_from=(SUBMITTED,), new_state=RETURNED,
                          reason=reason)

    def revisions(self, tournament: int, game: str) -> list[RevisionInfo]:
        """Every revision of a game's protocol, oldest first."""
        with self._read() as s:
            row = self._game(s, tournament, game)
            revs = s.scalars(select(db.ProtocolRevision)
                             .where(db.ProtocolRevision.game_id == row.id)
                             .order_by(db.ProtocolRevision.number))
            return [self._info(s, game, r) for r in revs]

    def head(self, tournament: int, game: str) -> RevisionInfo:
        """The newest revision of a game's protocol (what a judge edits next)."""
        with self._read() as s:
            row = self._game(s, tournament, game)
            return self._info(s, game, self._revision(s, row.id, row.head_revision))

    def audit_log(self, tournament: int) -> list[tuple[dt.datetime, str, str, dict[str, Any]]]:
        with self._read() as s:
            rows = s.scalars(select(db.AuditEntry).where(db.AuditEntry.tournament_id == tournament)
                             .order_by(db.AuditEntry.id))
            return [(_aware(r.at), r.user_name, r.action, dict(r.detail)) for r in rows]


#: the older name of `StaleRevision`, still imported by `services.appeals`
_Stale = StaleRevision
_aware = aware


__all__ = [
    "ConflictError",
    "IMPORT_AUTHOR",
    "ImportProgress",
    "NotFound",
    "PermissionDenied",
    "RevisionInfo",
    "ServiceError",
    "StaleRevision",
    "StateError",
    "Store",
    "TournamentService",
    "TournamentSummary",
    "decode_game",
    "decode_games",
    "diff_dicts",
    "encode_game",
    "encode_game_dict",
    "revision_info",
]
