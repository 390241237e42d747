"""Players: registration, lookup by token hash, and the rows changed since a moment."""

from __future__ import annotations

import hashlib
import time

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import Player
from shared.names import skeleton


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def hash_token(token: str) -> str:
    """SHA-256, hex. Tokens carry 192 random bits, so a fast hash is as safe as a slow one."""
    return hashlib.sha256(token.encode()).hexdigest()


async def by_token(session: AsyncSession, *, token_hash: str) -> Player | None:
    result = await session.execute(select(Player).where(Player.token_hash == token_hash))
    return result.scalar_one_or_none()


async def by_id(session: AsyncSession, *, player_id: int) -> Player | None:
    return await session.get(Player, player_id)


async def registered_since(session: AsyncSession, *, ip: str, since_ms: int) -> int:
    """How many players registered from ``ip`` from ``since_ms`` on."""
    count = await session.scalar(
        select(func.count())
        .select_from(Player)
        .where(Player.registered_ip == ip, Player.created_ms >= since_ms)
    )
    return int(count or 0)


async def holder(
    session: AsyncSession, name: str, *, besides: int | None = None
) -> tuple[Player, bool] | None:
    """The player whose name ``name`` would clash with (other than player ``besides``), and
    whether it is the same name (without regard to case) rather than a look-alike; None
    when the name is free."""
    query = select(Player).where(
        (Player.name_key == name.lower()) | (Player.name_skeleton == skeleton(name))
    )
    if besides is not None:
        query = query.where(Player.id != besides)
    found = list((await session.execute(query.order_by(Player.id))).scalars())
    if not found:
        return None
    same = [player for player in found if player.name_key == name.lower()]
    return (same[0], True) if same else (found[0], False)


async def register(
    session: AsyncSession, *, name: str, token_hash: str, now_ms: int, ip: str, bot: bool
) -> Player | None:
    """A new player, committed; None when the name is taken (without regard to case) or
    looks like a player's (the same skeleton: :func:`holder` says which)."""
    player = Player(
        name=name,
        name_key=name.lower(),
        name_skeleton=skeleton(name),
        token_hash=token_hash,
        banned=False,
        bot=bot,
        registered_ip=ip,
        created_ms=now_ms,
        updated_ms=now_ms,
    )
    session.add(player)
    try:
        await session.commit()
    except IntegrityError:
        await session.rollback()
        return None
    return player


async def changed_since(session: AsyncSession, *, since_ms: int) -> list[Player]:
    """The players whose row changed (``updated_ms``) from ``since_ms`` on."""
    result = await session.execute(select(Player).where(Player.updated_ms >= since_ms))
    return list(result.scalars())


async def last_change(session: AsyncSession) -> int:
    """The latest ``updated_ms`` of any player (0 for none)."""
    return int(await session.scalar(select(func.max(Player.updated_ms))) or 0)


async def touch(session: AsyncSession, player: Player) -> None:
    """Mark ``player`` changed for running servers: ``updated_ms`` past every other one, so
    that a server reading the rows changed since what it last saw finds it whatever the
    clocks of the machines say."""
    player.updated_ms = max(now_ms(), await last_change(session) + 1)


async def banned_ids(session: AsyncSession) -> list[int]:
    result = await session.execute(select(Player.id).where(Player.banned.is_(True)))
    return list(result.scalars())
