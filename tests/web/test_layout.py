"""The board is laid out from what the server sends, and from nothing else: a server that deals
a sixth game, known to no file of the client (the toy variant of tests/test_toy_variant.py),
shows it on home, draws its board from its VariantInfo's layout, and plays it."""

from __future__ import annotations

import re
from typing import Any

from server.config import Config
from shared.games import new_game
from tests.test_toy_variant import TOYS
from tests.web.conftest import LiveServer
from tests.web.pages import (
    BOARD,
    assert_board,
    click_move,
    client_faults,
    drawn,
    fit_problems,
    register,
)


def test_a_game_the_client_has_never_heard_of_is_drawn_and_played(
    page: Any, web_config: Config
) -> None:
    live = LiveServer(web_config, variants=TOYS).start()
    try:
        faults = client_faults(page)
        register(page, f"{live.url}/", "alice")
        page.locator("#new-deal").select_option("any")  # the toy game has no solved deals
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
        # its controls and keys are its own: no stock, so no Deal; the keys of its piles only
        assert page.get_by_role("button", name="Deal", exact=True).count() == 0
        page.get_by_text("Keys", exact=True).click()
        keys = page.locator("details.keys").inner_text()
        assert "tableau piles 1 \u2026 8" in keys and "foundations 1 \u2026 4" in keys
        assert "reserves" not in keys and "waste" not in keys
        # its piles named by its VariantInfo's pile_names; its rules panel says it has no text
        assert page.get_by_role("group", name=re.compile(r"^foundation 1: ")).count() == 1
        page.get_by_role("button", name="Rules", exact=True).click()
        page.get_by_text("no rules text for this game").wait_for()
        # every card within the window, every covered card's strip at least 24 px
        assert fit_problems(page) == []
        assert faults == []
    finally:
        live.stop()
