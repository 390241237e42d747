"""``invitation``: who invites to what, for a first visit to a race's link, before ``hello``.

The room's code is what the link carries: with it anyone may join the room, so its host's
name, its game and its state tell nothing the link does not already open. Read from the
database (every node stores its rooms there), so any node answers for any room. A code that
names no room is ``not_found`` and counts as a mistake (codes are not to be tried by the
thousand, before ``hello`` as after).
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.errors import UnknownRoom
from server.net.connection import Connection
from server.net.routing import Route
from server.storage.queries import players
from server.storage.queries import rooms as room_store
from shared import protocol as p


class InvitationHandler:
    """``invitation``, the one request answered before ``hello``."""

    def __init__(
        self, db_sessions: async_sessionmaker[AsyncSession], variant_names: Mapping[str, str]
    ) -> None:
        self.db_sessions = db_sessions
        #: variant id -> the name players read (VariantInfo's ``name``)
        self.variant_names = variant_names

    def routes(self) -> tuple[Route, ...]:
        return (Route(p.InvitationRequest, self.invitation, needs_hello=False),)

    async def invitation(self, _connection: Connection, message: p.InvitationRequest) -> p.Reply:
        async with self.db_sessions() as db:
            loaded = await room_store.load(db, code=message.code)
            host = None if loaded is None else await players.by_id(db, player_id=loaded[0].host_id)
        if loaded is None or host is None:
            raise UnknownRoom(f"no room {message.code!r}")
        room = loaded[0]
        return p.InvitationReply(
            code=room.code,
            host=host.name,
            variant=room.variant,
            variant_name=self.variant_names.get(room.variant, room.variant),
            state=room.state,
            re=message.id,
        )
