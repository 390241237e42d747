"""room fences: a room's row refuses the saves of a node that lost its lease

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 23:30:00

``rooms.fence`` is the fencing token of the last node that took the room's
lease (the row's value + 1, taken as the lease is). A node saves the room
with the token it took, and the update changes the row only while
``fence <= token``: a node that stalled past its lease and resumes after
another took the room has its save refused (docs/architecture.md, "Several
nodes"). Existing rows start at 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("fence", sa.BigInteger(), server_default="0", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("fence")
