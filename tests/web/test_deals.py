"""Winnable deals and "could I have won?" in the browser, against a real server: New game
deals a winnable medium deal until the player chooses another kind (kept across visits), and
a resigned game's "Could I have won?" says where it went wrong and steps the board through a
winning line from there."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from shared.games import new_game
from tests.server.deals.test_could_win import lost_at_the_twelfth_position
from tests.web.conftest import LiveServer
from tests.web.pages import BOARD, client_faults, drawn, page_errors, wait_ply
from tests.web.seats import Seat, signed_in


@pytest.fixture
def seat(live: LiveServer) -> Iterator[Seat]:
    player = Seat(live.url, "hindsight")
    yield player
    player.close()


def test_new_game_deals_a_winnable_medium_deal_until_another_kind_is_chosen(
    live: LiveServer, seat: Seat, new_context: Callable[..., Any]
) -> None:
    page = new_context(**signed_in(live.url, seat.token)).new_page()
    faults, errors = client_faults(page), page_errors(page)
    page.goto(live.url)
    choice = page.locator("#new-deal")
    assert choice.input_value() == "medium"  # a new player's default
    link = page.locator("li[data-variant='osmosis'] a.new-game")
    assert link.get_attribute("href") == "/play/osmosis?deal=medium"
    link.click()
    page.locator(f"{BOARD}[data-ply='0']").wait_for()
    assert live.app is not None and live.app.deal_pool.solved_on_request == 1  # winnable, asked
    page.goto(live.url)
    page.locator("#new-deal").select_option("any")
    assert link.get_attribute("href") == "/play/osmosis?deal=any"
    page.reload()
    assert page.locator("#new-deal").input_value() == "any"  # kept in this browser
    assert faults == [] and errors == []


def test_could_i_have_won_steps_through_the_line_from_the_last_winnable_position(
    live: LiveServer, seat: Seat, new_context: Callable[..., Any]
) -> None:
    seed, actions = lost_at_the_twelfth_position()
    game = seat.play("osmosis", seed, actions)
    page = new_context(**signed_in(live.url, seat.token)).new_page()
    faults, errors = client_faults(page), page_errors(page)
    page.goto(f"{live.url}/game/{game['id']}")
    wait_ply(page, game["ply"])
    page.get_by_role("button", name="Resign", exact=True).click()
    page.get_by_role("button", name="Yes, resign").click()
    page.locator(f"{BOARD}[data-state='resigned']").wait_for()
    page.locator(".banner").get_by_role("button", name="Could I have won?").click()
    answer = page.locator(".hindsight .could-answer")
    answer.wait_for()
    assert "still winnable after move 11" in answer.inner_text()
    # The page's line is the solver's from the 12th position; the same question answers it.
    line = seat.request("could_win", game=game["id"])["line"]
    replayed = new_game("osmosis", seed=seed)
    for action in actions[:11]:
        replayed.play(action)
    for step in range(3):
        shown = drawn(page)
        for pile in replayed.view()["piles"]:
            fan, down, cards = shown[pile["id"]]
            expected = pile["up"][-1:] if fan == "stack" else pile["up"]
            assert (down, cards) == (pile["down"], expected), (step, pile["id"])
        page.locator(".hindsight .could-next").click()
        page.locator(".hindsight .could-step", has_text=f"Step {step + 1} of").wait_for()
        replayed.play(line[step])
    assert faults == [] and errors == []
