"""A revealed deal: its commitment, its key, and the command that checks one against the other.

The commitment was on screen from the start of the game (its first digits
name the deal on the board), so a player who kept it can check, with no
server, that the deal was fixed before the first move.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from client.names import verify_command
from shared.protocol import GameView


def verify_text(view: GameView) -> Text:
    """The deal's commitment and key, and the verify command, for a view whose key is out."""
    deal = view.deal
    command = verify_command(view.variant, deal)
    text = Text()
    if command is None:
        text.append("this deal's key is not revealed yet", style="dim")
        return text
    text.append("commitment (shown from the start)\n", style="bold")
    text.append(f"{deal.commitment}\n\n")
    text.append("key (revealed now)\n", style="bold")
    text.append(f"{deal.key}\n\n")
    text.append("check that the key makes this commitment, and see the deal:\n", style="bold")
    text.append(command)
    return text


class VerifyScreen(ModalScreen[None]):
    """Over the board: the revealed key and the verify command (c copies the command)."""

    BINDINGS = [
        Binding("c", "copy", "Copy command"),
        Binding("escape,v", "app.pop_screen", "Back"),
        # A modal screen hides the app's own keys from its footer: quitting is listed here.
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def __init__(self, view: GameView) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        with Vertical(id="verify"):
            yield Static("The deal, revealed", classes="title")
            yield Static(verify_text(self.view), id="verify-text")
            yield Static(id="verify-message")
        yield Footer()

    def action_copy(self) -> None:
        command = verify_command(self.view.variant, self.view.deal)
        if command is not None:
            self.app.copy_to_clipboard(command)
            self.query_one("#verify-message", Static).update("copied to the clipboard")
