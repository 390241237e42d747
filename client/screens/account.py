"""The account screen: move this account to another device with a short code, or log out.

A token is the player's password on a server and is not typed by hand: ``t``
asks the server for a transfer code (two groups of four signs, minutes long,
used once), which the other device types on its name screen. Logging out
forgets this device's token, so it asks twice and says how to come back
first. The screen asks over the connection it is given and posts
:class:`AccountScreen.LogOut` for the app to do; it knows no app.
"""

from __future__ import annotations

import time

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Key
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from client.clock import Clock, format_ms
from client.connection import Connection, describe
from client.footer import Footer
from client.i18n import t
from client.widgets import TitleBar
from shared.errors import ProtocolError
from shared.protocol import TransferCodeReply


def code_text(reply: TransferCodeReply | None, now_ms: int) -> Text:
    """The code shown, with how long it still works; or what ``t`` does before one is asked."""
    text = Text()
    if reply is None:
        text.append(t("account.t"), style="bold")
        return text
    left = reply.expires_ms - now_ms
    if left <= 0:
        text.append(t("account.expired"), style="bold red")
        return text
    text.append(t("account.enter"))
    text.append(f" {reply.code} ", style="bold reverse")
    text.append("\n" + t("account.left", time=format_ms(left)))
    return text


class AccountScreen(Screen[None]):
    """Who this device plays as on this server; a transfer code; log out."""

    class LogOut(Message):
        """Forget this device's token and go back to the name screen."""

        def __init__(self, screen: AccountScreen) -> None:
            super().__init__()
            self.screen = screen

        @property
        def control(self) -> AccountScreen:
            return self.screen

    BINDINGS = [
        Binding("t", "code", "key.transfer_code"),
        Binding("L", "log_out", "key.log_out"),
        Binding("escape", "back", "key.back"),
    ]

    def __init__(self, conn: Connection, clock: Clock = time.time) -> None:
        super().__init__()
        self.conn = conn
        self.clock = clock
        self.reply: TransferCodeReply | None = None
        self._armed = False

    def compose(self) -> ComposeResult:
        yield TitleBar(classes="titlebar")
        yield Static(self._who(), id="account-who", classes="panel")
        yield Static(t("account.explain"), id="account-explain")
        yield Static(code_text(None, 0), id="account-code", classes="panel")
        yield Static(id="account-message")
        yield Footer()

    def on_mount(self) -> None:
        self.set_interval(1.0, self._tick)

    def _who(self) -> str:
        player = self.conn.player
        server = self.conn.server_info
        name = "?" if player is None else player.name
        where = self.conn.url if server is None else f"{server.name} ({self.conn.url})"
        return t("account.who", name=name, where=where)

    def _tick(self) -> None:
        if self.reply is not None:
            now = int(self.clock() * 1000)
            self.query_one("#account-code", Static).update(code_text(self.reply, now))

    def say(self, message: str, *, error: bool = False) -> None:
        self.query_one("#account-message", Static).update(
            Text(message, style="bold red" if error else "")
        )

    def action_code(self) -> None:
        self.run_worker(self._code(), group="account", exclusive=True)

    async def _code(self) -> None:
        try:
            self.reply = await self.conn.transfer_code()
        except (ProtocolError, ConnectionError, TimeoutError) as exc:
            self.say(describe(exc), error=True)
            return
        self.say("")
        self._tick()

    def action_log_out(self) -> None:
        # The token is this device's only way back into the account: ask twice.
        if not self._armed:
            self._armed = True
            self.say(t("account.log_out_again"), error=True)
            return
        self._armed = False
        self.post_message(self.LogOut(self))

    def on_key(self, event: Key) -> None:
        if event.key != "L" and self._armed:
            self._armed = False
            self.say("")

    def action_back(self) -> None:
        self.dismiss()
