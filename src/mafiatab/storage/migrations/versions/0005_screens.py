"""The screens of the tournament day: the overlay link, the roles delay, the
hall screen's announcements.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "screen_settings",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("overlay_digest", sa.String(length=64), nullable=True),
        sa.Column("overlay_made_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("roles_delay", sa.Integer(), nullable=True),
        sa.Column("announcements", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_screen_settings_tournament_id_tournaments"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_screen_settings")),
    )


def downgrade() -> None:
    op.drop_table("screen_settings")
