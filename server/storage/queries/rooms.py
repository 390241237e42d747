"""Race rooms: the whole state of a room is saved at each change and read back at start."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import Player, Room, RoomMember


async def save(
    session: AsyncSession, *, room: dict[str, Any], members: Sequence[tuple[int, int, int]]
) -> None:
    """Insert or replace ``room`` (a rooms row) and its members ``(player, joined_ms, seq)``."""
    await session.merge(Room(**room))
    await session.execute(delete(RoomMember).where(RoomMember.room_code == room["code"]))
    session.add_all(
        RoomMember(room_code=room["code"], player_id=pid, joined_ms=joined, seq=seq)
        for pid, joined, seq in members
    )


async def remove(session: AsyncSession, *, code: str) -> None:
    await session.execute(delete(RoomMember).where(RoomMember.room_code == code))
    await session.execute(delete(Room).where(Room.code == code))


async def load_all(
    session: AsyncSession,
) -> list[tuple[Room, list[tuple[int, str, int, int]]]]:
    """Every room with its members ``(player, name, joined_ms, seq)`` in joining order."""
    rooms = list((await session.execute(select(Room))).scalars())
    rows = await session.execute(
        select(RoomMember.room_code, Player.id, Player.name, RoomMember.joined_ms, RoomMember.seq)
        .join(Player, Player.id == RoomMember.player_id)
        .order_by(RoomMember.room_code, RoomMember.seq)
    )
    members: dict[str, list[tuple[int, str, int, int]]] = {}
    for code, pid, name, joined, seq in rows:
        members.setdefault(code, []).append((pid, name, joined, seq))
    return [(room, members.get(room.code, [])) for room in rooms]
