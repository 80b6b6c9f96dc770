"""An index on `tournament_participants.player_id`: a person's tournaments (the people's
pages, merges and splits, the ratings) are looked up by the player alone, which the
unique pair (tournament_id, player_id) does not serve, since it leads with the tournament.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels = None
depends_on = None

INDEX = "ix_tournament_participants_player_id"


def upgrade() -> None:
    op.create_index(INDEX, "tournament_participants", ["player_id"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name="tournament_participants")
