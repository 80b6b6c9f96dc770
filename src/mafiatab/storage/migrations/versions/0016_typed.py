"""What the judge typed that could not be read: the column
`protocol_revisions.typed`, each unread field's text with its problems, kept with the draft
revision that holds it (NULL: none; every revision before this one). Downgrade drops it.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("protocol_revisions", sa.Column("typed", sa.JSON(), nullable=True))


def downgrade() -> None:
    # SQLite's own DROP COLUMN (3.35+): a batch's rebuild would drop the table that
    # other rows refer to
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE protocol_revisions DROP COLUMN typed")
    else:
        op.drop_column("protocol_revisions", "typed")
