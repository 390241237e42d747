"""operators: who of a room's members is connected, operators' requests to the server

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 21:20:00

``room_members.connected`` lets ``patience-club admin rooms`` show who is
connected without asking the server (existing members: not connected, as at
every start of the server). ``operator_requests`` carries ``admin end-race``,
``close-room`` and ``remove-bots`` to the running server.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "operator_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("target", sa.String(length=1000), nullable=True),
        sa.Column("requested_ms", sa.BigInteger(), nullable=False),
        sa.Column("taken_by", sa.String(length=16), nullable=True),
        sa.Column("taken_ms", sa.BigInteger(), nullable=True),
        sa.Column("done_ms", sa.BigInteger(), nullable=True),
        sa.Column("ok", sa.Boolean(), nullable=True),
        sa.Column("outcome", sa.String(length=1000), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_operator_requests")),
    )
    with op.batch_alter_table("room_members", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("connected", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("room_members", schema=None) as batch_op:
        batch_op.drop_column("connected")
    op.drop_table("operator_requests")
