"""The board is laid out from what the server sends, and from nothing else: a server that deals
a sixth game, known to no file of the client (the toy variant of tests/test_toy_variant.py),
shows it on home, draws its board from its VariantInfo's layout, and plays it."""

from __future__ import annotations

from typing import Any

from server.config import Config
from shared.games import new_game
from tests.test_toy_variant import TOYS
from tests.web.conftest import LiveServer
from tests.web.pages import BOARD, assert_board, click_move, client_faults, drawn, register


def test_a_game_the_client_has_never_heard_of_is_drawn_and_played(
    page: Any, web_config: Config
) -> None:
    live = LiveServer(web_config, variants=TOYS).start()
    try:
        faults = client_faults(page)
        register(page, f"{live.url}/", "alice")
        page.get_by_role("link", name="New Toy game").click()
        page.locator(f"{BOARD}[data-ply='0']").wait_for()
        layout = TOYS.rules("toy").layout
        rows = page.eval_on_selector_all(
            f"{BOARD} .row",
            "rows => rows.map(r => [...r.children].map(c => c.dataset.pile ?? ''))",
        )
        assert rows == [list(row) for row in layout.rows]
        assert {pid: fan for pid, (fan, _, _) in drawn(page).items()} == dict(layout.fan)

        page.goto(f"{live.url}/play/toy?seed=1")
        game = new_game("toy", seed=1, variants=TOYS)
        assert_board(page, game)
        move = next(m for m in game.legal_moves() if ">t" in m and ":" not in m)
        click_move(page, *move.split(">"))
        game.play(move)
        assert_board(page, game)
        assert faults == []
    finally:
        live.stop()
