"""The app under Textual's Pilot against the real server: register, play by keys and by mouse."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from client.app import PatienceApp
from client.config import Account, TokenStore
from client.layout import key_of
from client.screens.board import BoardScreen
from client.screens.connecting import NameScreen, WaitScreen
from client.screens.home import HomeScreen
from client.widgets import PileWidget
from shared.games import new_game
from shared.notation import Move
from shared.protocol import GameReply, GameView, GetGame
from tests.client.conftest import ServerControl

SIZE = (110, 36)


def text_of(widget: Static) -> str:
    """What a Static shows, as plain text (Rich tables and groups included)."""
    content = widget.content
    if isinstance(content, str):
        return content
    plain = getattr(content, "plain", None)
    if isinstance(plain, str):
        return plain
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(content)
    return console.export_text()


async def until(pilot: Pilot[int], condition: Callable[[], object], timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting; screen is {pilot.app.screen!r}")
        await pilot.pause(0.02)


async def register_and_open_freecell(pilot: Pilot[int], name: str, seed: int) -> BoardScreen:
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, NameScreen) and app.screen.is_mounted)
    await pilot.click("#name")
    await pilot.press(*name, "enter")
    await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
    home = app.screen
    # Freecell in the list of games, a fixed seed, then "new game".
    variants = [v for v in app.variant_ids]  # type: ignore[attr-defined]
    home.query_one("#variants").index = variants.index("freecell")  # type: ignore[attr-defined]
    await pilot.click("#seed")
    await pilot.press(*str(seed), "enter")
    await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.screen.is_mounted)
    board = app.screen
    assert isinstance(board, BoardScreen)
    return board


def top_card_row(pile: PileWidget) -> int:
    """The screen row of the pile's top card within its widget."""
    pile.render()
    return pile._picks.index(1)


async def test_register_then_play_freecell_by_keys_and_by_mouse(
    server: ServerControl, tmp_path: Path
) -> None:
    store = TokenStore(tmp_path / "cfg")
    app = PatienceApp(server.url, store=store)
    async with app.run_test(size=SIZE) as pilot:
        board = await register_and_open_freecell(pilot, "alice", 617)
        assert store.get(server.url) is not None
        view = board.view
        assert view.seed == 617 and view.ply == 0
        # The board shows the engine's deal of Microsoft game 617.
        expected = new_game("freecell", seed=617).view()["piles"]
        assert [board.board.piles[p["id"]].pile.up for p in expected] == [
            tuple(p["up"]) for p in expected
        ]

        # Keyboard: a source key lights up exactly the legal destinations, a destination plays.
        move = next(Move.parse(m) for m in view.legal if m.startswith("t") and ">t" in m)
        await pilot.press(key_of(move.src))
        lit = {pid for pid, w in board.board.piles.items() if w.has_class("target")}
        legal_dsts = {Move.parse(m).dst for m in view.legal if Move.parse(m).src == move.src}
        assert lit == legal_dsts
        moved_card = board.board.piles[move.src].pile.up[-1]
        await pilot.press(key_of(move.dst))
        await until(pilot, lambda: board.view.ply == 1)
        assert board.board.piles[move.dst].pile.up[-1] == moved_card
        assert "moves 1" in board.info_text().plain

        # Mouse: click the top card of a pile, then click a free cell.
        src = next(Move.parse(m).src for m in board.view.legal if Move.parse(m).dst == "r0")
        card = board.board.piles[src].pile.up[-1]
        widget = board.board.piles[src]
        await pilot.click(widget, offset=(2, top_card_row(widget)))
        assert widget.has_class("source")
        await pilot.click(board.board.piles["r0"], offset=(2, 1))
        await until(pilot, lambda: board.view.ply == 2)
        assert board.board.piles["r0"].pile.up == (card,)

        # Undo by key takes it back (an action of its own).
        await pilot.press("u")
        await until(pilot, lambda: board.view.ply == 3)
        assert board.board.piles["r0"].pile.up == ()
        assert board.board.piles[src].pile.up[-1] == card


