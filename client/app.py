"""The terminal client: a Textual app over one connection to one server.

The app holds the connection, the game being played and the race room; the
screens draw what they are given and post what the player asks (start a game,
join a race...) as their own messages, which the app handles here and in its
base, :class:`client.race_room.RaceRoomApp`. No screen imports the app: each
runs in any host (tests/client/test_screens_alone.py). Pushes from the server
arrive on the connection's reader task and are handed to whichever screen
shows what they change.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping

from textual.binding import Binding
from textual.message import Message as TextualMessage

from client.catalog import Catalog
from client.challenge_room import ChallengeApp
from client.clock import Clock, GameClocks
from client.config import TokenStore
from client.connection import CONNECTED, FAILED, RECONNECTING, Connection, describe
from client.fields import seed_problem
from client.i18n import set_language, t
from client.played_game import PlayedGame
from client.race import RACE_PUSHES, RaceState
from client.screens.account import AccountScreen
from client.screens.arenas import ArenasScreen
from client.screens.board import BoardScreen
from client.screens.connecting import NameScreen, WaitScreen
from client.screens.daily_start import DailyStartScreen
from client.screens.home import HomeScreen
from client.screens.leaderboard import LeaderboardScreen
from client.screens.profile import ProfileScreen
from client.screens.race import RacePanel, RaceScreen
from shared.errors import ProtocolError
from shared.protocol import (
    ChallengeReply,
    Error,
    GameEntry,
    GameReply,
    MatchReply,
    Progress,
    RaceOver,
    RaceStarted,
    Reply,
)

DEFAULT_SERVER = "ws://127.0.0.1:8765/ws"


class ServerPush(TextualMessage):
    """A message from the server that was not a reply."""

    def __init__(self, message: Reply) -> None:
        super().__init__()
        self.message = message


class LinkState(TextualMessage):
    def __init__(self, state: str, detail: str) -> None:
        super().__init__()
        self.state = state
        self.detail = detail


class PatienceApp(ChallengeApp):
    """``patience-club play``."""

    CSS_PATH = "app.tcss"
    TITLE = "Patience Club"
    # Every footer lists how to quit; the command palette is not part of this app.
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "key.quit", priority=True)]

    def __init__(
        self,
        server: str = DEFAULT_SERVER,
        *,
        name: str | None = None,
        store: TokenStore | None = None,
        clock: Clock = time.monotonic,
        lang: str = "en",
    ) -> None:
        super().__init__()
        # The language is the app's: every screen and footer reads the tables (client/i18n).
        set_language(lang)
        self.clock = clock
        self.conn = Connection(
            server,
            store=store or TokenStore(),
            name=name,
            on_push=self._post_push,
            on_state=self._post_state,
            on_resume=self._resume,
        )
        self.catalog = Catalog(lambda: self.conn.server_info)
        self.played = PlayedGame(self.conn)
        self.race = RaceState(clock)
        self.game_clocks = GameClocks(clock)
        self.watching = None

    def _post_push(self, message: Reply) -> None:
        self.post_message(ServerPush(message))

    def _post_state(self, state: str, detail: str) -> None:
        self.post_message(LinkState(state, detail))

    # -- facts ---------------------------------------------------------------------

    @property
    def variant_ids(self) -> list[str]:
        return self.catalog.ids

    # -- connecting ------------------------------------------------------------------

    def on_mount(self) -> None:
        self.sub_title = self.conn.url
        if self.conn.needs_name:
            self.push_screen(NameScreen())
        else:
            self.run_worker(self.connect(None), group="connect", exclusive=True)

    async def connect(self, screen: NameScreen | None) -> None:
        """Hello (registering if need be); an unreachable server is retried with backoff."""
        waiting: WaitScreen | None = None
        delays = self.conn.backoff_delays()
        while True:
            try:
                await self.conn.open()
                break
            except ProtocolError as exc:
                if waiting is not None:
                    self.pop_screen()
                if screen is None:
                    screen = NameScreen()
                    await self.push_screen(screen)
                screen.say(describe(exc), error=True)
                return
            except (OSError, ConnectionError, TimeoutError) as exc:
                delay = next(delays)
                if waiting is None:
                    waiting = WaitScreen(self.conn.url)
                    await self.push_screen(waiting)
                waiting.say(t("link.retrying", why=describe(exc), delay=f"{delay:.1f}"))
                await asyncio.sleep(delay)
        if waiting is not None:
            self.pop_screen()
        if screen is not None:
            self.pop_screen()
        await self.push_screen(self.home_screen())

    def on_name_screen_chosen(self, event: NameScreen.Chosen) -> None:
        # Registering anew: a saved token the server refused must not be tried again.
        self.conn.store.forget(self.conn.url)
        self.conn.name = event.name
        self.conn.transfer = None
        self.run_worker(self.connect(event.screen), group="connect", exclusive=True)

    def on_name_screen_transfer(self, event: NameScreen.Transfer) -> None:
        """Sign in as the account of another device, with the code it showed."""
        self.conn.store.forget(self.conn.url)
        self.conn.transfer = event.code
        self.run_worker(self.connect(event.screen), group="connect", exclusive=True)

    def on_account_screen_log_out(self, _event: AccountScreen.LogOut) -> None:
        self.run_worker(self.log_out(), group="connect", exclusive=True)

    async def log_out(self) -> None:
        """Forget this device's token and start again at the name screen."""
        # The screens go first: a board closing sends leave_game, home reads the welcome.
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        await self.conn.log_out()
        self.played = PlayedGame(self.conn)
        self.race = RaceState(self.clock)
        self.sub_title = self.conn.url
        await self.push_screen(NameScreen())

    async def _resume(self) -> None:
        view = await self.played.resume()
        if view is not None:
            for screen in self.screen_stack:
                if isinstance(screen, BoardScreen) and screen.played is self.played:
                    screen.set_view(view, t("link.reconnected_game"))

    def on_link_state(self, event: LinkState) -> None:
        """The title names the server (the one of the latest welcome) and who we are, once;
        a board shows its "reconnecting…" line while the link is down."""
        server = self.conn.server_info
        player = self.conn.player
        where = self.conn.url if server is None else server.name
        if event.state == RECONNECTING:
            self.sub_title = t("title.reconnecting", where=where)
        elif event.state == CONNECTED:
            self.sub_title = where if player is None else f"{where} · {player.name}"
            if self.conn.reconnects:
                self.notify(t("link.reconnected"), timeout=3)
            for screen in self.screen_stack:
                if isinstance(screen, HomeScreen):
                    screen.show_server()
        elif event.state == FAILED and self.conn.welcome is not None:
            self.sub_title = t("title.disconnected", where=where)
            self.notify(event.detail, severity="error", timeout=30)
        for screen in self.screen_stack:
            if isinstance(screen, BoardScreen):
                screen.show_link(event.state, "" if event.state == CONNECTED else event.detail)

    def on_server_push(self, event: ServerPush) -> None:
        message = event.message
        if isinstance(message, RACE_PUSHES) and self.race.apply(message):
            if isinstance(message, RaceStarted) and message.game is not None:
                self.played.adopt(message.game)
                self.show_race_board()
            elif isinstance(message, RaceOver):
                self.notify(t("race.over_notice"), timeout=5)
                # The race's key is out now: our board shows it once it has the view again.
                self.run_worker(self._refresh_played(), group="race-over")
            elif (
                isinstance(message, Progress)
                and message.player == self.me
                and self.race.game is not None
                and self.played.view is not None
                and message.state != self.played.view.state
            ):
                # The server ended our game (gone too long, or a ban): show it as it stands.
                self.run_worker(self._refresh_played(), group="race-over")
            self._redraw_race()
            return
        if isinstance(message, ChallengeReply):
            self._challenge_told(message)
            return
        if isinstance(message, MatchReply):
            self.match_told(message)
            return
        if isinstance(message, GameReply):
            view = message.game
            for screen in self.screen_stack:
                if (
                    isinstance(screen, BoardScreen)
                    and screen.played is None
                    and screen.view.id == view.id
                ):
                    screen.set_view(view)
        elif isinstance(message, Error):
            self.notify(message.message, severity="error")

    async def _refresh_played(self) -> None:
        """Fetch our race game again (its deal's key, once the race is over) and show it."""
        game = self.played.game_id
        if game is None or self.race.game is None or self.race.game.id != game:
            return  # we are playing something else meanwhile
        try:
            view = await self.played.open(game)
        except (ProtocolError, ConnectionError):
            return
        for screen in self.screen_stack:
            if isinstance(screen, BoardScreen) and screen.played is self.played:
                screen.set_view(view)

    def _redraw_race(self) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, RaceScreen):
                screen.redraw()
        for panel in self.query(RacePanel):
            panel.redraw()

    # -- intents from the screens ------------------------------------------------------

    def home_screen(self) -> HomeScreen:
        return HomeScreen(self.conn)

    def leaderboard_screen(self, variant: str, date: str | None = None) -> LeaderboardScreen:
        return LeaderboardScreen(self.conn, variant, date)

    def on_home_screen_new_game(self, event: HomeScreen.NewGame) -> None:
        work = self.new_game(
            event.variant, event.seed, event.screen, event.options, event.difficulty
        )
        self.run_worker(work, group="home")

    def on_home_screen_daily(self, event: HomeScreen.Daily) -> None:
        self.run_worker(self.daily(event.variant, event.screen), group="home")

    def on_home_screen_open_game(self, event: HomeScreen.OpenGame) -> None:
        self.run_worker(self.open_game(event.entry, event.screen), group="home")

    def on_home_screen_leaderboard(self, event: HomeScreen.Leaderboard) -> None:
        self.show_leaderboard(event.variant)

    def on_home_screen_arenas(self, _event: HomeScreen.Arenas) -> None:
        self.push_screen(ArenasScreen(self.conn))

    def on_home_screen_profile(self, event: HomeScreen.Profile) -> None:
        player = self.conn.player
        if player is not None:
            self.push_screen(ProfileScreen(self.conn, player.name))

    def on_leaderboard_screen_profile(self, event: LeaderboardScreen.Profile) -> None:
        self.push_screen(ProfileScreen(self.conn, event.name))

    async def new_game(
        self,
        variant: str,
        seed: int | None,
        screen: HomeScreen,
        options: Mapping[str, bool | int] | None = None,
        difficulty: str | None = None,
    ) -> None:
        problem = None if seed is None else seed_problem(seed)
        if problem is not None:
            screen.say(problem, error=True)
            return
        try:
            await self.played.start(variant, seed, options, difficulty=difficulty)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        await self.push_screen(self.played_board())

    async def daily(self, variant: str, screen: HomeScreen) -> None:
        """Today's daily: its start step (nothing dealt yet), or the attempt, resumed."""
        try:
            intro = await self.played.look_at_daily(variant)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        if intro is not None:
            await self.push_screen(DailyStartScreen(intro, self.catalog.name(variant)))
            return
        await self.daily_board(variant)

    def on_daily_start_screen_start(self, event: DailyStartScreen.Start) -> None:
        self.run_worker(self.start_daily(event.variant, event.screen), group="home")

    async def start_daily(self, variant: str, screen: DailyStartScreen) -> None:
        """Start: the attempt is dealt now, and its ranked clock starts now."""
        try:
            await self.played.start_daily(variant)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        screen.dismiss()
        await self.daily_board(variant)

    async def daily_board(self, variant: str) -> None:
        day = "" if self.played.daily is None else self.played.daily.date
        title = t("board.daily_title", name=self.catalog.name(variant), day=day)
        # The ranked attempt: the server gives no hints in it (hints_off).
        await self.push_screen(self.played_board(title, hints=False, kind="daily"))

    async def open_game(self, entry: GameEntry, screen: HomeScreen) -> None:
        """Continue one of the player's unfinished games, as the server holds it; a race
        game whose room we are still in opens the race (its room, rivals and hints rule)."""
        if entry.kind == "race" and entry.room is not None and entry.state == "playing":
            await self.join_race(entry.room, screen)
            return
        try:
            await self.played.open(entry.id)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        name = self.catalog.name(entry.variant)
        if entry.kind == "daily":
            await self.push_screen(
                self.played_board(
                    t("board.daily_title", name=name, day="").strip(), hints=False, kind="daily"
                )
            )
        elif entry.kind == "race":
            room = self.race.room
            hints = room is not None and room.hints and self.race.game_of(self.me) == entry.id
            await self.push_screen(
                self.played_board(t("board.race_title", name=name), hints=hints, kind="race")
            )
        else:
            await self.push_screen(self.played_board(kind=entry.kind))

    def show_leaderboard(self, variant: str) -> None:
        self.push_screen(self.leaderboard_screen(variant))

    async def action_quit(self) -> None:
        await self.conn.close()
        self.exit(0)


__all__ = ["DEFAULT_SERVER", "PatienceApp"]
