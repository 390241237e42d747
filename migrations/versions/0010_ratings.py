"""ratings: a Glicko-2 rating per player and variant, the history of each rated race's change

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04 23:40:00

``rooms.rated`` marks a room whose races are rated. ``ratings`` holds each
player's rating per variant (no row: a new player's); ``rating_history`` one
row per racer of each rated race, keyed by the racer's game, which is what
makes a race rated once.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("rated", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_ratings_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", "variant", name=op.f("pk_ratings")),
    )
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.create_index("ix_ratings_board", ["variant", "rating"], unique=False)
    op.create_table(
        "rating_history",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("race", sa.String(length=32), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("deviation_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("deviation_after", sa.Float(), nullable=False),
        sa.Column("volatility_after", sa.Float(), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_rating_history_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_rating_history_player_id_players")
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_rating_history")),
    )
    with op.batch_alter_table("rating_history", schema=None) as batch_op:
        batch_op.create_index(
            "ix_rating_history_player", ["player_id", "variant", "at_ms"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("rating_history", schema=None) as batch_op:
        batch_op.drop_index("ix_rating_history_player")
    op.drop_table("rating_history")
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_ratings_board")
    op.drop_table("ratings")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("rated")
