"""deal pool: keyed deals the solver has won, waiting to be dealt as winnable deals

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04 23:30:00

One row per deal: its variant, options (canonical JSON), difficulty, secret
key, and what the solver spent on it. A row is deleted when its deal is dealt.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "pooled_deals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("options", sa.String(length=256), nullable=False),
        sa.Column("difficulty", sa.String(length=8), nullable=False),
        sa.Column("deal_key", sa.String(length=64), nullable=False),
        sa.Column("positions", sa.Integer(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pooled_deals")),
        sa.UniqueConstraint("deal_key", name=op.f("uq_pooled_deals_deal_key")),
    )
    op.create_index(
        "ix_pooled_deals_pool", "pooled_deals", ["variant", "options", "difficulty"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_pooled_deals_pool", table_name="pooled_deals")
    op.drop_table("pooled_deals")
