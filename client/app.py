"""The terminal client: a Textual app over one connection to one server.

The app holds the connection, the game being played and the race room; the
screens draw them and call the app's few intents (start a game, join a
race...). Pushes from the server arrive on the connection's reader task and
are handed to whichever screen shows what they change.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping

from textual.app import App
from textual.binding import Binding
from textual.message import Message as TextualMessage
from textual.widgets import Static

from client.clock import Clock
from client.config import TokenStore
from client.connection import CONNECTED, FAILED, RECONNECTING, Connection, describe
from client.fields import code_problem, seed_problem
from client.played_game import PlayedGame
from client.race import RACE_PUSHES, RaceState
from client.screens.board import BoardScreen
from client.screens.connecting import NameScreen, WaitScreen
from client.screens.home import HomeScreen
from client.screens.leaderboard import LeaderboardScreen
from client.screens.race import RacePanel, RaceScreen
from shared.errors import ProtocolError
from shared.protocol import (
    RACER,
    RACING,
    SPECTATOR,
    CreateRoom,
    Error,
    GameEntry,
    GameReply,
    JoinRoom,
    LeaveRoom,
    Ok,
    Progress,
    RaceOver,
    RaceStarted,
    Reply,
    RoomReply,
    StartRace,
    VariantInfo,
    Watch,
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


class PatienceApp(App[int]):
    """``patience-club play``."""

    CSS_PATH = "app.tcss"
    TITLE = "Patience Club"
    # Every footer lists how to quit; the command palette is not part of this app.
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(
        self,
        server: str = DEFAULT_SERVER,
        *,
        name: str | None = None,
        store: TokenStore | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__()
        self.clock = clock
        self.conn = Connection(
            server,
            store=store or TokenStore(),
            name=name,
            on_push=self._post_push,
            on_state=self._post_state,
            on_resume=self._resume,
        )
        self.played = PlayedGame(self.conn)
        self.race = RaceState(clock)
        #: player id whose board the top screen shows when watching
        self.watching: int | None = None

    def _post_push(self, message: Reply) -> None:
        self.post_message(ServerPush(message))

    def _post_state(self, state: str, detail: str) -> None:
        self.post_message(LinkState(state, detail))

    # -- facts ---------------------------------------------------------------------

    @property
    def variant_ids(self) -> list[str]:
        server = self.conn.server_info
        return [] if server is None else [v.id for v in server.variants]

    def variant_info(self, variant: str) -> VariantInfo | None:
        """The server's VariantInfo of ``variant`` (None when it lists none)."""
        server = self.conn.server_info
        return None if server is None else server.variant(variant)

    def variant_name(self, variant: str) -> str:
        """The variant's name as the server's VariantInfo gives it, else its id."""
        info = self.variant_info(variant)
        return variant if info is None else info.name

    def variant_options(self, variant: str) -> Mapping[str, bool | int]:
        """The variant's options and their defaults, as the server's VariantInfo lists them."""
        info = self.variant_info(variant)
        return {} if info is None else info.options

    @property
    def me(self) -> int | None:
        player = self.conn.player
        return None if player is None else player.id

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
                    waiting = WaitScreen()
                    await self.push_screen(waiting)
                waiting.say(f"{describe(exc)}\nretrying in {delay:.1f}s (ctrl+q quits)")
                await asyncio.sleep(delay)
        if waiting is not None:
            self.pop_screen()
        if screen is not None:
            self.pop_screen()
        await self.push_screen(HomeScreen())

    async def _resume(self) -> None:
        view = await self.played.resume()
        if view is not None:
            for screen in self.screen_stack:
                if isinstance(screen, BoardScreen) and screen.played is self.played:
                    screen.set_view(view, "reconnected: the game is as the server holds it")

    def on_link_state(self, event: LinkState) -> None:
        """The title names the server (the one of the latest welcome) and who we are, once;
        a board shows its "reconnecting…" line while the link is down."""
        server = self.conn.server_info
        player = self.conn.player
        where = self.conn.url if server is None else server.name
        if event.state == RECONNECTING:
            self.sub_title = f"{where}: reconnecting…"
        elif event.state == CONNECTED:
            self.sub_title = where if player is None else f"{where} · {player.name}"
            if self.conn.reconnects:
                self.notify("reconnected", timeout=3)
            for screen in self.screen_stack:
                if isinstance(screen, HomeScreen):
                    screen.show_server()
        elif event.state == FAILED and self.conn.welcome is not None:
            self.sub_title = f"{where}: disconnected"
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
                self.notify("the race is over: see the standings", timeout=5)
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

    def played_board(
        self, title: str = "", side: Static | None = None, *, hints: bool = True
    ) -> BoardScreen:
        view = self.played.view
        assert view is not None
        board = BoardScreen(
            view,
            variant=self.variant_info(view.variant),
            played=self.played,
            clock=self.clock,
            title=title,
            side=side,
            hints=hints,
        )
        if self.conn.state == RECONNECTING:
            board.link = RECONNECTING
        return board

    async def new_game(
        self,
        variant: str,
        seed: int | None,
        screen: HomeScreen,
        options: Mapping[str, bool | int] | None = None,
    ) -> None:
        problem = None if seed is None else seed_problem(seed)
        if problem is not None:
            screen.say(problem, error=True)
            return
        try:
            await self.played.start(variant, seed, options)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        await self.push_screen(self.played_board())

    async def daily(self, variant: str, screen: HomeScreen) -> None:
        try:
            await self.played.start_daily(variant)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        day = "" if self.played.daily is None else self.played.daily.date
        title = f"{self.variant_name(variant)} daily {day}"
        # The ranked attempt: the server gives no hints in it (hints_off).
        await self.push_screen(self.played_board(title, hints=False))

    async def open_game(self, entry: GameEntry, screen: HomeScreen) -> None:
        """Continue one of the player's unfinished games, as the server holds it."""
        try:
            await self.played.open(entry.id)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        name = self.variant_name(entry.variant)
        if entry.kind == "daily":
            await self.push_screen(self.played_board(f"{name} daily", hints=False))
        elif entry.kind == "race":
            room = self.race.room
            hints = room is not None and room.hints and self.race.game_of(self.me) == entry.id
            await self.push_screen(self.played_board(f"{name} race", hints=hints))
        else:
            await self.push_screen(self.played_board())

    def show_leaderboard(self, variant: str) -> None:
        self.push_screen(LeaderboardScreen(variant))

    async def create_race(
        self, variant: str, screen: HomeScreen, options: Mapping[str, bool | int] | None = None
    ) -> None:
        try:
            request = CreateRoom(variant=variant, options=dict(options or {}))
            reply = await self.conn.request(request, RoomReply)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        self.race.leave()
        self.race.apply(reply)
        await self.push_screen(RaceScreen())

    async def join_race(self, code: str, screen: HomeScreen, *, spectator: bool = False) -> bool:
        """Join room ``code`` as a racer or a spectator; True when joined. Back in a room
        whose race is running (a member joining again), our game of it opens at once."""
        problem = code_problem(code)
        if problem is not None:
            screen.say(problem, error=True)
            return False
        role = SPECTATOR if spectator else RACER
        try:
            reply = await self.conn.request(JoinRoom(code=code, role=role), RoomReply)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return False
        self.race.leave()
        self.race.apply(reply)
        await self.push_screen(RaceScreen())
        running = self.race.game_of(self.me) if reply.room.state == RACING else None
        if running is not None:
            try:
                view = await self.played.open(running)
            except (ProtocolError, ConnectionError):
                return True
            self.race.game = view
            self.show_race_board()
        return True

    async def start_race(self, screen: RaceScreen) -> None:
        if self.race.code is None:
            return
        try:
            await self.conn.request(StartRace(code=self.race.code), Ok)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        screen.say("starting: the countdown is on")

    def show_race_board(self) -> None:
        if self.played.view is None or self.race.game is None:
            return
        for screen in self.screen_stack:
            if (
                isinstance(screen, BoardScreen)
                and screen.played is self.played
                and screen.view.id == self.played.view.id
            ):
                return
        self.push_screen(self.race_board())

    def race_board(self) -> BoardScreen:
        """Our board in the race, with the room's panel beside it; hints as the room says."""
        room = self.race.room
        hints = room is not None and room.hints
        return self.played_board(f"race {self.race.code}", self._race_panel(), hints=hints)

    async def watch_racer(self, player: int, screen: RaceScreen) -> None:
        if self.race.code is None:
            return
        try:
            reply = await self.conn.request(Watch(code=self.race.code, player=player), GameReply)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        self.watching = player
        name = self.race.names().get(player, str(player))
        board = BoardScreen(
            reply.game,
            variant=self.variant_info(reply.game.variant),
            played=None,
            clock=self.clock,
            title=f"watching {name}",
            side=self._race_panel(),
        )
        await self.push_screen(board)

    def _race_panel(self) -> RacePanel:
        return RacePanel(self.race, self.me, lambda: self.played.view, self.variant_name)

    async def leave_race(self, screen: RaceScreen) -> None:
        code = self.race.code
        if code is not None:
            try:
                await self.conn.request(LeaveRoom(code=code), Ok)
            except (ProtocolError, ConnectionError) as exc:
                screen.say(describe(exc), error=True)
                return
        self.race.leave()
        self.pop_screen()

    async def action_quit(self) -> None:
        await self.conn.close()
        self.exit(0)


__all__ = ["DEFAULT_SERVER", "PatienceApp"]
