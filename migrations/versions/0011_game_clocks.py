"""game clocks: active time and stopped clocks

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04 23:20:00

``games.paused_ms`` is the time a game's clock did not count (an unranked
game that nobody had open, a stuck unranked game taken back by an undo), and
``games.stopped_ms`` the moment its clock stops or stopped (a stuck game; an
unranked game every connection left), NULL while it runs. A game's elapsed
time is ``min(now, stopped_ms, ended_ms) - started_ms - paused_ms``
(server/games/clock.py). Existing games get 0 and NULL: their clocks read as
before.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("paused_ms", sa.BigInteger(), nullable=False, server_default="0")
        )
        batch_op.add_column(sa.Column("stopped_ms", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("stopped_ms")
        batch_op.drop_column("paused_ms")
