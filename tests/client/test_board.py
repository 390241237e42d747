"""The board against the real server: the names it speaks, its clock, a lost link, keyed deals."""

from __future__ import annotations

import os
import re
from pathlib import Path

from textual.widgets import Static

from client.app import PatienceApp
from client.clock import format_ms
from client.config import TokenStore
from client.layout import key_of
from client.names import move_name
from client.screens.board import BoardScreen
from client.screens.verify import VerifyScreen
from shared.deals import commitment
from shared.games import new_game
from shared.notation import Move
from shared.protocol import GameReply, GetGame
from tests.client.conftest import ServerControl
from tests.client.screens_app import screen_text
from tests.client.test_app import SIZE, open_variant, text_of, until
from tests.client.test_commands import run_cli


class StepClock:
    """The client's clock, moved by the test: the board's time between replies."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_refusals_hints_and_empty_piles_speak_the_names_on_screen(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, name="nina", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        board = await open_variant(pilot, "freecell", 617)
        # Empty piles are outlined with the key above them: F1 .. F4, q w e r.
        assert "[F1 ]" in board.board.piles["f0"].render().plain
        assert "[ w ]" in board.board.piles["r1"].render().plain
        illegal = next(
            (a, b) for a in range(8) for b in range(8)
            if a != b and f"t{a}>t{b}" not in board.view.legal
        )  # fmt: skip
        a, b = illegal
        await pilot.press(key_of(f"t{a}"), key_of(f"t{b}"))
        message = board.query_one("#message", Static)
        await until(pilot, lambda: "not legal" in text_of(message))
        shown = text_of(message)
        # The server said "'t3>t5' is not legal now: ..."; the board says "4→6 ...".
        assert shown.startswith(f"{a + 1}→{b + 1} is not legal now"), shown
        assert f"t{a}" not in shown and f"t{b}" not in shown
        assert not re.search(r"\b[A2-9TJQK][CDHS]\b", shown), "cards in glyphs: " + shown

        await pilot.press("h")
        await until(pilot, lambda: "hint:" in text_of(message))
        assert board.hinted is not None
        assert text_of(message) == f"hint: {move_name(board.hinted)} (enter plays it)"
        assert ">" not in text_of(message)


async def test_the_clock_never_goes_back_after_an_illegal_move(
    server: ServerControl, tmp_path: Path
) -> None:
    clock = StepClock()
    app = PatienceApp(server.url, name="otto", store=TokenStore(tmp_path / "cfg"), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        board = await open_variant(pilot, "freecell", 617)
        good = Move.parse(board.view.legal[0])
        await pilot.press(key_of(good.src), key_of(good.dst))
        await until(pilot, lambda: board.view.ply == 1)
        clock.now += 12  # twelve seconds pass on the player's screen
        before = board.game_clock.now_ms()
        assert before >= 12_000
        illegal = next(
            f"t{a}>t{b}" for a in range(8) for b in range(8)
            if a != b and f"t{a}>t{b}" not in board.view.legal
        )  # fmt: skip
        src, dst = illegal.split(">")
        await pilot.press(key_of(src), key_of(dst))
        await until(pilot, lambda: "not legal" in text_of(board.query_one("#message", Static)))
        # The board showed the view it had again; its time stays where it was, and runs on.
        assert board.game_clock.now_ms() >= before
        assert format_ms(board.game_clock.now_ms()) in board.info_text().plain
        clock.now += 1
        assert board.game_clock.now_ms() >= before + 1000


async def test_moves_made_while_reconnecting_wait_on_screen_and_are_played_once(
    server: ServerControl, tmp_path: Path
) -> None:
    # Two moves in a row on Microsoft deal 617, the second legal after the first.
    game = new_game("freecell", seed=617)
    first = Move.parse(next(m for m in game.legal_moves() if ":" not in m))
    game.play(str(first))
    second = Move.parse(
        next(m for m in game.legal_moves() if ":" not in m and not m.startswith(first.dst))
    )
    app = PatienceApp(server.url, name="pia", store=TokenStore(tmp_path / "cfg"))
    app.conn.backoff_initial = 0.05
    app.conn.backoff_max = 0.3
    async with app.run_test(size=SIZE) as pilot:
        board = await open_variant(pilot, "freecell", 617)
        link = board.query_one("#link", Static)
        assert not link.display
        await server.stop()
        await until(pilot, lambda: link.display and "reconnecting…" in text_of(link))
        assert "0 moves waiting" in text_of(link)
        await pilot.press(key_of(first.src), key_of(first.dst))
        await until(pilot, lambda: "1 move waiting" in text_of(link))
        await pilot.press(key_of(second.src), key_of(second.dst))
        await until(pilot, lambda: "2 moves waiting" in text_of(link))
        assert board.view.ply == 0

        await server.start()
        await until(pilot, lambda: board.view.ply == 2)
        await until(pilot, lambda: not link.display)
        check = await app.conn.request(GetGame(game=board.view.id), GameReply)
        assert check.game.ply == 2, "each move played once, none lost"
        assert check.game.piles == board.view.piles


async def test_a_keyed_deal_shows_its_commitment_then_its_key_and_how_to_verify_it(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, name="quin", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.is_mounted and app.variant_ids)
        home = app.screen
        home.query_one("#variants").index = app.variant_ids.index("westhaven")  # type: ignore[attr-defined]
        await pilot.press("n")  # no seed: the server deals a secret key
        await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.screen.is_mounted)
        board = app.screen
        assert isinstance(board, BoardScreen)
        deal = board.view.deal
        assert deal.seed is None and deal.commitment is not None and deal.key is None
        info = board.info_text().plain
        assert f"deal {deal.commitment[:8]}" in info and "seed" not in info
        assert not board.check_action("verify", ())
        assert "v Verify" not in screen_text(app)

        await pilot.press("R", "R")
        await until(pilot, lambda: board.view.deal.key is not None)
        message = board.query_one("#message", Static)
        assert "v shows it" in text_of(message)
        await until(pilot, lambda: "v Verify deal" in screen_text(app))
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, VerifyScreen))
        shown = text_of(app.screen.query_one("#verify-text", Static))
        key = board.view.deal.key
        assert key is not None and deal.commitment in shown and key in shown
        assert commitment("westhaven", bytes.fromhex(key)) == deal.commitment
        command = next(line for line in shown.splitlines() if line.startswith("patience-club"))
        assert command == f"patience-club verify westhaven {deal.commitment} {key}"

    # The command, as the board wrote it, says the key matches.
    code, out, _ = await run_cli(*command.split()[1:], env=dict(os.environ))
    assert code == 0 and out.startswith("OK: the key matches"), out
