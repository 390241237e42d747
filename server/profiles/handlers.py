"""``profile`` and ``profile_settings``: a player's page, and hiding one's own."""

from __future__ import annotations

from server.net.connection import Connection
from server.net.routing import Route
from server.profiles.service import ProfileService
from shared import protocol as p


class ProfileHandlers:
    def __init__(self, profiles: ProfileService) -> None:
        self.profiles = profiles

    def routes(self) -> tuple[Route, ...]:
        return (
            Route(p.ProfileRequest, self.profile),
            Route(p.ProfileSettings, self.settings),
        )

    async def profile(self, connection: Connection, message: p.ProfileRequest) -> p.Reply:
        return await self.profiles.profile(connection.welcomed_player.id, message)

    async def settings(self, connection: Connection, message: p.ProfileSettings) -> p.Reply:
        return await self.profiles.settings(connection.welcomed_player.id, message)
