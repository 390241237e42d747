"""The daily's start step: the game, the terms of the ranked attempt, the streak, and Start.

Nothing of the deal is on the wire before Start (the server sends its
commitment, no card), and the ranked clock starts when the player starts,
not when the daily was chosen.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Static

from client.footer import Footer
from client.i18n import t, tn
from shared.protocol import DailyIntro

#: the terms of the ranked attempt (the game's rules: docs/rules.md, and its board's keys)
TERMS = "daily.terms"


def intro_text(intro: DailyIntro, name: str) -> Text:
    """The start step in words."""
    text = Text()
    text.append(t("daily.intro_title", name=name, date=intro.date) + "\n\n", style="bold")
    text.append(t(TERMS) + "\n\n")
    text.append(tn("daily.streak", intro.daily_streak) + "\n")
    if intro.commitment:
        text.append(t("daily.commitment", start=intro.commitment[:16]), style="dim")
    return text


class DailyStartScreen(Screen[None]):
    """Before the ranked attempt: Enter (or the button) starts it, Escape goes back."""

    BINDINGS = [
        Binding("enter,s", "start", "key.start"),
        Binding("escape", "app.pop_screen", "key.back"),
    ]

    class Start(Message):
        """The player starts today's attempt of ``variant``."""

        def __init__(self, screen: DailyStartScreen, variant: str) -> None:
            super().__init__()
            self.screen = screen
            self.variant = variant

    def __init__(self, intro: DailyIntro, name: str) -> None:
        super().__init__()
        self.intro = intro
        self.name_shown = name

    def compose(self) -> ComposeResult:
        with Vertical(id="daily-start"):
            yield Static(intro_text(self.intro, self.name_shown), id="daily-intro")
            yield Button(t("daily.start"), id="daily-go", variant="primary")
            yield Static(id="daily-message")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_start()

    def action_start(self) -> None:
        self.post_message(self.Start(self, self.intro.variant))

    def say(self, text: str, *, error: bool = False) -> None:
        """Why the attempt could not start."""
        self.query_one("#daily-message", Static).update(
            Text(text, style="bold red" if error else "")
        )
