"""A daily leaderboard for any variant and date, with the player's own entry.

The screen asks for it over the connection it is given and names the variants
as the server's welcome does (:class:`~client.catalog.Catalog`); Esc dismisses it.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.events import Key
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Input, Label, Static

from client.catalog import Catalog
from client.clock import format_ms
from client.connection import Connection, describe
from client.fields import date_problem
from client.footer import Footer
from client.home_facts import state_word
from client.i18n import t
from client.widgets import TitleBar
from shared.errors import ProtocolError
from shared.protocol import LeaderboardReply, LeaderboardRequest, PlayerRating, Standing

#: the table's columns (the tables' keys)
COLUMNS = ("col.rank", "col.player", "col.state", "col.time", "col.moves", "col.undos", "col.score")


def rated_name(name: str, rating: PlayerRating | None) -> str:
    """A name with its rating beside it, as every list shows it: "alice 1523 +14", "bob
    1500?" (provisional); the name alone when the player has no rating."""
    return name if rating is None else f"{name} {rating.label()}"


def entry_row(entry: Standing) -> tuple[str, ...]:
    """One ranked result as the columns of :data:`COLUMNS` (race standings use it too); a
    result held for review has no rank yet and says so."""
    return (
        "-" if entry.rank is None else str(entry.rank),
        rated_name(entry.name, entry.rating) + (t("board.held") if entry.review else ""),
        state_word(entry.state),
        format_ms(entry.elapsed_ms),
        str(entry.moves),
        str(entry.undos),
        str(entry.score),
    )


class LeaderboardScreen(Screen[None]):
    """Left/right change the variant; a date (YYYY-MM-DD) picks another day: typing its first
    digit goes to the date field, Enter shows that day."""

    class Profile(Message):
        """The profile of the player called ``name`` (the row chosen, ``p``)."""

        def __init__(self, screen: LeaderboardScreen, name: str) -> None:
            super().__init__()
            self.screen = screen
            self.name = name

    BINDINGS = [
        # Above the table's own left/right (it scrolls sideways, which a few columns never need).
        Binding("left", "variant(-1)", "key.prev_game", priority=True),
        Binding("right", "variant(1)", "key.next_game", priority=True),
        Binding("p", "profile", "key.profile"),
        Binding("escape", "back", "key.back"),
    ]

    def __init__(self, conn: Connection, variant: str, date: str | None = None) -> None:
        super().__init__()
        self.conn = conn
        self.catalog = Catalog(lambda: conn.server_info)
        self.variant = variant
        self.date = date
        #: the players of the rows shown, in order (``p`` opens the chosen one's profile)
        self.names: list[str] = []

    def compose(self) -> ComposeResult:
        yield TitleBar(classes="titlebar")
        with Horizontal(id="board-head"):
            yield Static(id="board-title", classes="title")
            yield Label(t("board.another_day"), id="date-label")
            yield Input(
                placeholder=t("board.date_placeholder"),
                id="date",
                max_length=10,
                compact=True,
                select_on_focus=False,
            )
        yield DataTable(id="entries", zebra_stripes=True, cursor_type="row")
        yield Static(id="me", classes="panel")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#entries", DataTable)
        table.add_columns(*(t(column) for column in COLUMNS))
        table.focus()
        self.load()

    def action_variant(self, step: int) -> None:
        if isinstance(self.focused, Input):
            # In the date field the arrows move its cursor.
            field = self.focused
            field.cursor_position = max(0, min(len(field.value), field.cursor_position + step))
            return
        ids = self.catalog.ids
        self.variant = ids[(ids.index(self.variant) + step) % len(ids)]
        self.load()

    def action_profile(self) -> None:
        """The profile of the player on the chosen row."""
        if isinstance(self.focused, Input) or not self.names:
            return
        row = self.query_one("#entries", DataTable).cursor_row
        if 0 <= row < len(self.names):
            self.post_message(self.Profile(self, self.names[row]))

    def action_back(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one("#entries", DataTable).focus()  # Esc first lets go of the field
            return
        self.dismiss()

    def on_key(self, event: Key) -> None:
        # A digit typed anywhere starts the date, so a day is typed and shown with Enter.
        if (
            event.character is not None
            and event.character.isdigit()
            and not isinstance(self.focused, Input)
        ):
            field = self.query_one("#date", Input)
            field.focus()
            field.insert_text_at_cursor(event.character)
            event.stop()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        date = event.value.strip() or None
        problem = None if date is None else date_problem(date)
        if problem is not None:
            self.query_one("#me", Static).update(Text(problem, style="bold red"))
            return
        self.date = date
        self.load()

    def load(self) -> None:
        self.run_worker(self._load(), group="leaderboard", exclusive=True)

    async def _load(self) -> None:
        name = self.catalog.name(self.variant)
        request = LeaderboardRequest(variant=self.variant, date=self.date or None, limit=100)
        title = t("board.title", name=name, date=self.date or t("board.today"))
        self.query_one("#board-title", Static).update(title)
        try:
            reply = await self.conn.request(request, LeaderboardReply)
        except (ProtocolError, ConnectionError) as exc:
            self.query_one("#entries", DataTable).clear()
            self.query_one("#me", Static).update(Text(describe(exc), style="bold red"))
            return
        self.show(reply)

    def show(self, reply: LeaderboardReply) -> None:
        """Draw one leaderboard reply: its day, its entries, and the player's own."""
        name = self.catalog.name(reply.variant)
        self.query_one("#board-title", Static).update(t("board.title", name=name, date=reply.date))
        table = self.query_one("#entries", DataTable)
        table.clear()
        self.names = [entry.name for entry in reply.entries]
        for entry in reply.entries:
            table.add_row(*entry_row(entry))
        mine = reply.me
        me = self.query_one("#me", Static)
        if mine:
            rank = t("board.held_review") if mine.rank is None else f"#{mine.rank}"
            time = format_ms(mine.elapsed_ms)
            state = state_word(mine.state)
            me.update(t("board.you", rank=rank, state=state, time=time, moves=mine.moves))
        else:
            me.update(t("board.no_attempt"))
