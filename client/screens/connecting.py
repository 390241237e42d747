"""The screens before home: choosing a name to register (or typing the transfer code another
device shows, to sign in as that account), and waiting for a server to answer.

The name screen posts the name chosen (:class:`NameScreen.Chosen`) or the code
typed (:class:`NameScreen.Transfer`) for the app to say hello with; neither
screen knows the app or its connection.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Input, Static

from client.footer import Footer
from client.i18n import t


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

    class Transfer(Message):
        """The player typed ``code``, a transfer code shown on another device: sign in with
        it as that device's account."""

        def __init__(self, screen: NameScreen, code: str) -> None:
            super().__init__()
            self.screen = screen
            self.code = code

        @property
        def control(self) -> NameScreen:
            return self.screen

    def compose(self) -> ComposeResult:
        yield Static(t("name.welcome"), classes="title")
        yield Static(t("name.rule"))
        yield Input(placeholder=t("name.placeholder"), id="name", max_length=24)
        yield Static(t("name.transfer"))
        yield Input(placeholder=t("name.transfer_placeholder"), id="transfer", max_length=32)
        yield Static(id="name-message")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    def say(self, message: str, *, error: bool = False) -> None:
        self.query_one("#name-message", Static).update(
            Text(message, style="bold red" if error else "")
        )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "transfer":
            code = event.value.strip()
            if not code:
                self.say(t("name.transfer_empty"), error=True)
                return
            self.post_message(self.Transfer(self, code))
            return
        self.post_message(self.Chosen(self, event.value.strip()))


class WaitScreen(Screen[None]):
    """The server at ``url`` cannot be reached yet: say why and that we keep trying."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url

    def compose(self) -> ComposeResult:
        yield Static(t("wait.title", url=self.url), classes="title")
        yield Static(t("wait.connecting"), id="wait-message", classes="panel")
        yield Footer()

    def say(self, message: str) -> None:
        self.query_one("#wait-message", Static).update(message)
