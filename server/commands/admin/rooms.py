"""Race rooms: ``rooms``, ``end-race CODE``, ``close-room CODE``.

``rooms`` reads the database, where the server stores every room at each
change and who of its members is connected as they come and go. Ending a
race and closing a room are the running server's to do (the race and its
members' connections live there): the command asks it
(:mod:`server.commands.admin.asking`) and prints what it did. A code that
names no room is refused before anything is asked.
"""

from __future__ import annotations

import argparse
import datetime
from collections.abc import Callable
from types import MappingProxyType

from sqlalchemy.ext.asyncio import AsyncSession

from server.commands.admin.asking import ask, waiting_arguments
from server.commands.admin.common import Action, AdminError
from server.storage.models import Room
from server.storage.queries import requests
from server.storage.queries import rooms as store
from shared.protocol import CODE_ALPHABET, CODE_LENGTH, COUNTDOWN, RACING


def _nothing(_parser: argparse.ArgumentParser) -> None:
    pass


def _code(text: str) -> str:
    code = text.strip().upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a room code ({CODE_LENGTH} of {CODE_ALPHABET})"
        )
    return code


def _when(ms: int) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC).strftime("%Y-%m-%d %H:%M")


async def rooms(db: AsyncSession, _args: argparse.Namespace) -> list[str]:
    """One line per room: code, variant, state (and race number), members/connected, host,
    created (UTC)."""
    listed = await store.listed(db)
    if not listed:
        return ["no rooms"]
    width = max(len("host"), *(len(room.host) for room in listed))
    lines = [f"{'code':<6}  {'variant':<15}  {'state':<12}  members/connected  "
             f"{'host':<{width}}  created (UTC)"]  # fmt: skip
    for room in listed:
        state = f"{room.state} #{room.race}" if room.race else room.state
        counts = f"{room.members}/{room.connected}"
        lines.append(
            f"{room.code:<6}  {room.variant:<15}  {state:<12}  {counts:<17}  "
            f"{room.host:<{width}}  {_when(room.created_ms)}"
        )
    return lines


async def _room(db: AsyncSession, code: str) -> Room:
    room = await db.get(Room, code)
    if room is None:
        raise AdminError(f"no room {code!r} (see 'patience-club admin rooms')")
    return room


async def end_race(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    room = await _room(db, args.code)
    if room.state == COUNTDOWN:
        raise AdminError(
            f"room {room.code} is counting down to its race: end it once it has started"
        )
    if room.state != RACING:
        raise AdminError(f"room {room.code} is {room.state}, not racing: there is no race to end")
    return await ask(db, args, requests.END_RACE, room.code)


async def close_room(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    room = await _room(db, args.code)

    async def offline(db: AsyncSession) -> tuple[bool, str]:
        await store.remove(db, code=room.code)
        return True, f"room {room.code} removed from the database (the server is stopped)"

    return await ask(db, args, requests.CLOSE_ROOM, room.code, offline)


def _code_arguments(*, offline: bool) -> Callable[[argparse.ArgumentParser], None]:
    def arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("code", type=_code, help="the room's code (see 'admin rooms')")
        waiting_arguments(parser, offline=offline)

    return arguments


ACTIONS = MappingProxyType({
    "rooms": Action("list the rooms: code, variant, state, members/connected, host, created",
                    _nothing, rooms),
    "end-race": Action("end a room's race now, as its time limit would: race_over to everyone "
                       "(asks the running server)", _code_arguments(offline=False), end_race),
    "close-room": Action("close a room: its members are told and removed, a race running ends "
                         "first (asks the running server)", _code_arguments(offline=True),
                         close_room),
})  # fmt: skip
