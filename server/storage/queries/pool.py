"""The pool of winnable deals: how many wait in each pool, one put in, one taken out for good."""

from __future__ import annotations

import secrets

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import PooledDeal

#: rows a take chooses among (at random), so that two nodes taking at once seldom collide
TAKE_AMONG = 8


async def counts(session: AsyncSession) -> dict[tuple[str, str, str], int]:
    """Deals waiting, by (variant, options, difficulty)."""
    d = PooledDeal
    result = await session.execute(
        select(d.variant, d.options, d.difficulty, func.count()).group_by(
            d.variant, d.options, d.difficulty
        )
    )
    return {(v, o, diff): n for v, o, diff, n in result.all()}


async def put(session: AsyncSession, row: PooledDeal) -> None:
    session.add(row)


async def take(session: AsyncSession, *, variant: str, options: str, difficulty: str) -> str | None:
    """The key (hex) of one deal of the pool, its row deleted in the same transaction
    (committed here): a row only one taker can delete, so no deal is dealt twice, even by
    two nodes at once. None: the pool is empty."""
    d = PooledDeal
    for _ in range(3 * TAKE_AMONG):
        ids = list(
            (
                await session.execute(
                    select(d.id)
                    .where(d.variant == variant, d.options == options, d.difficulty == difficulty)
                    .order_by(d.id)
                    .limit(TAKE_AMONG)
                )
            ).scalars()
        )
        if not ids:
            return None
        chosen = secrets.choice(ids)
        key = (await session.execute(select(d.deal_key).where(d.id == chosen))).scalar()
        deleted = await session.execute(delete(d).where(d.id == chosen))
        await session.commit()
        if key is not None and getattr(deleted, "rowcount", 0) == 1:
            return key
        # another taker had it: choose again
    return None
