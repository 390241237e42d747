"""The door every WebSocket connection comes through, and what it leaves behind when it closes.

The doorway holds no rules and no SQL: it enforces the transport limits of
docs/protocol.md (connections in all and per address) and hands each frame to
the :class:`~server.net.routing.Router`, which turns every refusal into an
``error``. When a connection closes, its player's set of connections forgets
it and the parts subscribed to ``closed`` hear of it.
"""

from __future__ import annotations

import itertools
import logging
from collections import Counter

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from server.config import Config
from server.events import Events
from server.net.connection import Connection
from server.net.routing import Router

log = logging.getLogger("server")

CLOSE_TRY_AGAIN = 1013


class Doorway:
    """Admits connections within the limits, reads their frames, cleans up after them.

    ``connections`` and ``players`` are the app's own (the metrics and the pushes read
    them): the doorway adds and removes, it does not own them.
    """

    def __init__(
        self,
        config: Config,
        connections: set[Connection],
        players: dict[int, set[Connection]],
        router: Router,
        events: Events,
    ) -> None:
        self.config = config
        self.connections = connections
        self.players = players
        self.router = router
        self.events = events
        self._per_ip: Counter[str] = Counter()
        self._numbers = itertools.count(1)
        #: the key a connection's address counts under (IPv6 /64, a trusted proxy's header)
        self.addresses = config.client_addresses()

    async def accept(self, ws: ServerConnection) -> None:
        """The websockets handler of one connection: from its opening to its close."""
        connection = Connection(ws, next(self._numbers), self.config)
        peer = ws.remote_address
        connection.ip = self.addresses.key(
            str(peer[0]) if peer else None,
            ws.request.headers.get_all(self.config.proxy_header) if ws.request is not None else (),
        )
        ip = connection.ip
        if len(self.connections) >= self.config.max_connections:
            log.warning("%r refused: server at %d connections", connection, len(self.connections))
            await ws.close(CLOSE_TRY_AGAIN, "the server is full; try again later")
            return
        if self._per_ip[ip] >= self.config.max_connections_per_ip:
            log.warning("%r refused: %d connections from %s", connection, self._per_ip[ip], ip)
            await ws.close(CLOSE_TRY_AGAIN, "too many connections from your address")
            return
        self.connections.add(connection)
        self._per_ip[ip] += 1
        connection.start()
        log.info("%r connected", connection)
        try:
            async for frame in ws:
                await self.router.dispatch(connection, frame)
        except ConnectionClosed:
            pass
        finally:
            self.connections.discard(connection)
            self._per_ip[ip] -= 1
            if not self._per_ip[ip]:
                del self._per_ip[ip]
            if connection.player is not None:
                mine = self.players.get(connection.player.id)
                if mine is not None:
                    mine.discard(connection)
                    if not mine:
                        del self.players[connection.player.id]
            self.events.closed(connection)
            await connection.stop()
            log.info("%r closed: code %s %s", connection, ws.close_code, ws.close_reason or "")
