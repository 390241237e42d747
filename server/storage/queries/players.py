"""Players: registration and lookup by token hash."""

from __future__ import annotations

import hashlib

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import Player


def hash_token(token: str) -> str:
    """SHA-256, hex. Tokens carry 192 random bits, so a fast hash is as safe as a slow one."""
    return hashlib.sha256(token.encode()).hexdigest()


async def by_token(session: AsyncSession, *, token_hash: str) -> Player | None:
    result = await session.execute(select(Player).where(Player.token_hash == token_hash))
    return result.scalar_one_or_none()


async def by_id(session: AsyncSession, *, player_id: int) -> Player | None:
    return await session.get(Player, player_id)


async def register(
    session: AsyncSession, *, name: str, token_hash: str, now_ms: int
) -> Player | None:
    """A new player, committed; None when the name is taken (without regard to case)."""
    player = Player(
        name=name, name_key=name.lower(), token_hash=token_hash, banned=False, created_ms=now_ms
    )
    session.add(player)
    try:
        await session.commit()
    except IntegrityError:
        await session.rollback()
        return None
    return player
