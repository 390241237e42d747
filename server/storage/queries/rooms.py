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
    session: AsyncSession, *, room: dict[str, Any], members: Sequence[SavedMember], new: bool
) -> bool:
    """Insert (``new``) or replace ``room`` (a rooms row, with its ``fence``) and its members;
    False, and nothing changed, when a later fencing token has been taken on the row (another
    node took the room) or the row is gone.

    The update is a compare-and-set on the token (``WHERE fence <= :token``): a node that
    stalled past its lease cannot write over the node that took the room after it.
    """
    if new:
        session.add(Room(**room))
    else:
        values = {k: v for k, v in room.items() if k != "code"}
        changed = await session.execute(
            update(Room)
            .where(Room.code == room["code"], Room.fence <= room["fence"])
            .values(values)
        )
        if rowcount(changed) != 1:
            return False
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
    return True


async def take(session: AsyncSession, *, code: str) -> int | None:
    """A new fencing token for the room, taken as its lease is: the row's ``fence`` + 1, stored
    (None: there is no such room). Every save of a node holding an older token is refused."""
    changed = await session.execute(
        update(Room).where(Room.code == code).values(fence=Room.fence + 1)
    )
    if rowcount(changed) != 1:
        return None
    return await session.scalar(select(Room.fence).where(Room.code == code))


def rowcount(result: Any) -> int:
    return int(getattr(result, "rowcount", 0))


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


async def remove(session: AsyncSession, *, code: str, fence: int | None = None) -> bool:
    """Delete the room and its members; with ``fence``, only while no later token was taken on
    it (False, and nothing deleted, otherwise)."""
    if fence is None:
        await session.execute(delete(RoomMember).where(RoomMember.room_code == code))
        await session.execute(delete(Room).where(Room.code == code))
        return True
    # the room first, on its token; then its members (the cascade, where the database keeps it)
    gone = await session.execute(delete(Room).where(Room.code == code, Room.fence <= fence))
    if rowcount(gone) != 1:
        return False
    await session.execute(delete(RoomMember).where(RoomMember.room_code == code))
    return True


async def load_all(session: AsyncSession) -> list[tuple[Room, list[LoadedMember]]]:
    """Every room with its members in joining order."""
    return await _with_members(session, list((await session.execute(select(Room))).scalars()))


async def load(session: AsyncSession, *, code: str) -> tuple[Room, list[LoadedMember]] | None:
    """One room with its members, or None (a node taking a room over reads it so)."""
    row = await session.get(Room, code, populate_existing=True)
    if row is None:
        return None
    return (await _with_members(session, [row]))[0]


async def of_player(
    session: AsyncSession, *, player_id: int
) -> list[tuple[Room, list[LoadedMember]]]:
    """The rooms ``player_id`` is a member of, whichever node owns them."""
    codes = select(RoomMember.room_code).where(RoomMember.player_id == player_id)
    rooms = list((await session.execute(select(Room).where(Room.code.in_(codes)))).scalars())
    return await _with_members(session, rooms)


async def codes(session: AsyncSession) -> list[str]:
    """Every room's code (nodes look for the rooms nobody owns among them)."""
    return list((await session.execute(select(Room.code))).scalars())


async def _with_members(
    session: AsyncSession, rooms: list[Room]
) -> list[tuple[Room, list[LoadedMember]]]:
    if not rooms:
        return []
    query = (
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
    if len(rooms) < 500:
        query = query.where(RoomMember.room_code.in_([room.code for room in rooms]))
    members: dict[str, list[LoadedMember]] = {}
    for code, *member in await session.execute(query):
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


async def race_games_of(session: AsyncSession, *, player_id: int) -> dict[str, str]:
    """Game id -> room code: the player's game in the current (or last) race of each room
    they are in, so that their ``games`` list can say which race a race game belongs to."""
    rows = await session.execute(
        select(Room.code, Room.racers)
        .join(RoomMember, RoomMember.room_code == Room.code)
        .where(RoomMember.player_id == player_id)
    )
    found: dict[str, str] = {}
    for code, racers in rows:
        game = (racers or {}).get(str(player_id))
        if isinstance(game, str):
            found[game] = code
    return found
