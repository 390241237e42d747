"""A replay: any finished game of one's own, or anyone's whose deal is shown, move by move.

Opened with a game's id (from the profile's recent games, a board whose game has
ended) or with none, when the screen asks for one (an id or a ``/replay/ID``
link). The server answers ``replay`` with every step's board; the keys step
through them (first, back, forward, last) or play them at a chosen speed. The
screen asks over the connection it is given and knows no app.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, Static

from client.catalog import Catalog
from client.connection import Connection, describe
from client.footer import Footer
from client.i18n import t
from client.layout import layout_from
from client.replay import SPEEDS, boards, game_id, heading, refusal, step_text
from client.widgets import BoardWidget, TitleBar
from shared.errors import ProtocolError
from shared.protocol import PileView, ReplayReply, ReplayRequest


class ReplayScreen(Screen[None]):
    """One finished game, step by step."""

    BINDINGS = [
        Binding("home,g", "first", "key.first"),
        Binding("left,p", "step(-1)", "key.step_back"),
        Binding("right,n", "step(1)", "key.forward"),
        Binding("end,G", "last", "key.last"),
        Binding("space", "play", "key.play"),
        Binding("plus,equals_sign", "speed(1)", "key.faster", show=False),
        Binding("minus", "speed(-1)", "key.slower", show=False),
        Binding("escape", "back", "key.back"),
    ]

    def __init__(self, conn: Connection, game: str | None = None) -> None:
        super().__init__()
        self.conn = conn
        self.catalog = Catalog(lambda: conn.server_info)
        self.asked = game
        self.reply: ReplayReply | None = None
        self.steps: list[tuple[PileView, ...]] = []
        #: the step shown: 0 is the deal, n the board after the n-th action
        self.step = 0
        #: index in SPEEDS of the pace of play (moves a second)
        self.speed = 1
        self._player: Timer | None = None

    def compose(self) -> ComposeResult:
        yield TitleBar(classes="titlebar")
        yield Static(id="replay-head")
        if self.asked is None:
            yield Input(placeholder=t("replay.placeholder"), id="replay-id", max_length=200)
        yield Vertical(id="replay-board")
        yield Static(id="replay-step")
        yield Footer()

    def on_mount(self) -> None:
        if self.asked is None:
            self.query_one("#replay-head", Static).update(t("replay.which"))
            self.query_one("#replay-id", Input).focus()
        else:
            self.load(self.asked)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The stepping keys act once a replay is there (not while its id is typed)."""
        if action in ("back",):
            return True
        return self.reply is not None and not isinstance(self.focused, Input)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        found = game_id(event.value)
        if found is None:
            self.say(t("replay.type_id"))
            return
        self.load(found)

    def load(self, game: str) -> None:
        self.run_worker(self._load(game), group="replay", exclusive=True)

    async def _load(self, game: str) -> None:
        self.say(t("replay.asking", game=game))
        try:
            reply = await self.conn.request(ReplayRequest(game=game), ReplayReply)
        except ProtocolError as exc:
            self.say(refusal(exc.code, exc.message) or describe(exc), error=True)
            return
        except (ConnectionError, TimeoutError) as exc:
            self.say(describe(exc), error=True)
            return
        await self.show_reply(reply)

    async def show_reply(self, reply: ReplayReply) -> None:
        self.reply = reply
        self.steps = boards(reply)
        self.step = 0
        info = self.catalog.info(reply.variant)
        area = self.query_one("#replay-board", Vertical)
        await area.remove_children()
        self.board = BoardWidget(layout_from(info, [p.id for p in self.steps[0]]), id="board")
        await area.mount(self.board)
        # the id is typed: the keys step through the replay now
        await self.query("#replay-id").remove()
        self.set_focus(None)
        self.query_one("#replay-head", Static).update(
            Text(heading(reply, self.catalog.name(reply.variant)), style="bold")
        )
        self.refresh_bindings()
        self.show_step()

    def show_step(self) -> None:
        if self.reply is None:
            return
        self.board.show_piles(self.steps[self.step])
        text = step_text(self.reply, self.step)
        if self._player is not None:
            text += t("replay.playing", n=SPEEDS[self.speed])
        self.say(text)

    def say(self, message: str, *, error: bool = False) -> None:
        self.query_one("#replay-step", Static).update(
            Text(message, style="bold red" if error else "")
        )

    def action_first(self) -> None:
        self._go(0)

    def action_last(self) -> None:
        self._go(len(self.steps) - 1)

    def action_step(self, by: int) -> None:
        self._go(self.step + by)

    def _go(self, step: int) -> None:
        if not self.steps:
            return
        self.step = max(0, min(len(self.steps) - 1, step))
        self.show_step()

    def action_play(self) -> None:
        """Play from here (from the start once at the end), or pause."""
        if self._player is not None:
            self._stop()
            self.show_step()
            return
        if self.step >= len(self.steps) - 1:
            self.step = 0
        self._start()

    def _start(self) -> None:
        self._player = self.set_interval(1 / SPEEDS[self.speed], self._advance)
        self.show_step()

    def _stop(self) -> None:
        if self._player is not None:
            self._player.stop()
            self._player = None

    def _advance(self) -> None:
        if self.step >= len(self.steps) - 1:
            self._stop()
        else:
            self.step += 1
        self.show_step()

    def action_speed(self, by: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + by))
        if self._player is not None:
            self._stop()
            self._start()
        else:
            shown = step_text(self.reply, self.step) if self.reply else ""
            self.say(shown + t("replay.speed", n=SPEEDS[self.speed]))

    def action_back(self) -> None:
        self._stop()
        self.dismiss()
