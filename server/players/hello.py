"""``hello``: registration of new players and return of known ones."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from server.net.connection import PlayerInfo
from server.net.routing import handles
from server.storage.queries import players
from shared import protocol as p
from shared.errors import ProtocolError

if TYPE_CHECKING:
    from server.net.connection import Connection


@handles(p.Hello, needs_hello=False)
async def hello(connection: Connection, message: p.Hello) -> p.Reply:
    if connection.player is not None:
        raise ProtocolError(p.ALREADY_WELCOMED, "this connection has already said hello")
    if message.protocol != p.PROTOCOL_VERSION:
        raise ProtocolError(
            p.PROTOCOL_MISMATCH,
            f"this server speaks protocol {p.PROTOCOL_VERSION}, not {message.protocol}",
        )
    app = connection.app
    token: str | None = None
    async with app.db_sessions() as db:
        if message.token is not None:
            player = await players.by_token(db, token_hash=players.hash_token(message.token))
            if player is None:
                raise ProtocolError(p.BAD_TOKEN, "this token belongs to no player here")
            if player.banned:
                raise ProtocolError(p.BANNED, f"player {player.name!r} is banned from this server")
        else:
            name = message.name or ""
            if not p.NAME_RE.fullmatch(name):
                raise ProtocolError(
                    p.INVALID_NAME,
                    f"name {name[:40]!r} is not 1 to 24 ASCII letters, digits, '_' or '-'",
                )
            token = secrets.token_urlsafe(24)
            player = await players.register(
                db, name=name, token_hash=players.hash_token(token), now_ms=app.clock()
            )
            if player is None:
                raise ProtocolError(p.NAME_TAKEN, f"name {name!r} is taken")
    connection.player = PlayerInfo(player.id, player.name)
    app.welcomed(connection)
    return p.Welcome(
        protocol=p.PROTOCOL_VERSION,
        server=app.server_info(),
        player=p.PlayerInfo(player.id, player.name),
        token=token,
        re=message.id,
    )


ROUTES = (hello,)
