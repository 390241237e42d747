"""The terminal client plays the toy variant of tests/test_toy_variant.py on a real server.

The client has never heard of the toy: its home lists it, its board lays it
out and names its piles by the server's VariantInfo alone, and the keys play
a won game of it through to the end. Had anything in client/ kept a table
per variant, the toy would be missing from it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.widgets import Static

from client.app import PatienceApp
from client.config import TokenStore
from client.layout import key_of
from client.screens.home import HomeScreen
from server.app import App
from server.config import Config
from shared.notation import Move
from shared.solver import WON, Budget, solve
from tests.client.conftest import free_port
from tests.client.test_app import SIZE, open_variant, text_of, until
from tests.test_toy_variant import COLUMNS, FOUNDATIONS, TOYS, WINNABLE

#: the first moves of the winning line played by keys, and the last by the board's pick action
KEYED = 12
PICKED = 10


@pytest.fixture
async def toy_server(tmp_path: Path) -> AsyncIterator[str]:
    """A real server that deals the five and the toy, on a loopback port; its address."""
    config = Config(
        host="127.0.0.1",
        port=free_port(),
        db=f"sqlite+aiosqlite:///{tmp_path / 'toy.db'}",
        hint_budget=0.05,
        daily_ahead=False,
        stuck_workers=0,
        metrics_port=0,  # /metrics on a free port of its own: tests run side by side
    )
    server = App(config, variants=TOYS)
    await server.start()
    try:
        yield f"ws://127.0.0.1:{config.port}/ws"
    finally:
        await server.stop()


async def test_the_terminal_client_lays_out_and_wins_a_toy_game(
    toy_server: str, tmp_path: Path
) -> None:
    line = solve("toy", WINNABLE, {}, Budget(positions=20_000), variants=TOYS)
    assert line.verdict == WON
    app = PatienceApp(toy_server, name="toby", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        assert app.variant_ids[-1] == "toy"
        assert "Toy" in str(app.screen.query_one("#line-toy").render())

        board = await open_variant(pilot, "toy", WINNABLE)
        # Laid out as the toy's VariantInfo says: its foundations, then its eight columns.
        layout = board.board.board_layout
        assert layout.rows == (FOUNDATIONS, COLUMNS)
        assert layout.squared == frozenset(FOUNDATIONS) and not layout.fanned_right
        assert set(board.board.piles) == {*FOUNDATIONS, *COLUMNS}
        assert "[F1 ]" in board.board.piles["f0"].render().plain

        # The toy's own refusal, in the names on screen.
        message = board.query_one("#message", Static)
        illegal = next(
            (a, b) for a in range(8) for b in range(8)
            if a != b and f"t{a}>t{b}" not in board.view.legal
        )  # fmt: skip
        await pilot.press(key_of(f"t{illegal[0]}"), key_of(f"t{illegal[1]}"))
        await until(pilot, lambda: "not legal" in text_of(message))
        assert text_of(message).startswith(f"{illegal[0] + 1}→{illegal[1] + 1} is not legal")

        # The solver's winning line: its first moves by keys (a source, then a destination),
        # the middle through the client's game (the board redraws once, after), the last ones
        # by the board's pick action, as a key or a click calls it, to the win.
        moves = [Move.parse(action) for action in line.line]
        for ply, move in enumerate(moves[:KEYED], 1):
            await pilot.press(key_of(move.src), key_of(move.dst))
            await until(pilot, lambda: board.view.ply == ply)  # noqa: B023
        for move in moves[KEYED:-PICKED]:
            await app.played.move(move)
        assert app.played.view is not None
        board.set_view(app.played.view)
        for ply, move in enumerate(moves[-PICKED:], len(moves) - PICKED + 1):
            board.action_pick(move.src)
            board.action_pick(move.dst)
            await until(pilot, lambda: board.view.ply == ply)  # noqa: B023
        assert board.view.state == "won"
        await until(pilot, lambda: "every card is home" in text_of(message))
        assert f"with {len(moves)} moves" in text_of(message)
        home = [board.view.pile(f) for f in FOUNDATIONS]
        assert sum(len(pile.up) for pile in home if pile is not None) == 52
