"""The app's boards and race rooms: our board of a game, and what the home and room screens
ask of a race (create, join, start, watch, leave).

:class:`RaceRoomApp` is the base of :class:`client.app.PatienceApp`. It
handles the race messages of :class:`~client.screens.home.HomeScreen` and
:class:`~client.screens.race.RaceScreen` over the app's connection and pushes
the screens that show the outcome. It declares what it uses of the app (the
connection, our game, the race state...), which the app sets as it is made;
the screens it drives know neither.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.app import App
from textual.widgets import Static

from client.catalog import Catalog
from client.clock import Clock, GameClocks
from client.connection import RECONNECTING, Connection, describe
from client.fields import code_problem
from client.i18n import t
from client.played_game import PlayedGame
from client.race import RaceState
from client.screens.board import BoardScreen
from client.screens.home import HomeScreen
from client.screens.race import RacePanel, RaceScreen
from shared.errors import ProtocolError
from shared.protocol import (
    RACER,
    RACING,
    SPECTATOR,
    CreateRoom,
    GameReply,
    JoinRoom,
    LeaveRoom,
    Ok,
    RoomReply,
    StartRace,
    Watch,
)


class RaceRoomApp(App[int]):
    """Boards and race rooms for the app: the race intents of :class:`HomeScreen` and
    :class:`RaceScreen`."""

    # What the app sets as it is made (client.app.PatienceApp.__init__).
    conn: Connection
    #: our game, as the server last described it
    played: PlayedGame
    race: RaceState
    clock: Clock
    #: each game's shown clock, shared by the boards of it (it never goes back)
    game_clocks: GameClocks
    #: the server's variants, from its latest welcome
    catalog: Catalog
    #: player id whose board the top screen shows when watching
    watching: int | None

    @property
    def me(self) -> int | None:
        player = self.conn.player
        return None if player is None else player.id

    def played_board(
        self, title: str = "", side: Static | None = None, *, hints: bool = True, kind: str = "solo"
    ) -> BoardScreen:
        """A board of our game (its latest view), laid out as its VariantInfo says; ``kind``:
        what the game is (solo, daily, practice, race, challenge: what the board offers)."""
        view = self.played.view
        assert view is not None
        board = BoardScreen(
            view,
            variant=self.catalog.info(view.variant),
            played=self.played,
            clock=self.clock,
            game_clocks=self.game_clocks,
            title=title,
            side=side,
            hints=hints,
            kind=kind,
        )
        if self.conn.state == RECONNECTING:
            board.link = RECONNECTING
        return board

    # -- the screens' messages -----------------------------------------------------------

    def on_home_screen_create_race(self, event: HomeScreen.CreateRace) -> None:
        self.run_worker(
            self.create_race(
                event.variant, event.screen, event.options, event.rule, event.difficulty
            ),
            group="home",
        )

    def on_home_screen_join_race(self, event: HomeScreen.JoinRace) -> None:
        self.run_worker(self._join(event.code, event.screen, event.spectator), group="home")

    def on_race_screen_start(self, event: RaceScreen.Start) -> None:
        self.run_worker(self.start_race(event.screen), group="race")

    def on_race_screen_show_board(self, event: RaceScreen.ShowBoard) -> None:
        self.show_race_board()

    def on_race_screen_watch(self, event: RaceScreen.Watch) -> None:
        self.run_worker(self.watch_racer(event.player, event.screen), group="race")

    def on_race_screen_leave(self, event: RaceScreen.Leave) -> None:
        self.run_worker(self.leave_race(event.screen), group="race")

    # -- what they ask ---------------------------------------------------------------------

    def race_screen(self) -> RaceScreen:
        """The room's screen, drawn from our race state and our game."""
        return RaceScreen(self.race, self.me, lambda: self.played.view, self.catalog.name)

    async def create_race(
        self,
        variant: str,
        screen: HomeScreen,
        options: Mapping[str, bool | int] | None = None,
        rule: str = "live",
        difficulty: str | None = None,
    ) -> None:
        """Create a room; ``rule``: its boards (live, delayed, hidden) or ``rated``;
        ``difficulty``: its races deal winnable deals of it (None: any secret deal)."""
        try:
            rated = rule == "rated"
            boards = "hidden" if rated else rule
            request = CreateRoom(
                variant=variant,
                options=dict(options or {}),
                rated=rated,
                boards=boards,
                winnable=difficulty is not None,
                difficulty=difficulty,
            )
            reply = await self.conn.request(request, RoomReply)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        self.race.leave()
        self.race.apply(reply)
        await self.push_screen(self.race_screen())

    async def _join(self, code: str, screen: HomeScreen, spectator: bool) -> None:
        if await self.join_race(code, screen, spectator=spectator):
            screen.joined()

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
        await self.push_screen(self.race_screen())
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
        screen.say(t("race.starting"))

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
        code = self.race.code
        return self.played_board(
            t("race.board_title", code=code), self._race_panel(), hints=hints, kind="race"
        )

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
            variant=self.catalog.info(reply.game.variant),
            played=None,
            clock=self.clock,
            game_clocks=self.game_clocks,
            title=t("race.watching", name=name),
            side=self._race_panel(),
        )
        await self.push_screen(board)

    def _race_panel(self) -> RacePanel:
        return RacePanel(self.race, self.me, lambda: self.played.view, self.catalog.name)

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


__all__ = ["RaceRoomApp"]
