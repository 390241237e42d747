"""The arena messages: who may send each (any welcomed player) and what they are answered."""

from __future__ import annotations

from server.arenas.service import ArenaService
from server.net.connection import Connection
from server.net.routing import Route
from shared import protocol as p


class ArenaHandlers:
    def __init__(self, arenas: ArenaService) -> None:
        self.arenas = arenas

    def routes(self) -> tuple[Route, ...]:
        return (
            Route(p.ArenasRequest, self.listed),
            Route(p.ArenaCreate, self.create),
            Route(p.ArenaJoin, self.join),
            Route(p.ArenaLeave, self.leave),
            Route(p.ArenaPlay, self.play),
            Route(p.ArenaBerserk, self.berserk),
            Route(p.ArenaTableRequest, self.table),
        )

    async def listed(self, connection: Connection, message: p.ArenasRequest) -> p.Reply:
        return await self.arenas.listed(connection.welcomed_player.id, message)

    async def create(self, connection: Connection, message: p.ArenaCreate) -> p.Reply:
        return await self.arenas.create_private(connection.welcomed_player, message)

    async def join(self, connection: Connection, message: p.ArenaJoin) -> p.Reply:
        return await self.arenas.join(connection.welcomed_player, message.code, message.id)

    async def leave(self, connection: Connection, message: p.ArenaLeave) -> p.Reply:
        await self.arenas.leave(connection.welcomed_player.id, message.code)
        return p.Ok(re=message.id)

    async def play(self, connection: Connection, message: p.ArenaPlay) -> p.Reply:
        return await self.arenas.play(connection.welcomed_player, message.code, message.id)

    async def berserk(self, connection: Connection, message: p.ArenaBerserk) -> p.Reply:
        return await self.arenas.berserk(connection.welcomed_player, message.code, message.id)

    async def table(self, connection: Connection, message: p.ArenaTableRequest) -> p.Reply:
        return await self.arenas.table_page(connection.welcomed_player.id, message)
