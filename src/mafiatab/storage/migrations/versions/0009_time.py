"""A tournament's time zone: deadlines and game events on its clock.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_clock",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("time_zone", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_clock_tournament_id_tournaments"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_tournament_clock")),
    )


def downgrade() -> None:
    op.drop_table("tournament_clock")
