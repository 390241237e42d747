"""The home screen: the five games with today's dailies, the games left unfinished, races,
challenges (a code to accept, the latest results), statistics.

What it shows is asked of the server each time the screen comes back into view (after a
game, a race, a leaderboard), so a daily just won is there without a key press.

The screen asks the server only for what it shows (over the connection it is
given); what the player chooses to do (a new game, a daily, a race...) it
posts as one of its messages (:class:`HomeScreen.NewGame` ...), which the app
handles: the screen knows no app, and runs in any host that handles them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Input, Label, ListItem, ListView, Static

from client import home_facts as facts
from client.catalog import Catalog
from client.challenges import challenge_code, challenges_text
from client.connection import Connection
from client.footer import Footer
from client.game_list import GameList
from client.home_facts import DEALS, RACE_RULES, daily_text, deal_kind_text, home_facts, stats_text
from client.i18n import t
from client.screens.account import AccountScreen
from client.screens.home_panels import side_panel
from client.screens.replay import ReplayScreen
from client.widgets import TitleBar
from shared.errors import ProtocolError
from shared.protocol import (
    ChallengesReply,
    ChallengesRequest,
    ChallengeView,
    GameEntry,
    Standing,
    StatsReply,
)


class HomeIntent(Message):
    """What the player chose on the home screen, for the app to do; ``screen`` is the home
    screen that asked, where the app says why it could not."""

    def __init__(self, screen: HomeScreen) -> None:
        super().__init__()
        self.screen = screen

    @property
    def control(self) -> HomeScreen:
        return self.screen


class HomeScreen(Screen[None]):
    """Pick a game, its daily, a game to continue, a leaderboard, or a race."""

    class NewGame(HomeIntent):
        """A new game of ``variant``: deal ``seed``, or a secret deal when None (one the
        server's solver has won, of ``difficulty``, when that is given)."""

        def __init__(
            self,
            screen: HomeScreen,
            variant: str,
            seed: int | None,
            options: Mapping[str, bool | int],
            difficulty: str | None = None,
        ) -> None:
            super().__init__(screen)
            self.variant = variant
            self.seed = seed
            self.options = options
            self.difficulty = difficulty

    class Daily(HomeIntent):
        """Today's daily of ``variant``."""

        def __init__(self, screen: HomeScreen, variant: str) -> None:
            super().__init__(screen)
            self.variant = variant

    class Leaderboard(HomeIntent):
        """The daily leaderboard of ``variant``."""

        def __init__(self, screen: HomeScreen, variant: str) -> None:
            super().__init__(screen)
            self.variant = variant

    class Arenas(HomeIntent):
        """The arenas: the list and their standings."""

    class Profile(HomeIntent):
        """The player's own profile."""

    class OpenGame(HomeIntent):
        """Continue the unfinished game ``entry``."""

        def __init__(self, screen: HomeScreen, entry: GameEntry) -> None:
            super().__init__(screen)
            self.entry = entry

    class CreateRace(HomeIntent):
        """A race room on ``variant`` with ``options``; ``rule``: what its spectators see of
        the racers' boards (``live``, ``delayed``, ``hidden``), or ``rated`` (a ranked room,
        boards hidden until the race is over); ``difficulty``: its races deal winnable deals
        of it (the kind of deal ``v`` chose for new games)."""

        def __init__(
            self,
            screen: HomeScreen,
            variant: str,
            options: Mapping[str, bool | int],
            rule: str = "live",
            difficulty: str | None = None,
        ) -> None:
            super().__init__(screen)
            self.variant = variant
            self.options = options
            self.rule = rule
            self.difficulty = difficulty

    class JoinRace(HomeIntent):
        """Join room ``code``, to race or (``spectator``) to watch; once joined, the app
        calls :meth:`HomeScreen.joined`."""

        def __init__(self, screen: HomeScreen, code: str, spectator: bool) -> None:
            super().__init__(screen)
            self.code = code
            self.spectator = spectator

    class AcceptChallenge(HomeIntent):
        """Play the challenge of ``code`` (its id): its game opens on the board."""

        def __init__(self, screen: HomeScreen, code: str) -> None:
            super().__init__(screen)
            self.code = code

    BINDINGS = [
        Binding("n", "new_game", "key.new_game"),
        Binding("d", "daily", "key.daily"),
        Binding("l", "leaderboard", "key.leaderboard"),
        Binding("a", "arenas", "key.arenas"),
        Binding("p", "profile", "key.profile", show=False),
        # (not in the footer, full at 80 columns: the panels' titles name them)
        Binding("t", "account", "key.account", show=False),
        Binding("y", "replay", "key.replay", show=False),
        Binding("c", "create_race", "key.race"),
        Binding("j", "join_race", "key.join", show=False),  # its button says it
        Binding("w", "watch_race", "key.watch", show=False),  # its button says it
        Binding("o", "option", "key.option"),
        # (not in the footer, full at 80 columns: the games panel's title names the key)
        Binding("v", "winnable", "key.winnable", show=False),
        Binding("b", "race_rule", "key.boards", show=False),  # the button says it
    ]

    def __init__(self, conn: Connection) -> None:
        super().__init__()
        #: the link to the server: what the screen shows is asked over it
        self.conn = conn
        #: the server's variants, from its latest welcome
        self.catalog = Catalog(lambda: conn.server_info)
        self.dailies: dict[str, Standing | None] = {}
        self.stats: StatsReply | None = None
        #: the player's games in play, newest first, as the server listed them
        self.unfinished: tuple[GameEntry, ...] = ()
        #: variant -> options chosen away from the server's defaults
        self.options: dict[str, dict[str, bool]] = {}
        #: a secret deal's kind: None for any deal, else winnable of this difficulty
        self.difficulty: str | None = None
        #: the rule of the races this player creates (``b`` changes it)
        self.race_rule = "live"

    def compose(self) -> ComposeResult:
        yield TitleBar(classes="titlebar")
        yield Static(id="server-info")
        with Horizontal(id="home-panels"):
            with Vertical(classes="panel", id="games-panel"):
                yield Label(deal_kind_text(self.difficulty), classes="title", id="deal-kind")
                yield GameList(
                    *(
                        ListItem(Label(self._variant_line(v), id=f"line-{v}"), id=f"variant-{v}")
                        for v in self.catalog.ids
                    ),
                    id="variants",
                )
                with Horizontal(classes="buttons"):
                    yield Input(
                        placeholder=t("home.seed"),
                        id="seed",
                        type="integer",
                        compact=True,
                        select_on_focus=False,
                    )
                    yield Button(t("home.new_game"), id="new-game", variant="primary", compact=True)
                    yield Button(t("home.daily"), id="daily", compact=True)
                    yield Button(t("home.leaderboard"), id="leaderboard", compact=True)
            yield from side_panel(self._rule_label())
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
        server = self.conn.server_info
        info = Text()
        if server is not None:
            info.append(f" v{server.version}", style="dim")
            if server.motd:
                info.append(f"  {server.motd}")
        for widget in self.query("#server-info").results(Static):
            widget.update(info)

    def _variant_line(self, variant: str) -> str:
        daily = daily_text(self.dailies.get(variant), variant in self.dailies)
        return facts.variant_line(self.catalog.name(variant), daily, self.options.get(variant, {}))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``o`` is listed, and acts, only on a game that has a yes/no option."""
        if action == "option":
            options = self.catalog.options(self.variant).values()
            return any(isinstance(value, bool) for value in options)
        return True

    def on_list_view_highlighted(self, event: ListView.Highlighted) -> None:
        self.refresh_bindings()

    def action_option(self) -> None:
        """Flip the variant's next yes/no option, as the server's VariantInfo lists them."""
        variant = self.variant
        defaults = {k: v for k, v in self.catalog.options(variant).items() if isinstance(v, bool)}
        if not defaults:
            self.say(t("home.no_options", name=self.catalog.name(variant)))
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
        dailies, stats, unfinished = await home_facts(self.conn, self.catalog.ids)
        self.dailies.update(dailies)
        if stats is not None:
            self.stats = stats
        if unfinished is not None:
            self.unfinished = unfinished
        stats = self.stats
        # The screen may have been left (or not be built yet) while the facts were on
        # their way: update the widgets that are there (compose reads self.dailies).
        for variant in self.catalog.ids:
            for line in self.query(f"#line-{variant}").results(Label):
                line.update(self._variant_line(variant))
        for panel in self.query("#stats").results(Static):
            panel.update(stats_text(stats, self.catalog.name, self.unfinished))
        for games in self.query("#variants").results(GameList):
            await games.show_unfinished(len(self.catalog.ids), self.unfinished, self.catalog.name)
        try:
            listed = await self.conn.request(ChallengesRequest(limit=4), ChallengesReply)
        except (ProtocolError, ConnectionError):
            return  # a server without challenges, or offline: the list stays as it was
        self.show_challenges(listed.challenges)

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
        ids = self.catalog.ids
        if index < len(ids):
            return str(ids[index])
        entry = self.entry
        return ids[0] if entry is None else entry.variant

    @property
    def entry(self) -> GameEntry | None:
        """The unfinished game highlighted, if the highlight is on one."""
        index = self._highlighted() - len(self.catalog.ids) - 1
        return self.unfinished[index] if 0 <= index < len(self.unfinished) else None

    def _seed(self) -> int | None:
        value = self.query_one("#seed", Input).value.strip()
        return int(value) if value.isdigit() else None

    def action_winnable(self) -> None:
        """Cycle the kind of secret deal: any, winnable easy, medium, hard (``v``)."""
        index = DEALS.index(self.difficulty)
        self.difficulty = DEALS[(index + 1) % len(DEALS)]
        self.query_one("#deal-kind", Label).update(deal_kind_text(self.difficulty))

    def action_new_game(self) -> None:
        variant = self.variant
        options = dict(self.options.get(variant, {}))
        seed = self._seed()
        difficulty = self.difficulty if seed is None else None
        self.post_message(self.NewGame(self, variant, seed, options, difficulty))

    def action_daily(self) -> None:
        self.post_message(self.Daily(self, self.variant))

    def action_leaderboard(self) -> None:
        self.post_message(self.Leaderboard(self, self.variant))

    def action_arenas(self) -> None:
        self.post_message(self.Arenas(self))

    def action_account(self) -> None:
        """This account on another device (a transfer code), or log out."""
        self.app.push_screen(AccountScreen(self.conn))

    def action_replay(self) -> None:
        """A finished game's replay, by its id."""
        self.app.push_screen(ReplayScreen(self.conn))

    def action_profile(self) -> None:
        self.post_message(self.Profile(self))

    def action_create_race(self) -> None:
        variant = self.variant
        options = dict(self.options.get(variant, {}))
        self.post_message(self.CreateRace(self, variant, options, self.race_rule, self.difficulty))

    def action_race_rule(self) -> None:
        """The next rule for the races this player creates (c): live, delayed, hidden, rated."""
        rules = list(RACE_RULES)
        self.race_rule = rules[(rules.index(self.race_rule) + 1) % len(rules)]
        self.query_one("#race-rule", Button).label = self._rule_label()
        self.say(t("home.rule_said", rule=t(RACE_RULES[self.race_rule])))

    def _rule_label(self) -> str:
        return facts.rule_label(self.race_rule)

    def action_join_race(self, spectator: bool = False) -> None:
        field = self.query_one("#room-code", Input)
        code = field.value.strip().upper()
        if not code:
            field.focus()
            self.say(t("home.type_code"))
            return
        self.post_message(self.JoinRace(self, code, spectator))

    def action_accept_challenge(self) -> None:
        field = self.query_one("#challenge-code", Input)
        code = challenge_code(field.value)
        if code is None:
            field.focus()
            self.say(t("home.paste_challenge"))
            return
        field.value = ""
        self.query_one("#variants", ListView).focus()
        self.post_message(self.AcceptChallenge(self, code))

    def show_challenges(self, views: Sequence[ChallengeView]) -> None:
        """The player's latest challenges, sent and received, with their results."""
        for panel in self.query("#challenges").results(Static):
            panel.update(challenges_text(views[:4], self.catalog.name))

    def action_watch_race(self) -> None:
        self.action_join_race(spectator=True)

    def joined(self) -> None:
        """The room of the code typed was joined: the code field lets go, so that home's
        keys act when we come back."""
        self.query_one("#room-code", Input).value = ""
        self.query_one("#variants", ListView).focus()

    def on_list_view_selected(self, event: ListView.Selected) -> None:
        entry = self.entry
        if entry is not None:
            self.post_message(self.OpenGame(self, entry))
        else:
            self.action_new_game()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "room-code":
            self.action_join_race()
        elif event.input.id == "challenge-code":
            self.action_accept_challenge()
        else:
            self.action_new_game()

    def on_key(self, event: Key) -> None:
        """Esc lets go of a field; a digit typed on the list goes to the seed field, so a
        seed is typed and started with Enter without reaching for Tab."""
        focused = self.focused
        if event.key == "escape" and isinstance(focused, Input):
            self.query_one("#variants", ListView).focus()
            event.stop()
        elif (
            event.character is not None
            and event.character.isdigit()
            and not isinstance(focused, Input)
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
            "race-rule": self.action_race_rule,
            "join-race": self.action_join_race,
            "watch-race": self.action_watch_race,
            "accept-challenge": self.action_accept_challenge,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            action()
