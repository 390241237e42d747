"""Each screen mounted alone in a small host app, without :class:`client.app.PatienceApp`.

A screen is given what it draws (a connection to a real server, a race
state) and posts what the player asks as its own messages; the host here
only records them. So a screen is tested as a part, and the app is one
handler of its messages among others.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from textual.app import App
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, DataTable, Input, Static

import client
from client.connection import Connection
from client.race import RaceState
from client.screens.arenas import ArenasScreen
from client.screens.connecting import NameScreen, WaitScreen
from client.screens.home import HomeScreen
from client.screens.leaderboard import LeaderboardScreen
from client.screens.profile import ProfileScreen
from client.screens.race import RaceScreen
from client.screens.replay import ReplayScreen
from shared.protocol import (
    ArenaCreate,
    ArenaReply,
    GameReply,
    ProfileReply,
    ProfileRequest,
    RaceCountdown,
    Resign,
    RoomPlayer,
    RoomReply,
    RoomView,
    StartGame,
)
from tests.client.conftest import OpenConnection
from tests.client.test_app import SIZE, text_of, until


class Host(App[None]):
    """Shows the screen ``make`` builds and keeps every message a screen posts to it."""

    CSS_PATH = Path(client.__file__).parent / "app.tcss"

    def __init__(self, make: Callable[[], Screen[None]]) -> None:
        super().__init__()
        self.make = make
        self.asked: list[Message] = []

    def on_mount(self) -> None:
        self.push_screen(self.make())

    def keep(self, message: Message) -> None:
        self.asked.append(message)

    on_home_screen_new_game = on_home_screen_daily = on_home_screen_leaderboard = keep
    on_home_screen_create_race = on_home_screen_join_race = on_home_screen_open_game = keep
    on_race_screen_start = on_race_screen_show_board = on_race_screen_watch = keep
    on_race_screen_leave = on_name_screen_chosen = keep
    on_home_screen_profile = on_leaderboard_screen_profile = on_home_screen_arenas = keep


def last(host: Host) -> Message:
    return host.asked[-1]


async def test_home_alone_shows_the_servers_games_and_posts_what_the_player_asks(
    open_connection: OpenConnection,
) -> None:
    conn = await open_connection("hana")
    host = Host(lambda: HomeScreen(conn))
    async with host.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(host.screen, HomeScreen) and host.screen.is_mounted)
        home = host.screen
        assert isinstance(home, HomeScreen)
        # What it shows comes from the server over the connection it was given.
        await until(pilot, lambda: "no games yet" in text_of(home.query_one("#stats", Static)))
        server = conn.server_info
        assert server is not None
        ids = [v.id for v in server.variants]
        assert "Osmosis" in str(home.query_one("#line-osmosis").render())

        home.query_one("#variants").index = ids.index("osmosis")  # type: ignore[attr-defined]
        await pilot.press("o", "5", "enter")  # flip deal three, type a seed, start
        await until(pilot, lambda: len(host.asked) == 1)
        asked = last(host)
        assert isinstance(asked, HomeScreen.NewGame) and asked.screen is home
        chosen = (asked.variant, asked.seed, dict(asked.options))
        assert chosen == ("osmosis", 5, {"deal_three": True})
        assert host.screen is home  # nothing else happened: starting a game is the host's

        await pilot.press("escape", "d")
        await until(pilot, lambda: isinstance(last(host), HomeScreen.Daily))
        await pilot.press("l")
        await until(pilot, lambda: isinstance(last(host), HomeScreen.Leaderboard))
        await pilot.press("c")
        await until(pilot, lambda: isinstance(last(host), HomeScreen.CreateRace))
        asked = last(host)
        assert isinstance(asked, HomeScreen.CreateRace) and asked.variant == "osmosis"
        assert asked.rule == "live"
        await pilot.press("b", "b", "b", "c")  # live -> delayed -> hidden -> rated
        await until(pilot, lambda: last(host) is not asked)
        rated = last(host)
        assert isinstance(rated, HomeScreen.CreateRace) and rated.rule == "rated"
        assert "Rated race" in str(home.query_one("#race-rule", Button).label)

        home.query_one("#room-code", Input).value = "k7qf2m"
        await pilot.press("w")
        await until(pilot, lambda: isinstance(last(host), HomeScreen.JoinRace))
        asked = last(host)
        assert isinstance(asked, HomeScreen.JoinRace)
        assert (asked.code, asked.spectator) == ("K7QF2M", True)
        # The host answers on the screen that asked: a refusal, or that the room was joined.
        home.say("no such room", error=True)
        assert "no such room" in text_of(home.query_one("#home-message", Static))
        home.joined()
        assert home.query_one("#room-code", Input).value == ""


def room() -> RoomReply:
    players = (
        RoomPlayer(1, "alice", connected=True, game=None),
        RoomPlayer(2, "bob", connected=True, game=None),
    )
    view = RoomView(
        code="K7QF2M", variant="toy", options={}, host=1, players=players, state="waiting",
        max_players=8, time_limit_s=1800, race=0,
    )  # fmt: skip
    return RoomReply(room=view)


async def test_the_room_alone_draws_its_race_state_and_posts_start_watch_and_leave() -> None:
    race = RaceState(lambda: 0.0)
    race.apply(room())
    host = Host(lambda: RaceScreen(race, 1, variant_name=lambda v: v.upper()))
    async with host.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(host.screen, RaceScreen) and host.screen.is_mounted)
        screen = host.screen
        assert isinstance(screen, RaceScreen)
        heading = text_of(screen.query_one("#room-heading", Static))
        assert "K7QF2M" in heading and "TOY" in heading and "waiting" in heading
        assert "bob" in text_of(screen.query_one("#room-body", Static))
        assert not screen.check_action("board", ())  # no race game: no board to show

        await pilot.press("s")
        await until(pilot, lambda: isinstance(last(host), RaceScreen.Start))
        await pilot.press("w")
        await until(pilot, lambda: isinstance(last(host), RaceScreen.Watch))
        watch = last(host)
        assert isinstance(watch, RaceScreen.Watch) and watch.player == 2
        await pilot.press("l")
        await until(pilot, lambda: isinstance(last(host), RaceScreen.Leave))
        kinds = [type(m) for m in host.asked]
        assert kinds == [RaceScreen.Start, RaceScreen.Watch, RaceScreen.Leave]

        await pilot.press("escape")  # back: the screen dismisses itself
        await until(pilot, lambda: not isinstance(host.screen, RaceScreen))


async def test_the_name_screen_alone_posts_the_name_chosen() -> None:
    host = Host(NameScreen)
    async with host.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(host.screen, NameScreen) and host.screen.is_mounted)
        await pilot.press(*" zoe ", "enter")
        await until(pilot, lambda: len(host.asked) == 1)
        chosen = last(host)
        assert isinstance(chosen, NameScreen.Chosen) and chosen.name == "zoe"


async def test_the_wait_screen_alone_names_the_server_it_waits_for() -> None:
    host = Host(lambda: WaitScreen("ws://example.invalid/ws"))
    async with host.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(host.screen, WaitScreen) and host.screen.is_mounted)
        titles = [text_of(w) for w in host.screen.query(Static)]
        assert any("ws://example.invalid/ws" in t for t in titles)


async def test_a_leaderboard_alone_asks_the_server_and_dismisses_itself(
    open_connection: OpenConnection,
) -> None:
    conn: Connection = await open_connection("lena")
    host = Host(lambda: LeaderboardScreen(conn, "gypsy"))
    async with host.run_test(size=SIZE) as pilot:
        await until(
            pilot, lambda: isinstance(host.screen, LeaderboardScreen) and host.screen.is_mounted
        )
        screen = host.screen
        me = screen.query_one("#me", Static)
        await until(pilot, lambda: "no finished attempt" in text_of(me))
        assert "Gypsy daily" in text_of(screen.query_one("#board-title", Static))
        assert screen.query_one("#entries", DataTable).row_count == 0
        await pilot.press("right")
        title = screen.query_one("#board-title", Static)
        await until(pilot, lambda: "Freecell daily" in text_of(title))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(host.screen, LeaderboardScreen))


async def test_the_arenas_screen_lists_them_and_shows_the_chosen_ones_standings(
    open_connection: OpenConnection,
) -> None:
    conn: Connection = await open_connection("lena")
    made = await conn.request(ArenaCreate(variant="gypsy", minutes=30, name="Lena's"), ArenaReply)
    host = Host(lambda: ArenasScreen(conn))
    async with host.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(host.screen, ArenasScreen) and host.screen.is_mounted)
        screen = host.screen
        arenas = screen.query_one("#arenas", DataTable)
        await until(pilot, lambda: arenas.row_count == 1)
        assert arenas.get_row_at(0)[:3] == [made.arena.code, "Lena's", "Gypsy"]
        await pilot.press("enter")
        standings = screen.query_one("#standings", DataTable)
        await until(pilot, lambda: standings.row_count == 1)
        assert standings.get_row_at(0)[:3] == ["1", "lena", "0"]
        assert "running, 1 players" in text_of(screen.query_one("#arena-title", Static))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(host.screen, ArenasScreen))


class CountedRaceScreen(RaceScreen):
    """The room screen, counting its redraws (each lays the screen out again)."""

    redraws = 0

    def redraw(self) -> None:
        self.redraws += 1
        super().redraw()


async def test_an_idle_room_does_not_redraw_and_a_countdown_ticks_once_a_second() -> None:
    """Idle on a racing room, nothing changes but by pushes: no timer redraws it (twice a
    second, it kept a terminal client busy). A countdown, which changes with time, ticks."""
    now = [0.0]
    race = RaceState(lambda: now[0])
    race.apply(room())
    race.room = dataclasses.replace(race.room, state="racing")  # type: ignore[arg-type]
    host = Host(lambda: CountedRaceScreen(race, 1))
    async with host.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(host.screen, RaceScreen) and host.screen.is_mounted)
        screen = host.screen
        assert isinstance(screen, CountedRaceScreen)
        before = screen.redraws
        await pilot.pause(2.2)
        assert screen.redraws == before

        race.apply(RaceCountdown(code="K7QF2M", start_in_ms=3000))
        await pilot.pause(2.2)
        assert 1 <= screen.redraws - before <= 3


async def test_a_profile_alone_shows_the_players_games_and_hides_on_h(
    open_connection: OpenConnection,
) -> None:
    ines = await open_connection("ines")
    jon = await open_connection("jon")
    game = await ines.request(StartGame(variant="freecell", seed=617), GameReply)
    await ines.request(Resign(game=game.game.id, ply=0), GameReply)
    host = Host(lambda: ProfileScreen(ines, "ines"))
    async with host.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(host.screen, ProfileScreen) and is_up(host))
        body = host.screen.query_one("#profile", Static)
        await until(pilot, lambda: "Freecell: 1 played, 0 won (0%)" in text_of(body))
        assert f"  1  {game.game.id}  Freecell solo, resigned" in text_of(body)
        assert "shown to everyone (h: hide it)" in text_of(body)
        await pilot.press("2")  # no second game: nothing opens
        await pilot.press("1")  # the first recent game's replay
        await until(pilot, lambda: isinstance(host.screen, ReplayScreen))
        replay = host.screen
        assert isinstance(replay, ReplayScreen)
        await until(pilot, lambda: replay.reply is not None)
        assert replay.reply is not None and replay.reply.game == game.game.id
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(host.screen, ProfileScreen))
        await pilot.press("h")
        await until(pilot, lambda: "hidden from others (h: show it)" in text_of(body))
    seen = await jon.request(ProfileRequest(name="ines"), ProfileReply)
    assert seen.hidden and seen.variants == ()
    host = Host(lambda: ProfileScreen(jon, "ines"))
    async with host.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(host.screen, ProfileScreen) and is_up(host))
        body = host.screen.query_one("#profile", Static)
        await until(pilot, lambda: "ines keeps their profile private." in text_of(body))
        await pilot.press("h")  # not jon's profile: nothing happens
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(host.screen, ProfileScreen))


def is_up(host: Host) -> bool:
    return host.screen.is_mounted
