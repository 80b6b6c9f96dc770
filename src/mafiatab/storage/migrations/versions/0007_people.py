"""People across tournaments: the merges of two identities into one person
(audited and reversible) and the federation's rating setting.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_merges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kept_id", sa.Integer(), nullable=False),
        sa.Column("merged_id", sa.Integer(), nullable=False),
        sa.Column("merged_nickname", sa.String(length=200), nullable=False),
        sa.Column("merged_club", sa.String(length=200), nullable=True),
        sa.Column("participants", sa.JSON(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("merged_by", sa.String(length=200), nullable=False),
        sa.Column("merged_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("split_by", sa.String(length=200), nullable=True),
        sa.Column("split_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_merges")),
    )
    op.create_index(op.f("ix_player_merges_kept_id"), "player_merges", ["kept_id"])
    op.create_index(op.f("ix_player_merges_merged_id"), "player_merges", ["merged_id"])
    op.create_table(
        "federation_settings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("stage_kinds", sa.JSON(), nullable=False),
        sa.Column("unrated", sa.JSON(), nullable=False),
        sa.Column("elite", sa.JSON(), nullable=False),
        sa.Column("updated_by", sa.String(length=200), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_federation_settings")),
    )


def downgrade() -> None:
    op.drop_table("federation_settings")
    op.drop_index(op.f("ix_player_merges_merged_id"), table_name="player_merges")
    op.drop_index(op.f("ix_player_merges_kept_id"), table_name="player_merges")
    op.drop_table("player_merges")
