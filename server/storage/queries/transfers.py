"""Transfer codes: one per player, found by the code's hash, gone once used or expired."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import TransferCode


async def replace(session: AsyncSession, row: TransferCode, *, now_ms: int) -> None:
    """Keep ``row`` as its player's one code (an earlier one goes), and drop expired codes."""
    await session.execute(delete(TransferCode).where(TransferCode.player_id == row.player_id))
    await session.execute(delete(TransferCode).where(TransferCode.expires_ms <= now_ms))
    session.add(row)


async def take(session: AsyncSession, *, code_hash: str, now_ms: int) -> TransferCode | None:
    """The unexpired code of that hash, deleted (a code is used once); None when there is none."""
    row = (
        await session.execute(select(TransferCode).where(TransferCode.code_hash == code_hash))
    ).scalar_one_or_none()
    if row is None:
        return None
    await session.delete(row)
    return row if row.expires_ms > now_ms else None
