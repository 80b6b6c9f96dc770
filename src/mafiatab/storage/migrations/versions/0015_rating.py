"""The federation's minimum number of rated games before a person is ranked: the column
`federation_settings.min_games` (0 for an existing server: everybody ranked, as before).

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("federation_settings", sa.Column("min_games", sa.Integer(), nullable=False,
                                                   server_default="0"))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE federation_settings DROP COLUMN min_games")
    else:
        op.drop_column("federation_settings", "min_games")
