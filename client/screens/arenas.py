"""The arenas: the list (upcoming, running, recent) and the standings of the one chosen.

A list and a standings screen only: the deals of an arena are played in the
browser (docs/web-client.md); here a player sees what is on and how it
stands. The screen asks over the connection it is given: ``arenas`` for the
list, ``arena_table`` for the chosen arena's best 20, again every two
seconds while it is shown (a standings push needs a join, which the browser
makes); Esc dismisses it.
"""

from __future__ import annotations

import datetime

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from client.catalog import Catalog
from client.connection import Connection, describe
from client.footer import Footer
from client.i18n import known, t
from client.widgets import TitleBar
from shared.errors import ProtocolError
from shared.protocol import (
    ArenaInfo,
    ArenasReply,
    ArenasRequest,
    ArenaTableReply,
    ArenaTableRequest,
)

#: the two tables' columns (the tables' keys)
LIST_COLUMNS = (
    "col.code",
    "col.name",
    "col.game",
    "col.starts",
    "col.minutes",
    "col.state",
    "col.players",
)
TABLE_COLUMNS = ("col.rank", "col.player", "col.points", "col.deals", "col.wins", "col.fire")


def arena_row(arena: ArenaInfo, game: str) -> tuple[str, ...]:
    starts = datetime.datetime.fromtimestamp(arena.starts_ms / 1000, tz=datetime.UTC)
    minutes = (arena.ends_ms - arena.starts_ms) // 60_000
    players = str(arena.players) + (t("arena.joined") if arena.joined else "")
    return (arena.code, arena.name, game, starts.strftime("%Y-%m-%d %H:%M"), str(minutes),
            arena_state(arena.state), players)  # fmt: skip


def arena_state(state: str) -> str:
    key = f"arena.{state}"
    return t(key) if known(key) else state


class ArenasScreen(Screen[None]):
    """Up/down and Enter choose an arena; its standings show below, kept up to date."""

    BINDINGS = [Binding("escape", "back", "key.back"), Binding("r", "reload", "key.reload")]

    def __init__(self, conn: Connection) -> None:
        super().__init__()
        self.conn = conn
        self.catalog = Catalog(lambda: conn.server_info)
        self.chosen: str | None = None

    def compose(self) -> ComposeResult:
        yield TitleBar(classes="titlebar")
        yield Static(t("arena.title"), classes="title")
        yield DataTable(id="arenas", zebra_stripes=True, cursor_type="row")
        yield Static(id="arena-title", classes="title")
        yield DataTable(id="standings", zebra_stripes=True, cursor_type="row")
        yield Static(id="arena-note", classes="panel")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#arenas", DataTable).add_columns(*(t(c) for c in LIST_COLUMNS))
        self.query_one("#standings", DataTable).add_columns(*(t(c) for c in TABLE_COLUMNS))
        self.query_one("#arenas", DataTable).focus()
        self.set_interval(2.0, self._refresh)
        self.action_reload()

    def action_back(self) -> None:
        self.dismiss()

    def action_reload(self) -> None:
        self.run_worker(self._list(), group="arenas", exclusive=True)

    def _refresh(self) -> None:
        if self.chosen is not None:
            self.run_worker(self._standings(self.chosen), group="standings", exclusive=True)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id != "arenas" or event.row_key.value is None:
            return
        self.chosen = str(event.row_key.value)
        self._refresh()

    def say(self, text: str, error: bool = False) -> None:
        self.query_one("#arena-note", Static).update(Text(text, style="bold red" if error else ""))

    async def _list(self) -> None:
        try:
            reply = await self.conn.request(ArenasRequest(), ArenasReply)
        except (ProtocolError, ConnectionError) as exc:
            self.say(describe(exc), error=True)
            return
        self.show_list(reply)

    def show_list(self, reply: ArenasReply) -> None:
        table = self.query_one("#arenas", DataTable)
        table.clear()
        for arena in reply.arenas:
            table.add_row(*arena_row(arena, self.catalog.name(arena.variant)), key=arena.code)
        if not reply.arenas:
            self.say(t("arena.none"))

    async def _standings(self, code: str) -> None:
        try:
            reply = await self.conn.request(ArenaTableRequest(code=code, limit=20), ArenaTableReply)
        except (ProtocolError, ConnectionError) as exc:
            self.say(describe(exc), error=True)
            return
        self.show_standings(reply)

    def show_standings(self, reply: ArenaTableReply) -> None:
        arena = reply.arena
        self.query_one("#arena-title", Static).update(
            t("arena.heading", name=arena.name, state=arena_state(arena.state), n=reply.total)
        )
        table = self.query_one("#standings", DataTable)
        table.clear()
        for e in reply.entries:
            table.add_row(str(e.rank), e.name, str(e.points), str(e.played), str(e.wins),
                          t("arena.fire") if e.fire else "")  # fmt: skip
        if arena.state in ("over", "cancelled"):
            keys = ", ".join(f"{d.seq + 1}: {d.key}" for d in reply.deals if d.key)
            self.say(t("arena.keys", keys=keys) if keys else t("arena.no_deal"))
        else:
            self.say(t("arena.browser", code=arena.code))
