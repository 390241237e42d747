"""The client's link to a server: hello, request/reply by id, pushes, and reconnection.

The server is the authority and may be restarted or the network may drop at
any moment, so every request can be retried: after a drop the connection
reconnects with exponential backoff, says hello again with the stored token,
lets the owner resume (``get_game``), then resends what was unanswered. Game
actions carry their ``ply``, so a resent move that the server had already
applied is answered with the current view instead of being played twice
(docs/protocol.md, Games).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import random
from collections.abc import Awaitable, Callable, Iterator
from typing import TypeVar

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from client.config import Account, TokenStore
from client.i18n import t
from client.i18n.en import EN
from client.wire import PROTOCOL_VERSION, decode, encode, expect, reply_to
from shared.errors import ProtocolError
from shared.protocol import (
    Error,
    Hello,
    PlayerInfo,
    Reply,
    Request,
    ServerInfo,
    TransferCodeReply,
    TransferCodeRequest,
    Welcome,
)

CLIENT_NAME = "patience-club-tui/0.1"

#: connection states reported to ``on_state``
CONNECTING = "connecting"
CONNECTED = "connected"
RECONNECTING = "reconnecting"
FAILED = "failed"
CLOSED = "closed"

#: hello errors that no retry can fix: reconnecting stops and the player is told
FATAL_HELLO = frozenset(
    {
        "bad_token",
        "banned",
        "protocol_mismatch",
        "name_taken",
        "name_looks_taken",
        "invalid_name",
        "too_many_accounts",
    }
)

#: refusals said in the player's words (the tables' ``error.<code>``); the others are shown
#: as the server wrote them
_FRIENDLY = frozenset(
    {
        *FATAL_HELLO,
        "rate_limited",
        "forbidden",
        "game_over",
        "daily_locked",
        "room_full",
        "not_host",
        "race_in_progress",
        "not_in_room",
        "no_racers",
        "too_many_rooms",
        "hints_off",
        "busy",
        "race_locked",
        "daily_open",
        "too_many_actions",
    }
)


def describe(error: BaseException) -> str:
    """A sentence a player can read for any failure of a request."""
    if isinstance(error, ProtocolError):
        if error.code == "stale_ply":  # the board takes up the server's view: say so, alone
            return t("error.stale_ply")
        if error.code not in _FRIENDLY:
            return error.message
        hint = t(f"error.{error.code}")
        if error.message and error.message != hint and error.message != EN[f"error.{error.code}"]:
            return t("error.with_detail", hint=hint, detail=error.message)
        return hint
    if isinstance(error, TimeoutError):
        return t("error.timeout")
    if isinstance(error, ConnectionError | OSError):
        return t("error.unreachable", why=error or type(error).__name__)
    return f"{type(error).__name__}: {error}"


StateCallback = Callable[[str, str], None]
PushCallback = Callable[[Reply], None]
ResumeCallback = Callable[[], Awaitable[None]]

R = TypeVar("R", bound=Reply)


class Connection:
    """One player on one server. Create, ``await open()``, then ``request`` freely."""

    def __init__(
        self,
        url: str,
        *,
        store: TokenStore,
        name: str | None = None,
        bot: bool = False,
        client: str = CLIENT_NAME,
        on_push: PushCallback | None = None,
        on_state: StateCallback | None = None,
        on_resume: ResumeCallback | None = None,
        backoff_initial: float = 0.25,
        backoff_max: float = 8.0,
        reply_timeout: float = 20.0,
    ) -> None:
        self.url = url
        self.store = store
        self.name = name
        #: registers as a bot account (a new player only)
        self.bot = bot
        self.client = client
        self.on_push = on_push
        self.on_state = on_state
        self.on_resume = on_resume
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.reply_timeout = reply_timeout
        self.welcome: Welcome | None = None
        self.state = CLOSED
        self.last_error = ""
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Reply]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._reconnector: asyncio.Task[None] | None = None
        self._up = asyncio.Event()
        self._closing = False
        self.reconnects = 0
        #: a transfer code typed on this device: the next ``hello`` signs in with it
        self.transfer: str | None = None

    # -- who we are ------------------------------------------------------------

    @property
    def needs_name(self) -> bool:
        """True when neither a saved token nor a name can identify us to this server."""
        return self.store.get(self.url) is None and not self.name and not self.transfer

    @property
    def player(self) -> PlayerInfo | None:
        return None if self.welcome is None else self.welcome.player

    @property
    def server_info(self) -> ServerInfo | None:
        return None if self.welcome is None else self.welcome.server

    # -- lifecycle -------------------------------------------------------------

    async def open(self) -> Welcome:
        """Connect and say hello (registering on first use); raises when that fails."""
        self._closing = False
        self._set_state(CONNECTING, self.url)
        try:
            welcome = await self._connect_once()
        except BaseException as exc:
            self._set_state(FAILED, describe(exc))
            raise
        return welcome

    async def close(self) -> None:
        self._closing = True
        self._up.clear()
        if self._reconnector is not None:
            self._reconnector.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reconnector
            self._reconnector = None
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
            self._reader = None
        self._fail_pending(ConnectionError(t("link.closed")))
        self._set_state(CLOSED, "")

    async def drop(self) -> None:
        """Cut the link abruptly as a network failure would (the client then reconnects)."""
        if self._ws is not None:
            self._ws.transport.abort()

    async def _connect_once(self) -> Welcome:
        try:
            ws = await connect(self.url, open_timeout=10, max_size=2**22)
        except (InvalidURI, InvalidHandshake) as exc:
            raise ConnectionError(f"{self.url}: {exc}") from exc
        try:
            welcome = await self._hello(ws)
        except BaseException:
            await ws.close()
            raise
        self._ws = ws
        self.welcome = welcome
        self._reader = asyncio.create_task(self._read_loop(ws))
        self._up.set()
        self._set_state(CONNECTED, welcome.player.name)
        return welcome

    async def _hello(self, ws: ClientConnection) -> Welcome:
        account = self.store.get(self.url)
        transfer = self.transfer if account is None else None
        if account is None and not self.name and not transfer:
            raise ProtocolError("invalid_name", "choose a name to register on this server")
        hello = Hello(
            protocol=PROTOCOL_VERSION,
            client=self.client,
            token=None if account is None else account.token,
            name=self.name if account is None and not transfer else None,
            bot=self.bot and account is None and not transfer,
            transfer=transfer,
            id=0,
        )
        await ws.send(encode(hello))
        while True:
            reply = decode(await asyncio.wait_for(ws.recv(), self.reply_timeout))
            if reply.re == 0 or isinstance(reply, Welcome | Error):
                break
        welcome = expect(hello, reply, Welcome)
        if welcome.token:
            self.store.put(self.url, Account(welcome.player.name, welcome.token))
        self.transfer = None  # used once: the token it opened is kept now
        return welcome

    # -- the account on other devices ------------------------------------------

    async def transfer_code(self) -> TransferCodeReply:
        """A short code that signs this account in on another device (``transfer_code``),
        asked with the token this device holds."""
        account = self.store.get(self.url)
        if account is None:
            raise ProtocolError("bad_token", "this device holds no token for this server")
        return await self.request(TransferCodeRequest(token=account.token), TransferCodeReply)

    async def log_out(self) -> None:
        """Close the link and forget this server's token here: the next start asks for a
        name, or for a transfer code from a device still signed in."""
        await self.close()
        self.store.forget(self.url)
        self.welcome = None
        self.name = None
        self.transfer = None

    # -- requests --------------------------------------------------------------

    async def request(self, message: Request, answer: type[R], *, retry: bool = True) -> R:
        """Send one request and return its reply, an ``answer``; an ``error`` reply raises."""
        return expect(message, await self.send(message, retry=retry), answer)

    async def send(self, message: Request, *, retry: bool = True) -> Reply:
        """Send one request and return its reply, ``error`` replies included.

        With ``retry``, a request whose link drops before the reply is resent
        once the connection is back; game actions are safe to resend thanks to
        their ``ply``.
        """
        while True:
            if not self._up.is_set():
                if self._closing or self.state == FAILED:
                    raise ConnectionError(self.last_error or "not connected")
                await self._wait_up()
            ws = self._ws
            assert ws is not None
            msg_id = next(self._ids)
            future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
            self._pending[msg_id] = future
            try:
                await ws.send(encode(dataclasses.replace(message, id=msg_id)))
                return await asyncio.wait_for(future, self.reply_timeout)
            except TimeoutError:
                # An OSError, but not a lost link: waiting for a reconnection that a live
                # link never needs would wait forever. The caller says "try again".
                raise
            except (ConnectionClosed, ConnectionError, OSError):
                if not retry or self._closing:
                    raise ConnectionError(self.last_error or "the connection was lost") from None
                if self._ws is ws:
                    # The reader has not seen the close yet: wait for it, never spin on a dead link.
                    self._up.clear()
                await asyncio.sleep(0.01)
            finally:
                self._pending.pop(msg_id, None)

    async def _wait_up(self) -> None:
        while not self._up.is_set():
            if self.state == FAILED or self._closing:
                raise ConnectionError(self.last_error or "not connected")
            waiter = asyncio.create_task(self._up.wait())
            done, _ = await asyncio.wait({waiter}, timeout=0.5)
            if not done:
                waiter.cancel()

    # -- reading and reconnecting ----------------------------------------------

    async def _read_loop(self, ws: ClientConnection) -> None:
        try:
            async for frame in ws:
                try:
                    message = decode(frame)
                except ProtocolError as exc:
                    # A reply that does not decode fails its request; a bad push is dropped.
                    re = reply_to(frame)
                    failed = self._pending.get(re) if re is not None else None
                    if failed is not None and not failed.done():
                        failed.set_exception(exc)
                    continue
                future = self._pending.get(message.re) if message.re is not None else None
                if future is not None:
                    if not future.done():
                        future.set_result(message)
                elif self.on_push is not None:
                    self.on_push(message)
        except ConnectionClosed:
            pass
        finally:
            if self._ws is ws:
                self._ws = None
                self._up.clear()
                self._fail_pending(ConnectionError(t("link.lost")))
                if not self._closing:
                    self._reconnector = asyncio.create_task(self._reconnect())

    def _fail_pending(self, error: Exception) -> None:
        for future in self._pending.values():
            if not future.done():
                future.set_exception(error)

    def backoff_delays(self) -> Iterator[float]:
        """Waits before each attempt: doubling from ``backoff_initial`` up to ``backoff_max``.

        Jitter spreads the clients of a restarted server so they do not all knock at once.
        """
        delay = self.backoff_initial
        while True:
            yield delay * random.uniform(0.8, 1.2)
            delay = min(self.backoff_max, delay * 2)

    async def _reconnect(self) -> None:
        for delay in self.backoff_delays():
            self._set_state(RECONNECTING, t("link.lost_retrying", delay=f"{delay:.1f}"))
            await asyncio.sleep(delay)
            try:
                await self._connect_once()
            except ProtocolError as exc:
                if exc.code in FATAL_HELLO:
                    self._set_state(FAILED, describe(exc))
                    return
                self.last_error = describe(exc)
            except (OSError, ConnectionError, ConnectionClosed, TimeoutError) as exc:
                self.last_error = describe(exc)
            else:
                self.reconnects += 1
                if self.on_resume is not None:
                    with contextlib.suppress(ProtocolError, ConnectionError):
                        await self.on_resume()
                return

    def _set_state(self, state: str, detail: str) -> None:
        self.state = state
        if state == FAILED:
            self.last_error = detail
        if self.on_state is not None:
            self.on_state(state, detail)
