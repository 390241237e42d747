"""``season``: a board of points per daily (the week's, the month's, all time)."""

from __future__ import annotations

from server.net.connection import Connection
from server.net.routing import Route
from server.seasons.service import SeasonService
from shared import protocol as p


class SeasonHandlers:
    def __init__(self, seasons: SeasonService) -> None:
        self.seasons = seasons

    def routes(self) -> tuple[Route, ...]:
        return (Route(p.SeasonRequest, self.board),)

    async def board(self, connection: Connection, message: p.SeasonRequest) -> p.Reply:
        return await self.seasons.board(connection.welcomed_player.id, message)
