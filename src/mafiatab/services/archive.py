"""A tournament of the database as one archive, and back.

`export_archive` reads everything the database keeps of one tournament in one read
transaction and packs it (`formats.archive`); `import_archive` verifies an archive
whole (manifest, checksums, the format-1 file against the rules, every revision's
protocol, the consistency of the members) and only then writes it as a new tournament in
one transaction: all or nothing. Exported again, the new tournament gives the same bytes.

What is not archived, on purpose: sign-in codes and passwords (secrets of the server the
tournament ran on; the new server issues its own), and ids of the database rows (the
archive names everything by the ids the tournament uses: game and player codes, account
names). The import itself is recorded in the server's audit log (an entry with no
tournament, naming the new one and the archive's checksum), so that the tournament's own
log stays as it was archived.

The archive's roles (and players' account links, which count as the player role) name
accounts by name. One that the import makes is given what the archive says; one that
exists here already is given it only when the rights model lets the importer restore a
role on that account (`rights.Act.RESTORE_ROLE`): else an archive could hand its
importer an account he cannot reach. A refused role is not restored and is listed in
the import's report (`ImportedArchive.refused`, with the refusal's words) and in the
audit entry of the import, never dropped silently. The server's operator (the command
line, which holds the database itself) restores every role.

Players' photos travel as the JPEG files the server made (`photos/<sha256>.jpg`). An
import takes none on trust: each file, bounded as an upload is, goes through the upload's
Pillow path (`photos.normalise`); it is kept byte for byte only when it is exactly a file
of our own form (a `SIDE`-pixel square baseline JPEG with no metadata segment and nothing
after its end), else the re-encoding is stored; so a photo moves between servers unchanged
and the archive still exports back to the same bytes.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final

from sqlalchemy import Engine, insert, select
from sqlalchemy.orm import Session

from mafiatab.domain import protocol as model
from mafiatab.domain.problems import ProtocolRefused
from mafiatab.formats import archive as fmt
from mafiatab.formats.tournament_json import dumps_tournament, read_tournament
from mafiatab.services.gc_pause import gc_paused
from mafiatab.services.photos import SIDE, PhotoRefused, normalise
from mafiatab.services.revision_log import whole
from mafiatab.services.rights import AccountRef, Act, Known, RightsDenied, decide
from mafiatab.services.store import add_players_and_stages, players_in
from mafiatab.services.tournament_file import load_tournament
from mafiatab.services.tournaments import NotFound, decode_game, decode_games
from mafiatab.storage import models as db
from mafiatab.storage.engine import writer

#: the account that the server's audit entry of an import names
IMPORT_ACTOR: Final = "import-archive"
#: rows per bulk insert
CHUNK: Final = 1000


@dataclass(frozen=True, slots=True)
class RefusedRole:
    """An archived role the rights model did not let the importer restore."""

    user: str
    role: str
    refusal: RightsDenied


@dataclass(frozen=True, slots=True)
class ImportedArchive:
    tournament: int
    name: str
    games: int
    revisions: int
    cases: int
    audit: int
    #: the archive's roles not restored, in the archive's order
    refused: tuple[RefusedRole, ...] = ()


def _iso(value: dt.datetime | None) -> str | None:
    """A time as UTC ISO text (SQLite gives naive times back; they were written in UTC)."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return value.astimezone(dt.UTC).isoformat()


def _time(value: Any) -> dt.datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _Inconsistent(f"a time was expected, got {value!r}")
    return dt.datetime.fromisoformat(value)


class _Inconsistent(Exception):
    """Members of an archive that do not agree with each other."""


def _json(data: bytes) -> Any:
    # exact decimals, as the database's JSON columns hold them
    return json.loads(data, parse_float=Decimal)


# --- export ----------------------------------------------------------------------------


def export_archive(engine: Engine, tournament: int) -> bytes:
    """The archive of a stored tournament (see `formats.archive` for its members)."""
    with Session(engine) as s, s.begin(), gc_paused():
        t = s.get(db.Tournament, tournament)
        if t is None:
            raise NotFound("no_tournament", ref=str(tournament))
        members = _gather(s, t)
        about = {"tournament": t.name, "rules": t.rules, "created_at": _iso(t.created_at)}
    return fmt.pack(members, about)


