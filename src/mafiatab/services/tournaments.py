"""Tournaments in a database: creating and importing them, their options,
players and stages, and reading one back as the core knows it, each one transaction over
the `Store`; and the stored protocol's text (format-1 game JSON), shared by every service.

Protocols go through revisions that are only ever appended (`services.protocols` has the
steps: draft, submitted, returned, confirmed). Standings and exports read only the newest
*confirmed* revision of each game, through the core's one standings function
(`services.standings`).

Two judges saving the same protocol at once: every save names the revision it was based
on, and the database accepts it only if that is still the newest (a conditional UPDATE of
`games.head_revision`, atomic on SQLite and PostgreSQL alike). The loser gets a
`ConflictError` that says who saved what and when; the protocol he sent is kept in the
audit log (`record_conflict`), so nothing typed is lost.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Final

import msgspec
from sqlalchemy import and_, func, insert, select
from sqlalchemy.orm import Session

from mafiatab.domain import protocol as model
from mafiatab.domain.problems import Problem, ProtocolRefused
from mafiatab.domain.provenance import import_source
from mafiatab.domain.published import source_of
from mafiatab.domain.typed import RawField
from mafiatab.domain.typed import from_json as typed_from_json
from mafiatab.formats.tournament_json import (
    FORMAT,
    game_to_dict,
    plain_json,
    tournament_from_dict,
)
from mafiatab.rules import PROFILES
from mafiatab.services.access import STAFF, Access, grant_in
from mafiatab.services.errors import (
    ConflictError,
    NotFound,
    PermissionDenied,
    ServiceError,
    StateError,
)
from mafiatab.services.gc_pause import gc_paused
from mafiatab.services.revision_log import whole
from mafiatab.services.rights import Act, TournamentRef, require
from mafiatab.services.setup import SetupInvalid, rule_choices
from mafiatab.services.store import (
    StaleRevision,
    Store,
    add_players_and_stages,
    aware,
    game_row,
    player_identities,
    players_in,
    record_audit,
    require_role,
    revision_row,
    stages_in,
    tournament_row,
    user_row,
)
from mafiatab.services.teams import add_teams, teams_in
from mafiatab.services.tournament_file import LoadedTournament, load_tournament, profile_for
from mafiatab.storage import models as db
from mafiatab.storage.models import CONFIRMED, HEAD_JUDGE, ORGANIZER

#: the author of revisions made by importing a file
IMPORT_AUTHOR: Final = "import"
#: games per bulk insert (and per progress step) in an import
IMPORT_CHUNK: Final = 500

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
    #: a draft's fields that could not be read, as typed, with their problems
    typed: dict[str, RawField] = field(default_factory=dict)
    #: a saved draft's tournament-wide problems (`services.invariants`): the draft is
    #: kept as typed, its submit will refuse them; empty for any other revision read
    problems: list[Problem] = field(default_factory=list)

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
    #: results imported as another system published them: the source's file name
    imported: str | None = None
    #: where results recorded by another system come from (domain/provenance.py; None:
    #: played here)
    source: str | None = None


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


def protocol_dict(text: str | bytes) -> Any:
    """A stored protocol's JSON as plain data, its points as Decimal (exact)."""
    return json.loads(text, parse_float=Decimal)


def decode_game(text: str | bytes) -> model.Game:
    """A stored protocol back into the model: the fast decoder, or, for a protocol with
    fields the model does not know, the file's careful reader (which keeps them)."""
    try:
        return _GAME_DECODER.decode(text)
    except (msgspec.ValidationError, msgspec.DecodeError):
        pass
    games = _careful_games([protocol_dict(text)])
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
    item (`seats.3.role`); a list that grew or shrank at its end (a game log, one event
    more) by the items added or taken (`log.60`: [null, event]), so that a revision's
    trace stays as small as its change; anything else is one value. A missing key reads
    as null.
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
    elif (
        isinstance(a, list) and isinstance(b, list) and a and b and len(a) != len(b)
        and a[:len(b)] == b[:len(a)]
    ):
        for i in range(min(len(a), len(b)), max(len(a), len(b))):
            out[f"{path}.{i}"] = [a[i] if i < len(a) else None, b[i] if i < len(b) else None]
    else:
        out[path] = [a, b]


