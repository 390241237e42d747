"""A race between the app and a bot on the real server: room, countdown, progress, standings."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.widgets import Input, Static

from client.app import PatienceApp
from client.bot import Bot
from client.config import TokenStore
from client.screens.board import BoardScreen
from client.screens.home import HomeScreen
from client.screens.race import RacePanel, RaceScreen
from shared.protocol import (
    CreateRoom,
    GameView,
    JoinRoom,
    Ok,
    RaceStarted,
    Reply,
    RoomReply,
    StartRace,
)
from tests.client.conftest import OpenConnection, ServerControl
from tests.client.test_app import SIZE, text_of, until


async def test_the_app_races_a_bot_from_room_code_to_standings_and_a_rematch(
    server: ServerControl, tmp_path: Path, open_connection: OpenConnection
) -> None:
    app = PatienceApp(server.url, name="alice", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        home = app.screen
        info = home.query_one("#server-info", Static)
        await until(pilot, lambda: "welcome to the test club" in text_of(info))
        home.query_one("#variants").index = app.variant_ids.index("freecell")  # type: ignore[attr-defined]
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, RaceScreen) and app.screen.is_mounted)
        code = app.race.code
        assert code is not None and len(code) >= 4
        assert not set(code) & set("0O1I"), "codes are easy to read aloud"
        assert code in text_of(app.screen.query_one("#room-heading", Static))

        # A friend (the bot) joins with the code and plays every race of the room.
        bot = Bot(await open_connection("robot"), seed=2, max_actions=30, delay=0.05)
        bot_task = asyncio.create_task(bot.play_race(code, races=2, timeout=30))
        await until(pilot, lambda: len(app.race.names()) == 2)
        assert "robot" in text_of(app.screen.query_one("#room-body", Static))

        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.screen.is_mounted)
        board = app.screen
        assert isinstance(board, BoardScreen)
        # The room has hints off (the default): the board neither lists nor acts on h.
        assert not board.check_action("hint", ())
        # Both racers have the same deal.
        await until(pilot, lambda: bot.played.view is not None)
        assert bot.played.view is not None
        assert bot.played.view.deal == board.view.deal
        # The bot's actions arrive as progress, drawn beside the board.
        me = app.me
        bot_id = next(pid for pid in app.race.names() if pid != me)
        await until(pilot, lambda: bot_id in app.race.progress)

        # We resign: a racer watches the others once their own game has ended.
        await pilot.press("R", "R")
        await until(pilot, lambda: board.view.state == "resigned")

        # From the room, watch the bot's board live: pushes move it along.
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, RaceScreen) and app.screen.is_mounted)
        await pilot.press("w")
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, BoardScreen)
                and app.screen.played is None
                and app.screen.is_mounted
            ),
        )
        watched = app.screen
        assert isinstance(watched, BoardScreen)
        assert "watching robot" in watched.info_text().plain
        seen = watched.view.ply
        await until(pilot, lambda: watched.view.ply > seen or watched.view.state != "playing")
        # Let the bot's game end first, so that no later push redraws the message line.
        await until(pilot, lambda: watched.view.state != "playing", timeout=60)
        # Not ours to play: no key that would change the game acts or is listed.
        assert not any(watched.check_action(a, ()) for a in BoardScreen.PLAY_ACTIONS)
        await pilot.press("u")
        assert watched.view.state != "playing"
        await pilot.press("escape", "b")
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, BoardScreen)
                and app.screen.played is not None
                and app.screen.is_mounted
            ),
        )
        board = app.screen
        assert isinstance(board, BoardScreen)

        # The race ended when the bot was done too, and the standings appear.
        await until(pilot, lambda: app.race.standings is not None, timeout=30)
        standings = app.race.standings
        assert standings is not None
        assert {row.name for row in standings} == {"alice", "robot"}
        assert [row.rank for row in standings] == sorted(row.rank for row in standings)
        # The race's deal was keyed: now that it is over, our board has its key to verify.
        await until(pilot, lambda: board.view.deal.key is not None)
        assert board.check_action("verify", ())
        panel = board.query_one(RacePanel)
        panel.redraw()
        shown = text_of(panel)
        assert "Standings" in shown and "robot" in shown and "alice" in shown

        # Back to the room; the host calls a rematch on a new deal.
        first_deal = board.view.deal
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, RaceScreen) and app.screen.is_mounted)
        await pilot.press("m")
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, BoardScreen)
                and app.screen is not board
                and app.screen.is_mounted
            ),
        )
        rematch = app.screen
        assert isinstance(rematch, BoardScreen)
        assert rematch.view.ply == 0
        assert rematch.view.deal != first_deal
        await pilot.press("R", "R")
        results = await asyncio.wait_for(bot_task, 60)
        assert len(results) == 2
        assert all(view.state in ("won", "resigned") for view in results)


async def test_a_bot_that_rejoins_plays_the_race_already_running(
    server: ServerControl, open_connection: OpenConnection
) -> None:
    host = await open_connection("hosta")
    room = (await host.request(CreateRoom(variant="freecell"), RoomReply)).room
    # The bot joins, the race starts, and the bot's link goes before it plays a move.
    first = await open_connection("robo")
    dealt: asyncio.Queue[GameView] = asyncio.Queue()

    def on_push(message: Reply) -> None:
        if isinstance(message, RaceStarted) and message.game is not None:
            dealt.put_nowait(message.game)

    first.on_push = on_push
    await first.request(JoinRoom(code=room.code), RoomReply)
    await host.request(StartRace(code=room.code), Ok)
    game = await asyncio.wait_for(dealt.get(), 30)
    await first.close()

    # The same bot account comes back: it plays the game it was dealt, not a new race.
    bot = Bot(await open_connection("robo"), seed=4, max_actions=12, delay=0)
    results = await asyncio.wait_for(bot.play_race(room.code, races=1, timeout=30), 60)
    assert [view.id for view in results] == [game.id]
    assert results[0].state in ("won", "resigned") and results[0].ply >= 1


async def test_a_spectator_joins_at_any_time_watches_racers_and_hears_why_s_does_nothing(
    server: ServerControl, tmp_path: Path, open_connection: OpenConnection
) -> None:
    host = await open_connection("hostb")
    room = (await host.request(CreateRoom(variant="westhaven"), RoomReply)).room
    await host.request(StartRace(code=room.code), Ok)
    app = PatienceApp(server.url, name="vera", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        home = app.screen
        home.query_one("#room-code", Input).value = room.code
        # A racer cannot join a race that runs; a spectator can, and races nothing.
        await pilot.click("#watch-race")
        await until(pilot, lambda: isinstance(app.screen, RaceScreen) and app.screen.is_mounted)
        screen = app.screen
        assert isinstance(screen, RaceScreen)
        assert app.race.spectating(app.me)
        body = screen.query_one("#room-body", Static)
        await until(pilot, lambda: "watching: vera ◂" in text_of(body))
        await until(pilot, lambda: app.race.room is not None and app.race.room.state == "racing")
        assert app.race.game is None

        # s and m are the host's: pressed anyway, the screen says so.
        await pilot.press("s")
        said = screen.query_one("#room-message", Static)
        assert "only the host (hostb)" in text_of(said)
        # The server's own refusal is shown with its reason too.
        await app.start_race(screen)
        assert "only the host can do that" in text_of(said)

        # A spectator watches a racer during the race: the host's board, read-only.
        await pilot.press("w")
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, BoardScreen)
                and app.screen.played is None
                and app.screen.is_mounted
            ),
        )
        watched = app.screen
        assert isinstance(watched, BoardScreen)
        assert "watching hostb" in watched.info_text().plain
        assert watched.view.state == "playing"


async def join_and_see_the_race_board(
    server: ServerControl, store: TokenStore, code: str, start: Callable[[], Awaitable[object]]
) -> BoardScreen:
    """The app joins room ``code`` from home, ``start`` runs, and our race board shows."""
    app = PatienceApp(server.url, name="wes", store=store)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        app.screen.query_one("#room-code", Input).value = code
        await pilot.click("#join-race")
        await until(pilot, lambda: app.race.code == code)
        await start()
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, BoardScreen)
                and app.screen.played is not None
                and app.screen.is_mounted
            ),
        )
        board = app.screen
        assert isinstance(board, BoardScreen) and board.view.state == "playing"
        assert "race " + code in board.info_text().plain
        return board  # then the app quits, in the middle of the race


async def test_a_racer_who_comes_back_to_a_running_race_gets_their_board_again(
    server: ServerControl, tmp_path: Path, open_connection: OpenConnection
) -> None:
    host = await open_connection("hostc")
    code = (await host.request(CreateRoom(variant="gypsy"), RoomReply)).room.code
    store = TokenStore(tmp_path / "cfg")

    async def start() -> None:
        await host.request(StartRace(code=code), Ok)

    async def nothing() -> None:
        """The race runs already."""

    first = await join_and_see_the_race_board(server, store, code, start)
    again = await join_and_see_the_race_board(server, store, code, nothing)
    assert again.view.id == first.view.id, "the same game, not a new one"


async def test_a_race_created_after_v_chose_winnable_deals_asks_for_them(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, name="alice", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        home = app.screen
        home.query_one("#variants").index = app.variant_ids.index("osmosis")  # type: ignore[attr-defined]
        await pilot.press("v", "v", "v")  # any deal -> winnable easy -> medium -> hard
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, RaceScreen) and app.screen.is_mounted)
        assert app.race.room is not None and app.race.room.difficulty == "hard"
        heading = text_of(app.screen.query_one("#room-heading", Static))
        assert "winnable, hard" in heading
