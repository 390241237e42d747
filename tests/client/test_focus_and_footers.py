"""Keys reach what they name: fields let go of the focus, Enter acts without Tab, one click
selects, footers list exactly the keys that act, and join errors are words."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, ListView, Static

from client.app import PatienceApp
from client.config import TokenStore
from client.screens.board import BoardScreen
from client.screens.home import HomeScreen
from client.screens.leaderboard import LeaderboardScreen
from client.screens.race import RaceScreen
from shared.protocol import CreateRoom, RoomReply
from tests.client.conftest import OpenConnection, ServerControl
from tests.client.screens_app import screen_text
from tests.client.test_app import SIZE, text_of, until


def footer(app: PatienceApp) -> str:
    """The footer's line as the terminal shows it."""
    return screen_text(app).rstrip("\n").splitlines()[-1]


async def home_of(app: PatienceApp, pilot: object) -> HomeScreen:
    await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)  # type: ignore[arg-type]
    home = app.screen
    assert isinstance(home, HomeScreen)
    return home


async def test_a_seed_typed_on_the_list_starts_with_enter_and_one_click_only_selects(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, name="tom", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        home = await home_of(app, pilot)
        await until(pilot, lambda: "^q Quit" in footer(app))
        variants = home.query_one("#variants", ListView)
        assert app.focused is variants
        # One click on Freecell's line selects it and starts nothing; a second click starts.
        line = home.query_one("#variant-freecell")
        await pilot.click(line)
        await pilot.pause(0.3)
        assert app.screen is home and variants.index == app.variant_ids.index("freecell")
        await pilot.click(line)
        await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.screen.is_mounted)
        board = app.screen
        assert isinstance(board, BoardScreen) and board.view.variant == "freecell"
        # Freecell has no stock: no "space Deal" in its footer, and no deal key acts.
        await until(pilot, lambda: "u Undo" in footer(app))
        assert "Deal" not in footer(app)
        assert not board.check_action("deal", ())
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is home)

        # Digits typed with the list focused go to the seed field; Enter starts that deal.
        assert app.focused is variants
        await pilot.press(*"617", "enter")
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, BoardScreen)
                and app.screen is not board
                and app.screen.is_mounted
            ),
        )
        seeded = app.screen
        assert isinstance(seeded, BoardScreen)
        assert seeded.view.seed == 617 and seeded.view.variant == "freecell"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is home)
        # Back home, the list has the focus: home's keys act again.
        assert app.focused is variants

        # A leaderboard's date: its first digit goes to the field, Enter shows the day.
        await pilot.press("l")
        await until(
            pilot, lambda: isinstance(app.screen, LeaderboardScreen) and app.screen.is_mounted
        )
        board_screen = app.screen
        await until(pilot, lambda: "← Prev game" in footer(app) and "esc Back" in footer(app))
        title = board_screen.query_one("#board-title", Static)
        await pilot.press(*"2026-01-02", "enter")
        await until(pilot, lambda: "2026-01-02" in text_of(title))
        # Esc lets go of the field first, then leaves.
        assert isinstance(app.focused, Input)
        await pilot.press("escape")
        assert not isinstance(app.focused, Input) and app.screen is board_screen
        await pilot.press("right")
        await until(pilot, lambda: "Westhaven" in text_of(title))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is home)


async def test_joining_a_race_releases_the_code_field_and_errors_are_words(
    server: ServerControl, tmp_path: Path, open_connection: OpenConnection
) -> None:
    host = await open_connection("hostess")
    room = (await host.request(CreateRoom(variant="gypsy"), RoomReply)).room
    app = PatienceApp(server.url, name="uma", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        home = await home_of(app, pilot)
        code = home.query_one("#room-code", Input)
        message = home.query_one("#home-message", Static)

        await pilot.click("#room-code")
        await pilot.press(*"k7q", "enter")
        await until(pilot, lambda: "6 characters" in text_of(message))
        assert "field" not in text_of(message) and "'code'" not in text_of(message)
        await pilot.press("backspace", "backspace", "backspace", *"K7QF0M", "enter")
        await until(pilot, lambda: "have no '0'" in text_of(message))
        # Esc lets go of the field: home's keys act again.
        await pilot.press("escape")
        assert app.focused is home.query_one("#variants")

        code.value = room.code
        await pilot.click("#join-race")
        await until(pilot, lambda: isinstance(app.screen, RaceScreen) and app.screen.is_mounted)
        assert app.race.code == room.code
        # Not the host: the footer offers no start, and s says why instead of nothing.
        await until(pilot, lambda: "l Leave room" in footer(app))
        assert "Start" not in footer(app)
        await pilot.press("s")
        said = app.screen.query_one("#room-message", Static)
        assert "only the host (hostess)" in text_of(said)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is home)
        assert code.value == "" and not isinstance(app.focused, Input)
        await pilot.press("n")  # a hotkey, not a letter typed into the code field
        await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.screen.is_mounted)
