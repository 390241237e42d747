"""challenges: matches of challenges between two players, and which keys their players chose

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-05 01:30:00

``matches`` holds a match (best of 1, 3 or 5) and its running score;
``challenges`` each round: the challenger's game sent to be played on the same
deal, the ghost, both results and the outcome. ``games.key_chosen`` marks a game
whose key showed from its deal on (its player named it): a challenge made of it
is not ranked. Games stored before this revision count as not chosen.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("key_chosen", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    op.create_table(
        "matches",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("best_of", sa.Integer(), nullable=False),
        sa.Column("first_id", sa.Integer(), nullable=False),
        sa.Column("second_id", sa.Integer(), nullable=True),
        sa.Column("first_wins", sa.Integer(), nullable=False),
        sa.Column("second_wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("winner_id", sa.Integer(), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["first_id"], ["players.id"], name=op.f("fk_matches_first_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["second_id"], ["players.id"], name=op.f("fk_matches_second_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["winner_id"], ["players.id"], name=op.f("fk_matches_winner_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
    )
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("match_id", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("challenger_id", sa.Integer(), nullable=False),
        sa.Column("challenger_game", sa.String(length=32), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=True),
        sa.Column("opponent_game", sa.String(length=32), nullable=True),
        sa.Column("ghost", sa.JSON(), nullable=True),
        sa.Column("challenger_result", sa.JSON(), nullable=True),
        sa.Column("opponent_result", sa.JSON(), nullable=True),
        sa.Column("result", sa.String(length=16), nullable=True),
        sa.Column("ranked", sa.Boolean(), nullable=True),
        sa.Column("unranked", sa.String(length=16), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("accepted_ms", sa.BigInteger(), nullable=True),
        sa.Column("ended_ms", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["challenger_game"],
            ["games.id"],
            name=op.f("fk_challenges_challenger_game_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["challenger_id"], ["players.id"], name=op.f("fk_challenges_challenger_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_challenges_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["opponent_game"],
            ["games.id"],
            name=op.f("fk_challenges_opponent_game_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["opponent_id"], ["players.id"], name=op.f("fk_challenges_opponent_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_challenges")),
        sa.UniqueConstraint("match_id", "round", name=op.f("uq_challenges_match_id")),
        sa.UniqueConstraint("opponent_game", name=op.f("uq_challenges_opponent_game")),
    )
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.create_index(
            "ix_challenges_challenger", ["challenger_id", "created_ms"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_challenges_challenger_game"), ["challenger_game"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_challenges_match_id"), ["match_id"], unique=False)
        batch_op.create_index("ix_challenges_opponent", ["opponent_id", "created_ms"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.drop_index("ix_challenges_opponent")
        batch_op.drop_index(batch_op.f("ix_challenges_match_id"))
        batch_op.drop_index(batch_op.f("ix_challenges_challenger_game"))
        batch_op.drop_index("ix_challenges_challenger")
    op.drop_table("challenges")
    op.drop_table("matches")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("key_chosen")
