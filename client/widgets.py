"""The board's widgets: one per pile, drawn from the GameView, reporting clicks as pile picks.

Each pile keeps the map from its screen rows (or columns, when fanned to the
right) to "how many cards from the top" so that a click on a card of a run
picks the run from that card up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.containers import Horizontal, Vertical
from textual.events import Click
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from client import cards
from client.layout import GAP, Layout, key_label
from shared.protocol import GameView, PileView

#: face-down cards drawn one per line up to this many; more become one labelled line
MAX_BACK_LINES = 6
FAN_CELL = 4


class PileWidget(Widget):
    """One pile: its key above it, then its cards."""

    class Picked(Message):
        """The player clicked this pile; ``count`` cards from the top, None for the whole pile."""

        def __init__(self, pile_id: str, count: int | None, chain: int) -> None:
            super().__init__()
            self.pile_id = pile_id
            self.count = count
            self.chain = chain

    def __init__(self, pile_id: str, *, fanned_right: bool, squared: bool) -> None:
        super().__init__(id=f"pile-{pile_id}", classes="pile")
        self.pile_id = pile_id
        self.fanned_right = fanned_right
        self.squared = squared
        self.pile = PileView(pile_id, 0, ())
        self.selected = 0
        self.target = False
        #: row (or cell, when fanned) of the rendering -> cards from the top a click picks
        self._picks: list[int | None] = []
        if fanned_right:
            self.add_class("fanned")

    def show(self, pile: PileView, *, selected: int = 0, target: bool = False) -> None:
        self.pile = pile
        self.selected = selected
        self.target = target
        self.set_class(target, "target")
        self.set_class(selected > 0, "source")
        self.refresh(layout=True)

    def render(self) -> Text:
        if self.fanned_right:
            return self._render_fanned()
        return self._render_column()

    def _label(self) -> Text:
        style = cards.TARGET if self.target else "dim"
        return Text(f"{key_label(self.pile_id):^{cards.CARD_WIDTH}}", style=style)

    def _render_column(self) -> Text:
        down, up = self.pile.down, self.pile.up
        # An empty pile's outline shows the key above it, as every message names the pile.
        label = key_label(self.pile_id)
        lines: list[Text] = [self._label()]
        picks: list[int | None] = [None]
        if self.pile_id == "s":
            lines.append(cards.back(down) if down else cards.empty(label, target=self.target))
            picks.append(None)
        elif not down and not up:
            lines.append(cards.empty(label, target=self.target))
            picks.append(None)
        elif self.squared:
            lines.append(cards.face(up[-1], selected=self.selected > 0) if up else cards.back())
            picks.append(1 if up else None)
            if len(up) + down > 1:
                lines.append(Text(f"{len(up) + down:^{cards.CARD_WIDTH}}", style="dim"))
                picks.append(None)
        else:
            if down > MAX_BACK_LINES:
                lines.append(cards.back(down))
                picks.append(None)
            else:
                for _ in range(down):
                    lines.append(cards.back())
                    picks.append(None)
            for i, card in enumerate(up):
                from_top = len(up) - i
                lines.append(cards.face(card, selected=from_top <= self.selected))
                picks.append(from_top)
        self._picks = picks
        return Text("\n").join(lines)

    def _render_fanned(self) -> Text:
        down, up = self.pile.down, self.pile.up
        text = Text()
        label = key_label(self.pile_id)
        text.append(f"{label:>3} ", style=cards.TARGET if self.target else "dim")
        if down:
            # One card or many, a fanned pile's backs are one cell with their count, spaced
            # from the faces like every card of the fan.
            text.append(cards.back_count(down))
            text.append(" ")
        if not down and not up:
            text.append(cards.empty(label, target=self.target))
        for i, card in enumerate(up):
            from_top = len(up) - i
            style = cards.FACE_RED if cards.is_red(card) else cards.FACE_BLACK
            if from_top <= self.selected:
                style = style + cards.SELECTED
            text.append(cards.face_label(card), style=style)
            text.append(" ")
        return text

    def on_click(self, event: Click) -> None:
        # Piles fanned to the right only ever give their top card: a click anywhere picks it.
        index = event.y
        count = None
        if not self.fanned_right and 0 <= index < len(self._picks):
            count = self._picks[index]
        self.post_message(self.Picked(self.pile_id, count, event.chain))
        event.stop()


class BoardWidget(Vertical):
    """All piles of one game, laid out as the variant draws them."""

    def __init__(self, layout: Layout, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.board_layout = layout
        self.piles: dict[str, PileWidget] = {}

    def compose(self) -> Any:
        for n, row in enumerate(self.board_layout.rows):
            with Horizontal(classes=f"board-row row-{n}"):
                for pid in row:
                    if pid == GAP:
                        yield Static("", classes="gap")
                        continue
                    pile = PileWidget(
                        pid,
                        fanned_right=pid in self.board_layout.fanned_right,
                        squared=pid in self.board_layout.squared,
                    )
                    self.piles[pid] = pile
                    yield pile

    def show(self, view: GameView, *, source: str | None, count: int, targets: set[str]) -> None:
        self.show_piles(view.piles, source=source, count=count, targets=targets)

    def show_piles(
        self,
        piles: Sequence[PileView],
        *,
        source: str | None = None,
        count: int = 0,
        targets: frozenset[str] | set[str] = frozenset(),
    ) -> None:
        """Draw ``piles`` (a replay's step has piles and no game view)."""
        for pile in piles:
            widget = self.piles.get(pile.id)
            if widget is not None:
                widget.show(
                    pile, selected=count if pile.id == source else 0, target=pile.id in targets
                )


class TitleBar(Static):
    """The app's title and connection state on one line.

    Textual's Header is not used: it fails when its screen goes away before it
    has finished mounting, which quick screens (waiting, naming) and quick exits do.
    """

    _shown: str | None = None

    def on_mount(self) -> None:
        self.set_interval(1.0, self.redraw)
        self.redraw()

    def redraw(self) -> None:
        """Update only when the text changed: an update lays the screen out again."""
        app = self.app
        text = f" {app.title}  {app.sub_title}"
        if text != self._shown:
            self._shown = text
            self.update(text)
