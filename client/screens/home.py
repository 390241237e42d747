"""The home screen: the five games with today's dailies, the games left unfinished, races,
statistics.

What it shows is asked of the server each time the screen comes back into
view (after a game, a race, a leaderboard), so a daily just won, a game just
left and the statistics that count them are there without a key press.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, ListItem, ListView, Static

from client.clock import format_ms
from client.connection import Connection
from client.names import deal_name
from client.widgets import TitleBar
from shared.errors import ProtocolError
from shared.protocol import (
    GameEntry,
    GamesReply,
    GamesRequest,
    LeaderboardReply,
    LeaderboardRequest,
    Standing,
    StatsReply,
    StatsRequest,
)

if TYPE_CHECKING:
    from client.app import PatienceApp

KIND_TEXT = {"solo": "", "daily": "daily", "practice": "practice", "race": "race"}


def daily_text(entry: Standing | None, known: bool) -> str:
    """Today's daily of one variant, as the home screen lists it."""
    if not known:
        return ""
    if entry is None:
        return "daily: not finished yet"
    rank = "held" if entry.rank is None else f"#{entry.rank}"
    return f"daily: {rank} {entry.state} {format_ms(entry.elapsed_ms)} {entry.moves} moves"


def unfinished_text(entry: GameEntry, name: Callable[[str], str] = str) -> str:
    """One unfinished game as home lists it: variant, deal, moves, time, and its kind."""
    kind = KIND_TEXT.get(entry.kind, entry.kind)
    parts = [
        f"{name(entry.variant)} {deal_name(entry.deal)}",
        f"{entry.ply} move{'' if entry.ply == 1 else 's'}",
        format_ms(entry.elapsed_ms),
    ]
    return " ".join(parts) + (f" ({kind})" if kind else "")


def stats_text(
    stats: StatsReply | None,
    name: Callable[[str], str] = str,
    unfinished: Sequence[GameEntry] = (),
) -> Text:
    """The ``stats`` reply: one line per variant played (``name`` gives a variant's name),
    then the daily streak. The server counts a game in play as played; the games listed as
    unfinished are told apart, so that a game left to finish later is not read as lost."""
    if stats is None:
        return Text("statistics are not available on this server", style="dim")
    open_games: dict[str, int] = {}
    for entry in unfinished:
        open_games[entry.variant] = open_games.get(entry.variant, 0) + 1
    text = Text()
    for row in stats.variants:
        going = min(open_games.get(row.variant, 0), row.played - row.won)
        finished = row.played - going
        parts = [f"{row.won}/{finished} won"] if finished else []
        if going:
            parts.append(f"{going} unfinished")
        line = f"{name(row.variant)}: " + ", ".join(parts)
        if row.best_ms is not None:
            line += f", best {format_ms(row.best_ms)}"
        if row.fewest_moves is not None:
            line += f", fewest {row.fewest_moves} moves"
        text.append(line + "\n")
    if not text:
        text.append("no games yet\n", style="dim")
    text.append(f"daily streak: {stats.daily_streak}")
    text.append(f"  dailies won: {stats.dailies_won}")
    return text


async def home_facts(
    conn: Connection, variant_ids: Sequence[str]
) -> tuple[dict[str, Standing | None], StatsReply | None, tuple[GameEntry, ...] | None]:
    """Today's daily entry of each variant (None: not finished), the player's stats, and
    the player's unfinished games (None when the server did not answer)."""
    dailies: dict[str, Standing | None] = {}
    for variant in variant_ids:
        try:
            # No date: the server's today, which is what its dailies follow.
            request = LeaderboardRequest(variant=variant, limit=1)
            board = await conn.request(request, LeaderboardReply)
        except (ProtocolError, ConnectionError):
            continue
        dailies[variant] = board.me
    stats: StatsReply | None
    try:
        stats = await conn.request(StatsRequest(), StatsReply)
    except (ProtocolError, ConnectionError):
        stats = None
    unfinished: tuple[GameEntry, ...] | None
    try:
        listed = await conn.request(GamesRequest(state="playing"), GamesReply)
        unfinished = listed.games
    except (ProtocolError, ConnectionError):
        unfinished = None
    return dailies, stats, unfinished


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


