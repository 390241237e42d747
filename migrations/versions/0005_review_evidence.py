"""review evidence: why a result is held, and what review found of every ranked result

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04 22:40:00

``reviews.reasons`` says which limits a held result crossed, with its
figures (held results stored before have none: ''). ``assessments`` keeps
what review found of each ranked result it judged, held or not, so that
``patience-club admin efficient`` can show a player whose wins are
consistently on a solver's line.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("reviews", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("reasons", sa.String(length=1000), server_default="", nullable=False)
        )
    op.create_table(
        "assessments",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("what", sa.String(length=64), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("actions", sa.Integer(), nullable=False),
        sa.Column("undos", sa.Integer(), nullable=False),
        sa.Column("solver_moves", sa.Integer(), nullable=True),
        sa.Column("revisits", sa.Integer(), nullable=True),
        sa.Column("efficient", sa.Boolean(), nullable=False),
        sa.Column("median_ms", sa.Integer(), nullable=False),
        sa.Column("p10_ms", sa.Integer(), nullable=False),
        sa.Column("elapsed_ms", sa.BigInteger(), nullable=False),
        sa.Column("floor_ms", sa.Integer(), nullable=False),
        sa.Column("pauses", sa.Integer(), nullable=False),
        sa.Column("held", sa.Boolean(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_assessments_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_assessments_player_id_players")
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_assessments")),
    )
    with op.batch_alter_table("assessments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_assessments_player_id"), ["player_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("assessments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_assessments_player_id"))
    op.drop_table("assessments")
    with op.batch_alter_table("reviews", schema=None) as batch_op:
        batch_op.drop_column("reasons")
