"""Protests and appeals: players' accounts, the schedule, games' end times,
cases with their threads and decisions.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def _tournament_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                   name=op.f(f"fk_{table}_tournament_id_tournaments"),
                                   ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "player_users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("player_code", sa.String(length=100), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        _tournament_fk("player_users"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_player_users_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_users")),
        sa.UniqueConstraint("tournament_id", "player_code",
                            name=op.f("uq_player_users_tournament_id_player_code")),
        sa.UniqueConstraint("tournament_id", "user_id",
                            name=op.f("uq_player_users_tournament_id_user_id")),
    )
    op.create_table(
        "round_times",
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("day", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"],
                                name=op.f("fk_round_times_round_id_rounds"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("round_id", name=op.f("pk_round_times")),
    )
    op.create_table(
        "appeal_settings",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("tables_closed_at", sa.DateTime(timezone=True), nullable=True),
        _tournament_fk("appeal_settings"),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_appeal_settings")),
    )
    op.create_table(
        "game_times",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_game_times_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_times")),
    )
    op.create_table(
        "appeal_cases",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_code", sa.String(length=100), nullable=False),
        sa.Column("player_code", sa.String(length=100), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("subject", sa.String(length=30), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("filing", sa.JSON(), nullable=False),
        sa.Column("clause", sa.String(length=100), nullable=False),
        sa.Column("filed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("filed_by", sa.String(length=200), nullable=False),
        _tournament_fk("appeal_cases"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_appeal_cases")),
        sa.UniqueConstraint("tournament_id", "number",
                            name=op.f("uq_appeal_cases_tournament_id_number")),
    )
    op.create_index(op.f("ix_appeal_cases_tournament_id"), "appeal_cases", ["tournament_id"],
                    unique=False)
    op.create_table(
        "appeal_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("author", sa.String(length=200), nullable=False),
        sa.Column("role", sa.String(length=30), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["case_id"], ["appeal_cases.id"],
                                name=op.f("fk_appeal_messages_case_id_appeal_cases"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_appeal_messages")),
    )
    op.create_index(op.f("ix_appeal_messages_case_id"), "appeal_messages", ["case_id"],
                    unique=False)
    op.create_table(
        "appeal_decisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("decision", sa.JSON(), nullable=False),
        sa.Column("outcome", sa.String(length=20), nullable=False),
        sa.Column("decided_by", sa.String(length=200), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=True),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("warnings", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["case_id"], ["appeal_cases.id"],
                                name=op.f("fk_appeal_decisions_case_id_appeal_cases"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_appeal_decisions")),
        sa.UniqueConstraint("case_id", name=op.f("uq_appeal_decisions_case_id")),
    )


def downgrade() -> None:
    op.drop_table("appeal_decisions")
    op.drop_index(op.f("ix_appeal_messages_case_id"), table_name="appeal_messages")
    op.drop_table("appeal_messages")
    op.drop_index(op.f("ix_appeal_cases_tournament_id"), table_name="appeal_cases")
    op.drop_table("appeal_cases")
    op.drop_table("game_times")
    op.drop_table("appeal_settings")
    op.drop_table("round_times")
    op.drop_table("player_users")
