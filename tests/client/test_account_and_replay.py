"""An account moved to another device with a transfer code, logging out, and replays, in the
terminal client against the real server."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from client.app import PatienceApp
from client.config import TokenStore
from client.replay import boards, game_id
from client.screens.account import AccountScreen
from client.screens.connecting import NameScreen
from client.screens.home import HomeScreen
from client.screens.replay import ReplayScreen
from shared.notation import parse_action
from shared.protocol import GameReply, ReplayReply, ReplayRequest, StartGame
from tests.client.conftest import OpenConnection, ServerControl
from tests.client.test_app import SIZE, register_and_open_freecell, text_of, until


def test_a_game_is_found_in_its_replay_link_or_its_id() -> None:
    assert game_id("https://club.example/replay/g7Qx2bPa") == "g7Qx2bPa"
    assert game_id("  g7Qx2bPa\n") == "g7Qx2bPa"
    assert game_id("http://127.0.0.1:8765/replay/Ab_-9/") == "Ab_-9"
    assert game_id("") is None
    assert game_id("not an id at all") is None


async def test_a_code_shown_on_one_device_signs_the_other_in_as_the_same_player(
    server: ServerControl, tmp_path: Path
) -> None:
    first = PatienceApp(server.url, name="alice", store=TokenStore(tmp_path / "one"))
    code = ""
    async with first.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(first.screen, HomeScreen))
        await until(pilot, lambda: first.screen.is_mounted)
        await pilot.press("t")
        await until(pilot, lambda: isinstance(first.screen, AccountScreen))
        account = first.screen
        assert isinstance(account, AccountScreen)
        assert "alice" in text_of(account.query_one("#account-who", Static))
        await pilot.press("t")
        await until(pilot, lambda: account.reply is not None)
        assert account.reply is not None
        code = account.reply.code
        shown = text_of(account.query_one("#account-code", Static))
        assert code in shown and "more" in shown
    other_store = TokenStore(tmp_path / "two")
    second = PatienceApp(server.url, store=other_store)
    async with second.run_test(size=SIZE) as pilot:
        await until(
            pilot, lambda: isinstance(second.screen, NameScreen) and second.screen.is_mounted
        )
        await pilot.click("#transfer")
        await pilot.press(*code.lower().replace("-", " "), "enter")
        await until(pilot, lambda: isinstance(second.screen, HomeScreen))
        assert second.conn.player is not None and second.conn.player.name == "alice"
        saved = other_store.get(server.url)
        assert saved is not None and saved.name == "alice"
    # used once: a third device with the same code is refused, in words, on its name screen
    third = PatienceApp(server.url, store=TokenStore(tmp_path / "three"))
    async with third.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(third.screen, NameScreen))
        await until(pilot, lambda: third.screen.is_mounted)
        await pilot.click("#transfer")
        await pilot.press(*code, "enter")
        message = third.screen.query_one("#name-message", Static)
        await until(pilot, lambda: "transfer code" in text_of(message))
        assert isinstance(third.screen, NameScreen)


async def test_logging_out_forgets_the_token_after_asking_twice(
    server: ServerControl, tmp_path: Path
) -> None:
    store = TokenStore(tmp_path / "cfg")
    app = PatienceApp(server.url, name="bob", store=store)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        assert store.get(server.url) is not None
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, AccountScreen))
        await pilot.press("L")
        message = app.screen.query_one("#account-message", Static)
        assert "press L again" in text_of(message)
        await pilot.press("x", "L")  # another key disarms: one L alone does nothing
        await pilot.pause(0.1)
        assert isinstance(app.screen, AccountScreen) and store.get(server.url) is not None
        await pilot.press("L")
        await until(pilot, lambda: isinstance(app.screen, NameScreen))
        assert store.get(server.url) is None
        assert len(app.screen_stack) == 2  # nothing of the old account left behind
        await pilot.click("#name")
        await pilot.press(*"carol", "enter")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen))
        assert app.conn.player is not None and app.conn.player.name == "carol"


async def test_a_won_game_replays_move_by_move_to_its_final_board(
    server: ServerControl, tmp_path: Path, open_connection: OpenConnection
) -> None:
    app = PatienceApp(server.url, store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        board = await register_and_open_freecell(pilot, "dora", 617)
        # a move, an undo, then resign: a finished game of one's own
        board.send_move(parse_action(board.view.legal[0]))
        await until(pilot, lambda: board.view.ply >= 1)
        await pilot.press("u")
        await until(pilot, lambda: board.view.ply >= 2)
        await pilot.press("R", "R")
        await until(pilot, lambda: board.view.state == "resigned")
        finished = board.view
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.is_mounted)
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert replay.query_one("#replay-id", Input).has_focus
        await pilot.press(*f"http://x/replay/{finished.id}", "enter")
        await until(pilot, lambda: replay.reply is not None)
        assert replay.reply is not None
        step = replay.query_one("#replay-step", Static)
        assert text_of(step).startswith("As dealt")
        await pilot.press("right")
        assert replay.step == 1 and "Move 1 of 2" in text_of(step)
        await pilot.press("end")
        assert replay.step == len(replay.reply.actions)
        assert "undo" in text_of(step)
        # the last step is the board the game ended with, pile for pile
        assert replay.steps[-1] == finished.piles
        await pilot.press("home")
        assert replay.step == 0
        await pilot.press("plus", "plus", "space")
        await until(pilot, lambda: replay.step == len(replay.steps) - 1, timeout=10)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen))
    # a numbered deal is shown from the start: anyone may replay the game once it has ended
    eve = await open_connection("eve")
    other = await eve.request(ReplayRequest(game=finished.id), ReplayReply)
    assert boards(other)[-1] == finished.piles


async def test_a_replay_refused_says_why_in_words(
    server: ServerControl, tmp_path: Path, open_connection: OpenConnection
) -> None:
    owner = await open_connection("fay")
    secret = (await owner.request(StartGame(variant="freecell"), GameReply)).game
    app = PatienceApp(server.url, name="gus", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        app.push_screen(ReplayScreen(app.conn, secret.id))
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.is_mounted)
        step = app.screen.query_one("#replay-step", Static)
        await until(pilot, lambda: "still being played" in text_of(step))
        app.screen.dismiss()
        app.push_screen(ReplayScreen(app.conn, "nosuchgm"))
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.is_mounted)
        step = app.screen.query_one("#replay-step", Static)
        await until(pilot, lambda: "no such game" in text_of(step))
