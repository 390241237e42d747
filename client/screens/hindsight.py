""" "Could I have won?": after a game, the server's answer, and its winning line played back.

The screen asks ``could_win`` over the connection it is given, says whether
the deal was winnable and from which of the player's positions it still was,
then shows the board at that position; the right and left arrows (or n and p)
step through the winning line, each move named as the board names it.
"""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from client.connection import Connection, describe
from client.footer import Footer
from client.i18n import t
from client.layout import layout_from
from client.names import move_name
from client.widgets import BoardWidget
from shared.errors import ProtocolError
from shared.notation import parse_action
from shared.protocol import CouldWinReply, CouldWinRequest, GameView, VariantInfo


def answer_text(answer: CouldWinReply) -> str:
    """The answer in a sentence."""
    if answer.deal == "unwinnable":
        return t("could.unwinnable")
    if answer.deal == "unknown":
        return t("could.unknown")
    if answer.ply is None:
        return t("could.won")
    return t("could.from", ply=answer.ply, n=len(answer.line))


class HindsightScreen(Screen[None]):
    """The answer to "could I have won?" for one finished game, and its line step by step."""

    BINDINGS = [
        Binding("right,n", "step(1)", "key.next"),
        Binding("left,p", "step(-1)", "key.back"),
        Binding("escape", "app.pop_screen", "key.close"),
    ]

    def __init__(self, conn: Connection, view: GameView, variant: VariantInfo | None) -> None:
        super().__init__()
        self.conn = conn
        self.view = view
        self.answer: CouldWinReply | None = None
        #: the step shown: 0 is the position the line starts from
        self.step = 0
        self.board = BoardWidget(layout_from(variant, [p.id for p in view.piles]), id="board")

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(t("key.could_win"), classes="title")
            yield Static(t("could.asking"), id="hindsight-text")
            yield self.board
            yield Static(id="hindsight-step")
        yield Footer()

    def on_mount(self) -> None:
        self.run_worker(self._ask(), group="hindsight")

    async def _ask(self) -> None:
        try:
            self.answer = await self.conn.request(CouldWinRequest(game=self.view.id), CouldWinReply)
        except (ProtocolError, ConnectionError) as exc:
            self.query_one("#hindsight-text", Static).update(Text(describe(exc), style="red"))
            return
        self.query_one("#hindsight-text", Static).update(answer_text(self.answer))
        self.show_step()

    def show_step(self) -> None:
        answer = self.answer
        if answer is None or not answer.boards:
            return
        board = answer.boards[self.step]
        shown = self.view.board._replace(piles=board.piles, legal=())
        self.board.show(replace(self.view, board=shown), source=None, count=0, targets=set())
        if self.step == 0:
            text = t("could.start", n=len(answer.line))
        else:
            action = move_name(parse_action(answer.line[self.step - 1]))
            text = t("could.step", i=self.step, n=len(answer.line), action=action)
        self.query_one("#hindsight-step", Static).update(text)

    def action_step(self, by: int) -> None:
        if self.answer is None or not self.answer.boards:
            return
        self.step = max(0, min(len(self.answer.boards) - 1, self.step + by))
        self.show_step()
