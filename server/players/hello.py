"""``hello``: registration of new players and return of known ones (:mod:`.accounts`)."""

from __future__ import annotations

from collections.abc import Callable

from server.errors import AlreadyWelcomed, ProtocolMismatch
from server.net.connection import Connection, PlayerInfo
from server.net.routing import Route
from server.players.accounts import Accounts
from server.players.transfers import Transfers
from server.storage.queries import players
from shared import protocol as p


class HelloHandler:
    """``hello``: who the connection is, and what the server is (its ``welcome``)."""

    def __init__(
        self,
        accounts: Accounts,
        transfers: Transfers,
        server: p.ServerInfo,
        welcomed: Callable[[Connection], None],
    ) -> None:
        self.accounts = accounts
        #: codes that move an account to another device
        self.transfers = transfers
        #: what ``welcome`` says of this server (its name, version, variants, message of the day)
        self.server = server
        #: told of each connection welcomed (the app's table of players' connections)
        self.welcomed = welcomed

    def routes(self) -> tuple[Route, ...]:
        return (Route(p.Hello, self.hello, needs_hello=False),)

    async def hello(self, connection: Connection, message: p.Hello) -> p.Reply:
        if connection.player is not None:
            raise AlreadyWelcomed("this connection has already said hello")
        if message.protocol != p.PROTOCOL_VERSION:
            raise ProtocolMismatch(
                f"this server speaks protocol {p.PROTOCOL_VERSION}, not {message.protocol}",
            )
        token: str | None = None
        if message.transfer is not None:
            # another device's code: the player of the token it was made for, told the token
            token = await self.transfers.redeem(message.transfer)
            player = await self.accounts.returning(token)
            token_hash = players.hash_token(token)
        elif message.token is not None:
            player = await self.accounts.returning(message.token)
            token_hash = players.hash_token(message.token)
        else:
            player, token = await self.accounts.register(
                message.name or "", connection.ip, bot=message.bot
            )
            token_hash = players.hash_token(token)
        connection.player = PlayerInfo(player.id, player.name, player.bot)
        connection.token_hash = token_hash
        self.welcomed(connection)
        return p.Welcome(
            protocol=p.PROTOCOL_VERSION,
            server=self.server,
            player=p.PlayerInfo(player.id, player.name, player.bot),
            token=token,
            re=message.id,
        )
