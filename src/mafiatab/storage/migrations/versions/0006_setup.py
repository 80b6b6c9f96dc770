"""Setting up a tournament: a participant can be withdrawn (his played games
stay; the seating no longer seats him).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_participants") as batch:
        batch.add_column(sa.Column("withdrawn", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("tournament_participants") as batch:
        batch.drop_column("withdrawn")
