"""The pool of winnable deals: how many wait in each pool, one put in, one taken out for good."""

from __future__ import annotations

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import PooledDeal

#: times a take tries again when another node deleted the row it chose
TRIES = 8


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
    """The key (hex) of one deal of the pool, its row deleted by the same statement
    (``DELETE ... RETURNING``, committed here): a row only one taker can delete, so no deal
    is dealt twice, even by two nodes at once. None: the pool is empty."""
    d = PooledDeal
    for _ in range(TRIES):
        one = (
            select(d.id)
            .where(d.variant == variant, d.options == options, d.difficulty == difficulty)
            .order_by(func.random())
            .limit(1)
            .scalar_subquery()
        )
        key = (await session.execute(delete(d).where(d.id == one).returning(d.deal_key))).scalar()
        await session.commit()
        if key is not None:
            return key
        found = await session.execute(
            select(d.id)
            .where(d.variant == variant, d.options == options, d.difficulty == difficulty)
            .limit(1)
        )
        if found.first() is None:
            return None  # empty, rather than taken by another node meanwhile
    return None


async def take_many(
    session: AsyncSession, *, variant: str, options: str, difficulty: str, count: int
) -> list[tuple[str, int, int]]:
    """Up to ``count`` deals of the pool, their rows deleted by one statement (committed
    here): (key, positions, line) of each row this taker deleted, none another had."""
    d = PooledDeal
    chosen = (
        select(d.id)
        .where(d.variant == variant, d.options == options, d.difficulty == difficulty)
        .order_by(func.random())
        .limit(count)
    )
    result = await session.execute(
        delete(d).where(d.id.in_(chosen)).returning(d.deal_key, d.positions, d.line)
    )
    rows = [(key, positions, line) for key, positions, line in result.all()]
    await session.commit()
    return rows
