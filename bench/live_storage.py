"""Storage of a game recorded on the live screen (issue 10 leftover): bytes per game.

    .venv/bin/python bench/live_storage.py              # a 60-event game, one tap a batch
    .venv/bin/python bench/live_storage.py --events 120

Every tap of the live screen is one new draft revision, and a revision is a whole
protocol with its log. What grew with the square of the game was what each revision kept
besides: every operation id ever applied (`live.done`, the log's ids a second time) and a
trace (`changes`) holding the old and the new log whole. The bench records the same game
twice in one run, through `services.live_log.apply_ops` on a fresh SQLite database each:

* `before`: the bookkeeping as it was (every id in `done`; the trace of a list as both
  lists), put back for the run;
* `after`: the bookkeeping as it is (`done` only the ids no longer in the log, the trace
  of a log that grew only the events added).

For each it prints the bytes the game's revisions take (protocol text + trace JSON), per
event and the last revision's, and how the total grows from half the events to all of
them (x4 is quadratic, x2 linear). The log itself is still in every revision (each is a
whole protocol that every reader reads as it is), which is the part that stays
quadratic; its share is printed too.
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

from mafiatab.domain.gamelog_state import Step
from mafiatab.services import live_log, tournaments
from mafiatab.services.facade import Services
from mafiatab.services.live_log import Op, apply_ops, load
from mafiatab.storage import models as db
from mafiatab.storage.engine import make_engine
from mafiatab.web.demo import build_demo

ROLES = ["red", "red", "don", "red", "black", "red", "sheriff", "red", "black", "red"]


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
    live_log._stored_meta = _old_meta  # type: ignore[assignment]  # noqa: SLF001
    tournaments._diff_value = _old_diff  # noqa: SLF001
    try:
        yield
    finally:
        live_log._stored_meta = meta  # noqa: SLF001
        tournaments._diff_value = diff  # noqa: SLF001


def _next_event(live: live_log.LiveGame, fouls: dict[int, int]) -> dict[str, Any] | None:
    """A legal next event, as a judge would tap it (a foul now and then to make the game
    as long as asked); None when the game is over."""
    if not live.dealt:
        return {"type": "deal", "roles": ROLES}
    assert live.replayed is not None
    step = live.replayed.next_step()
    kinds = set(step.kinds)
    at_table = sorted(step.at_table)
    if step.step is Step.ENDED:
        return None
    if step.step is Step.SPEECHES and step.seat is not None:
        seat = step.seat
        if fouls.get(seat, 0) < 2 and len(live.log) % 2 == 0:
            fouls[seat] = fouls.get(seat, 0) + 1
            return {"type": "foul", "seat": seat}
        event: dict[str, Any] = {"type": "speech", "seat": seat}
        today: list[dict[str, Any]] = []
        for e in reversed(live.log):
            if e.get("type") not in ("speech", "foul"):
                break
            today.append(e)
        reds = [s for s in at_table if ROLES[s - 1] == "red" and s != seat]
        if reds and not any("nominates" in e for e in today):
            event["nominates"] = reds[0]
        return event
    if "vote" in kinds and step.candidates:
        return {"type": "vote", "counts": {str(step.candidates[0]): len(at_table)}}
    if "defence" in kinds and step.seat is not None:
        return {"type": "defence", "seat": step.seat}
    if "lift" in kinds:
        return {"type": "lift", "passed": True}
    if "last_words" in kinds and step.last_words:
        return {"type": "last_words", "seat": step.last_words[0]}
    if "shot" in kinds:
        reds = [s for s in at_table if ROLES[s - 1] == "red"]
        shots = sum(1 for e in live.log if e.get("type") == "shot")
        return {"type": "shot", "target": reds[-1] if reds and shots % 2 else None}
    done = {e.get("type") for e in live.log[-3:]}
    if "don_check" in kinds and "don_check" not in done:
        return {"type": "don_check", "target": next(x for x in at_table if x != 3)}
    if "sheriff_check" in kinds and "sheriff_check" not in done:
        return {"type": "sheriff_check", "target": next(x for x in at_table if x != 7)}
    if "speech" in kinds and step.seat is not None:
        return {"type": "speech", "seat": step.seat}
    return None


def record(events: int, db_path: Path, on_event: Callable[[int, int], None]) -> int:
    """Record a game of `events` events on a fresh demo database, one tap a batch;
    `on_event(n, bytes)` after each. Returns the events recorded."""
    demo = build_demo(db_path, players=10, rounds=2)
    svc = Services(make_engine(str(db_path)))
    tid, code = demo.tournament, demo.open_games[0]
    judge = "judge1"
    fouls: dict[int, int] = {}
    n = 0
    while n < events:
        live = load(svc.games, tid, code)
        event = _next_event(live, fouls)
        if event is None:
            break
        apply_ops(svc.games, svc.protocols, tid, code,
                  [Op(id=f"tap-{n + 1:04d}", seq=live.seq + 1, event=event)],
                  actor=judge, base_revision=live.revision.number)
        n += 1
        on_event(n, stored_bytes(svc, tid, code))
    svc.engine.dispose()
    return n


def stored_bytes(svc: Services, tid: int, code: str) -> int:
    with svc.store.read() as s:
        gid = s.scalar(select(db.Game.id).where(db.Game.tournament_id == tid,
                                                db.Game.code == code))
        rows = s.execute(select(db.ProtocolRevision.protocol, db.ProtocolRevision.changes)
                         .where(db.ProtocolRevision.game_id == gid)).all()
    return sum(len(p.encode()) + len(json.dumps(c, default=str).encode()) for p, c in rows)


def last_revision(db_path: Path) -> tuple[int, int]:
    """The newest revision's protocol bytes, and its log's bytes."""
    engine = make_engine(str(db_path))
    with engine.connect() as c:
        text = c.execute(select(db.ProtocolRevision.protocol)
                         .order_by(db.ProtocolRevision.id.desc()).limit(1)).scalar_one()
    engine.dispose()
    log = json.loads(text).get("log") or []
    return len(text.encode()), len(json.dumps(log, ensure_ascii=False).encode())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--events", type=int, default=60)
    args = ap.parse_args()
    results: dict[str, dict[int, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label in ("before", "after"):
            path = Path(tmp) / f"{label}.sqlite"
            series: dict[int, int] = {}
            base: dict[str, int] = {}

            def note(n: int, size: int, series: dict[int, int] = series,
                     base: dict[str, int] = base) -> None:
                if n == 1:
                    base["first"] = size
                series[n] = size

            if label == "before":
                with _before():
                    got = record(args.events, path, note)
            else:
                got = record(args.events, path, note)
            results[label] = series
            last, log = last_revision(path)
            total = series[got]
            half = series[got // 2] - series[1] if got > 2 else 0
            grow = (total - series[1]) / half if half else float("nan")
            print(f"{label:>6}: {got} events, {total:,} bytes stored for the game's revisions "
                  f"({total / got:,.0f} per event); last revision {last:,} bytes, of which "
                  f"the log {log:,}; growth from {got // 2} to {got} events x{grow:.2f} "
                  "(x2 linear, x4 quadratic)")
    b, a = results["before"], results["after"]
    n = min(max(b), max(a))
    print(f"after/before at {n} events: {a[n] / b[n]:.2f} ({b[n] - a[n]:,} bytes less)")


if __name__ == "__main__":
    main()
