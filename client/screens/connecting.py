"""The screens before home: choosing a name to register, and waiting for a server to answer."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer, Input, Static


class NameScreen(Screen[None]):
    """First visit to a server: choose the name to register."""

    def compose(self) -> ComposeResult:
        yield Static("Welcome! Choose a player name for this server.", classes="title")
        yield Static("1 to 24 letters, digits, '_' or '-'.")
        yield Input(placeholder="your name", id="name", max_length=24)
        yield Static(id="name-message")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    def say(self, message: str, *, error: bool = False) -> None:
        self.query_one("#name-message", Static).update(
            Text(message, style="bold red" if error else "")
        )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        from client.app import PatienceApp

        app = self.app
        assert isinstance(app, PatienceApp)
        # Registering anew: a saved token the server refused must not be tried again.
        app.conn.store.forget(app.conn.url)
        app.conn.name = event.value.strip()
        self.run_worker(app.connect(self), group="connect", exclusive=True)


class WaitScreen(Screen[None]):
    """The server cannot be reached yet: say why and that we keep trying."""

    def compose(self) -> ComposeResult:
        from client.app import PatienceApp

        url = self.app.conn.url if isinstance(self.app, PatienceApp) else ""
        yield Static(f"Patience Club: connecting to {url}", classes="title")
        yield Static("Connecting…", id="wait-message", classes="panel")
        yield Footer()

    def say(self, message: str) -> None:
        self.query_one("#wait-message", Static).update(message)
