"""A one-screen app that shows a board drawn from an engine-made GameView (no server)."""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.widgets import Static

import client
from client.screens.board import BoardScreen
from shared.games import new_game
from shared.protocol import GameView, VariantInfo
from shared.variants import STANDARD

CSS = Path(client.__file__).parent / "app.tcss"


def engine_view(variant: str, seed: int, moves: tuple[str, ...] = ()) -> GameView:
    """The GameView the server would send for this game, timed at 1:23."""
    game = new_game(variant, seed=seed)
    for move in moves:
        game.play(move)
    return GameView.from_map(game.view() | {"id": "snap", "elapsed_ms": 83_000, "hints": 0})


class BoardApp(App[None]):
    CSS_PATH = CSS

    def __init__(self, view: GameView, side: Static | None = None) -> None:
        super().__init__()
        self.view = view
        self.side = side

    def on_mount(self) -> None:
        # A frozen clock: the shown time is the view's own, whatever the wall clock says.
        # The VariantInfo the server sends in welcome: the board is laid out from it.
        info = VariantInfo.from_map(STANDARD.get(self.view.variant).info())
        self.push_screen(
            BoardScreen(self.view, variant=info, played=None, clock=lambda: 0.0, side=self.side)
        )
