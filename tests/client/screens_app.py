"""The app's screens drawn from fixed protocol messages, for snapshots at fixed sizes.

A snapshot must not change from run to run, and a live server's rooms,
dates and clocks do. So the app here is the real :class:`PatienceApp` with
the ``welcome`` a server sends (its real VariantInfo of every variant) and a
link that is down: requests fail at once, and each screen shows the
messages a test hands it, as they would have come from the server.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from textual import events
from textual.app import App
from textual.screen import Screen

import client
from client.app import PatienceApp
from client.config import TokenStore
from client.connection import FAILED
from shared.protocol import PlayerInfo, ServerInfo, VariantInfo, Welcome
from shared.variants import STANDARD


def welcome(name: str = "alice") -> Welcome:
    variants = tuple(VariantInfo.from_map(STANDARD.get(v).info()) for v in STANDARD.ids)
    server = ServerInfo(
        name="Test Club", version="0.1", variants=variants, motd="welcome to the test club"
    )
    return Welcome(protocol=2, server=server, player=PlayerInfo(1, name))


class ScreensApp(PatienceApp):
    """The app with a welcome and no link, showing the screen ``make`` builds, speaking
    ``lang``."""

    # A subclass defined here would look for its CSS beside this file.
    CSS_PATH = Path(client.__file__).parent / "app.tcss"

    def __init__(
        self, make: Callable[[PatienceApp], Screen[None]], tmp: Path, lang: str = "en"
    ) -> None:
        store = TokenStore(tmp / "cfg")
        super().__init__("ws://127.0.0.1:9/ws", store=store, clock=lambda: 0.0, lang=lang)
        self.make = make
        self.conn.welcome = welcome()
        self.conn.state = FAILED
        self.conn.last_error = "offline"

    def on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # no connecting: PatienceApp's own on_mount does not run
        self.sub_title = "Test Club · alice"
        self.push_screen(self.make(self))


def screen_text(app: App[object]) -> str:
    """The screen as plain text, as a terminal of the app's size shows it."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()
