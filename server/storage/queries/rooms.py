"""Race rooms: the whole state of a room is saved at each change and read back at start."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import Player, Room, RoomMember

#: a member as saved: (player, joined_ms, seq, role)
SavedMember = tuple[int, int, int, str]
#: a member as read back: (player, name, joined_ms, seq, role, bot)
LoadedMember = tuple[int, str, int, int, str, bool]


async def save(
    session: AsyncSession, *, room: dict[str, Any], members: Sequence[SavedMember]
) -> None:
    """Insert or replace ``room`` (a rooms row) and its members."""
    await session.merge(Room(**room))
    await session.execute(delete(RoomMember).where(RoomMember.room_code == room["code"]))
    session.add_all(
        RoomMember(room_code=room["code"], player_id=pid, joined_ms=joined, seq=seq, role=role)
        for pid, joined, seq, role in members
    )


async def remove(session: AsyncSession, *, code: str) -> None:
    await session.execute(delete(RoomMember).where(RoomMember.room_code == code))
    await session.execute(delete(Room).where(Room.code == code))


async def load_all(session: AsyncSession) -> list[tuple[Room, list[LoadedMember]]]:
    """Every room with its members in joining order."""
    rooms = list((await session.execute(select(Room))).scalars())
    rows = await session.execute(
        select(
            RoomMember.room_code,
            Player.id,
            Player.name,
            RoomMember.joined_ms,
            RoomMember.seq,
            RoomMember.role,
            Player.bot,
        )
        .join(Player, Player.id == RoomMember.player_id)
        .order_by(RoomMember.room_code, RoomMember.seq)
    )
    members: dict[str, list[LoadedMember]] = {}
    for code, *member in rows:
        members.setdefault(code, []).append(tuple(member))  # type: ignore[arg-type]
    return [(room, members.get(room.code, [])) for room in rooms]