def _gather(s: Session, t: db.Tournament) -> dict[str, bytes]:
    tid = t.id
    players = players_in(s, tid)
    stage_rows = list(s.scalars(select(db.Stage).where(db.Stage.tournament_id == tid)
                                .order_by(db.Stage.position)))
    stage_code = {st.id: st.code for st in stage_rows}
    rounds = list(s.execute(
        select(db.Round.id, db.Round.stage_id, db.Round.number)
        .join(db.Stage, db.Stage.id == db.Round.stage_id)
        .where(db.Stage.tournament_id == tid).order_by(db.Stage.position, db.Round.number)))
    round_key = {rid: (stage_code[sid], n) for rid, sid, n in rounds}
    times = {rt.round_id: rt for rt in s.scalars(
        select(db.RoundTime).where(db.RoundTime.round_id.in_(list(round_key))))}
    tables = list(s.execute(
        select(db.GameTable.id, db.GameTable.round_id, db.GameTable.number)
        .where(db.GameTable.round_id.in_(list(round_key)))
        .order_by(db.GameTable.round_id, db.GameTable.number)))
    table_key = {tb: (*round_key[rid], n) for tb, rid, n in tables}
    users: dict[int, db.User] = {}
    games = list(s.scalars(select(db.Game).where(db.Game.tournament_id == tid)
                           .order_by(db.Game.position)))
    ended = {gt.game_id: gt.ended_at for gt in s.scalars(
        select(db.GameTime).where(db.GameTime.game_id.in_([g.id for g in games])))}
    revs: dict[int, list[db.ProtocolRevision]] = {}
    for rev in s.scalars(select(db.ProtocolRevision)
                         .join(db.Game, db.Game.id == db.ProtocolRevision.game_id)
                         .where(db.Game.tournament_id == tid)
                         .order_by(db.ProtocolRevision.game_id, db.ProtocolRevision.number)):
        revs.setdefault(rev.game_id, []).append(rev)
    named: set[int] = set()

    def author(uid: int) -> str:
        """An account's name (only the accounts the tournament names are archived)."""
        if uid not in users:
            user = s.get(db.User, uid)
            assert user is not None
            users[uid] = user
        named.add(uid)
        return users[uid].name

    confirmed: list[str] = []
    protocol_games: list[dict[str, Any]] = []
    seating_games: list[dict[str, Any]] = []
    for g in games:
        history = revs.get(g.id, [])
        by_number = {r.number: r for r in history}
        if g.confirmed_revision:
            confirmed.append(whole(s, by_number[g.confirmed_revision]))
        stage, rnd, table = table_key[g.table_id]
        protocol_games.append({
            "game": g.code, "position": g.position, "head_revision": g.head_revision,
            "confirmed_revision": g.confirmed_revision, "ended_at": _iso(ended.get(g.id)),
            "revisions": [{"number": r.number, "state": r.state, "author": author(r.author_id),
                           "created_at": _iso(r.created_at), "reason": r.reason,
                           "changes": r.changes, "protocol": _json(whole(s, r).encode())}
                          for r in history]})
        head = by_number.get(g.head_revision)
        seats = decode_game(whole(s, head)).seats if head is not None else []
        seating_games.append({"game": g.code, "stage": stage, "round": rnd, "table": table,
                              "seats": [{"seat": x.seat, "player": x.player, "role": x.role}
                                        for x in seats]})
    tournament = model.Tournament(
        format=t.format, name=t.name, rules=t.rules, participants=t.participants,
        rule_options=dict(t.rule_options), players=players,
        stages=[model.Stage(id=st.code, name=st.name, kind=st.kind,
                            compensation=st.compensation) for st in stage_rows],
        games=decode_games(confirmed), lots=list(t.lots),
        lot_draws=[model.LotDraw(seed=d["seed"], group=list(d["group"]), order=list(d["order"]))
                   for d in t.lot_draws],
        other=_plain(dict(t.other)))
    seating = {
        "rounds": [{"stage": round_key[rid][0], "round": round_key[rid][1],
                    "day": times[rid].day if rid in times else None,
                    "starts_at": _iso(times[rid].starts_at) if rid in times else None}
                   for rid, _sid, _n in rounds],
        "tables": [{"stage": k[0], "round": k[1], "table": k[2]} for k in table_key.values()],
        "games": seating_games,
        "judges": [{"game": a.game_code, "user": a.user_name} for a in s.scalars(
            select(db.Assignment).where(db.Assignment.tournament_id == tid)
            .order_by(db.Assignment.game_code, db.Assignment.user_name))],
    }
    cases = []
    for c in s.scalars(select(db.AppealCase).where(db.AppealCase.tournament_id == tid)
                       .order_by(db.AppealCase.number)):
        decision = s.scalar(select(db.AppealDecision).where(db.AppealDecision.case_id == c.id))
        cases.append({
            "number": c.number, "game": c.game_code, "player": c.player_code, "kind": c.kind,
            "subject": c.subject, "status": c.status, "filing": c.filing, "clause": c.clause,
            "filed_at": _iso(c.filed_at), "filed_by": c.filed_by,
            "messages": [{"author": m.author, "role": m.role, "at": _iso(m.at), "text": m.text}
                         for m in s.scalars(select(db.AppealMessage)
                                            .where(db.AppealMessage.case_id == c.id)
                                            .order_by(db.AppealMessage.id))],
            "decision": None if decision is None else {
                "decision": decision.decision, "outcome": decision.outcome,
                "decided_by": decision.decided_by, "decided_at": _iso(decision.decided_at),
                "revision": decision.revision, "changes": decision.changes,
                "warnings": decision.warnings},
        })
    appeal_settings = s.get(db.AppealSettings, tid)
    appeals = {"tables_closed_at": _iso(appeal_settings.tables_closed_at)
               if appeal_settings is not None else None,
               "cases": cases}
    audit = {"entries": [{"at": _iso(a.at), "user": a.user_name, "action": a.action,
                          "detail": a.detail}
                         for a in s.scalars(select(db.AuditEntry)
                                            .where(db.AuditEntry.tournament_id == tid)
                                            .order_by(db.AuditEntry.id))]}
    roles = [{"user": author(uid), "role": role} for uid, role in s.execute(
        select(db.RoleGrant.user_id, db.RoleGrant.role)
        .where(db.RoleGrant.tournament_id == tid))]
    roles.sort(key=lambda r: (r["user"], r["role"]))
    player_users = [{"player": code, "user": author(uid)} for code, uid in s.execute(
        select(db.PlayerUser.player_code, db.PlayerUser.user_id)
        .where(db.PlayerUser.tournament_id == tid))]
    player_users.sort(key=lambda r: r["player"])
    photo_rows = list(s.scalars(select(db.PlayerPhoto).where(db.PlayerPhoto.tournament_id == tid)
                                .order_by(db.PlayerPhoto.player_code)))
    photos = {"format": "mafiatab.archive.photos/1",
              "photos": [{"player": p.player_code, "file": _photo_file(p.image),
                          "by_user": p.by_user, "at": _iso(p.at)} for p in photo_rows]}
    web = s.get(db.WebSettings, tid)
    access = {
        "confirmer_must_differ": t.confirmer_must_differ,
        "hide_extras_until_end": t.hide_extras_until_end,
        "created_at": _iso(t.created_at),
        "web": None if web is None else {"standings_hidden": web.standings_hidden,
                                         "finished": web.finished},
        "roles": roles, "player_users": player_users,
        "users": sorted(({"name": users[u].name, "display_name": users[u].display_name}
                         for u in named), key=lambda u: str(u["name"])),
    }
    return {
        "tournament.json": dumps_tournament(tournament).encode("utf-8"),
        "seating.json": fmt.dumps_member({"format": "mafiatab.archive.seating/1", **seating}),
        "protocols.json": fmt.dumps_member({"format": "mafiatab.archive.protocols/1",
                                            "games": protocol_games}),
        "appeals.json": fmt.dumps_member({"format": "mafiatab.archive.appeals/1", **appeals}),
        "audit.json": fmt.dumps_member({"format": "mafiatab.archive.audit/1", **audit}),
        "access.json": fmt.dumps_member({"format": "mafiatab.archive.access/1", **access}),
        "photos.json": fmt.dumps_member(photos),
        **{_photo_file(p.image): p.image for p in photo_rows},
    }


