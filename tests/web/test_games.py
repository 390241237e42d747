"""Your games: home lists the player's own games (the ``games`` message), unfinished first, each
a link to ``/game/ID``; leaving a game resigns nothing, and the link takes it up where it was."""

from __future__ import annotations

from typing import Any

from shared.games import new_game
from tests.web.conftest import LiveServer
from tests.web.pages import BOARD, assert_board, click_move, client_faults, register, wait_ply


def test_home_lists_your_games_unfinished_first_and_a_left_game_resumes(
    page: Any, live: LiveServer
) -> None:
    faults = client_faults(page)
    register(page, f"{live.url}/", "alice")
    assert page.get_by_role("heading", name="Your games").count() == 0  # none yet

    page.goto(f"{live.url}/play/freecell?seed=617")
    wait_ply(page, 0)
    freecell_url = page.url
    game = new_game("freecell", seed=617)
    click_move(page, "t7", "t1")
    game.play("t7>t1")
    assert_board(page, game)
    page.get_by_role("link", name="Patience Club").click()  # left, not resigned

    page.locator("#new-deal").select_option("any")  # a secret deal, not one solved first
    page.get_by_role("link", name="New Gypsy game").click()
    wait_ply(page, 0)
    page.get_by_role("button", name="Resign", exact=True).click()
    page.get_by_role("button", name="Yes, resign").click()
    page.locator(f"{BOARD}[data-state='resigned']").wait_for()
    page.get_by_role("link", name="Home").click()

    games = page.locator(".your-games li")
    games.nth(1).wait_for()
    lines = games.all_inner_texts()
    # the newer Gypsy game has ended: the unfinished Freecell game comes first all the same
    assert lines[0].startswith("Freecell \u00b7 #617 \u00b7 solo \u00b7 playing \u00b7 1 moves")
    assert lines[1].startswith("Gypsy \u00b7 keyed ") and "resigned" in lines[1]
    assert games.nth(0).get_attribute("data-state") == "playing"

    games.nth(0).get_by_role("link").click()
    assert page.url == freecell_url
    assert_board(page, game)  # where it was left: ply 1, still playing
    click_move(page, "t4", "r0")
    game.play("t4>r0")
    assert_board(page, game)
    assert faults == []
