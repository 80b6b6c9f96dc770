"""A draft revision's log stored once per event: the table
`game_log_events` and the columns `protocol_revisions.log_length`, `log_head`; the drafts
stored so far are moved (their logs into event rows, each revision reusing the events of
the draft before it), and moved back on downgrade. See services/revision_log.py.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import msgspec
import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels = None
depends_on = None

_ENCODER = msgspec.json.Encoder(decimal_format="number")
_revs = sa.table("protocol_revisions", sa.column("id", sa.Integer), sa.column("game_id", sa.Integer),
                 sa.column("number", sa.Integer), sa.column("state", sa.String),
                 sa.column("protocol", sa.Text), sa.column("log_length", sa.Integer),
                 sa.column("log_head", sa.Integer),
                 sa.column("done_length", sa.Integer), sa.column("done_head", sa.Integer))
_events = sa.table("game_log_events", sa.column("id", sa.Integer),
                   sa.column("game_id", sa.Integer), sa.column("parent_id", sa.Integer),
                   sa.column("op_id", sa.String), sa.column("event", sa.Text))


def _parse(text: str) -> Any:
    return json.loads(text, parse_float=Decimal)


def _encode(data: Any) -> str:
    return _ENCODER.encode(data).decode("utf-8")


def _live(data: dict[str, Any]) -> dict[str, Any] | None:
    live = data.get("live")
    return live if isinstance(live, dict) else None


def upgrade() -> None:
    op.create_table(
        "game_log_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("parent_id", sa.Integer(), nullable=True),
        sa.Column("op_id", sa.String(length=200), nullable=True),
        sa.Column("event", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_game_log_events_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_log_events")),
    )
    op.create_index(op.f("ix_game_log_events_game_id"), "game_log_events", ["game_id"])
    op.add_column("protocol_revisions", sa.Column("log_length", sa.Integer(), nullable=True))
    op.add_column("protocol_revisions", sa.Column("log_head", sa.Integer(), nullable=True))
    op.add_column("protocol_revisions", sa.Column("done_length", sa.Integer(), nullable=True))
    op.add_column("protocol_revisions", sa.Column("done_head", sa.Integer(), nullable=True))
    _move_drafts(op.get_bind())


def _move_drafts(conn: sa.Connection) -> None:
    """Every draft with a log: its events as rows (reusing the previous draft's prefix)."""
    rows = conn.execute(sa.select(_revs.c.id, _revs.c.game_id, _revs.c.protocol)
                        .where(_revs.c.state == "draft")
                        .order_by(_revs.c.game_id, _revs.c.number)).all()
    game: int | None = None
    known: list[tuple[int, str | None, str]] = []
    for rev_id, game_id, text in rows:
        data = _parse(text)
        log = data.get("log") if isinstance(data, dict) else None
        if not isinstance(log, list):
            continue
        if game_id != game:
            game, known = game_id, []
        live = _live(data)
        ids = live.get("ids") if live is not None else None
        if not (isinstance(ids, list) and len(ids) == len(log)
                and all(isinstance(x, str) for x in ids)):
            ids = None
        wanted = [(ids[i] if ids is not None else None, _encode(e)) for i, e in enumerate(log)]
        kept = 0
        for (_row, op_id, event), want in zip(known, wanted, strict=False):
            if (op_id, event) != want:
                break
            kept += 1
        known = known[:kept]
        head = known[-1][0] if known else None
        for op_id, event in wanted[kept:]:
            head = conn.execute(sa.insert(_events).returning(_events.c.id),
                                {"game_id": game_id, "parent_id": head, "op_id": op_id,
                                 "event": event}).scalar_one()
            known.append((head, op_id, event))
        data["log"] = []
        if ids is not None and live is not None:
            live["ids"] = []
        conn.execute(sa.update(_revs).where(_revs.c.id == rev_id)
                     .values(protocol=_encode(data), log_length=len(log), log_head=head))


def _restore_drafts(conn: sa.Connection) -> None:
    rows = conn.execute(sa.select(_revs.c.id, _revs.c.game_id, _revs.c.protocol,
                                  _revs.c.log_length, _revs.c.log_head,
                                  _revs.c.done_length, _revs.c.done_head)
                        .where(sa.or_(_revs.c.log_length.is_not(None),
                                      _revs.c.done_length.is_not(None)))).all()
    nodes: dict[int, dict[int, tuple[int | None, str | None, str]]] = {}

    def path(game_id: int, head: int | None, length: int
             ) -> list[tuple[int | None, str | None, str]]:
        if game_id not in nodes:
            nodes[game_id] = {i: (p, o, e) for i, p, o, e in conn.execute(
                sa.select(_events.c.id, _events.c.parent_id, _events.c.op_id, _events.c.event)
                .where(_events.c.game_id == game_id))}
        out: list[tuple[int | None, str | None, str]] = []
        at = head
        while at is not None and len(out) < length:
            out.append(nodes[game_id][at])
            at = out[-1][0]
        out.reverse()
        return out

    for rev_id, game_id, text, length, head, done_length, done_head in rows:
        data = _parse(text)
        live = _live(data)
        if length is not None:
            found = path(game_id, head, length)
            data["log"] = [_parse(e) for _p, _o, e in found]
            ids = [o for _p, o, _e in found]
            if live is not None and "ids" in live and found and None not in ids:
                live["ids"] = ids
        if done_length is not None and live is not None:
            live["done"] = [o for _p, o, _e in path(game_id, done_head, done_length)]
        conn.execute(sa.update(_revs).where(_revs.c.id == rev_id).values(protocol=_encode(data)))


def downgrade() -> None:
    _restore_drafts(op.get_bind())
    with op.batch_alter_table("protocol_revisions") as batch:
        batch.drop_column("done_head")
        batch.drop_column("done_length")
        batch.drop_column("log_head")
        batch.drop_column("log_length")
    op.drop_index(op.f("ix_game_log_events_game_id"), table_name="game_log_events")
    op.drop_table("game_log_events")