def _photo_file(image: bytes) -> str:
    return f"photos/{fmt.sha256(image)}.jpg"


#: the JPEG segments our own photos have (Pillow's baseline JPEG: JFIF, tables, frame)
_OWN_SEGMENTS: Final = frozenset({0xE0, 0xDB, 0xC0, 0xC4, 0xDD})


def _own_form(data: bytes) -> bool:
    """Whether a JPEG is exactly of the form `photos.normalise` writes: SOI, only the
    segments of `_OWN_SEGMENTS` with one `SIDE`-pixel square frame, one scan, and EOI as
    the file's last two bytes (no EXIF, comment or data glued behind)."""
    if data[:2] != b"\xff\xd8":
        return False
    i, frame = 2, False
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if marker == 0xDA:  # the scan: entropy-coded data up to the end marker
            start = i + 2 + length
            end = data.find(b"\xff\xd9", start)
            return frame and end == len(data) - 2 and all(
                data[k + 1] == 0 or 0xD0 <= data[k + 1] <= 0xD7
                for k in range(start, end) if data[k] == 0xFF)
        if marker not in _OWN_SEGMENTS or length < 2:
            return False
        if marker == 0xC0:
            height = int.from_bytes(data[i + 5:i + 7], "big")
            width = int.from_bytes(data[i + 7:i + 9], "big")
            if (width, height) != (SIDE, SIDE) or frame:
                return False
            frame = True
        i += 2 + length
    return False


