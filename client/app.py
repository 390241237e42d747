"""The terminal client: a Textual app over one connection to one server.

The app holds the connection, the game being played and the race room; the
screens draw them and call the app's few intents (start a game, join a
race...). Pushes from the server arrive on the connection's reader task and
are handed to whichever screen shows what they change.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.message import Message as TextualMessage
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from client.clock import Clock
from client.config import TokenStore
from client.connection import CONNECTED, FAILED, RECONNECTING, Connection, describe
from client.race import RACE_PUSHES, RaceState
from client.screens.board import BoardScreen
from client.screens.home import HomeScreen
from client.screens.leaderboard import LeaderboardScreen
from client.screens.race import RacePanel, RaceScreen
from client.session import GameSession
from client.wire import Message
from shared.errors import ProtocolError

DEFAULT_SERVER = "ws://127.0.0.1:8765/ws"


class ServerPush(TextualMessage):
    """A message from the server that was not a reply."""

    def __init__(self, message: Message) -> None:
        super().__init__()
        self.message = message


class LinkState(TextualMessage):
    def __init__(self, state: str, detail: str) -> None:
        super().__init__()
        self.state = state
        self.detail = detail


class NameScreen(Screen[None]):
    """First visit to a server: choose the name to register."""

    BINDINGS = [Binding("ctrl+q", "app.quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Static("Welcome! Choose a player name for this server.", classes="title")
        yield Static("1 to 24 letters, digits, '_' or '-'.")
        yield Input(placeholder="your name", id="name", max_length=24)
        yield Static(id="name-message")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    def say(self, message: str, *, error: bool = False) -> None:
        self.query_one("#name-message", Static).update(
            Text(message, style="bold red" if error else "")
        )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        from client.app import PatienceApp

        app = self.app
        assert isinstance(app, PatienceApp)
        # Registering anew: a saved token the server refused must not be tried again.
        app.conn.store.forget(app.conn.url)
        app.conn.name = event.value.strip()
        self.run_worker(app.connect(self), group="connect", exclusive=True)


class WaitScreen(Screen[None]):
    """The server cannot be reached yet: say why and that we keep trying."""

    BINDINGS = [Binding("ctrl+q", "app.quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Static(f"Patience Club: connecting to {self.app.sub_title}", classes="title")
        yield Static("Connecting…", id="wait-message", classes="panel")
        yield Footer()

    def say(self, message: str) -> None:
        self.query_one("#wait-message", Static).update(message)


class PatienceApp(App[int]):
    """``patience-club play``."""

    CSS_PATH = "app.tcss"
    TITLE = "Patience Club"

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
        self.session = GameSession(self.conn)
        self.race = RaceState(clock)
        #: player id whose board the top screen shows when watching
        self.watching: int | None = None

    def _post_push(self, message: Message) -> None:
        self.post_message(ServerPush(message))

    def _post_state(self, state: str, detail: str) -> None:
        self.post_message(LinkState(state, detail))

    # -- facts ---------------------------------------------------------------------

    @property
    def variant_ids(self) -> list[str]:
        variants = self.conn.server_info.get("variants")
        if isinstance(variants, list):
            return [str(v["id"]) for v in variants if isinstance(v, dict) and "id" in v]
        return []

    def variant_info(self, variant: str) -> dict[str, Any]:
        """The server's VariantInfo of ``variant`` (``{}`` when it lists none)."""
        for info in self.conn.server_info.get("variants") or []:
            if isinstance(info, dict) and info.get("id") == variant:
                return info
        return {}

    def variant_name(self, variant: str) -> str:
        """The variant's name as the server's VariantInfo gives it, else its id."""
        name = self.variant_info(variant).get("name")
        return name if isinstance(name, str) and name else variant

    def variant_options(self, variant: str) -> dict[str, Any]:
        """The variant's options and their defaults, as the server's VariantInfo lists them."""
        options = self.variant_info(variant).get("options")
        return dict(options) if isinstance(options, dict) else {}

    @property
    def me(self) -> int | None:
        pid = self.conn.player.get("id")
        return pid if isinstance(pid, int) else None

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
        view = await self.session.resume()
        if view is not None:
            for screen in self.screen_stack:
                if isinstance(screen, BoardScreen) and screen.session is self.session:
                    screen.set_view(view, "reconnected: the game is as the server holds it")

    def on_link_state(self, event: LinkState) -> None:
        if event.state == RECONNECTING:
            self.sub_title = f"{self.conn.url}: {event.detail}"
        elif event.state == CONNECTED:
            self.sub_title = f"{self.conn.url} as {event.detail}"
            if self.conn.reconnects:
                self.notify("reconnected", timeout=3)
        elif event.state == FAILED and self.conn.welcome is not None:
            self.notify(event.detail, severity="error", timeout=30)

    def on_server_push(self, event: ServerPush) -> None:
        message = event.message
        kind = message.get("type")
        if kind in RACE_PUSHES and self.race.apply(message):
            if kind == "race_started" and isinstance(message.get("game"), dict):
                self.session.adopt(message["game"])
                self.show_race_board()
            elif kind == "race_over":
                self.notify("the race is over: see the standings", timeout=5)
            self._redraw_race()
            return
        if kind == "game" and isinstance(message.get("game"), dict):
            view = message["game"]
            for screen in self.screen_stack:
                if (
                    isinstance(screen, BoardScreen)
                    and screen.session is None
                    and screen.view.get("id") == view.get("id")
                ):
                    screen.set_view(view)
        elif kind == "error":
            self.notify(str(message.get("message", "server error")), severity="error")

    def _redraw_race(self) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, RaceScreen):
                screen.redraw()
        for panel in self.query(RacePanel):
            panel.redraw()

    # -- intents from the screens ------------------------------------------------------

    async def home_facts(self) -> tuple[dict[str, dict[str, Any] | None], dict[str, Any] | None]:
        """Today's daily entry of each variant (None: not finished) and the player's stats."""
        dailies: dict[str, dict[str, Any] | None] = {}
        for variant in self.variant_ids:
            try:
                # No date: the server's today, which is what its dailies follow.
                reply = await self.conn.request("leaderboard", variant=variant, limit=1)
            except (ProtocolError, ConnectionError):
                continue
            me = reply.get("me")
            dailies[variant] = me if isinstance(me, dict) else None
        try:
            stats: dict[str, Any] | None = await self.conn.request("stats")
        except (ProtocolError, ConnectionError):
            stats = None
        return dailies, stats

    def board_for_session(self, title: str = "", side: Static | None = None) -> BoardScreen:
        view = self.session.view
        assert view is not None
        return BoardScreen(
            view,
            variant=self.variant_info(view["variant"]),
            session=self.session,
            clock=self.clock,
            title=title,
            side=side,
        )

    async def new_game(
        self,
        variant: str,
        seed: int | None,
        screen: HomeScreen,
        options: dict[str, Any] | None = None,
    ) -> None:
        try:
            await self.session.start(variant, seed, options)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        await self.push_screen(self.board_for_session())

    async def daily(self, variant: str, screen: HomeScreen) -> None:
        try:
            await self.session.start_daily(variant)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        day = (self.session.daily or {}).get("date", "")
        title = f"{self.variant_name(variant)} daily {day}"
        await self.push_screen(self.board_for_session(title))

    def show_leaderboard(self, variant: str) -> None:
        self.push_screen(LeaderboardScreen(variant))

    async def create_race(
        self, variant: str, screen: HomeScreen, options: dict[str, Any] | None = None
    ) -> None:
        try:
            reply = await self.conn.request("create_room", variant=variant, options=options or {})
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        self.race.leave()
        self.race.apply(reply)
        await self.push_screen(RaceScreen())

    async def join_race(self, code: str, screen: HomeScreen) -> None:
        try:
            reply = await self.conn.request("join_room", code=code)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        self.race.leave()
        self.race.apply(reply)
        await self.push_screen(RaceScreen())

    async def start_race(self, screen: RaceScreen) -> None:
        if self.race.code is None:
            return
        try:
            await self.conn.request("start_race", code=self.race.code)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)

    def show_race_board(self) -> None:
        if self.session.view is None or self.race.game is None:
            return
        for screen in self.screen_stack:
            if (
                isinstance(screen, BoardScreen)
                and screen.session is self.session
                and screen.view.get("id") == self.session.view.get("id")
            ):
                return
        self.push_screen(
            self.board_for_session(f"race {self.race.code}", self._race_panel())
        )

    async def watch_racer(self, player: int, screen: RaceScreen) -> None:
        if self.race.code is None:
            return
        try:
            reply = await self.conn.request("watch", code=self.race.code, player=player)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        self.watching = player
        name = self.race.names().get(player, str(player))
        board = BoardScreen(
            reply["game"],
            variant=self.variant_info(reply["game"]["variant"]),
            session=None,
            clock=self.clock,
            title=f"watching {name}",
            side=self._race_panel(),
        )
        await self.push_screen(board)

    def _race_panel(self) -> RacePanel:
        return RacePanel(self.race, self.me, lambda: self.session.view, self.variant_name)

    async def leave_race(self, screen: RaceScreen) -> None:
        code = self.race.code
        if code is not None:
            try:
                await self.conn.request("leave_room", code=code)
            except (ProtocolError, ConnectionError) as exc:
                screen.say(describe(exc), error=True)
                return
        self.race.leave()
        self.pop_screen()

    async def action_quit(self) -> None:
        await self.conn.close()
        self.exit(0)


__all__ = ["DEFAULT_SERVER", "PatienceApp"]
