"""name skeletons: no two players' names look alike

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04 23:00:00

``players.name_skeleton`` holds each name's confusable skeleton
(``shared.names.skeleton``: ``AIice`` and ``Alice`` give ``alice``) under a
unique index, so that a name that looks like a player's is refused
(``name_looks_taken``), by the database too when two nodes register at once.

Existing rows are filled in order of id. Names that already looked alike
keep working as they are: the oldest player holds the skeleton, each later
look-alike gets NULL (a unique index takes any number of NULLs on SQLite and
PostgreSQL), so no new player can take a name like theirs, and an operator
who renames one of them (``patience-club admin rename``) gives it the new
name's skeleton. The skeletons are those of this version's table; a later
change to the table brings a migration that fills them again.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from shared.names import skeleton

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name_skeleton", sa.String(length=96), nullable=True))
    players = sa.table(
        "players",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("name_skeleton", sa.String()),
    )
    conn = op.get_bind()
    held: set[str] = set()
    for player_id, name in conn.execute(
        sa.select(players.c.id, players.c.name).order_by(players.c.id)
    ).all():
        key = skeleton(name)
        if key in held:
            continue  # an older player holds it: this one stays NULL (see above)
        held.add(key)
        conn.execute(players.update().where(players.c.id == player_id).values(name_skeleton=key))
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.create_index("ix_players_name_skeleton", ["name_skeleton"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index("ix_players_name_skeleton")
        batch_op.drop_column("name_skeleton")
