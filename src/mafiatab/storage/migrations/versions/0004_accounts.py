"""Accounts nobody can take over: the global organizer right, code accounts
bound to one tournament, scoped and mortal sign-in codes, server-side sessions.

The old `web_access_codes` are dropped, not converted: they were unsalted digests of codes
that signed in as any account with all its roles, so none of them may keep working.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("organizer", sa.Boolean(), nullable=False,
                                     server_default=sa.false()))
    op.add_column("users", sa.Column("code_tournament_id", sa.Integer(), nullable=True))
    op.drop_index(op.f("ix_web_access_codes_tournament_id"), table_name="web_access_codes")
    op.drop_table("web_access_codes")
    op.create_table(
        "sign_in_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("lookup", sa.String(length=16), nullable=False),
        sa.Column("salt", sa.String(length=64), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("user_name", sa.String(length=200), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("created_by", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_sign_in_codes_tournament_id_tournaments"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sign_in_codes")),
        sa.UniqueConstraint("lookup", name=op.f("uq_sign_in_codes_lookup")),
    )
    op.create_index(op.f("ix_sign_in_codes_tournament_id"), "sign_in_codes",
                    ["tournament_id"], unique=False)
    op.create_table(
        "web_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("code_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_web_sessions_user_id_users"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["code_id"], ["sign_in_codes.id"],
                                name=op.f("fk_web_sessions_code_id_sign_in_codes"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_web_sessions")),
        sa.UniqueConstraint("digest", name=op.f("uq_web_sessions_digest")),
    )
    op.create_index(op.f("ix_web_sessions_user_id"), "web_sessions", ["user_id"], unique=False)
    op.create_index(op.f("ix_web_sessions_code_id"), "web_sessions", ["code_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_web_sessions_code_id"), table_name="web_sessions")
    op.drop_index(op.f("ix_web_sessions_user_id"), table_name="web_sessions")
    op.drop_table("web_sessions")
    op.drop_index(op.f("ix_sign_in_codes_tournament_id"), table_name="sign_in_codes")
    op.drop_table("sign_in_codes")
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
    with op.batch_alter_table("users") as batch:
        batch.drop_column("code_tournament_id")
        batch.drop_column("organizer")
