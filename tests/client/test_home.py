"""Home, daily, statistics and leaderboard flows of the app against the real server."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable, Input, Static

from client.app import PatienceApp
from client.config import TokenStore
from client.screens.board import BoardScreen
from client.screens.daily_start import DailyStartScreen
from client.screens.home import HomeScreen
from client.screens.leaderboard import LeaderboardScreen
from tests.client.conftest import ServerControl
from tests.client.test_app import SIZE, text_of, until


async def test_a_daily_played_then_shown_on_home_in_stats_and_on_the_leaderboard(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, name="alice", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        home = app.screen
        assert isinstance(home, HomeScreen)
        stats = home.query_one("#stats", Static)
        await until(pilot, lambda: "no games yet" in text_of(stats))
        home.query_one("#variants").index = app.variant_ids.index("osmosis")  # type: ignore[attr-defined]

        await pilot.press("d")
        # The start step first: the game, its rules, the streak; nothing dealt yet.
        await until(
            pilot,
            lambda: isinstance(app.screen, DailyStartScreen) and app.screen.is_mounted,
            timeout=30,
        )
        intro = text_of(app.screen.query_one("#daily-intro", Static))
        assert "Osmosis daily" in intro and "Your daily streak: 0 days" in intro
        assert "clock starts then and never pauses" in intro
        assert app.played.view is None
        await pilot.press("enter")
        await until(
            pilot, lambda: isinstance(app.screen, BoardScreen) and app.screen.is_mounted, timeout=30
        )
        board = app.screen
        assert isinstance(board, BoardScreen)
        assert app.played.daily is not None
        date = app.played.daily.date
        assert date and "daily" in board.info_text().plain and date in board.info_text().plain
        # The ranked attempt has no hints (hints_off): the key is neither listed nor acts.
        assert not board.check_action("hint", ())
        await pilot.press("R", "R")
        await until(pilot, lambda: board.view.state == "resigned")

        await pilot.press("escape")
        await until(pilot, lambda: app.screen is home)
        # No key pressed: home asked the server again when it came back into view.
        line = home.query_one("#line-osmosis")
        await until(pilot, lambda: "daily: #1 resigned" in str(line.render()))
        await until(pilot, lambda: "Osmosis: 0/1 won" in text_of(stats))

        await pilot.press("l")
        await until(
            pilot, lambda: isinstance(app.screen, LeaderboardScreen) and app.screen.is_mounted
        )
        board_screen = app.screen
        table = board_screen.query_one("#entries", DataTable)
        await until(pilot, lambda: table.row_count == 1)
        assert table.get_row_at(0)[:3] == ["1", "alice", "resigned"]
        me = board_screen.query_one("#me", Static)
        assert "#1 resigned" in text_of(me)
        # Another variant: nobody has finished its daily.
        await pilot.press("right")
        await until(pilot, lambda: table.row_count == 0)
        await until(pilot, lambda: "no finished attempt" in text_of(me))


async def test_the_leaderboard_of_another_date(server: ServerControl, tmp_path: Path) -> None:
    app = PatienceApp(server.url, name="kim", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await pilot.press("l")
        await until(
            pilot, lambda: isinstance(app.screen, LeaderboardScreen) and app.screen.is_mounted
        )
        screen = app.screen
        title = screen.query_one("#board-title", Static)
        await until(pilot, lambda: "daily," in text_of(title))
        await pilot.click("#date")
        await pilot.press(*"2026-01-02", "enter")
        await until(pilot, lambda: "2026-01-02" in text_of(title))
        assert screen.query_one("#entries", DataTable).row_count == 0
        # A date that is not one is told in words, and nothing is asked of the server.
        screen.query_one("#date", Input).value = ""
        await pilot.click("#date")
        await pilot.press(*"29/11/2026", "enter")
        me = screen.query_one("#me", Static)
        await until(pilot, lambda: "a day is written YYYY-MM-DD" in text_of(me))
        assert "2026-01-02" in text_of(title)


async def test_an_option_chosen_on_home_is_the_games_option(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, name="max", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        home = app.screen
        home.query_one("#variants").index = app.variant_ids.index("osmosis")  # type: ignore[attr-defined]
        await pilot.press("o")
        line = home.query_one("#line-osmosis")
        assert "+deal three" in str(line.render())
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.screen.is_mounted)
        board = app.screen
        assert isinstance(board, BoardScreen)
        assert board.view.options == {"deal_three": True}
        assert board.view.redeals_left is None
        assert "redeals ∞" in board.info_text().plain
        await pilot.press("space")
        await until(pilot, lambda: board.view.ply == 1)
        waste = board.view.pile("w")
        assert waste is not None and len(waste.up) == 3
        # Pressing o again goes back to the defaults.
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is home)
        await pilot.press("o")
        assert "deal three" not in str(line.render())