def restore_photo(data: bytes) -> bytes:
    """An archived photo as it is stored: through the upload's Pillow path (a file it
    refuses is refused, `PhotoRefused`); the file itself when it is of our own form,
    else the re-encoding."""
    image = normalise(data)
    return data if _own_form(data) else image


def _plain(value: Any) -> Any:
    """Free-form values as the format-1 reader gives them (floats for fractions)."""
    from mafiatab.formats.tournament_json import plain_json

    return plain_json(value)


# --- import ----------------------------------------------------------------------------


def import_archive(engine: Engine, data: bytes, *, actor: str,
                   operator: bool = False) -> ImportedArchive:
    """Verify an archive whole, then write it as a new tournament in one transaction, for
    `actor` (each role on an account that exists here is the rights model's to restore),
    or for the server's operator (`operator`: the command line, which restores all).

    Raises `fmt.ArchiveError` for an archive that is damaged or inconsistent and
    `ProtocolRefused` when its format-1 file breaks the rules; nothing is written then.
    """
    manifest, members = fmt.unpack(data)
    try:
        return _import(engine, data, manifest, members, actor, operator)
    except (_Inconsistent, KeyError, TypeError, ValueError) as e:
        if isinstance(e, fmt.ArchiveError | ProtocolRefused):
            raise
        raise fmt.ArchiveError("archive_inconsistent", detail=str(e)) from None


