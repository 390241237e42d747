"""rooms, dailies and settings

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 13:57:31
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "dailies",
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("date", sa.String(length=10), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("positions", sa.Integer(), nullable=False),
        sa.Column("computed_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("variant", "date", name=op.f("pk_dailies")),
    )
    op.create_table(
        "settings",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.String(length=256), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_settings")),
    )
    op.create_table(
        "daily_attempts",
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("date", sa.String(length=10), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("finished", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("elapsed_ms", sa.BigInteger(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("rank_group", sa.Integer(), nullable=False),
        sa.Column("rank_a", sa.BigInteger(), nullable=False),
        sa.Column("rank_b", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_daily_attempts_player_id_players")
        ),
        sa.PrimaryKeyConstraint("variant", "date", "player_id", name=op.f("pk_daily_attempts")),
    )
    with op.batch_alter_table("daily_attempts", schema=None) as batch_op:
        batch_op.create_index(
            "ix_daily_attempts_board",
            ["variant", "date", "finished", "rank_group", "rank_a", "rank_b"],
            unique=False,
        )
        batch_op.create_index("ix_daily_attempts_player", ["player_id", "date"], unique=False)

    op.create_table(
        "rooms",
        sa.Column("code", sa.String(length=8), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("time_limit_s", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("race", sa.Integer(), nullable=False),
        sa.Column("race_seed", sa.BigInteger(), nullable=True),
        sa.Column("race_start_ms", sa.BigInteger(), nullable=True),
        sa.Column("racers", sa.JSON(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["host_id"], ["players.id"], name=op.f("fk_rooms_host_id_players")),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_rooms")),
    )
    op.create_table(
        "room_members",
        sa.Column("room_code", sa.String(length=8), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("joined_ms", sa.BigInteger(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_room_members_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["room_code"],
            ["rooms.code"],
            name=op.f("fk_room_members_room_code_rooms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("room_code", "player_id", name=op.f("pk_room_members")),
    )
    with op.batch_alter_table("room_members", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_room_members_player_id"), ["player_id"], unique=False)


def downgrade() -> None:

    with op.batch_alter_table("room_members", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_room_members_player_id"))

    op.drop_table("room_members")
    op.drop_table("rooms")
    with op.batch_alter_table("daily_attempts", schema=None) as batch_op:
        batch_op.drop_index("ix_daily_attempts_player")
        batch_op.drop_index("ix_daily_attempts_board")

    op.drop_table("daily_attempts")
    op.drop_table("settings")
    op.drop_table("dailies")
