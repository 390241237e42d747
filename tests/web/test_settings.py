"""Settings kept in the browser survive a reload (card size, four-colour deck); Redo plays
again what Undo took back; the move list follows the line in the board's names, and Restart
deals the same deal again."""

from __future__ import annotations

from typing import Any

from shared.games import new_game
from tests.web.conftest import LiveServer
from tests.web.pages import BOARD, assert_board, click_move, client_faults, register, wait_ply
from tests.web.test_end import NOTATION


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


def test_the_move_list_follows_the_line_and_restart_deals_the_deal_again(
    page: Any, live: LiveServer
) -> None:
    faults = client_faults(page)
    register(page, f"{live.url}/", "alice")
    page.goto(f"{live.url}/play/freecell?seed=617")
    wait_ply(page, 0)
    first = page.url
    game = new_game("freecell", seed=617)
    for src, dst in (("t7", "t1"), ("t3", "r0")):
        click_move(page, src, dst)
        game.play(f"{src}>{dst}")
        assert_board(page, game)
    summary = page.locator(".move-list summary")
    assert summary.inner_text() == "Moves (2)"
    summary.click()
    items = page.locator(".move-list li").all_inner_texts()
    assert len(items) == 2 and all(" from tableau " in item for item in items), items
    assert not any(NOTATION.search(item) for item in items), items
    assert any(s in items[0] for s in "\u2660\u2665\u2666\u2663"), items  # cards as faces show them
    page.get_by_role("button", name="Undo", exact=True).click()
    wait_ply(page, 3)
    assert summary.inner_text() == "Moves (1)"

    page.get_by_role("button", name="Restart", exact=True).click()
    page.get_by_role("button", name="Yes, restart").click()
    page.wait_for_url(lambda url: url != first and "/game/" in url)
    wait_ply(page, 0)
    assert_board(page, new_game("freecell", seed=617))  # the same deal, from the start
    assert summary.inner_text() == "Moves (0)"
    # a resumed solo game knows it is one: it can be restarted too
    page.reload()
    wait_ply(page, 0)
    assert page.get_by_role("button", name="Restart", exact=True).count() == 1
    assert faults == []