def _import(engine: Engine, data: bytes, manifest: dict[str, Any],
            members: dict[str, bytes], actor: str, operator: bool) -> ImportedArchive:
    text = members["tournament.json"]
    load_tournament(text, invariants=True)  # the rules: a refused file raises ProtocolRefused
    src, _ = read_tournament(text)
    assert src is not None
    seating = _json(members["seating.json"])
    protocols = _json(members["protocols.json"])
    appeals = _json(members["appeals.json"])
    audit = _json(members["audit.json"])
    access = _json(members["access.json"])
    photos = _photos(members, {p.id for p in src.players})
    stages = {st.id for st in src.stages}
    by_code = {g.id: g for g in src.games}
    places = {g["game"]: (g["stage"], g["round"], g["table"]) for g in seating["games"]}
    confirmed_codes = []
    texts: dict[tuple[str, int], str] = {}
    for g in protocols["games"]:
        numbers = [r["number"] for r in g["revisions"]]
        if numbers != list(range(1, len(numbers) + 1)) or g["head_revision"] != len(numbers):
            raise _Inconsistent(f"game {g['game']}: revisions are not 1..{g['head_revision']}")
        for r in g["revisions"]:
            texts[(g["game"], r["number"])] = text_ = _protocol_text(r["protocol"])
            decode_game(text_)
            if r["state"] not in db.STATES:
                raise _Inconsistent(f"game {g['game']}: state {r['state']!r}")
        if g["confirmed_revision"]:
            rev = g["revisions"][g["confirmed_revision"] - 1]
            if rev["state"] != db.CONFIRMED:
                raise _Inconsistent(f"game {g['game']}: revision {rev['number']} is not "
                                    "confirmed")
            confirmed_codes.append(g["game"])
            if g["game"] not in by_code:
                raise _Inconsistent(f"game {g['game']}: confirmed but not in tournament.json")
        if g["game"] not in places or places[g["game"]][0] not in stages:
            raise _Inconsistent(f"game {g['game']}: no place in seating.json")
    if confirmed_codes != [g.id for g in src.games]:
        raise _Inconsistent("the confirmed games differ from tournament.json's")
    with Session(writer(engine), expire_on_commit=False) as s, s.begin(), gc_paused():
        created = _time(access["created_at"])
        t = db.Tournament(name=src.name, rules=src.rules, format=src.format,
                          participants=src.participants, rule_options=dict(src.rule_options),
                          lots=list(src.lots),
                          lot_draws=[{"seed": d.seed, "group": list(d.group),
                                      "order": list(d.order)} for d in src.lot_draws],
                          other=dict(src.other),
                          confirmer_must_differ=bool(access["confirmer_must_differ"]),
                          hide_extras_until_end=bool(access["hide_extras_until_end"]),
                          **({"created_at": created} if created is not None else {}))
        s.add(t)
        s.flush()
        users, existing = _users(s, access["users"])
        known = Known()
        known.load(s, [actor, *existing])
        refused: list[RefusedRole] = []

        def restored(user: str, role: str) -> bool:
            """Whether the archive's `role` of `user` is restored (else it is reported)."""
            if operator or user not in existing:
                return True
            no = decide(s, actor, Act.RESTORE_ROLE, AccountRef(user, t.id, role), known=known)
            if no is not None:
                refused.append(RefusedRole(user, role, no))
            return no is None
        stage_ids = add_players_and_stages(s, t, src.players, src.stages)
        round_keys = [(r["stage"], r["round"]) for r in seating["rounds"]]
        round_ids = dict(zip(round_keys, _bulk(s, db.Round, [
            {"stage_id": stage_ids[stage], "number": n} for stage, n in round_keys]),
            strict=True))
        times = [{"round_id": round_ids[(r["stage"], r["round"])], "day": r["day"],
                  "starts_at": _time(r["starts_at"])}
                 for r in seating["rounds"] if r["starts_at"] is not None]
        if times:
            s.execute(insert(db.RoundTime), times)
        table_keys = [(tb["stage"], tb["round"], tb["table"]) for tb in seating["tables"]]
        table_ids = dict(zip(table_keys, _bulk(s, db.GameTable, [
            {"round_id": round_ids[(stage, rnd)], "number": n} for stage, rnd, n in table_keys]),
            strict=True))
        games = protocols["games"]
        game_ids = _bulk(s, db.Game, [
            {"tournament_id": t.id, "table_id": table_ids[places[g["game"]]], "code": g["game"],
             "position": g["position"], "head_revision": g["head_revision"],
             "confirmed_revision": g["confirmed_revision"]} for g in games])
        rows = [{"game_id": gid, "number": r["number"], "state": r["state"],
                 "protocol": texts[(g["game"], r["number"])], "author_id": users[r["author"]],
                 "created_at": _time(r["created_at"]), "reason": r["reason"],
                 "changes": r["changes"]}
                for gid, g in zip(game_ids, games, strict=True) for r in g["revisions"]]
        for i in range(0, len(rows), CHUNK):
            s.execute(insert(db.ProtocolRevision), rows[i:i + CHUNK])
        revisions = len(rows)
        ended = [{"game_id": gid, "ended_at": _time(g["ended_at"])}
                 for gid, g in zip(game_ids, games, strict=True) if g["ended_at"] is not None]
        if ended:
            s.execute(insert(db.GameTime), ended)
        for a in seating["judges"]:
            s.add(db.Assignment(tournament_id=t.id, game_code=a["game"], user_name=a["user"]))
        for grant in access["roles"]:
            if restored(grant["user"], grant["role"]):
                s.add(db.RoleGrant(user_id=users[grant["user"]], tournament_id=t.id,
                                   role=grant["role"]))
        for pu in access["player_users"]:
            if restored(pu["user"], db.PLAYER):
                s.add(db.PlayerUser(tournament_id=t.id, player_code=pu["player"],
                                    user_id=users[pu["user"]]))
        if access["web"] is not None:
            s.add(db.WebSettings(tournament_id=t.id, **access["web"]))
        if appeals["tables_closed_at"] is not None:
            s.add(db.AppealSettings(tournament_id=t.id,
                                    tables_closed_at=_time(appeals["tables_closed_at"])))
        for c in appeals["cases"]:
            case = db.AppealCase(tournament_id=t.id, number=c["number"], game_code=c["game"],
                                 player_code=c["player"], kind=c["kind"], subject=c["subject"],
                                 status=c["status"], filing=c["filing"], clause=c["clause"],
                                 filed_at=_time(c["filed_at"]), filed_by=c["filed_by"])
            s.add(case)
            s.flush()
            for m in c["messages"]:
                s.add(db.AppealMessage(case_id=case.id, author=m["author"], role=m["role"],
                                       at=_time(m["at"]), text=m["text"]))
            d = c["decision"]
            if d is not None:
                s.add(db.AppealDecision(case_id=case.id, decision=d["decision"],
                                        outcome=d["outcome"], decided_by=d["decided_by"],
                                        decided_at=_time(d["decided_at"]),
                                        revision=d["revision"], changes=d["changes"],
                                        warnings=d["warnings"]))
        for player, (image, by_user, at) in photos.items():
            s.add(db.PlayerPhoto(tournament_id=t.id, player_code=player, image=image,
                                 digest=fmt.sha256(image), by_user=by_user,
                                 **({"at": at} if at is not None else {})))
        entries = audit["entries"]
        if entries:
            s.execute(insert(db.AuditEntry), [
                {"at": _time(e["at"]), "user_name": e["user"], "tournament_id": t.id,
                 "action": e["action"], "detail": e["detail"]} for e in entries])
        detail: dict[str, Any] = {"tournament": t.id, "name": src.name,
                                  "sha256": fmt.sha256(data),
                                  "exported_from": manifest.get("tournament")}
        if refused:
            detail["not_restored"] = [{"user": r.user, "role": r.role, "why": r.refusal.code}
                                      for r in refused]
        s.add(db.AuditEntry(user_name=IMPORT_ACTOR if operator else actor, tournament_id=None,
                            action="import_archive", detail=detail))
        return ImportedArchive(t.id, src.name, len(protocols["games"]), revisions,
                               len(appeals["cases"]), len(entries), tuple(refused))


