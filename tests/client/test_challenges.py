"""A friend's challenge accepted in the terminal client: its code (or its link) pasted on home,
its game on the board, and its result on home beside the match's score."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from client.app import PatienceApp
from client.challenges import challenge_code
from client.config import TokenStore
from client.screens.board import BoardScreen
from client.screens.challenge import ResultScreen
from client.screens.home import HomeScreen
from tests.client.conftest import ServerControl
from tests.client.test_app import SIZE, text_of, until
from tests.server.conftest import open_client


def test_a_challenge_is_found_in_its_link_or_its_code() -> None:
    assert challenge_code("https://club.example/challenge/Ab3_-x9QzP") == "Ab3_-x9QzP"
    assert challenge_code("  Ab3_-x9QzP \n") == "Ab3_-x9QzP"
    assert challenge_code("http://127.0.0.1:8765/challenge/Ab3x/") == "Ab3x"
    assert challenge_code("") is None
    assert challenge_code("not a code at all") is None
    assert challenge_code("https://club.example/race/K7QF2M/extra") is None


async def test_a_challenge_accepted_by_its_code_is_played_and_its_result_shown_on_home(
    server: ServerControl, tmp_path: Path
) -> None:
    assert server.app is not None
    alice = await open_client(server.app)
    await alice.hello("alice")
    game = (await alice.request("start_game", variant="freecell"))["game"]
    game = (await alice.request("resign", game=game["id"], ply=0))["game"]
    sent = (await alice.request("challenge_create", game=game["id"], best_of=3))["challenge"]
    link = f"http://127.0.0.1/challenge/{sent['id']}"

    app = PatienceApp(server.url, name="bob", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        home = app.screen
        assert isinstance(home, HomeScreen)
        listed = home.query_one("#challenges", Static)
        await until(pilot, lambda: "none yet" in text_of(listed))
        field = home.query_one("#challenge-code", Input)
        field.focus()
        field.value = link
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.screen.is_mounted)
        board = app.screen
        assert isinstance(board, BoardScreen)
        assert board.view.deal.commitment == game["deal"]["commitment"]
        assert board.view.deal.key is None  # the deal's key, not before the game ends
        assert "alice's challenge" in board.info_text().plain
        await pilot.press("R", "R")
        await until(pilot, lambda: board.view.state == "resigned")
        # the round is done: its result comes over the board; Esc closes it, then the board
        await until(pilot, lambda: isinstance(app.screen, ResultScreen) and app.screen.is_mounted)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is board)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is home)
        await until(pilot, lambda: "a draw" in text_of(listed))
        shown = text_of(listed)
        assert "alice resigned" in shown and "bob resigned" in shown
        assert "best of 3: alice 0 - 0 bob, 1 draw" in shown
    await alice.ws.close()