async def test_an_illegal_move_shows_the_servers_reason_and_changes_nothing(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        board = await register_and_open_freecell(pilot, "bob", 617)
        before = board.view
        illegal = next(
            f"t{a}>t{b}"
            for a in range(8)
            for b in range(8)
            if a != b and f"t{a}>t{b}" not in before.legal
        )
        src, dst = illegal.split(">")
        await pilot.press(key_of(src), key_of(dst))
        message = board.query_one("#message", Static)
        await until(pilot, lambda: "not legal" in text_of(message))
        assert board.view.ply == 0
        assert board.view.piles == before.piles


@pytest.mark.parametrize("how", ["double-click", "key f"])
async def test_double_click_or_f_sends_a_card_to_the_foundation(
    server: ServerControl, tmp_path: Path, how: str
) -> None:
    # The first Microsoft deal with an ace on top, so that a card can go home at once.
    seed = next(
        s
        for s in range(1, 1000)
        if any(">f" in m for m in new_game("freecell", seed=s).legal_moves())
    )
    app = PatienceApp(server.url, store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        board = await register_and_open_freecell(pilot, "carol", seed)
        src = next(Move.parse(m).src for m in board.view.legal if ">f" in m)
        ace = board.board.piles[src].pile.up[-1]
        widget = board.board.piles[src]
        if how == "double-click":
            await pilot.double_click(widget, offset=(2, top_card_row(widget)))
        else:
            await pilot.press(key_of(src), "f")
        await until(pilot, lambda: board.view.ply == 1)
        homes = [p.up for p in board.view.piles if p.id.startswith("f")]
        assert any(home[:1] == (ace,) for home in homes)
        assert board.view.score >= 1


async def test_after_a_server_restart_the_board_resumes_and_keeps_playing(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, store=TokenStore(tmp_path / "cfg"))
    app.conn.backoff_initial = 0.05
    app.conn.backoff_max = 0.3
    async with app.run_test(size=SIZE) as pilot:
        board = await register_and_open_freecell(pilot, "dora", 617)
        first = Move.parse(board.view.legal[0])
        await pilot.press(key_of(first.src), key_of(first.dst))
        await until(pilot, lambda: board.view.ply == 1)
        piles_after_first = board.view.piles

        await server.stop()
        link = board.query_one("#link", Static)
        await until(pilot, lambda: link.display and "reconnecting…" in text_of(link))
        assert "reconnecting…" in str(app.sub_title)
        await server.start()
        await until(pilot, lambda: app.conn.reconnects == 1 and app.conn.state == "connected")
        message = board.query_one("#message", Static)
        await until(pilot, lambda: "reconnected" in text_of(message))
        assert board.view.ply == 1
        assert board.view.piles == piles_after_first

        second = Move.parse(board.view.legal[0])
        await pilot.press(key_of(second.src), key_of(second.dst))
        await until(pilot, lambda: board.view.ply == 2)


async def test_a_move_made_while_the_link_is_down_is_played_once_it_is_back(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, store=TokenStore(tmp_path / "cfg"))
    app.conn.backoff_initial = 0.2
    async with app.run_test(size=SIZE) as pilot:
        board = await register_and_open_freecell(pilot, "eve", 617)
        await app.conn.drop()
        move = Move.parse(board.view.legal[0])
        await pilot.press(key_of(move.src), key_of(move.dst))
        await until(pilot, lambda: board.view.ply == 1)
        assert app.conn.reconnects == 1
        # The server holds exactly one action: the move was not applied twice.
        check = await app.conn.request(GetGame(game=board.view.id), GameReply)
        assert check.game.ply == 1


async def open_variant(pilot: Pilot[int], variant: str, seed: int) -> BoardScreen:
    app = pilot.app
    assert isinstance(app, PatienceApp)
    await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
    app.screen.query_one("#variants").index = app.variant_ids.index(variant)  # type: ignore[attr-defined]
    await pilot.click("#seed")
    await pilot.press(*str(seed), "enter")
    await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.screen.is_mounted)
    board = app.screen
    assert isinstance(board, BoardScreen)
    return board


def stock_count(view: GameView) -> int:
    stock = view.pile("s")
    assert stock is not None
    return stock.count


async def test_deal_hint_and_auto_keys_on_westhaven(server: ServerControl, tmp_path: Path) -> None:
    app = PatienceApp(server.url, name="gus", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        board = await open_variant(pilot, "westhaven", 617)
        stock = stock_count(board.view)
        await pilot.press("space")
        await until(pilot, lambda: board.view.ply == 1)
        assert stock_count(board.view) == stock - 1
        assert "stock 21" in board.info_text().plain
        assert board.board.piles["w"].pile.up != ()

        # A click on the stock deals too.
        await pilot.click(board.board.piles["s"], offset=(2, 1))
        await until(pilot, lambda: board.view.ply == 2)
        assert stock_count(board.view) == stock - 2

        # Hint, then enter plays it: whatever it is, one more action is recorded.
        message = board.query_one("#message", Static)
        await pilot.press("h")
        await until(pilot, lambda: "hint:" in text_of(message) or "no hint" in text_of(message))
        if board.hinted is not None:
            if isinstance(board.hinted, Move):
                # The hinted source is shown picked, as if the player had chosen it.
                assert board.board.piles[board.hinted.src].has_class("source")
            await pilot.press("enter")
            await until(pilot, lambda: board.view.ply == 3)

        # auto with nothing to send home is refused with the server's reason.
        if not any(">f" in m for m in board.view.legal):
            ply = board.view.ply
            await pilot.press("a")
            await until(pilot, lambda: "auto" in text_of(message))
            assert board.view.ply == ply


async def test_plus_and_minus_choose_the_group_size(server: ServerControl, tmp_path: Path) -> None:
    # A Freecell deal where some pile can move a group of 2 or more at once.
    def group_seed() -> tuple[int, str]:
        for seed in range(1, 2000):
            legal = new_game("freecell", seed=seed).legal_moves()
            groups = [m for m in legal if ":" in m]
            if groups:
                return seed, groups[0]
        raise AssertionError("no deal with a group move")

    seed, group_move = group_seed()
    move = Move.parse(group_move)
    app = PatienceApp(server.url, name="hal", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        board = await register_free(pilot, seed)
        await pilot.press(key_of(move.src))
        widget = board.board.piles[move.src]
        assert widget.selected == max(
            Move.parse(m).count for m in board.view.legal if Move.parse(m).src == move.src
        )
        sizes = sorted({Move.parse(m).count for m in board.view.legal if m.startswith(move.src)})
        await pilot.press("minus")
        assert board.pick.count == (sizes[-2] if len(sizes) > 1 else sizes[-1])
        assert widget.selected == board.pick.count
        await pilot.press("plus")
        assert board.pick.count == sizes[-1]
        # Set the exact count of the known legal group move and play it.
        while board.pick.count > move.count:
            await pilot.press("minus")
        while board.pick.count < move.count:
            await pilot.press("plus")
        moved = widget.pile.up[-move.count :]
        await pilot.press(key_of(move.dst))
        await until(pilot, lambda: board.view.ply == 1)
        assert board.board.piles[move.dst].pile.up[-move.count :] == moved


async def register_free(pilot: Pilot[int], seed: int) -> BoardScreen:
    return await open_variant(pilot, "freecell", seed)


async def test_a_token_the_server_does_not_know_is_explained_and_a_new_name_registers(
    server: ServerControl, tmp_path: Path
) -> None:
    store = TokenStore(tmp_path / "cfg")
    store.put(server.url, Account("ghost", "a-token-from-a-reset-database"))
    app = PatienceApp(server.url, store=store)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NameScreen) and app.screen.is_mounted)
        message = app.screen.query_one("#name-message", Static)
        await until(pilot, lambda: "does not know our saved token" in text_of(message))
        await pilot.click("#name")
        await pilot.press(*"ivy", "enter")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        account = store.get(server.url)
        assert account is not None and account.name == "ivy"
        assert account.token != "a-token-from-a-reset-database"


async def test_a_server_that_is_not_up_yet_is_waited_for(
    server: ServerControl, tmp_path: Path
) -> None:
    await server.stop()
    app = PatienceApp(server.url, name="jo", store=TokenStore(tmp_path / "cfg"))
    app.conn.backoff_initial = 0.05
    app.conn.backoff_max = 0.2
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, WaitScreen) and app.screen.is_mounted)
        message = app.screen.query_one("#wait-message", Static)
        await until(pilot, lambda: "cannot reach the server" in text_of(message))
        await server.start()
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        assert app.conn.player is not None and app.conn.player.name == "jo"


