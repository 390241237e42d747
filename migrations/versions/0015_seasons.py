"""seasons: points per daily, the week's, month's and all-time boards; hidden profiles

Revision ID: 0015
Revises: 0018
Create Date: 2026-12-05 01:40:00

``season_days`` holds the points each daily attempt earned and its final place
(server/seasons/points.py, docs/seasons.md); ``season_points`` each player's
points per board (a variant or ``*``, a week, a month or ``all``);
``season_counts`` how many players of a board hold each number of points (a
true rank is a sum over it); ``season_closed`` the dailies whose places were
given their points; ``rating_counts`` how many players hold a rating in each
whole point (the rating board's true rank; filled here from ``ratings``).
``players.profile_hidden``: the player hides their profile;
``ix_players_banned``: the few banned players, counted out of a rank.

Boards start empty: the attempts of days before this revision are not scored.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("profile_hidden", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.create_index("ix_players_banned", ["banned"], unique=False)
    op.create_table(
        "season_days",
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("date", sa.String(length=10), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_season_days_player_id_players")
        ),
        sa.PrimaryKeyConstraint("variant", "date", "player_id", name=op.f("pk_season_days")),
    )
    with op.batch_alter_table("season_days", schema=None) as batch_op:
        batch_op.create_index("ix_season_days_player", ["player_id", "date"], unique=False)
    op.create_table(
        "season_points",
        sa.Column("scope", sa.String(length=32), nullable=False),
        sa.Column("period", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("dailies", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_season_points_player_id_players")
        ),
        sa.PrimaryKeyConstraint("scope", "period", "player_id", name=op.f("pk_season_points")),
    )
    with op.batch_alter_table("season_points", schema=None) as batch_op:
        batch_op.create_index(
            "ix_season_points_board", ["scope", "period", "points", "player_id"], unique=False
        )
    op.create_table(
        "season_counts",
        sa.Column("scope", sa.String(length=32), nullable=False),
        sa.Column("period", sa.String(length=16), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("scope", "period", "points", name=op.f("pk_season_counts")),
    )
    op.create_table(
        "season_closed",
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("date", sa.String(length=10), nullable=False),
        sa.Column("closed_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("variant", "date", name=op.f("pk_season_closed")),
    )
    counts = op.create_table(
        "rating_counts",
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("floor", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("variant", "floor", name=op.f("pk_rating_counts")),
    )
    found: dict[tuple[str, int], int] = {}
    for variant, rating in op.get_bind().execute(sa.text("SELECT variant, rating FROM ratings")):
        key = (str(variant), math.floor(float(rating)))
        found[key] = found.get(key, 0) + 1
    if found:
        op.bulk_insert(
            counts,
            [{"variant": v, "floor": f, "players": n} for (v, f), n in sorted(found.items())],
        )


def downgrade() -> None:
    op.drop_table("rating_counts")
    op.drop_table("season_closed")
    op.drop_table("season_counts")
    with op.batch_alter_table("season_points", schema=None) as batch_op:
        batch_op.drop_index("ix_season_points_board")
    op.drop_table("season_points")
    with op.batch_alter_table("season_days", schema=None) as batch_op:
        batch_op.drop_index("ix_season_days_player")
    op.drop_table("season_days")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index("ix_players_banned")
        batch_op.drop_column("profile_hidden")
