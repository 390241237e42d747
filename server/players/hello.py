"""``hello``: registration of new players and return of known ones (:mod:`.accounts`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.errors import AlreadyWelcomed, ProtocolMismatch
from server.net.connection import PlayerInfo
from server.net.routing import handles
from server.storage.queries import players
from shared import protocol as p

if TYPE_CHECKING:
    from server.net.connection import Connection


@handles(p.Hello, needs_hello=False)
async def hello(connection: Connection, message: p.Hello) -> p.Reply:
    if connection.player is not None:
        raise AlreadyWelcomed("this connection has already said hello")
    if message.protocol != p.PROTOCOL_VERSION:
        raise ProtocolMismatch(
            f"this server speaks protocol {p.PROTOCOL_VERSION}, not {message.protocol}",
        )
    app = connection.app
    token: str | None = None
    if message.token is not None:
        player = await app.accounts.returning(message.token)
        token_hash = players.hash_token(message.token)
    else:
        player, token = await app.accounts.register(
            message.name or "", connection.ip, bot=message.bot
        )
        token_hash = players.hash_token(token)
    connection.player = PlayerInfo(player.id, player.name, player.bot)
    connection.token_hash = token_hash
    app.welcomed(connection)
    return p.Welcome(
        protocol=p.PROTOCOL_VERSION,
        server=app.server_info(),
        player=p.PlayerInfo(player.id, player.name, player.bot),
        token=token,
        re=message.id,
    )


ROUTES = (hello,)
