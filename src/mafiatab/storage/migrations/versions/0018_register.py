"""Registration and awards: `registration_settings` (open, cap, start date), `registrations`
(each sign-up, its state and waiting-list order), `awards` (the head judge's MVP and best
by role), and `tournament_participants.exhibition` (plays, not ranked). Downgrade drops them.

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournament_participants",
                  sa.Column("exhibition", sa.Boolean(), nullable=False,
                            server_default=sa.false()))
    op.create_table(
        "registration_settings",
        sa.Column("tournament_id", sa.Integer(),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE",
                                name="fk_registration_settings_tournament_id_tournaments"),
                  nullable=False),
        sa.Column("open", sa.Boolean(), nullable=False),
        sa.Column("cap", sa.Integer(), nullable=True),
        sa.Column("starts_on", sa.Date(), nullable=True),
        sa.Column("updated_by", sa.String(200), nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", name="pk_registration_settings"),
    )
    op.create_table(
        "registrations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE",
                                name="fk_registrations_tournament_id_tournaments"),
                  nullable=False),
        sa.Column("person_id", sa.Integer(),
                  sa.ForeignKey("players.id", name="fk_registrations_person_id_players"),
                  nullable=True),
        sa.Column("nickname", sa.String(200), nullable=False),
        sa.Column("club", sa.String(200), nullable=True),
        sa.Column("state", sa.String(20), nullable=False),
        sa.Column("queued", sa.Integer(), nullable=True),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("code", sa.String(100), nullable=True),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_by", sa.String(200), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_registrations"),
    )
    op.create_index("ix_registrations_tournament_state", "registrations",
                    ["tournament_id", "state"])
    op.create_table(
        "awards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE",
                                name="fk_awards_tournament_id_tournaments"),
                  nullable=False),
        sa.Column("award", sa.String(40), nullable=False),
        sa.Column("player_code", sa.String(100), nullable=False),
        sa.Column("named_by", sa.String(200), nullable=False),
        sa.Column("named_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_awards"),
        sa.UniqueConstraint("tournament_id", "award", name="uq_awards_tournament_id_award"),
    )


def downgrade() -> None:
    op.drop_table("awards")
    op.drop_index("ix_registrations_tournament_state", table_name="registrations")
    op.drop_table("registrations")
    op.drop_table("registration_settings")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE tournament_participants DROP COLUMN exhibition")
    else:
        op.drop_column("tournament_participants", "exhibition")
