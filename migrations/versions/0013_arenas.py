"""arenas: timed tournaments on one variant, their deals, players and games

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-05 01:19:12

``arenas`` holds each arena (its variant, start and end, who created it, the
schedule entry that made it, its cancellation); ``arena_deals`` its sequence
of keyed deals (the key secret until the arena is over), ``arena_players``
who joined and their totals, ``arena_games`` each deal a player was dealt,
keyed by its game, with its result and points once it ended.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "arenas",
        sa.Column("code", sa.String(length=8), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("options", sa.String(length=256), nullable=False),
        sa.Column("starts_ms", sa.BigInteger(), nullable=False),
        sa.Column("ends_ms", sa.BigInteger(), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=True),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("schedule", sa.String(length=64), nullable=True),
        sa.Column("cancelled_ms", sa.BigInteger(), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["host_id"], ["players.id"], name=op.f("fk_arenas_host_id_players")
        ),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_arenas")),
    )
    with op.batch_alter_table("arenas", schema=None) as batch_op:
        batch_op.create_index("ix_arenas_ends_ms", ["ends_ms"], unique=False)
        batch_op.create_index("ix_arenas_updated_ms", ["updated_ms"], unique=False)

    op.create_table(
        "arena_deals",
        sa.Column("arena", sa.String(length=8), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("deal_key", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("par_ms", sa.BigInteger(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["arena"], ["arenas.code"], name=op.f("fk_arena_deals_arena_arenas"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("arena", "seq", name=op.f("pk_arena_deals")),
    )
    op.create_table(
        "arena_games",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("arena", sa.String(length=8), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("berserk", sa.Boolean(), nullable=False),
        sa.Column("allowance_ms", sa.BigInteger(), nullable=False),
        sa.Column("deadline_ms", sa.BigInteger(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=True),
        sa.Column("time_ms", sa.BigInteger(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("on_streak", sa.Boolean(), nullable=False),
        sa.Column("held", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["arena"], ["arenas.code"], name=op.f("fk_arena_games_arena_arenas"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_arena_games_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_arena_games_player_id_players")
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_arena_games")),
        sa.UniqueConstraint("arena", "player_id", "seq", name="uq_arena_games_arena"),
    )
    with op.batch_alter_table("arena_games", schema=None) as batch_op:
        batch_op.create_index("ix_arena_games_deadline_ms", ["deadline_ms"], unique=False)

    op.create_table(
        "arena_players",
        sa.Column("arena", sa.String(length=8), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("joined_ms", sa.BigInteger(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("fire", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["arena"],
            ["arenas.code"],
            name=op.f("fk_arena_players_arena_arenas"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_arena_players_player_id_players")
        ),
        sa.PrimaryKeyConstraint("arena", "player_id", name=op.f("pk_arena_players")),
    )
    with op.batch_alter_table("arena_players", schema=None) as batch_op:
        batch_op.create_index("ix_arena_players_arena", ["arena", "points"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("arena_players", schema=None) as batch_op:
        batch_op.drop_index("ix_arena_players_arena")

    op.drop_table("arena_players")
    with op.batch_alter_table("arena_games", schema=None) as batch_op:
        batch_op.drop_index("ix_arena_games_deadline_ms")

    op.drop_table("arena_games")
    op.drop_table("arena_deals")
    with op.batch_alter_table("arenas", schema=None) as batch_op:
        batch_op.drop_index("ix_arenas_updated_ms")
        batch_op.drop_index("ix_arenas_ends_ms")

    op.drop_table("arenas")
