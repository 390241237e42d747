"""room difficulty: races of winnable deals

Revision ID: 0018
Revises: 0014
Create Date: 2026-12-05 01:45:00

``rooms.difficulty``: a room whose host asked for winnable deals deals each
race a keyed deal the server's solver has won, of this difficulty (``easy``,
``medium`` or ``hard``); null, any deal, as every room before.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("difficulty", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("difficulty")
