"""A draft revision's game log, stored once per event (linear storage).

Every tap of the live screen is a new draft revision, and a revision is a whole protocol.
Kept whole, the log (and the live screen's ids of its events) would be stored again in
every revision, so a game of n events would take n²/2 events' bytes. Instead a draft's
log lives in `game_log_events`, an append-only tree of events per game: each row is one
event with the row of the event before it (`parent_id`), so a log is the path from a row
(the revision's `log_head`) to the root, `log_length` rows long. A new revision reuses the
longest prefix of the log it is based on and adds only the events after it: a tap adds one
row, an undo none (the head moves back to the parent), an event after an undo a new
branch. Old revisions keep their path, so history, appeals and exports read every revision
exactly as it was saved.

The revision's `protocol` text keeps its place holders: `"log": []` and, for the live
screen, `"ids": []` in `live` (format 1 keeps `other` at the top; moved only when the log
has one id for each event);
`whole` puts the events and their ids back into the
same places, so the text read is the text that was written (the same keys, the same order).
The live screen's ids of applied operations no longer in the log (`live.done`, undos and
the events they took back: a list that only grows at its end, its oldest dropped) are kept
the same way, as a path of rows that carry only the id (`done_length`, `done_head`): a
path need not reach the first row, so dropping the oldest is a shorter length.
A revision whose `log_length` is NULL is whole as stored (confirmed and submitted ones, a
game without a log, rows another path wrote); readers never need to know which is which,
as long as they read `protocol` through `whole` (or `RevisionInfo`).

Nothing here changes optimistic locking: the revision row and its new event rows are
written in one transaction after the conditional UPDATE of the game's head, so the loser of
a race writes neither.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any, Final

import msgspec
from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from mafiatab.storage import models as db

#: the key of the live screen's bookkeeping in a protocol's `other` (services.live_log)
LIVE_KEY: Final = "live"
#: the states whose log is kept as events (the many revisions of a game in play)
LINKED_STATES: Final = frozenset({"draft"})
_ENCODER: Final = msgspec.json.Encoder(decimal_format="number")
#: the session's cache of a game's event rows: {game id: {row id: (parent, op id, text)}}
_CACHE: Final = "mafiatab.log_events"

Node = tuple[int | None, str | None, str]


def _parse(text: str) -> Any:
    return json.loads(text, parse_float=Decimal)


def _encode(data: Any) -> str:
    return _ENCODER.encode(data).decode("utf-8")


def _nodes(s: Session, game_id: int) -> dict[int, Node]:
    cache: dict[int, dict[int, Node]] = s.info.setdefault(_CACHE, {})
    if game_id not in cache:
        e = db.GameLogEvent
        cache[game_id] = {i: (p, o, t) for i, p, o, t in s.execute(
            select(e.id, e.parent_id, e.op_id, e.event).where(e.game_id == game_id))}
    return cache[game_id]


def path(s: Session, game_id: int, head: int | None, length: int) -> list[tuple[int, Node]]:
    """The event rows of a log, oldest first."""
    nodes = _nodes(s, game_id)
    out: list[tuple[int, Node]] = []
    at = head
    while at is not None and len(out) < length:
        node = nodes[at]
        out.append((at, node))
        at = node[0]
    if len(out) != length:
        raise ValueError(f"the stored log of game {game_id} is broken at row {head}")
    out.reverse()
    return out


def whole(s: Session, rev: db.ProtocolRevision) -> str:
    """A revision's protocol text with its log (and the live screen's ids) in place."""
    if rev.log_length is None and rev.done_length is None:
        return rev.protocol
    data = _parse(rev.protocol)
    live = data.get(LIVE_KEY)
    if rev.log_length is not None:
        rows = path(s, rev.game_id, rev.log_head, rev.log_length)
        data["log"] = [_parse(node[2]) for _i, node in rows]
        ids = [node[1] for _i, node in rows]
        # the ids were moved into the rows only when there was one for each event
        if isinstance(live, dict) and "ids" in live and rows and None not in ids:
            live["ids"] = ids
    if rev.done_length is not None and isinstance(live, dict):
        live["done"] = [node[1] for _i, node in path(s, rev.game_id, rev.done_head,
                                                     rev.done_length)]
    return _encode(data)


def _chain(s: Session, game_id: int, wanted: list[tuple[str | None, str]],
           known: list[tuple[int, Node]], trimmed: bool) -> int | None:
    """The row whose path of `len(wanted)` rows is `wanted`: the rows of `known` (the base
    revision's path) that `wanted` begins with are reused, the rest added. `trimmed`: a
    list of unique ids whose oldest entries may have been dropped from the front."""
    start = 0
    if trimmed and wanted:
        start = next((i for i, (_r, n) in enumerate(known) if n[1] == wanted[0][0]),
                     len(known))
    head: int | None = None
    kept = 0
    for (row_id, (_parent, op_id, text)), want in zip(known[start:], wanted, strict=False):
        if (op_id, text) != want:
            break
        head, kept = row_id, kept + 1
    if kept == 0 and start > 0:
        head = None
    nodes = _nodes(s, game_id)
    for op_id, text in wanted[kept:]:
        row = s.scalar(insert(db.GameLogEvent).returning(db.GameLogEvent.id),
                       {"game_id": game_id, "parent_id": head, "op_id": op_id, "event": text})
        assert row is not None
        nodes[row] = (head, op_id, text)
        head = row
    return head


def split(s: Session, game_id: int, text: str, state: str,
          base: db.ProtocolRevision | None) -> dict[str, Any]:
    """The columns a new revision stores: `protocol` and, for a draft with a log, its
    events as rows (`log_length`, `log_head`) and the live screen's applied operations
    no longer in the log (`done_length`, `done_head`; their rows carry only the id).
    What `base` stored already is reused, the rest added in this transaction; anything
    else is stored whole."""
    data = _parse(text)
    log = data.get("log") if isinstance(data, dict) else None
    if state not in LINKED_STATES or not isinstance(log, list):
        return {"protocol": text}
    same = base is not None and base.game_id == game_id
    live = data.get(LIVE_KEY)
    ids: list[Any] | None = None
    if isinstance(live, dict) and isinstance(live.get("ids"), list) \
            and len(live["ids"]) == len(log) and all(isinstance(x, str) for x in live["ids"]):
        ids = live["ids"]
    wanted = [(ids[i] if ids is not None else None, _encode(event))
              for i, event in enumerate(log)]
    known = (path(s, game_id, base.log_head, base.log_length)
             if same and base is not None and base.log_length is not None else [])
    out: dict[str, Any] = {"log_length": len(log),
                           "log_head": _chain(s, game_id, wanted, known, trimmed=False)}
    data["log"] = []
    if ids is not None:
        live["ids"] = []
    done = live.get("done") if isinstance(live, dict) else None
    if isinstance(done, list) and done and all(isinstance(x, str) for x in done) \
            and len(set(done)) == len(done):
        known = (path(s, game_id, base.done_head, base.done_length)
                 if same and base is not None and base.done_length is not None else [])
        out["done_length"] = len(done)
        out["done_head"] = _chain(s, game_id, [(x, "") for x in done], known, trimmed=True)
        live["done"] = []
    out["protocol"] = _encode(data)
    return out


__all__ = ["LINKED_STATES", "LIVE_KEY", "path", "split", "whole"]
