"""Bot accounts and what only they own: counted, and removed, never a person's data.

A bot (``players.bot``) owns its games (with their actions and any held
result), its daily attempts and its room memberships. Removing bots deletes
those and the accounts; the rooms they were in stay for the people in them
(a bot host hands on to the next member in joining order, a bot's entry in
the room's last race is dropped) and a room left with no member is deleted.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Select, delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import DailyAttempt, Game, GameAction, Player, Review, Room, RoomMember


@dataclass(slots=True)
class Removal:
    """What removing some bots takes away (or would, for a dry run)."""

    bots: list[tuple[int, str]] = field(default_factory=list)
    games: int = 0
    actions: int = 0
    attempts: int = 0
    reviews: int = 0
    memberships: int = 0
    #: rooms with nobody but bots in them: deleted
    rooms_closed: list[str] = field(default_factory=list)
    #: rooms a bot hosted that a person now hosts
    rooms_handed_on: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        names = ", ".join(name for _, name in self.bots[:10])
        more = f" and {len(self.bots) - 10} more" if len(self.bots) > 10 else ""
        return [
            f"bot accounts: {len(self.bots)}" + (f" ({names}{more})" if self.bots else ""),
            f"their games: {self.games} ({self.actions} actions), daily attempts: "
            f"{self.attempts}, held results: {self.reviews}",
            f"room memberships: {self.memberships}; rooms with only bots, closed: "
            f"{len(self.rooms_closed)}; rooms a bot hosted, handed on: "
            f"{len(self.rooms_handed_on)}",
        ]


def bots(ids: Collection[int] | None = None) -> Select[Any]:
    """The ids of every bot account, or of those of ``ids`` that are bots."""
    query = select(Player.id).where(Player.bot.is_(True))
    return query if ids is None else query.where(Player.id.in_(list(ids)))


async def count(session: AsyncSession, ids: Collection[int] | None = None) -> Removal:
    """What removing the bots (all, or those of ``ids``) would take away; changes nothing."""
    chosen = bots(ids)
    games = select(Game.id).where(Game.player_id.in_(chosen))
    found = Removal()
    found.bots = [
        (pid, name)
        for pid, name in await session.execute(
            select(Player.id, Player.name).where(Player.id.in_(chosen)).order_by(Player.id)
        )
    ]
    found.games = await _count(session, select(func.count()).where(Game.player_id.in_(chosen)))
    found.actions = await _count(session, select(func.count()).where(GameAction.game_id.in_(games)))
    found.attempts = await _count(
        session, select(func.count()).where(DailyAttempt.player_id.in_(chosen))
    )
    found.reviews = await _count(
        session,
        select(func.count()).where(or_(Review.game_id.in_(games), Review.player_id.in_(chosen))),
    )
    found.memberships = await _count(
        session, select(func.count()).where(RoomMember.player_id.in_(chosen))
    )
    ids_found = {pid for pid, _ in found.bots}
    for room, members in await _rooms_touched(session, ids_found):
        people = [m for m in members if m.player_id not in ids_found]
        if not people:
            found.rooms_closed.append(room.code)
        elif room.host_id in ids_found:
            found.rooms_handed_on.append(room.code)
    return found


async def remove(session: AsyncSession, ids: Collection[int] | None = None) -> Removal:
    """Delete the bots (all, or those of ``ids``) and what only they own; what was removed.

    The caller commits. Rooms are changed in the database only: a running server
    changes its rooms in memory first (server/players/bots.py)."""
    removal = await count(session, ids)
    chosen = [pid for pid, _ in removal.bots]
    for at in range(0, len(chosen), 500):  # bounded IN lists
        part = chosen[at : at + 500]
        games = select(Game.id).where(Game.player_id.in_(part))
        for room, members in await _rooms_touched(session, set(part)):
            people = [m for m in members if m.player_id not in part]
            if not people:
                await session.execute(delete(RoomMember).where(RoomMember.room_code == room.code))
                await session.execute(delete(Room).where(Room.code == room.code))
                continue
            if room.host_id in part:
                room.host_id = min(people, key=lambda m: m.seq).player_id
            room.racers = {k: v for k, v in room.racers.items() if int(k) not in part}
        await session.flush()
        await session.execute(delete(RoomMember).where(RoomMember.player_id.in_(part)))
        await session.execute(
            delete(Review).where(or_(Review.game_id.in_(games), Review.player_id.in_(part)))
        )
        await session.execute(delete(DailyAttempt).where(DailyAttempt.player_id.in_(part)))
        await session.execute(delete(GameAction).where(GameAction.game_id.in_(games)))
        await session.execute(delete(Game).where(Game.player_id.in_(part)))
        await session.execute(delete(Player).where(Player.id.in_(part)))
    return removal


async def game_ids(session: AsyncSession, ids: Collection[int]) -> list[str]:
    """The games these players own (a running server forgets them before they go)."""
    rows = await session.execute(select(Game.id).where(Game.player_id.in_(list(ids))))
    return list(rows.scalars())


async def _count(session: AsyncSession, query: Select[Any]) -> int:
    return int(await session.scalar(query) or 0)


async def _rooms_touched(
    session: AsyncSession, ids: set[int]
) -> list[tuple[Room, list[RoomMember]]]:
    """The rooms these players are members of, host, or raced in, with all their members."""
    if not ids:
        return []
    rooms = list((await session.execute(select(Room))).scalars())
    touched = [
        room for room in rooms if room.host_id in ids or any(int(k) in ids for k in room.racers)
    ]
    member_rows = await session.execute(
        select(RoomMember).where(RoomMember.player_id.in_(list(ids)))
    )
    codes = {m.room_code for m in member_rows.scalars()} | {room.code for room in touched}
    by_code = {room.code: room for room in rooms if room.code in codes}
    members: dict[str, list[RoomMember]] = {code: [] for code in by_code}
    if by_code:
        rows = await session.execute(
            select(RoomMember).where(RoomMember.room_code.in_(list(by_code)))
        )
        for m in rows.scalars():
            members[m.room_code].append(m)
    return [(by_code[code], members[code]) for code in sorted(by_code)]