def _photos(members: dict[str, bytes], players: set[str]
            ) -> dict[str, tuple[bytes, str, dt.datetime | None]]:
    """The archive's photos (none in a format-1 archive): player -> (the image to store,
    who set it, when), every file re-validated (`restore_photo`)."""
    if "photos.json" not in members:
        return {}
    listed = _json(members["photos.json"])
    out: dict[str, tuple[bytes, str, dt.datetime | None]] = {}
    for p in listed["photos"]:
        player, name = p["player"], p["file"]
        if player not in players or player in out:
            raise _Inconsistent(f"photo of {player!r}: not a player of tournament.json, "
                                "or twice")
        if not isinstance(name, str) or name not in members or not fmt.PHOTO.fullmatch(name):
            raise _Inconsistent(f"photo of {player!r}: no file {name!r}")
        try:
            image = restore_photo(members[name])
        except PhotoRefused as e:
            raise _Inconsistent(f"photo of {player!r}: {e.message('en')}") from None
        out[player] = (image, str(p["by_user"])[:200], _time(p["at"]))
    return out


def _bulk(s: Session, table: type[db.Round] | type[db.GameTable] | type[db.Game],
          rows: list[dict[str, Any]]) -> list[int]:
    """Insert rows in bulk; their new ids in the order given."""
    ids: list[int] = []
    for i in range(0, len(rows), CHUNK):
        ids.extend(s.scalars(insert(table).returning(table.id, sort_by_parameter_order=True),
                             rows[i:i + CHUNK]).all())
    return ids


def _protocol_text(protocol: Any) -> str:
    """The stored text of a revision: the same encoder as every saved protocol."""
    from mafiatab.services.tournaments import encode_game_dict

    return encode_game_dict(protocol)


def _users(s: Session, listed: Iterable[dict[str, Any]]) -> tuple[dict[str, int], set[str]]:
    """The accounts the archive names: the server's account of that name, or a new one
    (without a password: it cannot sign in until the server gives it one); and the names
    of those that existed already."""
    out: dict[str, int] = {}
    existing: set[str] = set()
    for u in listed:
        name = u["name"]
        found = s.scalar(select(db.User.id).where(db.User.name == name))
        if found is not None:
            existing.add(name)
        else:
            user = db.User(name=name, display_name=u.get("display_name"))
            s.add(user)
            s.flush()
            found = user.id
        out[name] = found
    return out, existing


