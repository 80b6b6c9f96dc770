"""A live game's revisions, on SQLite and PostgreSQL: the storage
grows linearly with the operations (each draft stores its log's events once, in
`game_log_events`), every old revision reads back exactly as it was saved (undos
included), a lost race stores nothing, and migration 0013 moves the drafts both ways."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from sqlalchemy import Engine, func, select

from mafiatab.sample import sample_tournament
from mafiatab.sample_live import ROLES, next_tap
from mafiatab.services.errors import ConflictError
from mafiatab.services.facade import Services
from mafiatab.services.live_log import Op, apply_ops, load, with_facts
from mafiatab.storage import models as db
from mafiatab.storage.engine import current_revision, upgrade
from mafiatab.web.demo import populate


class Recorder:
    """The judge of one open table, one operation a batch; every third takes the last
    tap back. Keeps what each revision held when it was saved."""

    def __init__(self, engine: Engine, folder: Path) -> None:
        demo = populate(engine, sample_tournament("fsm", 10, 2, seed=2026, final_round=True,
                                                  name="Live cup"), folder / "live.sqlite")
        self.svc = Services(engine)
        self.tid, self.code = demo.tournament, demo.open_games[0]
        self.fouls: dict[int, int] = {}
        self.n = 0
        self.saved: dict[int, dict[str, Any]] = {}

    def op(self) -> Op | None:
        live = load(self.svc.games, self.tid, self.code)
        if self.n % 3 == 2 and live.ids:
            return Op(id=f"undo-{self.n + 1}", seq=live.seq + 1, undo=live.ids[-1])
        event = next_tap(live, self.fouls)
        return None if event is None else Op(id=f"tap-{self.n + 1}", seq=live.seq + 1,
                                             event=event)

    def step(self) -> bool:
        live = load(self.svc.games, self.tid, self.code)
        op = self.op()
        if op is None:
            return False
        after, applied, _ = apply_ops(self.svc.games, self.svc.protocols, self.tid, self.code,
                                      [op], actor="judge1", base_revision=live.revision.number)
        assert applied == 1
        self.n += 1
        self.saved[after.revision.number] = after.revision.protocol
        return True

    def stored_bytes(self) -> int:
        with self.svc.store.read() as s:
            gid = self.game_id(s)
            revs = s.execute(select(db.ProtocolRevision.protocol, db.ProtocolRevision.changes)
                             .where(db.ProtocolRevision.game_id == gid)).all()
            events = s.execute(select(db.GameLogEvent.event, db.GameLogEvent.op_id)
                               .where(db.GameLogEvent.game_id == gid)).all()
        return (sum(len(p) + len(json.dumps(c, default=str)) for p, c in revs)
                + sum(len(e) + len(o or "") for e, o in events))

    def game_id(self, s: Any) -> int:
        gid: int = s.scalar(select(db.Game.id).where(db.Game.tournament_id == self.tid,
                                                     db.Game.code == self.code))
        return gid

    def events_stored(self) -> int:
        with self.svc.store.read() as s:
            return int(s.scalar(select(func.count()).select_from(db.GameLogEvent)
                                .where(db.GameLogEvent.game_id == self.game_id(s))) or 0)

    def read_back(self) -> dict[int, dict[str, Any]]:
        return {r.number: r.protocol
                for r in self.svc.games.revisions(self.tid, self.code) if r.number in self.saved}


def test_storage_grows_linearly_and_reads_back(engine: Engine, tmp_path: Path) -> None:
    rec = Recorder(engine, tmp_path)
    sizes = {}
    while rec.n < 120 and rec.step():
        if rec.n in (30, 60, 120):
            sizes[rec.n] = rec.stored_bytes()
    assert rec.n == 120
    # whole protocols with their logs grew x3.2 and x3.5 per doubling (quadratic: x4)
    assert sizes[60] / sizes[30] < 2.3, sizes
    assert sizes[120] / sizes[60] < 2.3, sizes
    # rows stored once each: a tap's event, and an undo's id and the id of the tap it took
    # back (the ids the screen's retries are recognised by): 80 taps, 40 undos
    assert rec.events_stored() == 80 + 2 * 40
    # every revision, an undone one too, reads back as it was saved
    assert rec.read_back() == rec.saved
    logs = [len(p.get("log") or []) for _n, p in sorted(rec.saved.items())]
    assert max(logs) > 40 and any(b < a for a, b in zip(logs, logs[1:], strict=False))
    # the live screen still knows every applied operation: a retried tap is skipped
    live = load(rec.svc.games, rec.tid, rec.code)
    retried = Op(id="tap-1", seq=1, event={"type": "deal", "roles": ROLES})
    _after, applied, skipped = apply_ops(rec.svc.games, rec.svc.protocols, rec.tid, rec.code,
                                         [retried], actor="judge1",
                                         base_revision=live.revision.number)
    assert (applied, skipped) == (0, 1)
    assert {"undo-3", "tap-1"} <= live.done


def test_lost_race_stores_no_event(engine: Engine, tmp_path: Path) -> None:
    """Two saves on one base (two devices): one wins, the loser stores no event row."""
    rec = Recorder(engine, tmp_path)
    for _ in range(5):
        rec.step()
    live = load(rec.svc.games, rec.tid, rec.code)
    event = next_tap(live, dict(rec.fouls))
    assert event is not None
    game = with_facts(msgspec.structs.replace(live.game, log=[*live.log, event]), live.profile)
    base = live.revision.number
    rec.svc.protocols.save_draft(rec.tid, rec.code, game, actor="judge1", base_revision=base)
    stored = rec.events_stored()
    other = with_facts(msgspec.structs.replace(
        live.game, log=[*live.log, {**event, "at": "2026-01-01T10:00:00Z"}]), live.profile)
    with pytest.raises(ConflictError):
        rec.svc.protocols.save_draft(rec.tid, rec.code, other, actor="headjudge",
                                     base_revision=base)
    assert rec.events_stored() == stored
    assert rec.read_back() == rec.saved


def test_migration_moves_drafts_both_ways(engine: Engine, tmp_path: Path) -> None:
    rec = Recorder(engine, tmp_path)
    for _ in range(20):
        rec.step()
    _downgrade(engine, "0012")  # down: every draft whole again
    assert current_revision(engine) == "0012"
    with engine.connect() as c:
        texts = dict(c.execute(select(db.ProtocolRevision.number, db.ProtocolRevision.protocol)
                               .join(db.Game, db.Game.id == db.ProtocolRevision.game_id)
                               .where(db.Game.code == rec.code)).all())
    assert {n: json.loads(texts[n]) == json.loads(json.dumps(p, default=float))
            for n, p in rec.saved.items()} == dict.fromkeys(rec.saved, True)
    upgrade(engine)  # up: the drafts' logs into event rows again
    assert rec.read_back() == rec.saved
    assert 0 < rec.events_stored() <= 20
    with engine.connect() as c:
        linked = c.scalar(select(func.count()).select_from(db.ProtocolRevision)
                          .where(db.ProtocolRevision.log_length.is_not(None)))
    assert linked == len(rec.saved)


def _downgrade(engine: Engine, revision: str) -> None:
    from alembic import command

    from mafiatab.storage.engine import _alembic_config, writer  # noqa: PLC2701

    with writer(engine).begin() as conn:
        command.downgrade(_alembic_config(conn), revision)
