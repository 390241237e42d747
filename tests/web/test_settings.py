"""Settings kept in the browser survive a reload (card size, four-colour deck), and Redo plays
again what Undo took back."""

from __future__ import annotations

from typing import Any

from shared.games import new_game
from tests.web.conftest import LiveServer
from tests.web.pages import BOARD, assert_board, click_move, client_faults, register, wait_ply


def card_width(page: Any) -> float:
    return float(page.locator(f"{BOARD} [data-card]").first.bounding_box()["width"])


def test_settings_survive_a_reload(page: Any, live: LiveServer) -> None:
    register(page, f"{live.url}/", "alice")
    page.goto(f"{live.url}/play/freecell?seed=617")
    wait_ply(page, 0)
    large = card_width(page)
    page.get_by_role("button", name="Settings").click()
    page.get_by_label("Card size").select_option("small")
    page.get_by_label("Four-colour deck").check()
    page.get_by_role("button", name="Close").click()
    page.wait_for_function(
        "() => document.querySelector('.board [data-card]').getBoundingClientRect().width <= 64"
    )
    assert card_width(page) < large
    page.reload()
    wait_ply(page, 0)
    assert card_width(page) <= 64
    assert page.evaluate("document.documentElement.classList.contains('four-colour')")
    red = page.locator(f"{BOARD} .card.suit-D").first.evaluate("c => getComputedStyle(c).color")
    assert red == "rgb(31, 95, 191)"  # diamonds blue
    page.get_by_role("button", name="Settings").click()
    assert page.get_by_label("Card size").input_value() == "small"


def test_redo_plays_again_what_undo_took_back(page: Any, live: LiveServer) -> None:
    faults = client_faults(page)
    register(page, f"{live.url}/", "alice")
    page.goto(f"{live.url}/play/freecell?seed=617")
    wait_ply(page, 0)
    redo = page.get_by_role("button", name="Redo", exact=True)
    assert redo.is_disabled()
    game = new_game("freecell", seed=617)
    click_move(page, "t7", "t1")
    game.play("t7>t1")
    assert_board(page, game)
    page.get_by_role("button", name="Undo", exact=True).click()
    wait_ply(page, 2)
    assert redo.is_enabled()
    redo.click()
    wait_ply(page, 3)
    game.play("undo")
    game.play("t7>t1")
    assert_board(page, game)
    assert redo.is_disabled()
    assert faults == []
