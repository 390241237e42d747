"""Redo after undo, restarting a deal and the move list on the terminal's board, against the
real server; and the move line as a plain class."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from client.app import PatienceApp
from client.config import TokenStore
from client.move_line import MoveLine
from client.names import move_name
from client.screens.board_tools import MovesScreen
from shared.notation import DEAL, UNDO, Move
from shared.protocol import GameReply, GetGame
from tests.client.conftest import ServerControl
from tests.client.test_app import SIZE, register_and_open_freecell, text_of, until


def test_undo_keeps_what_redo_plays_and_a_new_move_forgets_it() -> None:
    line = MoveLine(opened_at=2)
    first, second = Move("t3", 1, "f0"), Move("t1", 1, "r0")
    line.remember(first)
    line.remember(second)
    line.remember(UNDO)
    assert line.undone == [second]
    assert line.redo() == second
    line.refused()  # the server refused it: it is still there to redo
    assert line.undone == [second]
    assert line.redo() == second
    line.remember(second)
    assert line.undone == [] and line.played == [first, second]
    line.remember(UNDO)
    line.remember(DEAL)  # a new line of play: nothing left to redo
    assert line.undone == [] and line.redo() is None
    assert line.names() == ["2 actions before this board opened", "1. 4→F1", "2. deal (space)"]


async def test_redo_replays_the_move_undone_and_the_move_list_names_the_line(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        board = await register_and_open_freecell(pilot, "rita", 617)
        assert not board.check_action("redo", ())  # nothing undone yet: not listed
        move = Move.parse(board.view.legal[0])
        board.send_move(move)
        await until(pilot, lambda: board.view.ply == 1)
        after = board.view.piles
        await pilot.press("u")
        await until(pilot, lambda: board.view.ply == 2)
        assert board.check_action("redo", ())
        await pilot.press("U")
        await until(pilot, lambda: board.view.ply == 3)
        assert board.view.piles == after
        assert not board.check_action("redo", ())
        message = board.query_one("#message", Static)
        await pilot.press("U")  # nothing to redo: the key is not listed and does nothing
        assert board.view.ply == 3 and "not legal" not in text_of(message)
        await pilot.press("m")
        await until(pilot, lambda: isinstance(app.screen, MovesScreen))
        moves = text_of(app.screen.query_one("#moves", Static))
        assert moves.splitlines()[1:] == ["1. " + move_name(move)]
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is board)


async def test_restart_resigns_the_game_and_deals_the_same_deal_again(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        board = await register_and_open_freecell(pilot, "sam", 617)
        dealt = board.view.piles
        board.send_move(Move.parse(board.view.legal[0]))
        await until(pilot, lambda: board.view.ply == 1)
        first = board.view.id
        message = board.query_one("#message", Static)
        await pilot.press("S")
        assert "press S again" in text_of(message)
        await pilot.press("x", "S")  # another key disarms it: nothing restarts
        await pilot.pause(0.2)
        assert board.view.id == first
        await pilot.press("S")
        await until(pilot, lambda: board.view.id != first)
        assert board.view.ply == 0 and board.view.deal.seed == 617
        assert board.view.piles == dealt
        assert "dealt again" in text_of(message)
        old = await app.conn.request(GetGame(game=first), GameReply)
        assert old.game.state == "resigned"
        assert board.line.played == []
