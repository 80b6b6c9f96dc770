"""The web app's tables: publication switches, judges' tables, sign-in codes.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_settings",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("standings_hidden", sa.Boolean(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_web_settings_tournament_id_tournaments"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_web_settings")),
    )
    op.create_table(
        "web_assignments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("game_code", sa.String(length=100), nullable=False),
        sa.Column("user_name", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_web_assignments_tournament_id_tournaments"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_web_assignments")),
        sa.UniqueConstraint("tournament_id", "game_code",
                            name=op.f("uq_web_assignments_tournament_id_game_code")),
    )
    op.create_index(op.f("ix_web_assignments_tournament_id"), "web_assignments",
                    ["tournament_id"], unique=False)
    op.create_table(
        "web_access_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("user_name", sa.String(length=200), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_web_access_codes_tournament_id_tournaments"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_web_access_codes")),
        sa.UniqueConstraint("digest", name=op.f("uq_web_access_codes_digest")),
    )
    op.create_index(op.f("ix_web_access_codes_tournament_id"), "web_access_codes",
                    ["tournament_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_web_access_codes_tournament_id"), table_name="web_access_codes")
    op.drop_table("web_access_codes")
    op.drop_index(op.f("ix_web_assignments_tournament_id"), table_name="web_assignments")
    op.drop_table("web_assignments")
    op.drop_table("web_settings")
