"""The arena messages: who may send each (any welcomed player) and what they are answered."""

from __future__ import annotations

from server.arenas.catalogue import ArenaCatalogue
from server.arenas.play import ArenaPlay
from server.arenas.standings import ArenaStandings
from server.net.connection import Connection
from server.net.routing import Route
from shared import protocol as p


class ArenaHandlers:
    def __init__(
        self, catalogue: ArenaCatalogue, play: ArenaPlay, standings: ArenaStandings
    ) -> None:
        self.catalogue = catalogue
        self.playing = play
        self.standings = standings

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
        return await self.catalogue.listed(connection.welcomed_player.id, message)

    async def create(self, connection: Connection, message: p.ArenaCreate) -> p.Reply:
        return await self.playing.create_private(connection.welcomed_player, message)

    async def join(self, connection: Connection, message: p.ArenaJoin) -> p.Reply:
        return await self.playing.join(connection.welcomed_player, message.code, message.id)

    async def leave(self, connection: Connection, message: p.ArenaLeave) -> p.Reply:
        await self.playing.leave(connection.welcomed_player.id, message.code)
        return p.Ok(re=message.id)

    async def play(self, connection: Connection, message: p.ArenaPlay) -> p.Reply:
        return await self.playing.play(connection.welcomed_player, message.code, message.id)

    async def berserk(self, connection: Connection, message: p.ArenaBerserk) -> p.Reply:
        return await self.playing.berserk(connection.welcomed_player, message.code, message.id)

    async def table(self, connection: Connection, message: p.ArenaTableRequest) -> p.Reply:
        return await self.standings.table_page(connection.welcomed_player.id, message)
