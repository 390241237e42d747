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
from textual.widgets import Static

from client.footer import Footer
from client.i18n import t
from client.names import verify_command
from shared.protocol import GameView


def verify_text(view: GameView) -> Text:
    """The deal's commitment and key, and the verify command, for a view whose key is out."""
    deal = view.deal
    command = verify_command(view.variant, deal)
    text = Text()
    if command is None:
        text.append(t("verify.not_yet"), style="dim")
        return text
    text.append(t("verify.commitment") + "\n", style="bold")
    text.append(f"{deal.commitment}\n\n")
    text.append(t("verify.key") + "\n", style="bold")
    text.append(f"{deal.key}\n\n")
    text.append(t("verify.check") + "\n", style="bold")
    text.append(command)
    return text


class VerifyScreen(ModalScreen[None]):
    """Over the board: the revealed key and the verify command (c copies the command)."""

    BINDINGS = [
        Binding("c", "copy", "key.copy_command"),
        Binding("escape,v", "app.pop_screen", "key.back"),
        # A modal screen hides the app's own keys from its footer: quitting is listed here.
        Binding("ctrl+q", "app.quit", "key.quit"),
    ]

    def __init__(self, view: GameView) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        with Vertical(id="verify"):
            yield Static(t("verify.title"), classes="title")
            yield Static(verify_text(self.view), id="verify-text")
            yield Static(id="verify-message")
        yield Footer()

    def action_copy(self) -> None:
        command = verify_command(self.view.variant, self.view.deal)
        if command is not None:
            self.app.copy_to_clipboard(command)
            self.query_one("#verify-message", Static).update(t("verify.copied"))
