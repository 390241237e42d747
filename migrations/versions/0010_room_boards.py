"""room boards: rated rooms, and what watchers see of the racers' boards

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04 23:50:00

``rooms.rated``: the room's races are ranked (keyed deals the server draws,
human racers, no hints, boards hidden until the race is over). ``rooms.boards``:
what watchers see of a racer's board while a friendly race runs, ``live``,
``delayed`` or ``hidden``. Existing rooms are friendly and live, as before.
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
        batch_op.add_column(
            sa.Column("boards", sa.String(length=16), server_default="live", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("boards")
        batch_op.drop_column("rated")
