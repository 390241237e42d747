"""A daily leaderboard for any variant and date, with the player's own entry."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from client.app import PatienceApp

COLUMNS = ("#", "player", "state", "time", "moves", "score")


def entry_row(entry: dict[str, Any]) -> tuple[str, ...]:
    return (
        str(entry["rank"]),
        str(entry["name"]),
        str(entry["state"]),
        format_ms(int(entry["elapsed_ms"])),
        str(entry["moves"]),
        str(entry["score"]),
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
        fields: dict[str, Any] = {"variant": self.variant, "limit": 100}
        if self.date:
            fields["date"] = self.date
        table = self.query_one("#entries", DataTable)
        me = self.query_one("#me", Static)
        try:
            reply = await self.patience.conn.request("leaderboard", **fields)
        except (ProtocolError, ConnectionError) as exc:
            table.clear()
            me.update(Text(describe(exc), style="bold red"))
            return
        self.query_one("#board-title", Static).update(f"{name} daily, {reply.get('date', '')}")
        table.clear()
        for entry in reply.get("entries", []):
            table.add_row(*entry_row(entry))
        mine = reply.get("me")
        if mine:
            me.update(f"you: #{mine['rank']} {mine['state']} {format_ms(int(mine['elapsed_ms']))}")
        else:
            me.update("you have no finished attempt on this day")