#: the code a new stage of each kind is given (its id in files and addresses, never shown)
STAGE_CODE: Final = {"qualification": "qual", "semifinal": "semi", "final": "final"}


def stage_code(kind: str, taken: set[str]) -> str:
    """A new stage's id: its kind's code, numbered when the tournament has one already
    ("semi", "semi2")."""
    base = STAGE_CODE.get(kind, "stage")
    n = 1
    while (code := base if n == 1 else f"{base}{n}") in taken:
        n += 1
    return code


def revision_info(s: Session, code: str, rev: db.ProtocolRevision) -> RevisionInfo:
    """A stored revision as the services hand it out."""
    author = s.get(db.User, rev.author_id)
    return RevisionInfo(game=code, number=rev.number, state=rev.state,
                        author=author.name if author else "?",
                        at=aware(rev.created_at), reason=rev.reason,
                        changes=dict(rev.changes), protocol=protocol_dict(whole(s, rev)),
                        typed=typed_from_json(rev.typed))


# --- inside a transaction ---------------------------------------------------------------


def new_tables(s: Session, stage_ids: Mapping[str, int],
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


def confirmed_texts(s: Session, tid: int) -> list[str]:
    """The stored text of each game's newest confirmed revision, in the games' order."""
    rev = db.ProtocolRevision
    return list(s.scalars(
        select(rev.protocol)
        .join(db.Game, and_(rev.game_id == db.Game.id,
                            rev.number == db.Game.confirmed_revision))
        .where(db.Game.tournament_id == tid)
        .order_by(db.Game.position)))


def record_conflict(store: Store, tid: int, code: str, base: int, actor: str,
                    yours: dict[str, Any] | None, action: str) -> ConflictError:
    """After a lost race (the transaction rolled back): keep the refused protocol in the
    audit log, in a transaction of its own, and say who won."""
    with store.write() as s:
        row = game_row(s, tid, code)
        head = revision_row(s, row.id, row.head_revision)
        author = s.get(db.User, head.author_id)
        entry = record_audit(s, actor, tid, "conflict", {
            "game": code, "action": action, "base": base, "head": row.head_revision,
            "protocol": yours})
        s.flush()
        return ConflictError(game=code, base=base, head=row.head_revision,
                             author=author.name if author else "?",
                             at=aware(head.created_at), yours=yours, audit_id=entry.id)


# --- the use cases -----------------------------------------------------------------------


class Tournaments:
    """Stored tournaments: creating, importing, their options, players and stages, and
    reading one back as the core knows it (one transaction each, over the `Store`)."""

    def __init__(self, store: Store, access: Access) -> None:
        self.store = store
        self.access = access

    def find_tournament(self, ref: str) -> int:
        """A tournament by id, or by its exact name when that is unique."""
        with self.store.read() as s:
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
        """A new tournament; its creator becomes its organizer (the CLI's way: whoever
        runs it on the database's machine)."""
        if rules not in PROFILES:
            raise ServiceError("unknown_rules", value=rules)
        probe = model.Tournament(name=name, rules=rules, players=[], stages=list(stages),
                                 rule_options=dict(rule_options or {}))
        _, problems = profile_for(probe)
        if problems:
            raise ProtocolRefused(problems)
        with self.store.write() as s:
            t = db.Tournament(name=name, rules=rules, participants=participants,
                              rule_options=dict(rule_options or {}), lots=[], lot_draws=[],
                              other={}, confirmer_must_differ=confirmer_must_differ,
                              hide_extras_until_end=hide_extras_until_end)
            s.add(t)
            s.flush()
            for i, st in enumerate(stages):
                s.add(db.Stage(tournament_id=t.id, code=st.id, name=st.name, kind=st.kind,
                               compensation=st.compensation, position=i))
            u = user_row(s, actor)
            s.add(db.RoleGrant(user_id=u.id, tournament_id=t.id, role=ORGANIZER))
            record_audit(s, actor, t.id, "create_tournament", {"name": name, "rules": rules})
            return t.id

    def new_tournament(self, name: str, rules: str, *, actor: str,
                       stages: Sequence[model.Stage] = ()) -> int:
        """A tournament created from the web: only an account with the organizer right
        (asked first); a name of 1 to 200 characters, rules chosen from the profiles."""
        self.access.require_organizer(actor)
        name = name.strip()
        if not name or len(name) > 200:
            raise ServiceError("bad_input", field="name")
        if rules not in PROFILES:
            raise SetupInvalid("rules_needed", choices=rule_choices())
        return self.create_tournament(name, rules, actor=actor, stages=stages)

    def import_as_organizer(self, data: bytes, *, actor: str) -> int:
        """A tournament imported from the web (format 1): the organizer right again; the
        importer becomes its organizer and head judge."""
        self.access.require_organizer(actor)
        tid = self.import_file(data, actor=actor)
        with self.store.write() as s:
            t = tournament_row(s, tid)
            for role in (ORGANIZER, HEAD_JUDGE):
                grant_in(s, t.id, actor, role)
            record_audit(s, actor, t.id, "grant_role", {"user": actor, "role": HEAD_JUDGE})
        return tid

    def set_options(self, tournament: int, *, actor: str,
                    confirmer_must_differ: bool | None = None,
                    hide_extras_until_end: bool | None = None) -> None:
        """The tournament's options (the organizer's): `confirmer_must_differ` is the
        four-eyes rule (nobody confirms or decides what he submitted, corrected or filed),
        audited as `four_eyes_on` / `four_eyes_off` when it changes."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, _MANAGE, "manage")
            changed: dict[str, Any] = {}
            if confirmer_must_differ is not None:
                if t.confirmer_must_differ != confirmer_must_differ:
                    record_audit(s, actor, t.id,
                                 "four_eyes_on" if confirmer_must_differ else "four_eyes_off",
                                 {"confirmer_must_differ": confirmer_must_differ})
                t.confirmer_must_differ = confirmer_must_differ
            if hide_extras_until_end is not None:
                t.hide_extras_until_end = hide_extras_until_end
                changed["hide_extras_until_end"] = hide_extras_until_end
            if changed:
                record_audit(s, actor, t.id, "set_options", changed)

    def four_eyes(self, tournament: int, *, actor: str | None = None,
                  operator: bool = False) -> bool:
        """Whether the four-eyes rule is on: the tournament's staff's to read (the rights
        model's `MANAGE`), or the server operator's (`operator`: the command line)."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            if not operator:
                require(s, actor or "", Act.MANAGE, TournamentRef(t.id))
            return t.confirmer_must_differ

    def list_tournaments(self) -> list[TournamentSummary]:
        with self.store.read() as s:
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
                                  games.get(t.id, 0), confirmed.get(t.id, 0), t.created_at,
                                  source_of(t.other or {}), import_source(t.other or {}))
                for t in s.scalars(select(db.Tournament).order_by(db.Tournament.id))
            ]

    # --- players and stages ---
    def register_players(self, tournament: int, players: Sequence[model.Player], *,
                         actor: str) -> None:
        """Add players to the tournament under their ids (`code`)."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, _MANAGE, "manage")
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
            record_audit(s, actor, t.id, "register_players", {"players": [p.id for p in players]})

    def add_stage(self, tournament: int, stage: model.Stage, *, actor: str) -> None:
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "manage")
            self._add_stage(s, t, stage, actor)

    def add_named_stage(self, tournament: int, name: str, kind: str, *, actor: str) -> str | None:
        """A stage by its name and kind (the set-up form's); its id is made from the kind
        ("semi", "semi2"). A blank name adds nothing (None), after the role is checked."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "manage")
            name = name.strip()[:100]
            if not name:
                return None
            taken = set(s.scalars(select(db.Stage.code).where(db.Stage.tournament_id == t.id)))
            code = stage_code(kind, taken)
            self._add_stage(s, t, model.Stage(id=code, name=name, kind=kind), actor)
            return code

    @staticmethod
    def _add_stage(s: Session, t: db.Tournament, stage: model.Stage, actor: str) -> None:
        codes = set(s.scalars(select(db.Stage.code).where(db.Stage.tournament_id == t.id)))
        if stage.id in codes:
            raise ServiceError("duplicate_player", value=stage.id)
        if stage.kind not in model.STAGE_KINDS:
            raise ServiceError("bad_role", role=stage.kind, choices=", ".join(model.STAGE_KINDS))
        s.add(db.Stage(tournament_id=t.id, code=stage.id, name=stage.name, kind=stage.kind,
                       compensation=stage.compensation, position=len(codes)))
        record_audit(s, actor, t.id, "add_stage", {"stage": stage.id})

    # --- reading a tournament back ---
    def context(self, tournament: int) -> tuple[db.Tournament, list[model.Player], list[model.Stage]]:
        """The tournament row, its players and stages (what a form needs to offer)."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            return t, players_in(s, t.id), stages_in(s, t.id)

    def tournament(self, tournament: int) -> model.Tournament:
        """The tournament as the core knows it, from the confirmed revisions only."""
        with self.store.read() as s, gc_paused():
            t = tournament_row(s, tournament)
            games = decode_games(confirmed_texts(s, t.id))
            return model.Tournament(
                format=t.format, name=t.name, rules=t.rules, participants=t.participants,
                rule_options=dict(t.rule_options), players=players_in(s, t.id),
                stages=stages_in(s, t.id), games=games, lots=list(t.lots),
                lot_draws=[model.LotDraw(seed=d["seed"], group=list(d["group"]),
                                         order=list(d["order"])) for d in t.lot_draws],
                teams=teams_in(s, t.id),
                # the JSON column gives Decimal; free-form numbers are floats in the model
                other=plain_json(dict(t.other)))

    export = tournament

    def audit_log(self, tournament: int, *, actor: str
                  ) -> list[tuple[dt.datetime, str, str, dict[str, Any]]]:
        """The tournament's audit log, oldest first: its staff's to read (the rights
        model's `MANAGE`), since it names every account and what it did."""
        with self.store.read() as s:
            require(s, actor, Act.MANAGE, TournamentRef(tournament_row(s, tournament).id))
            rows = s.scalars(select(db.AuditEntry).where(db.AuditEntry.tournament_id == tournament)
                             .order_by(db.AuditEntry.id))
            return [(aware(r.at), r.user_name, r.action, dict(r.detail)) for r in rows]

    # --- import ---
    def import_file(self, data: bytes | str, *, actor: str = IMPORT_AUTHOR,
                    progress: Callable[[ImportProgress], None] | None = None) -> int:
        """Import a format-1 file: checked whole first, then written in one transaction
        (all or nothing); its games become confirmed revisions authored by `actor`."""
        loaded = load_tournament(data, invariants=True)
        return self.import_loaded(loaded, actor=actor, progress=progress)

    def import_loaded(self, loaded: LoadedTournament, *, actor: str = IMPORT_AUTHOR,
                      progress: Callable[[ImportProgress], None] | None = None) -> int:
        src = loaded.tournament
        total = len(src.games)
        with self.store.write() as s, gc_paused():
            t = db.Tournament(
                name=src.name, rules=src.rules, format=src.format,
                participants=src.participants, rule_options=dict(src.rule_options),
                lots=list(src.lots),
                lot_draws=[{"seed": d.seed, "group": list(d.group), "order": list(d.order)}
                           for d in src.lot_draws],
                other=dict(src.other))
            s.add(t)
            s.flush()
            author = user_row(s, actor)
            s.add(db.RoleGrant(user_id=author.id, tournament_id=t.id, role=ORGANIZER))
            stage_ids = add_players_and_stages(s, t, src.players, src.stages)
            add_teams(s, t.id, src.teams)  # format 1 `teams` (docs/teams.md)
            tables = new_tables(s, stage_ids, [(g.stage, g.round, g.table) for g in src.games])
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
            record_audit(s, actor, t.id, "import",
                         {"name": src.name, "games": total, "players": len(src.players)})
            return t.id


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
    "TournamentSummary",
    "Tournaments",
    "confirmed_texts",
    "decode_game",
    "decode_games",
    "diff_dicts",
    "encode_game",
    "encode_game_dict",
    "new_tables",
    "protocol_dict",
    "record_conflict",
    "revision_info",
]
