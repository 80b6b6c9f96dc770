"""Players' photos on the stream overlay: one re-encoded square JPEG per player
of a tournament.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_photos",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("player_code", sa.String(length=100), nullable=False),
        sa.Column("image", sa.LargeBinary(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("by_user", sa.String(length=200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_player_photos_tournament_id_tournaments"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_photos")),
        sa.UniqueConstraint("tournament_id", "player_code",
                            name=op.f("uq_player_photos_tournament_id_player_code")),
    )


def downgrade() -> None:
    op.drop_table("player_photos")
