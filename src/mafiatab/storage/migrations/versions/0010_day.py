"""The tournament day: players' check-in, the desk's check-in QR key,
and the teams of a team tournament.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels = None
depends_on = None


def _tournament_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                   name=op.f(f"fk_{table}_tournament_id_tournaments"),
                                   ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "day_checkins",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("player_code", sa.String(length=100), nullable=False),
        sa.Column("method", sa.String(length=10), nullable=False),
        sa.Column("by_user", sa.String(length=200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        _tournament_fk("day_checkins"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_day_checkins")),
        sa.UniqueConstraint("tournament_id", "player_code",
                            name=op.f("uq_day_checkins_tournament_id_player_code")),
    )
    op.create_table(
        "day_checkin_keys",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        _tournament_fk("day_checkin_keys"),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_day_checkin_keys")),
    )
    op.create_table(
        "teams",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        _tournament_fk("teams"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_teams")),
        sa.UniqueConstraint("tournament_id", "code", name=op.f("uq_teams_tournament_id_code")),
    )
    op.create_table(
        "team_members",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("player_code", sa.String(length=100), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        _tournament_fk("team_members"),
        sa.ForeignKeyConstraint(["team_id"], ["teams.id"],
                                name=op.f("fk_team_members_team_id_teams"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_team_members")),
        sa.UniqueConstraint("tournament_id", "player_code",
                            name=op.f("uq_team_members_tournament_id_player_code")),
    )


def downgrade() -> None:
    op.drop_table("team_members")
    op.drop_table("teams")
    op.drop_table("day_checkin_keys")
    op.drop_table("day_checkins")
