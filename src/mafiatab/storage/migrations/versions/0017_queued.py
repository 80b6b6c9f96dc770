"""The protocol form's queued saves, each applied once: the table `queued_saves` (the
game, the client's id of the save, the device that made it, the revision it made).
Downgrade drops it.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "queued_saves",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("client_id", sa.String(length=100), nullable=False),
        sa.Column("device", sa.String(length=100), nullable=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_queued_saves_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_queued_saves")),
        sa.UniqueConstraint("game_id", "client_id", name=op.f("uq_queued_saves_game_id_client_id")),
    )


def downgrade() -> None:
    op.drop_table("queued_saves")
