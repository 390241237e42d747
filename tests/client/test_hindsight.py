""" "Could I have won?" in the terminal client, against a real server: W on a resigned game
shows the answer, and the arrows step the board through the winning line."""

from __future__ import annotations

from pathlib import Path

from client.app import PatienceApp
from client.config import TokenStore
from client.screens.hindsight import HindsightScreen
from shared.games import new_game
from tests.client.conftest import ServerControl
from tests.client.test_app import SIZE, register_and_open_freecell, text_of, until


async def test_w_after_resigning_steps_through_a_winning_line(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        board = await register_and_open_freecell(pilot, "alice", 617)
        await pilot.press("W")  # not while the game is played
        assert not isinstance(app.screen, HindsightScreen)
        await pilot.press("R", "R")
        await until(pilot, lambda: board.view.state == "resigned")
        await pilot.press("W")
        await until(pilot, lambda: isinstance(app.screen, HindsightScreen))
        screen = app.screen
        assert isinstance(screen, HindsightScreen)
        await until(pilot, lambda: screen.answer is not None, timeout=60)
        answer = screen.answer
        assert answer is not None and answer.deal == "won" and answer.ply == 0
        assert "winnable after action 0" in text_of(screen.query_one("#hindsight-text"))
        game = new_game("freecell", seed=617)
        for step, action in enumerate(answer.line[:3], start=1):
            await pilot.press("right")
            game.play(action)
            for pile in game.view()["piles"]:
                assert screen.board.piles[pile["id"]].pile.up == tuple(pile["up"])
            assert f"step {step} of {len(answer.line)}" in text_of(
                screen.query_one("#hindsight-step")
            )
        await pilot.press("left")
        assert "step 2 of" in text_of(screen.query_one("#hindsight-step"))
