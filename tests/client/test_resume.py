"""Home against the real server: a game left is listed to continue, and every fact is current."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from textual.widgets import Static

from client.app import PatienceApp
from client.config import TokenStore
from client.layout import key_of
from client.screens.board import BoardScreen
from client.screens.home import HomeScreen
from shared.notation import Move
from shared.protocol import GameReply, GetGame
from tests.client.conftest import ServerControl
from tests.client.test_app import SIZE, open_variant, text_of, until


async def test_a_game_left_with_esc_is_listed_on_home_and_continues_where_it_was(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, name="rosa", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        board = await open_variant(pilot, "freecell", 617)
        game_id = board.view.id
        move = Move.parse(board.view.legal[0])
        await pilot.press(key_of(move.src), key_of(move.dst))
        await until(pilot, lambda: board.view.ply == 1)
        piles = board.view.piles

        await pilot.press("escape")  # back home: the game is left, not resigned
        await until(pilot, lambda: isinstance(app.screen, HomeScreen))
        home = app.screen
        assert isinstance(home, HomeScreen)
        # Home asked the server again on coming back: the game is there to continue, and the
        # statistics count it as unfinished, not as a game lost.
        await until(pilot, lambda: bool(home.query(f"#game-{game_id}")))
        line = home.query_one(f"#game-{game_id}")
        assert "Freecell #617 1 move " in str(line.query_one("Label").render())
        stats = home.query_one("#stats", Static)
        await until(pilot, lambda: "Freecell: 1 unfinished" in text_of(stats))
        assert "0/1 won" not in text_of(stats)
        check = await app.conn.request(GetGame(game=game_id), GameReply)
        assert check.game.state == "playing"

        # Enter on its line opens it as the server holds it.
        variants = home.query_one("#variants")
        variants.index = len(app.variant_ids) + 1  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, BoardScreen)
                and app.screen is not board
                and app.screen.is_mounted
            ),
        )
        again = app.screen
        assert isinstance(again, BoardScreen)
        assert again.view.id == game_id and again.view.ply == 1 and again.view.piles == piles
        assert again.check_action("hint", ()), "a solo game has hints"

        # Played to its end, it leaves the list.
        await pilot.press("R", "R")
        await until(pilot, lambda: again.view.state == "resigned")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is home)
        await until(pilot, lambda: "Freecell: 0/1 won" in text_of(stats))
        assert not home.query(f"#game-{game_id}")


async def test_the_title_names_the_current_server_once(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, name="sam", store=TokenStore(tmp_path / "cfg"))
    app.conn.backoff_initial = 0.05
    app.conn.backoff_max = 0.3
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        home = app.screen
        await until(pilot, lambda: app.sub_title == "Test Club · sam")
        info = text_of(home.query_one("#server-info", Static))
        assert "welcome to the test club" in info and "Test Club" not in info

        # The server comes back under another name: the title follows it.
        server.config = dataclasses.replace(server.config, name="Night Club", motd="late games")
        await server.restart()
        await until(pilot, lambda: app.sub_title == "Night Club · sam")
        await until(pilot, lambda: "late games" in text_of(home.query_one("#server-info", Static)))
