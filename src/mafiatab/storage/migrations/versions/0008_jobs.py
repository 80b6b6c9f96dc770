"""Work shared by several server processes: background jobs (seating
searches with their proposals) and the sign-in limits' counts.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels = None
depends_on = None

BUSY = "state IN ('waiting', 'running')"


def upgrade() -> None:
    op.create_table(
        "jobs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("owner", sa.String(length=200), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("inputs", sa.JSON(), nullable=False),
        sa.Column("time_limit", sa.Float(), nullable=False),
        sa.Column("progress", sa.Float(), nullable=False),
        sa.Column("info", sa.String(length=200), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("reason_ru", sa.Text(), nullable=False),
        sa.Column("reason_en", sa.Text(), nullable=False),
        sa.Column("published", sa.JSON(), nullable=False),
        sa.Column("cancel_requested", sa.Boolean(), nullable=False),
        sa.Column("worker", sa.String(length=100), nullable=True),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_jobs_tournament_id_tournaments"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_jobs")),
    )
    op.create_index("ix_jobs_busy", "jobs", ["tournament_id", "kind"], unique=True,
                    sqlite_where=sa.text(BUSY), postgresql_where=sa.text(BUSY))
    op.create_index("ix_jobs_state", "jobs", ["state", "id"])
    op.create_index(op.f("ix_jobs_tournament_id"), "jobs", ["tournament_id"])
    op.create_table(
        "rate_hits",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rate_hits")),
    )
    op.create_index("ix_rate_hits_key_at", "rate_hits", ["key", "at"])
    op.create_table(
        "rate_counters",
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_rate_counters")),
    )


def downgrade() -> None:
    op.drop_table("rate_counters")
    op.drop_index("ix_rate_hits_key_at", table_name="rate_hits")
    op.drop_table("rate_hits")
    op.drop_index(op.f("ix_jobs_tournament_id"), table_name="jobs")
    op.drop_index("ix_jobs_state", table_name="jobs")
    op.drop_index("ix_jobs_busy", table_name="jobs")
    op.drop_table("jobs")
