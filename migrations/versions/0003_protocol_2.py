"""protocol 2: keyed deals, game kinds and counters, bots, review, spectators

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 18:55:31

Existing rows keep what they were: games and dailies keep their numbered
deals (``seed``), every player is a person (``bot`` false) whose
``updated_ms`` is the moment it registered, and every member a racer. A
game's ``kind`` is read from where it is named: the game of a daily attempt
is ``daily``, a game named in a room's racers ``race``, any other ``solo``;
its ``undos`` are counted from its actions.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("what", sa.String(length=64), nullable=False),
        sa.Column("actions", sa.Integer(), nullable=False),
        sa.Column("median_gap_ms", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("decided_ms", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_reviews_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_reviews_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reviews")),
    )
    with op.batch_alter_table("reviews", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_reviews_decided_ms"), ["decided_ms"], unique=False)
        batch_op.create_index(batch_op.f("ix_reviews_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_reviews_state"), ["state"], unique=False)

    with op.batch_alter_table("dailies", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deal_key", sa.String(length=64), nullable=True))
        batch_op.alter_column("seed", existing_type=sa.BigInteger(), nullable=True)

    with op.batch_alter_table("daily_attempts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("undos", sa.Integer(), server_default="0", nullable=False))
        batch_op.add_column(
            sa.Column("review", sa.String(length=16), server_default="", nullable=False)
        )

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deal_key", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("commitment", sa.String(length=64), nullable=True))
        batch_op.add_column(
            sa.Column("kind", sa.String(length=16), server_default="solo", nullable=False)
        )
        batch_op.add_column(
            sa.Column("key_open", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(sa.Column("reveal_ms", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("undos", sa.Integer(), server_default="0", nullable=False))
        batch_op.add_column(sa.Column("hints", sa.Integer(), server_default="0", nullable=False))
        batch_op.alter_column("seed", existing_type=sa.BigInteger(), nullable=True)
        batch_op.create_index("ix_games_player_started", ["player_id", "started_ms"], unique=False)

    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("bot", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(sa.Column("registered_ip", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("updated_ms", sa.BigInteger(), nullable=True))
        batch_op.create_index(
            "ix_players_registered", ["registered_ip", "created_ms"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_players_updated_ms"), ["updated_ms"], unique=False)

    with op.batch_alter_table("room_members", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("role", sa.String(length=16), server_default="racer", nullable=False)
        )

    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("hints", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(sa.Column("race_key", sa.String(length=64), nullable=True))

    _fill_existing_rows()

    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.alter_column("updated_ms", existing_type=sa.BigInteger(), nullable=False)


def _fill_existing_rows() -> None:
    """The values the new columns of rows already there stand for (see the docstring)."""
    conn = op.get_bind()
    conn.execute(sa.text("UPDATE players SET updated_ms = created_ms"))
    conn.execute(
        sa.text(
            "UPDATE games SET undos = (SELECT count(*) FROM moves "
            "WHERE moves.game_id = games.id AND moves.action = 'undo')"
        )
    )
    conn.execute(
        sa.text("UPDATE games SET kind = 'daily' WHERE id IN (SELECT game_id FROM daily_attempts)")
    )
    conn.execute(
        sa.text(
            "UPDATE daily_attempts SET undos = coalesce((SELECT undos FROM games "
            "WHERE games.id = daily_attempts.game_id), 0)"
        )
    )
    race_games: list[str] = []
    for (racers,) in conn.execute(sa.text("SELECT racers FROM rooms")):
        named = json.loads(racers) if isinstance(racers, str) else racers
        race_games += [str(game_id) for game_id in (named or {}).values()]
    if race_games:
        conn.execute(
            sa.text("UPDATE games SET kind = 'race' WHERE id IN :ids").bindparams(
                sa.bindparam("ids", expanding=True)
            ),
            {"ids": race_games},
        )


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("race_key")
        batch_op.drop_column("hints")

    with op.batch_alter_table("room_members", schema=None) as batch_op:
        batch_op.drop_column("role")

    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_players_updated_ms"))
        batch_op.drop_index("ix_players_registered")
        batch_op.drop_column("updated_ms")
        batch_op.drop_column("registered_ip")
        batch_op.drop_column("bot")

    # Keyed games and dailies have no seed: a database that held them cannot go back.
    op.execute("DELETE FROM games WHERE seed IS NULL")
    op.execute("DELETE FROM daily_attempts WHERE game_id NOT IN (SELECT id FROM games)")
    op.execute("DELETE FROM dailies WHERE seed IS NULL")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_player_started")
        batch_op.alter_column("seed", existing_type=sa.BigInteger(), nullable=False)
        batch_op.drop_column("hints")
        batch_op.drop_column("undos")
        batch_op.drop_column("reveal_ms")
        batch_op.drop_column("key_open")
        batch_op.drop_column("kind")
        batch_op.drop_column("commitment")
        batch_op.drop_column("deal_key")

    with op.batch_alter_table("daily_attempts", schema=None) as batch_op:
        batch_op.drop_column("review")
        batch_op.drop_column("undos")

    with op.batch_alter_table("dailies", schema=None) as batch_op:
        batch_op.alter_column("seed", existing_type=sa.BigInteger(), nullable=False)
        batch_op.drop_column("deal_key")

    with op.batch_alter_table("reviews", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_reviews_state"))
        batch_op.drop_index(batch_op.f("ix_reviews_game_id"))
        batch_op.drop_index(batch_op.f("ix_reviews_decided_ms"))

    op.drop_table("reviews")
