"""A daily leaderboard for any variant and date, with the player's own entry."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Static

from client.clock import format_ms
from client.connection import describe
from client.widgets import TitleBar
from shared.errors import ProtocolError
from shared.protocol import LeaderboardReply, LeaderboardRequest, Standing

if TYPE_CHECKING:
    from client.app import PatienceApp

COLUMNS = ("#", "player", "state", "time", "moves", "score")


def entry_row(entry: Standing) -> tuple[str, ...]:
    """One ranked result as the columns of :data:`COLUMNS` (race standings use it too)."""
    return (
        str(entry.rank),
        entry.name,
        entry.state,
        format_ms(entry.elapsed_ms),
        str(entry.moves),
        str(entry.score),
    )


class LeaderboardScreen(Screen[None]):
    """Left/right change the variant; a date (YYYY-MM-DD) picks another day."""

    BINDINGS = [
        Binding("left", "variant(-1)", "Prev game"),
        Binding("right", "variant(1)", "Next game"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self, variant: str, date: str | None = None) -> None:
        super().__init__()
        self.variant = variant
        self.date = date

    @property
    def patience(self) -> PatienceApp:
        from client.app import PatienceApp

        assert isinstance(self.app, PatienceApp)
        return self.app

    def compose(self) -> ComposeResult:
        yield TitleBar(classes="titlebar")
        with Horizontal(classes="buttons"):
            yield Static(id="board-title", classes="title")
            yield Input(placeholder="date YYYY-MM-DD", id="date", max_length=10)
        yield DataTable(id="entries", zebra_stripes=True, cursor_type="row")
        yield Static(id="me", classes="panel")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#entries", DataTable)
        table.add_columns(*COLUMNS)
        table.focus()
        self.load()

    def action_variant(self, step: int) -> None:
        ids = self.patience.variant_ids
        self.variant = ids[(ids.index(self.variant) + step) % len(ids)]
        self.load()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.date = event.value.strip() or None
        self.load()

    def load(self) -> None:
        self.run_worker(self._load(), group="leaderboard", exclusive=True)

    async def _load(self) -> None:
        name = self.patience.variant_name(self.variant)
        request = LeaderboardRequest(variant=self.variant, date=self.date or None, limit=100)
        table = self.query_one("#entries", DataTable)
        me = self.query_one("#me", Static)
        try:
            reply = await self.patience.conn.request(request, LeaderboardReply)
        except (ProtocolError, ConnectionError) as exc:
            table.clear()
            me.update(Text(describe(exc), style="bold red"))
            return
        self.query_one("#board-title", Static).update(f"{name} daily, {reply.date}")
        table.clear()
        for entry in reply.entries:
            table.add_row(*entry_row(entry))
        mine = reply.me
        if mine:
            me.update(f"you: #{mine.rank} {mine.state} {format_ms(mine.elapsed_ms)}")
        else:
            me.update("you have no finished attempt on this day")
