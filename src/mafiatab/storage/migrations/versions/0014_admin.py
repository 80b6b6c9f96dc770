"""The global administrator right: the column `users.admin`, apart from
`users.organizer` (the right to create tournaments), which until now also acted as the
server's administrator. An existing database gets one administrator: the account with the
organizer right and the lowest id (the first one `serve --add-user` made, as a rule); the
others keep only the organizer right. Downgrade drops the column.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels = None
depends_on = None

_users = sa.table("users", sa.column("id", sa.Integer), sa.column("organizer", sa.Boolean),
                  sa.column("admin", sa.Boolean))


def upgrade() -> None:
    op.add_column("users", sa.Column("admin", sa.Boolean(), nullable=False,
                                     server_default=sa.false()))
    bind = op.get_bind()
    first = bind.scalar(sa.select(sa.func.min(_users.c.id))
                        .where(_users.c.organizer.is_(True)))
    if first is not None:
        bind.execute(_users.update().where(_users.c.id == first).values(admin=True))


def downgrade() -> None:
    # SQLite's own DROP COLUMN (3.35+), not a batch's table rebuild: the rebuild drops
    # `users`, which the grants' and sessions' foreign keys refer to
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE users DROP COLUMN admin")
    else:
        op.drop_column("users", "admin")
