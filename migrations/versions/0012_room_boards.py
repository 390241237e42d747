"""room boards: what watchers see of the racers' boards

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04 23:50:00

``rooms.boards``: what watchers see of a racer's board while a friendly race
runs, ``live``, ``delayed`` or ``hidden`` (a rated room's are hidden whatever
it holds). Existing rooms are live, as before.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("boards", sa.String(length=16), server_default="live", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("boards")
