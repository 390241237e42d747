"""The home screen's list of games: the five games, then the games in play.

One click on a line selects it and a second starts it, so that a click meant to
choose never starts a game at once (Textual's own ListView starts on the first).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.widgets import Label, ListItem, ListView

from client.home_facts import unfinished_text
from client.i18n import t
from shared.protocol import GameEntry


class GameList(ListView):
    """The list of games: one click on a line selects it, a second click on it (or Enter)
    starts it, so that a click meant to choose never starts a game at once."""

    def __init__(self, *children: ListItem, id: str | None = None) -> None:
        super().__init__(*children, id=id)
        #: the line the last click selected, which the next click on it starts
        self._clicked: int | None = None

    def _on_list_item__child_clicked(self, event: ListItem._ChildClicked) -> None:
        event.stop()
        event.prevent_default()  # instead of ListView's own handler, which selects at once
        self.focus()
        index = self._nodes.index(event.item)
        if index == self._clicked and index == self.index:
            self.post_message(self.Selected(self, event.item, index))
            return
        self.index = index
        self._clicked = index

    def watch_index(self, old_index: int | None, new_index: int | None) -> None:
        super().watch_index(old_index, new_index)
        if new_index != self._clicked:
            self._clicked = None

    async def show_unfinished(
        self, count: int, unfinished: Sequence[GameEntry], name: Callable[[str], str]
    ) -> None:
        """The games in play, as lines after the ``count`` games: Enter or a second click
        opens one; the highlight stays where it was when that line is still there."""
        keep = self.index
        while len(self) > count:
            await self.pop()
        if not unfinished:
            return
        heading = ListItem(Label(t("home.continue"), classes="title"), disabled=True)
        lines = [
            ListItem(Label(unfinished_text(entry, name)), id=f"game-{entry.id}")
            for entry in unfinished
        ]
        await self.extend([heading, *lines])
        if keep is not None and keep < len(self) and not self.children[keep].disabled:
            self.index = keep
