"""The footer every screen shows, in the player's language.

A binding's description is written in the code as a key of the tables
(``Binding("n", "new_game", "key.new_game")``): class bodies run once, at import,
before the language is chosen, so the words are looked up here, each time the
footer is drawn.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey

from client.i18n import known, t


def words(description: str) -> str:
    """A binding's description in the current language (a description that is not a key of
    the tables, one of Textual's own, is shown as it is)."""
    return t(description) if known(description) else description


class Footer(TextualFooter):
    """Textual's footer, each key's description read from the tables."""

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.description:
                widget.description = words(widget.description)
            yield widget
