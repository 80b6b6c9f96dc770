"""Storage of a game recorded on the live screen: bytes per game.

    .venv/bin/python bench/live_storage.py                       # 30, 60, 120 events, SQLite
    .venv/bin/python bench/live_storage.py --db postgresql+psycopg://postgres@127.0.0.1:5432/mafiatab_bench_live

A PostgreSQL database named here is dropped and made anew (never point it at real data).

Every tap of the live screen is one new draft revision. The bench records one game through
`services.live_log.apply_ops`, one operation a batch (a tap, and every `--undo-every`th the
undo of the last tap, as a judge corrects himself: a game has only so many events, so
120 operations need the undos), on a fresh demo database, twice in one run:

* `before`: every revision a whole protocol with its log (`revision_log` stores no draft's
  log as event rows, and the older bookkeeping is put back: every operation id in
  `live.done`, the trace of a list as both lists);
* `after`: as the program stores it now: a draft's log as rows of `game_log_events`, one
  row per event added (services/revision_log.py), the revision only what is not the log.

It prints the bytes the game's revisions take (protocol text + trace JSON + the event rows'
text) after each of `--events` operations (30, 60, 120 by default: two doublings) and
the growth from each to the next: ×2 per doubling is linear, ×4 quadratic.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import select

from mafiatab.sample import sample_tournament
from mafiatab.sample_live import next_tap
from mafiatab.services import live_log, revision_log, tournaments
from mafiatab.services.facade import Services
from mafiatab.services.live_log import Op, apply_ops, load
from mafiatab.storage import models as db
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import populate
from server import fresh_postgres


def _old_meta(ids: list[str], gone: list[str], seq: int) -> dict[str, Any]:
    return {"ids": ids, "done": sorted(set(ids) | set(gone)), "seq": seq}


def _old_diff(a: Any, b: Any, path: str, out: dict[str, list[Any]]) -> None:
    if a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        out.update(tournaments.diff_dicts(a, b, path + "."))
    elif (isinstance(a, list) and isinstance(b, list) and len(a) == len(b)
          and all(isinstance(x, dict) for x in a + b)):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _old_diff(x, y, f"{path}.{i}", out)
    else:
        out[path] = [a, b]


@contextmanager
def _before() -> Iterator[None]:
    meta, diff = live_log._stored_meta, tournaments._diff_value  # noqa: SLF001 - the baseline
    linked = revision_log.LINKED_STATES
    live_log._stored_meta = _old_meta  # type: ignore[assignment]  # noqa: SLF001
    tournaments._diff_value = _old_diff  # noqa: SLF001
    revision_log.LINKED_STATES = frozenset()  # type: ignore[misc]
    try:
        yield
    finally:
        live_log._stored_meta = meta  # noqa: SLF001
        tournaments._diff_value = diff  # noqa: SLF001
        revision_log.LINKED_STATES = linked  # type: ignore[misc]


def record(events: int, db: str | None, folder: Path, on_event: Callable[[int, int], None],
           undo_every: int = 0) -> int:
    """Record a game of `events` operations on a fresh demo database (SQLite in `folder`,
    or the PostgreSQL database `db` made anew), one a batch: taps, and every `undo_every`th
    an undo of the last tap (0: none); `on_event(n, bytes)` after each. Returns the
    operations recorded."""
    path = folder / "live.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    if db is not None:
        fresh_postgres(db)
    url = db or str(path)
    engine = make_engine(url)
    demo = populate(engine, sample_tournament("fsm", 10, 2, seed=2026, final_round=True,
                                              name="Bench"), path)
    engine.dispose()
    svc = Services(make_engine(url))
    tid, code = demo.tournament, demo.open_games[0]
    judge = "judge1"
    fouls: dict[int, int] = {}
    n = 0
    while n < events:
        live = load(svc.games, tid, code)
        if undo_every and n % undo_every == undo_every - 1 and live.ids:
            # the judge takes his last tap back (and taps it again next)
            op = Op(id=f"undo-{n + 1:04d}", seq=live.seq + 1, undo=live.ids[-1])
        else:
            event = next_tap(live, fouls)
            if event is None:
                break
            op = Op(id=f"tap-{n + 1:04d}", seq=live.seq + 1, event=event)
        apply_ops(svc.games, svc.protocols, tid, code, [op],
                  actor=judge, base_revision=live.revision.number)
        n += 1
        on_event(n, stored_bytes(svc, tid, code))
    svc.engine.dispose()
    return n


def stored_bytes(svc: Services, tid: int, code: str) -> int:
    """The text the game's revisions keep: protocols, traces and the log's event rows."""
    with svc.store.read() as s:
        gid = s.scalar(select(db.Game.id).where(db.Game.tournament_id == tid,
                                                db.Game.code == code))
        rows = s.execute(select(db.ProtocolRevision.protocol, db.ProtocolRevision.changes)
                         .where(db.ProtocolRevision.game_id == gid)).all()
        events = s.execute(select(db.GameLogEvent.event, db.GameLogEvent.op_id)
                           .where(db.GameLogEvent.game_id == gid)).all()
    return (sum(len(p.encode()) + len(json.dumps(c, default=str).encode()) for p, c in rows)
            + sum(len(e.encode()) + len((o or "").encode()) for e, o in events))


def growth(series: dict[int, int], marks: list[int]) -> list[str]:
    """The bytes at each mark and the factor from the mark before."""
    out = []
    for i, m in enumerate(marks):
        text = f"{m} operations {series[m]:,} bytes"
        if i:
            text += f" (x{series[m] / series[marks[i - 1]]:.2f})"
        out.append(text)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--events", type=int, nargs="+", default=[30, 60, 120])
    ap.add_argument("--db", help="PostgreSQL URL (dropped and made anew); default SQLite")
    ap.add_argument("--undo-every", type=int, default=3,
                    help="every Nth operation takes the last tap back (0: never)")
    args = ap.parse_args()
    wanted = max(args.events)
    results: dict[str, dict[int, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label in ("before", "after"):
            series: dict[int, int] = {}

            def note(n: int, size: int, series: dict[int, int] = series) -> None:
                series[n] = size

            if label == "before":
                with _before():
                    got = record(wanted, args.db, Path(tmp), note, args.undo_every)
            else:
                got = record(wanted, args.db, Path(tmp), note, args.undo_every)
            results[label] = series
            marks = [m for m in sorted(args.events) if m <= got]
            print(f"{label:>6} ({'PostgreSQL' if args.db else 'SQLite'}): "
                  + "; ".join(growth(series, marks))
                  + f"; {series[got] / got:,.0f} bytes per operation at {got}"
                  + " (x2 a doubling: linear, x4: quadratic)")
    b, a = results["before"], results["after"]
    n = min(max(b), max(a))
    print(f"after/before at {n} events: {a[n] / b[n]:.3f} ({b[n] - a[n]:,} bytes less)")


if __name__ == "__main__":
    main()
