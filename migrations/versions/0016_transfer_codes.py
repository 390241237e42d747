"""transfer codes: a short code that moves an account to another device, for minutes

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-05 02:00:00

``transfer_codes`` holds at most one code per player: the SHA-256 of the code,
the player's token sealed with a key made from the code, and when it expires
(docs/protocol.md, ``transfer_code``). Nothing before this revision had one.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "transfer_codes",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("salt", sa.String(length=32), nullable=False),
        sa.Column("sealed", sa.String(length=256), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_transfer_codes_player_id_players")
        ),
        sa.PrimaryKeyConstraint("code_hash", name=op.f("pk_transfer_codes")),
        sa.UniqueConstraint("player_id", name=op.f("uq_transfer_codes_player_id")),
    )
    with op.batch_alter_table("transfer_codes", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_transfer_codes_expires_ms"), ["expires_ms"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("transfer_codes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_transfer_codes_expires_ms"))
    op.drop_table("transfer_codes")
