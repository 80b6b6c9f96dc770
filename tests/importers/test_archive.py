"""The tournament archive: a stored tournament with everything a tournament day leaves
(drafts and returned protocols, a seating not played yet, judges, a schedule, an appeal
decided with its thread, a protest withdrawn, an audit log), exported, imported back on
SQLite and PostgreSQL, and exported again: the very same bytes. Damaged and
inconsistent archives are refused whole."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from mafiatab.domain.appeals import Change, Filing, Kind, Outcome, Subject
from mafiatab.domain.problems import ProtocolRefused
from mafiatab.domain.protocol import SeatScores
from mafiatab.formats import archive as fmt
from mafiatab.formats.tournament_json import dumps_tournament
from mafiatab.services.archive import IMPORT_ACTOR, export_archive, import_archive
from mafiatab.services.facade import Services
from mafiatab.services.web_support import seating_game_id
from mafiatab.storage import models as db
from mafiatab.storage.engine import make_engine, upgrade
from tests.appeals.conftest import HJ, JUDGE, ORG, PLAYER, Cup, make_cup


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    eng = make_engine(db_url)
    upgrade(eng)
    yield eng
    eng.dispose()


def tournament_day(engine: Engine) -> Cup:
    """A cup (tests/appeals) after a day of work on it."""
    cup = make_cup(engine)
    svc, tid, soon = cup.svc, cup.tid, cup.published + timedelta(minutes=10)
    appeal = svc.appeals.file(tid, Filing(kind=Kind.APPEAL, player="p3", game="g1",
                                  subject=Subject.POSITIVE_EXTRA, awarded=Decimal("0"),
                                  claimed=Decimal("0.4"), text="my extra"),
                      actor=PLAYER, now=soon)
    svc.appeals.add_message(tid, appeal.id, "Я просил 0,4", actor=PLAYER, now=soon + timedelta(minutes=1))
    svc.appeals.add_message(tid, appeal.id, "I gave 0", actor=JUDGE, now=soon + timedelta(minutes=2))
    svc.appeals.decide(tid, appeal.id, actor=HJ, outcome=Outcome.ACCEPTED, reason="the best move",
               change=Change(scores={3: SeatScores(extra=Decimal("0.4"))}),
               now=soon + timedelta(minutes=20))
    protest = svc.appeals.file(tid, Filing(kind=Kind.PROTEST, player="p3", game="g2",
                                   text="wrong result"), actor=PLAYER, now=soon)
    svc.appeals.withdraw(tid, protest.id, actor=PLAYER, now=soon + timedelta(minutes=5))
    svc.appeals.set_game_end(tid, "g3", cup.published - timedelta(minutes=3), actor=HJ)
    head = svc.games.head(tid, "g4")
    svc.protocols.save_draft(tid, "g4", head.game_struct(), actor=HJ,
                             base_revision=head.number, reason="typo")
    svc.protocols.submit(tid, "g4", actor=HJ, base_revision=None)
    svc.protocols.send_back(tid, "g4", actor=HJ, reason="check seat 7")
    svc.games.enter_seating(tid, "qual", 5, 1, [f"p{i}" for i in (3, 1, 4, 10, 5, 9, 2, 6, 8, 7)],
                      actor=ORG, judge=JUDGE)
    svc.access.set_visibility(tid, actor=ORG, standings_hidden=True, extras_hidden=False,
                       finished=False)
    return cup


def _members(data: bytes) -> dict[str, Any]:
    _, members = fmt.unpack(data)
    return {name: json.loads(content) for name, content in members.items()}


def _count(engine: Engine) -> int:
    with Session(engine) as s:
        return int(s.scalar(select(func.count()).select_from(db.Tournament)) or 0)


def test_export_import_export_gives_the_same_bytes(engine: Engine) -> None:
    cup = tournament_day(engine)
    first = export_archive(engine, cup.tid)
    done = import_archive(engine, actor="operator", operator=True, data=first)
    assert done.tournament != cup.tid
    again = export_archive(engine, done.tournament)
    assert again == first
    svc = Services(engine)
    assert svc.standings.compute(done.tournament) == svc.standings.compute(cup.tid)
    assert svc.games.revisions(done.tournament, "g4") == svc.games.revisions(cup.tid, "g4")
    with Session(engine) as s:
        server = s.scalars(select(db.AuditEntry).where(db.AuditEntry.tournament_id.is_(None),
                                                       db.AuditEntry.action == "import_archive"))
        entries = list(server)
    assert [(e.user_name, e.detail["tournament"]) for e in entries] == [
        (IMPORT_ACTOR, done.tournament)]
    assert entries[0].detail["sha256"] == fmt.sha256(first)


def test_the_archive_holds_seating_protocols_appeals_and_audit(engine: Engine) -> None:
    cup = tournament_day(engine)
    data = export_archive(engine, cup.tid)
    svc = Services(engine)
    _, raw = fmt.unpack(data)
    assert raw["tournament.json"].decode() == dumps_tournament(svc.tournaments.export(cup.tid))
    m = _members(data)
    states = {g["game"]: [r["state"] for r in g["revisions"]] for g in m["protocols.json"]["games"]}
    assert states["g4"] == ["confirmed", "draft", "submitted", "returned"]
    assert states["g1"] == ["confirmed", "confirmed"]
    assert states[seating_game_id("qual", 5, 1)] == ["draft"]
    seated = [g for g in m["seating.json"]["games"] if g["round"] == 5]
    assert [s["player"] for s in seated[0]["seats"]][:3] == ["p3", "p1", "p4"]
    assert {"game": seated[0]["game"], "user": JUDGE} in m["seating.json"]["judges"]
    assert [r["day"] for r in m["seating.json"]["rounds"]][:4] == [1, 1, 1, 1]
    cases = m["appeals.json"]["cases"]
    assert [(c["kind"], c["status"]) for c in cases] == [("appeal", "decided"),
                                                        ("protest", "withdrawn")]
    assert [msg["text"] for msg in cases[0]["messages"]][:2] == ["Я просил 0,4", "I gave 0"]
    assert cases[0]["decision"]["revision"] == 2
    actions = [e["action"] for e in m["audit.json"]["entries"]]
    assert actions == [a for _, _, a, _ in svc.tournaments.audit_log(cup.tid, actor=ORG)]
    assert {"user": HJ, "role": "head_judge"} in m["access.json"]["roles"]
    assert m["access.json"]["web"] == {"standings_hidden": True, "finished": False}
    ended = next(g for g in m["protocols.json"]["games"] if g["game"] == "g3")["ended_at"]
    assert ended is not None
    assert "password" not in json.dumps(m["access.json"])


def test_an_archive_moves_from_sqlite_to_another_database_unchanged(tmp_path: Path,
                                                                    engine: Engine) -> None:
    source = make_engine(str(tmp_path / "source.sqlite"))
    upgrade(source)
    cup = tournament_day(source)
    data = export_archive(source, cup.tid)
    source.dispose()
    done = import_archive(engine, actor="operator", operator=True, data=data)
    assert export_archive(engine, done.tournament) == data


def _repack(data: bytes, **changed: bytes) -> bytes:
    manifest, members = fmt.unpack(data)
    members.update(changed)
    about = {k: v for k, v in manifest.items() if k not in ("format", "files")}
    return fmt.pack(members, about)


def _tampered(data: bytes, name: str, content: bytes) -> bytes:
    """The archive with one member replaced but the manifest left as it was."""
    src = zipfile.ZipFile(io.BytesIO(data))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as out:
        for info in src.infolist():
            out.writestr(info, content if info.filename == name else src.read(info.filename))
    return buf.getvalue()


def test_a_changed_member_fails_its_checksum_and_nothing_is_written(engine: Engine) -> None:
    cup = tournament_day(engine)
    data = export_archive(engine, cup.tid)
    _, members = fmt.unpack(data)
    text = members["protocols.json"].replace(b'"check seat 7"', b'"check seat 8"')
    before = _count(engine)
    with pytest.raises(fmt.ArchiveError) as e:
        import_archive(engine, actor="operator", operator=True, data=_tampered(data, "protocols.json", text))
    assert "checksum" in e.value.en
    assert _count(engine) == before


def test_members_that_disagree_are_refused_even_with_a_fresh_manifest(engine: Engine) -> None:
    cup = tournament_day(engine)
    data = export_archive(engine, cup.tid)
    m = _members(data)
    m["protocols.json"]["games"][0]["confirmed_revision"] = 0  # g1 no longer confirmed
    before = _count(engine)
    with pytest.raises(fmt.ArchiveError) as e:
        import_archive(engine, actor="operator", operator=True, data=_repack(data, **{
            "protocols.json": fmt.dumps_member(m["protocols.json"])}))
    assert "tournament.json" in e.value.en
    assert _count(engine) == before


def test_a_tournament_file_that_breaks_the_rules_is_refused(engine: Engine) -> None:
    cup = tournament_day(engine)
    data = export_archive(engine, cup.tid)
    t = json.loads(fmt.unpack(data)[1]["tournament.json"])
    t["games"][0]["seats"][0]["role"] = "sheriff"  # two sheriffs at the table
    before = _count(engine)
    with pytest.raises(ProtocolRefused):
        import_archive(engine, actor="operator", operator=True, data=_repack(data, **{
            "tournament.json": json.dumps(t, ensure_ascii=False).encode()}))
    assert _count(engine) == before


@pytest.mark.parametrize("make", [
    lambda data: b"not a zip",
    lambda data: _tampered(data, "manifest.json", b"{}"),
    lambda data: _tampered(data, "manifest.json", b"[1, 2"),
])
def test_what_is_not_an_archive_is_refused(engine: Engine, make: Any) -> None:
    cup = tournament_day(engine)
    data = export_archive(engine, cup.tid)
    before = _count(engine)
    with pytest.raises(fmt.ArchiveError):
        import_archive(engine, actor="operator", operator=True, data=make(data))
    assert _count(engine) == before


def test_an_extra_member_is_refused(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("../../etc/passwd", b"x")
    with pytest.raises(fmt.ArchiveError) as e:
        fmt.unpack(buf.getvalue())
    assert "unexpected" in e.value.en


def _declaring(sizes: dict[str, int]) -> bytes:
    """An archive of small members whose central directory says they unpack to `sizes`
    (a zip's sizes are what its maker wrote: a liar's archive)."""
    import struct

    members = {name: b"{}" for name in fmt.MEMBERS}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(fmt.MANIFEST, b"{}")
        for name, data in members.items():
            z.writestr(name, data)
    data = bytearray(buf.getvalue())
    at = 0
    while (at := data.find(b"PK\x01\x02", at)) >= 0:  # each central directory entry
        name_len = struct.unpack_from("<H", data, at + 28)[0]
        name = bytes(data[at + 46:at + 46 + name_len]).decode()
        if name in sizes:
            struct.pack_into("<I", data, at + 24, sizes[name])  # uncompressed size
        at += 46
    return bytes(data)


def test_an_archive_that_unpacks_past_the_whole_bound_is_refused_before_unpacking() -> None:
    """Each member under its own bound (512 MiB), together past `MAX_UNPACKED_BYTES`:
    refused from the sizes the archive declares, before any member is unpacked (on main
    the members were read one by one)."""
    each = fmt.MAX_UNPACKED_BYTES // 4
    assert each <= fmt.MAX_MEMBER_BYTES
    liar = _declaring({name: each for name in fmt.MEMBERS[:5]})
    with pytest.raises(fmt.ArchiveError) as e:
        fmt.unpack(liar)
    assert e.value.problems[0].code == "archive_too_large"
    assert "МиБ" in e.value.message("ru") or "байт" in e.value.message("ru")
