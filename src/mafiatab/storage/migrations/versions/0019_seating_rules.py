"""Seating rules: `seating_rules` (a tournament's clubs and teams kept apart: off, soft with
a weight, or hard), `seating_pairs` (two people kept apart, avoided or welcomed together, in
one tournament or, with no tournament, on the whole server) and `seating_conflicts` (a
judge who must not judge a player). Downgrade drops them.

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seating_rules",
        sa.Column("tournament_id", sa.Integer(),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE",
                                name="fk_seating_rules_tournament_id_tournaments"),
                  nullable=False),
        sa.Column("clubs", sa.String(10), nullable=False),
        sa.Column("clubs_weight", sa.Integer(), nullable=False),
        sa.Column("teams", sa.String(10), nullable=False),
        sa.Column("teams_weight", sa.Integer(), nullable=False),
        sa.Column("updated_by", sa.String(200), nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", name="pk_seating_rules"),
    )
    op.create_table(
        "seating_pairs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE",
                                name="fk_seating_pairs_tournament_id_tournaments"),
                  nullable=True),
        sa.Column("first_person", sa.Integer(),
                  sa.ForeignKey("players.id", name="fk_seating_pairs_first_person_players"),
                  nullable=False),
        sa.Column("second_person", sa.Integer(),
                  sa.ForeignKey("players.id", name="fk_seating_pairs_second_person_players"),
                  nullable=False),
        sa.Column("policy", sa.String(10), nullable=False),
        sa.Column("weight", sa.Integer(), nullable=False),
        sa.Column("made_by", sa.String(200), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_seating_pairs"),
    )
    op.create_index("ix_seating_pairs_tournament_id", "seating_pairs", ["tournament_id"])
    op.create_table(
        "seating_conflicts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE",
                                name="fk_seating_conflicts_tournament_id_tournaments"),
                  nullable=False),
        sa.Column("judge", sa.String(200), nullable=False),
        sa.Column("player_code", sa.String(100), nullable=False),
        sa.Column("made_by", sa.String(200), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_seating_conflicts"),
        sa.UniqueConstraint("tournament_id", "judge", "player_code",
                            name="uq_seating_conflicts_tournament_id_judge_player_code"),
    )


def downgrade() -> None:
    op.drop_table("seating_conflicts")
    op.drop_index("ix_seating_pairs_tournament_id", table_name="seating_pairs")
    op.drop_table("seating_pairs")
    op.drop_table("seating_rules")
