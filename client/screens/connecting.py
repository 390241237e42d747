"""The screens before home: choosing a name to register, and waiting for a server to answer.

The name screen posts the name chosen (:class:`NameScreen.Chosen`) for the app
to register with; neither screen knows the app or its connection.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, Static


class NameScreen(Screen[None]):
    """First visit to a server: choose the name to register."""

    class Chosen(Message):
        """The player chose ``name`` (as typed, trimmed): register it."""

        def __init__(self, screen: NameScreen, name: str) -> None:
            super().__init__()
            self.screen = screen
            self.name = name

        @property
        def control(self) -> NameScreen:
            return self.screen

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
        self.post_message(self.Chosen(self, event.value.strip()))


class WaitScreen(Screen[None]):
    """The server at ``url`` cannot be reached yet: say why and that we keep trying."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url

    def compose(self) -> ComposeResult:
        yield Static(f"Patience Club: connecting to {self.url}", classes="title")
        yield Static("Connecting…", id="wait-message", classes="panel")
        yield Footer()

    def say(self, message: str) -> None:
        self.query_one("#wait-message", Static).update(message)
