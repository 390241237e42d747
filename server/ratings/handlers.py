"""``ratings``: the rating board of a variant, with the asker's own place and true rank."""

from __future__ import annotations

from server.errors import NotFound
from server.net.connection import Connection
from server.net.routing import Route
from server.ratings.service import RatingService
from shared import protocol as p
from shared.variants import Variants


class RatingsHandler:
    def __init__(self, ratings: RatingService, variants: Variants) -> None:
        self.ratings = ratings
        self.variants = variants

    def routes(self) -> tuple[Route, ...]:
        return (Route(p.RatingsRequest, self.board),)

    async def board(self, connection: Connection, message: p.RatingsRequest) -> p.Reply:
        if message.variant not in self.variants.ids:
            raise NotFound(f"no variant {message.variant!r}")
        return await self.ratings.board(connection.welcomed_player.id, message)
