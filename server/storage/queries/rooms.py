"""Race rooms: the whole state of a room is saved at each change and read back at start; who
of its members is connected is kept up to date for the operators' list."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer, cast, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import Player, Room, RoomMember

#: a member as saved: (player, joined_ms, seq, role, connected)
SavedMember = tuple[int, int, int, str, bool]
#: a member as read back: (player, name, joined_ms, seq, role, bot)
LoadedMember = tuple[int, str, int, int, str, bool]


async def save(
    session: AsyncSession, *, room: dict[str, Any], members: Sequence[SavedMember]
) -> None:
    """Insert or replace ``room`` (a rooms row) and its members."""
    await session.merge(Room(**room))
    await session.execute(delete(RoomMember).where(RoomMember.room_code == room["code"]))
    session.add_all(
        RoomMember(
            room_code=room["code"],
            player_id=pid,
            joined_ms=joined,
            seq=seq,
            role=role,
            connected=connected,
        )
        for pid, joined, seq, role, connected in members
    )


async def set_connected(
    session: AsyncSession, *, players: Collection[int], connected: bool
) -> None:
    """These players' memberships show them connected (or not)."""
    ids = list(players)
    for at in range(0, len(ids), 500):  # bounded IN lists
        await session.execute(
            update(RoomMember)
            .where(RoomMember.player_id.in_(ids[at : at + 500]))
            .values(connected=connected)
        )


async def nobody_connected(session: AsyncSession) -> None:
    """Every member shows as not connected (a server starting: nobody is, yet)."""
    await session.execute(update(RoomMember).values(connected=False))


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


@dataclass(frozen=True, slots=True)
class Listed:
    """A room as the operators' list shows it."""

    code: str
    variant: str
    state: str
    race: int
    members: int
    connected: int
    host: str
    created_ms: int


async def listed(session: AsyncSession) -> list[Listed]:
    """Every room, oldest first, with its host's name and its counts of members."""
    counts = (
        select(
            RoomMember.room_code,
            func.count().label("members"),
            func.sum(cast(RoomMember.connected, Integer)).label("connected"),
        )
        .group_by(RoomMember.room_code)
        .subquery()
    )
    rows = await session.execute(
        select(
            Room.code,
            Room.variant,
            Room.state,
            Room.race,
            func.coalesce(counts.c.members, 0),
            func.coalesce(counts.c.connected, 0),
            Player.name,
            Room.created_ms,
        )
        .join(Player, Player.id == Room.host_id)
        .outerjoin(counts, counts.c.room_code == Room.code)
        .order_by(Room.created_ms, Room.code)
    )
    return [Listed(*(row)) for row in rows]