class HomeScreen(Screen[None]):
    """Pick a game, its daily, a game to continue, a leaderboard, or a race."""

    BINDINGS = [
        Binding("n", "new_game", "New game"),
        Binding("d", "daily", "Daily"),
        Binding("l", "leaderboard", "Leaderboard"),
        Binding("c", "create_race", "Race"),
        Binding("j", "join_race", "Join"),
        Binding("w", "watch_race", "Watch"),
        Binding("o", "option", "Option"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.dailies: dict[str, Standing | None] = {}
        self.stats: StatsReply | None = None
        #: the player's games in play, newest first, as the server listed them
        self.unfinished: tuple[GameEntry, ...] = ()
        #: variant -> options chosen away from the server's defaults
        self.options: dict[str, dict[str, bool]] = {}

    @property
    def patience(self) -> PatienceApp:
        from client.app import PatienceApp

        assert isinstance(self.app, PatienceApp)
        return self.app

    def compose(self) -> ComposeResult:
        yield TitleBar(classes="titlebar")
        yield Static(id="server-info")
        with Horizontal(id="home-panels"):
            with Vertical(classes="panel", id="games-panel"):
                yield Label("Games", classes="title")
                yield GameList(
                    *(
                        ListItem(Label(self._variant_line(v), id=f"line-{v}"), id=f"variant-{v}")
                        for v in self.patience.variant_ids
                    ),
                    id="variants",
                )
                with Horizontal(classes="buttons"):
                    yield Input(
                        placeholder="seed", id="seed", type="integer", compact=True,
                        select_on_focus=False,
                    )
                    yield Button("New game", id="new-game", variant="primary", compact=True)
                    yield Button("Daily", id="daily", compact=True)
                    yield Button("Leaderboard", id="leaderboard", compact=True)
            with Vertical(classes="panel", id="side-panel"):
                yield Label("Race with friends", classes="title")
                with Horizontal(classes="buttons"):
                    yield Button("Create race", id="create-race", compact=True)
                with Horizontal(classes="buttons"):
                    yield Input(placeholder="room code", id="room-code", max_length=6, compact=True)
                    yield Button("Join", id="join-race", compact=True)
                    yield Button("Watch", id="watch-race", compact=True)
                yield Label("Your statistics", classes="title")
                yield Static(id="stats")
        yield Static(id="home-message")
        yield Footer()

    def on_mount(self) -> None:
        self.show_server()
        self.query_one("#variants", ListView).focus()
        self.action_refresh()

    def on_screen_resume(self) -> None:
        # Back from a game, a race or a leaderboard: what they changed is shown at once, and
        # the list has the focus again (not the field that started the game: its Enter would
        # start another, and home's keys would be typed into it).
        if self.is_mounted:
            self.query_one("#variants", ListView).focus()
            self.action_refresh()

    def show_server(self) -> None:
        """The server's version and message (the title bar names the server and the player)."""
        server = self.patience.conn.server_info
        info = Text()
        if server is not None:
            info.append(f" v{server.version}", style="dim")
            if server.motd:
                info.append(f"  {server.motd}")
        for widget in self.query("#server-info").results(Static):
            widget.update(info)

    def _variant_line(self, variant: str) -> str:
        name = self.patience.variant_name(variant)
        chosen = self.options.get(variant, {})
        flags = " ".join(
            ("+" if value else "-") + option.replace("_", " ") for option, value in chosen.items()
        )
        daily = daily_text(self.dailies.get(variant), variant in self.dailies)
        return " ".join(part for part in (f"{name:<15}", daily, flags) if part.strip())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``o`` is listed, and acts, only on a game that has a yes/no option."""
        if action == "option":
            options = self.patience.variant_options(self.variant).values()
            return any(isinstance(value, bool) for value in options)
        return True

    def on_list_view_highlighted(self, event: ListView.Highlighted) -> None:
        self.refresh_bindings()

    def action_option(self) -> None:
        """Flip the variant's next yes/no option (Osmosis deal three, Freecell autoplay)."""
        variant = self.variant
        defaults = {
            k: v for k, v in self.patience.variant_options(variant).items() if isinstance(v, bool)
        }
        if not defaults:
            self.say(f"{self.patience.variant_name(variant)} has no options")
            return
        chosen = self.options.setdefault(variant, {})
        names = sorted(defaults)
        # Cycle: defaults -> first option flipped -> ... -> back to defaults.
        flipped = [n for n in names if n in chosen]
        chosen.clear()
        index = names.index(flipped[0]) + 1 if flipped else 0
        if index < len(names):
            chosen[names[index]] = not defaults[names[index]]
        self.query_one(f"#line-{variant}", Label).update(self._variant_line(variant))

    def action_refresh(self) -> None:
        self.run_worker(self._refresh(), group="home", exclusive=True)

    async def _refresh(self) -> None:
        # What the server did not answer this time stays as it was last shown.
        dailies, stats, unfinished = await home_facts(
            self.patience.conn, self.patience.variant_ids
        )
        self.dailies.update(dailies)
        if stats is not None:
            self.stats = stats
        if unfinished is not None:
            self.unfinished = unfinished
        stats = self.stats
        # The screen may have been left (or not be built yet) while the facts were on
        # their way: update the widgets that are there (compose reads self.dailies).
        for variant in self.patience.variant_ids:
            for line in self.query(f"#line-{variant}").results(Label):
                line.update(self._variant_line(variant))
        for panel in self.query("#stats").results(Static):
            panel.update(stats_text(stats, self.patience.variant_name, self.unfinished))
        for games in self.query("#variants").results(GameList):
            await self._list_unfinished(games)

    async def _list_unfinished(self, games: GameList) -> None:
        """The games in play, as lines after the five games: Enter or a second click opens one."""
        count = len(self.patience.variant_ids)
        keep = games.index
        while len(games) > count:
            await games.pop()
        if not self.unfinished:
            return
        heading = ListItem(Label("Continue a game", classes="title"), disabled=True)
        lines = [
            ListItem(
                Label(unfinished_text(entry, self.patience.variant_name)), id=f"game-{entry.id}"
            )
            for entry in self.unfinished
        ]
        await games.extend([heading, *lines])
        if keep is not None and keep < len(games) and not games.children[keep].disabled:
            games.index = keep

    def say(self, message: str, *, error: bool = False) -> None:
        self.query_one("#home-message", Static).update(
            Text(message, style="bold red" if error else "")
        )

    def _highlighted(self) -> int:
        return self.query_one("#variants", ListView).index or 0

    @property
    def variant(self) -> str:
        """The highlighted game's variant (a game to continue stands for its own)."""
        index = self._highlighted()
        ids = self.patience.variant_ids
        if index < len(ids):
            return str(ids[index])
        entry = self.entry
        return ids[0] if entry is None else entry.variant

    @property
    def entry(self) -> GameEntry | None:
        """The unfinished game highlighted, if the highlight is on one."""
        index = self._highlighted() - len(self.patience.variant_ids) - 1
        return self.unfinished[index] if 0 <= index < len(self.unfinished) else None

    def _seed(self) -> int | None:
        value = self.query_one("#seed", Input).value.strip()
        return int(value) if value.isdigit() else None

    def action_new_game(self) -> None:
        variant = self.variant
        options = dict(self.options.get(variant, {}))
        self.run_worker(self.patience.new_game(variant, self._seed(), self, options), group="home")

    def action_daily(self) -> None:
        self.run_worker(self.patience.daily(self.variant, self), group="home")

    def action_leaderboard(self) -> None:
        self.patience.show_leaderboard(self.variant)

    def action_create_race(self) -> None:
        variant = self.variant
        options = dict(self.options.get(variant, {}))
        self.run_worker(self.patience.create_race(variant, self, options), group="home")

    def action_join_race(self, spectator: bool = False) -> None:
        field = self.query_one("#room-code", Input)
        code = field.value.strip().upper()
        if not code:
            field.focus()
            self.say("type the room code your friend gave you, then press Enter")
            return
        self.run_worker(self._join(code, spectator), group="home")

    def action_watch_race(self) -> None:
        self.action_join_race(spectator=True)

    async def _join(self, code: str, spectator: bool) -> None:
        if await self.patience.join_race(code, self, spectator=spectator):
            # Joined: the code field lets go, so that home's keys act when we come back.
            self.query_one("#room-code", Input).value = ""
            self.query_one("#variants", ListView).focus()

    def on_list_view_selected(self, event: ListView.Selected) -> None:
        entry = self.entry
        if entry is not None:
            self.run_worker(self.patience.open_game(entry, self), group="home")
        else:
            self.action_new_game()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "room-code":
            self.action_join_race()
        else:
            self.action_new_game()

    def on_key(self, event: Key) -> None:
        """Esc lets go of a field; a digit typed on the list goes to the seed field, so a
        seed is typed and started with Enter without reaching for Tab."""
        focused = self.focused
        if event.key == "escape" and isinstance(focused, Input):
            self.query_one("#variants", ListView).focus()
            event.stop()
        elif event.character is not None and event.character.isdigit() and not isinstance(
            focused, Input
        ):
            seed = self.query_one("#seed", Input)
            seed.focus()
            seed.insert_text_at_cursor(event.character)
            event.stop()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {
            "new-game": self.action_new_game,
            "daily": self.action_daily,
            "leaderboard": self.action_leaderboard,
            "create-race": self.action_create_race,
            "join-race": self.action_join_race,
            "watch-race": self.action_watch_race,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            action()
