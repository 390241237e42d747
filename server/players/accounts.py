"""Accounts: registration (within the per-address hourly limit) and the return of known players.

The limit counts the rows of the players table, not this process's memory,
so that it holds across restarts and across the servers of one database.
Registrations are taken one at a time (within one process by a lock, across
the nodes of a cluster by a lock per address in Redis), so that a burst
from one address cannot slip past the count between its read and its insert.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.errors import BadToken, Banned, InvalidName, NameLooksTaken, NameTaken, TooManyAccounts
from server.storage.models import Player
from server.storage.queries import players
from shared import protocol as p

HOUR_MS = 3_600_000


class Accounts:
    def __init__(
        self,
        db_sessions: async_sessionmaker[AsyncSession],
        clock: Callable[[], int],
        registering: Callable[[str], AbstractAsyncContextManager[None]],
        *,
        limit: int,
    ) -> None:
        self.db_sessions = db_sessions
        self.clock = clock
        #: held while a player registers from an address (every node's lock of it, if any)
        self.registering = registering
        #: registrations per address per hour (0: no limit)
        self.limit = limit
        self._registering = asyncio.Lock()

    async def returning(self, token: str) -> Player:
        """The player of ``token``; ``bad_token`` or ``banned`` otherwise."""
        async with self.db_sessions() as db:
            player = await players.by_token(db, token_hash=players.hash_token(token))
        if player is None:
            raise BadToken("this token belongs to no player here")
        if player.banned:
            raise Banned(f"player {player.name!r} is banned from this server")
        return player

    async def register(self, name: str, ip: str, *, bot: bool) -> tuple[Player, str]:
        """A new player and its token; ``invalid_name``, ``too_many_accounts``, ``name_taken``,
        ``name_looks_taken`` (the name looks like a player's: shared.names)."""
        if not p.NAME_RE.fullmatch(name):
            raise InvalidName(
                f"name {name[:40]!r} is not 1 to 24 ASCII letters, digits, '_' or '-'",
            )
        limit = self.limit
        token = secrets.token_urlsafe(24)
        registering = self.registering(ip)
        clash = None
        async with self._registering, registering, self.db_sessions() as db:
            now = self.clock()
            if limit and await players.registered_since(db, ip=ip, since_ms=now - HOUR_MS) >= limit:
                raise TooManyAccounts(
                    f"{limit} players registered from your address in the last hour; "
                    "try again later or sign in with your token",
                )
            player = await players.register(
                db, name=name, token_hash=players.hash_token(token), now_ms=now, ip=ip, bot=bot
            )
            if player is None:
                # (the unique indexes refused it: also between two nodes registering at once)
                clash = await players.holder(db, name)
        if player is None:
            if clash is not None and not clash[1]:
                raise NameLooksTaken(
                    f"name {name!r} looks too much like {clash[0].name!r}, a player here "
                    "(letters such as I and l, O and 0 look alike): choose another",
                )
            raise NameTaken(f"name {name!r} is taken")
        return player, token
