"""The home screen: the server, the five games with today's dailies, races, statistics."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, ListItem, ListView, Static

from client.clock import format_ms
from client.widgets import TitleBar
from shared.protocol import Standing, StatsReply

if TYPE_CHECKING:
    from client.app import PatienceApp


def daily_text(entry: Standing | None, known: bool) -> str:
    """Today's daily of one variant, as the home screen lists it."""
    if not known:
        return ""
    if entry is None:
        return "daily: not finished yet"
    return f"daily: #{entry.rank} {entry.state} {format_ms(entry.elapsed_ms)} {entry.moves} moves"


def stats_text(stats: StatsReply | None, name: Callable[[str], str] = str) -> Text:
    """The ``stats`` reply: one line per variant played (``name`` gives a variant's name),
    then the daily streak."""
    if stats is None:
        return Text("statistics are not available on this server", style="dim")
    text = Text()
    for row in stats.variants:
        line = f"{name(row.variant)}: {row.won}/{row.played} won"
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


class HomeScreen(Screen[None]):
    """Pick a game, its daily, a leaderboard, or a race."""

    BINDINGS = [
        Binding("n", "new_game", "New game"),
        Binding("d", "daily", "Daily"),
        Binding("l", "leaderboard", "Leaderboard"),
        Binding("c", "create_race", "Create race"),
        Binding("j", "join_race", "Join race"),
        Binding("o", "option", "Option"),
        Binding("g", "refresh", "Refresh"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.dailies: dict[str, Standing | None] = {}
        self.stats: StatsReply | None = None
        #: variant -> options chosen away from the server's defaults
        self.options: dict[str, dict[str, bool]] = {}

    @property
    def patience(self) -> PatienceApp:
        from client.app import PatienceApp

        assert isinstance(self.app, PatienceApp)
        return self.app

    def compose(self) -> ComposeResult:
        yield TitleBar(classes="titlebar")
        yield Static(id="server-info", classes="title")
        with Horizontal():
            with Vertical(classes="panel", id="games-panel"):
                yield Label("Games", classes="title")
                yield ListView(
                    *(
                        ListItem(Label(self._variant_line(v), id=f"line-{v}"), id=f"variant-{v}")
                        for v in self.patience.variant_ids
                    ),
                    id="variants",
                )
                yield Input(placeholder="seed (optional)", id="seed", type="integer")
                with Horizontal(classes="buttons"):
                    yield Button("New game", id="new-game", variant="primary")
                    yield Button("Daily", id="daily")
                    yield Button("Leaderboard", id="leaderboard")
            with Vertical(classes="panel", id="side-panel"):
                yield Label("Race with friends", classes="title")
                with Horizontal(classes="buttons"):
                    yield Button("Create race", id="create-race")
                with Horizontal(classes="buttons"):
                    yield Input(placeholder="room code", id="room-code", max_length=12)
                    yield Button("Join", id="join-race")
                yield Label("Your statistics", classes="title")
                yield Static(id="stats")
        yield Static(id="home-message")
        yield Footer()

    def on_mount(self) -> None:
        server = self.patience.conn.server_info
        player = self.patience.conn.player
        info = Text()
        info.append("Patience Club" if server is None else server.name, style="bold")
        if server is not None:
            info.append(f"  v{server.version}", style="dim")
            if server.motd:
                info.append(f"  {server.motd}")
        info.append(f"    playing as {'?' if player is None else player.name}")
        self.query_one("#server-info", Static).update(info)
        self.query_one("#variants", ListView).focus()
        self.action_refresh()

    def _variant_line(self, variant: str) -> str:
        name = self.patience.variant_name(variant)
        chosen = self.options.get(variant, {})
        flags = " ".join(
            ("+" if value else "-") + option.replace("_", " ") for option, value in chosen.items()
        )
        daily = daily_text(self.dailies.get(variant), variant in self.dailies)
        return f"{name:<16} {daily:<36} {flags}".rstrip()

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
        dailies, stats = await self.patience.home_facts()
        self.dailies = dailies
        self.stats = stats
        # The screen may have been left (or not be built yet) while the facts were on
        # their way: update the widgets that are there (compose reads self.dailies).
        for variant in self.patience.variant_ids:
            for line in self.query(f"#line-{variant}").results(Label):
                line.update(self._variant_line(variant))
        for panel in self.query("#stats").results(Static):
            panel.update(stats_text(stats, self.patience.variant_name))

    def say(self, message: str, *, error: bool = False) -> None:
        self.query_one("#home-message", Static).update(
            Text(message, style="bold red" if error else "")
        )

    @property
    def variant(self) -> str:
        index = self.query_one("#variants", ListView).index or 0
        return str(self.patience.variant_ids[index])

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

    def action_join_race(self) -> None:
        code = self.query_one("#room-code", Input).value.strip().upper()
        if not code:
            self.query_one("#room-code", Input).focus()
            self.say("type the room code your friend gave you, then press Join")
            return
        self.run_worker(self.patience.join_race(code, self), group="home")

    def on_list_view_selected(self, event: ListView.Selected) -> None:
        self.action_new_game()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "room-code":
            self.action_join_race()
        else:
            self.action_new_game()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {
            "new-game": self.action_new_game,
            "daily": self.action_daily,
            "leaderboard": self.action_leaderboard,
            "create-race": self.action_create_race,
            "join-race": self.action_join_race,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            action()