async def test_resigning_takes_r_twice_and_ctrl_q_quits(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, name="lea", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        board = await register_free(pilot, 617)
        message = board.query_one("#message", Static)
        await pilot.press("R")
        assert "press R again" in text_of(message)
        await pilot.press("1", "escape", "R")  # another key disarms: this R arms again
        await pilot.pause(0.2)
        assert board.view.state == "playing"
        await pilot.press("R")
        await until(pilot, lambda: board.view.state == "resigned")
        assert "resigned" in text_of(message)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.conn.state == "closed")
    assert app.return_value == 0


async def test_clicking_a_card_inside_a_run_picks_the_run_from_that_card(
    server: ServerControl, tmp_path: Path
) -> None:
    def group_seed() -> tuple[int, str]:
        for seed in range(1, 2000):
            groups = [m for m in new_game("freecell", seed=seed).legal_moves() if ":" in m]
            if groups:
                return seed, groups[0]
        raise AssertionError("no deal with a group move")

    seed, group_move = group_seed()
    move = Move.parse(group_move)
    app = PatienceApp(server.url, name="ned", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        board = await register_free(pilot, seed)
        widget = board.board.piles[move.src]
        widget.render()
        row = widget._picks.index(move.count)
        await pilot.click(widget, offset=(2, row))
        assert board.pick.src == move.src and board.pick.count == move.count
        assert widget.selected == move.count
        moved = widget.pile.up[-move.count :]
        await pilot.click(board.board.piles[move.dst], offset=(2, 1))
        await until(pilot, lambda: board.view.ply == 1)
        assert board.board.piles[move.dst].pile.up[-move.count :] == moved
