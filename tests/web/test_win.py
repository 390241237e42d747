"""A win that feels like one: when every card left can go home the page sends them (an
autocomplete) and they fly to the foundations one after another, aces first, before the end's
banner says the time, the moves and a personal best and offers "Play this deal again"; a move
after which Freecell's autoplay sends the rest home flies them too; under reduced motion the
cards go home at once, without a flight."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from server.config import Config
from shared.games import new_game
from shared.solver import Budget, solve
from tests.web.conftest import LiveServer
from tests.web.pages import (
    BOARD,
    assert_board,
    client_faults,
    key_move,
    page_errors,
    pile,
    top_card,
    wait_ply,
)
from tests.web.seats import Seat, signed_in

HEARD = """() => {
  window.flights = [];
  window.seenFlying = 0;
  document.addEventListener('pc-home', (e) => flights.push(e.detail.cards));
  new MutationObserver(() => {
    seenFlying = Math.max(seenFlying, document.querySelectorAll('.card.flying').length);
  }).observe(document.body, { childList: true, subtree: true });
}"""


@pytest.fixture
def web_config(web_config: Config) -> Config:
    """Whole games played over the protocol at once: above the rate a person plays at."""
    return web_config.replace(rate_limit=10_000.0, rate_burst=10_000)


@pytest.fixture
def seat(live: LiveServer) -> Iterator[Seat]:
    player = Seat(live.url, "winner")
    yield player
    player.close()


def line_of(variant: str, seed: int) -> list[str]:
    return list(solve(variant, seed, {}, Budget(positions=200_000)).line)


def move_by_clicks(page: Any, move: str) -> None:
    src, dst = move.split(">")
    top_card(page, src).click(position={"x": 8, "y": 6})
    pile(page, dst).click(position={"x": 8, "y": 6})


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_every_card_left_goes_home_flying_then_the_win_shows(
    motion: str, live: LiveServer, seat: Seat, new_context: Callable[..., Any]
) -> None:
    line = line_of("westhaven", 2)
    # after line[133] ('w>f0') every card left lies face up, each pile going down in rank
    before = seat.play("westhaven", 2, line[:133])
    page = new_context(**signed_in(live.url, seat.token), reduced_motion=motion).new_page()
    faults, errors = client_faults(page), page_errors(page)
    page.goto(f"{live.url}/game/{before['id']}")
    wait_ply(page, 133)
    page.evaluate(HEARD)
    move_by_clicks(page, line[133])
    page.locator(f"{BOARD}[data-state='won']").wait_for()
    assert page.locator(f"{BOARD}").get_attribute("data-ply") == "135"  # the move, then auto
    banner = page.locator(".banner")
    banner.wait_for()
    if motion == "reduce":
        assert page.evaluate("seenFlying") == 0 and page.evaluate("flights") == []
    else:
        at_move = new_game("westhaven", seed=2)
        for move in line[:134]:
            at_move.play(move)
        left = sum(len(p["up"]) for p in at_move.view()["piles"] if p["id"][0] != "f")
        assert page.evaluate("flights") == [left]  # the cards left, every one flown
        assert page.evaluate("seenFlying") > 10
    won = new_game("westhaven", seed=2)
    for move in [*line[:134], "auto"]:
        won.play(move)
    assert won.state == "won"
    assert_board(page, won)
    assert page.locator(".card.flying").count() == 0
    assert "135 moves" in banner.inner_text()
    banner.locator(".end-best").wait_for()  # the player's first win: a best
    assert banner.get_by_role("link", name="Play this deal again").count() == 1
    assert faults == [] and errors == []


def test_freecell_s_autoplay_flies_the_last_cards_home(
    live: LiveServer, seat: Seat, new_context: Callable[..., Any]
) -> None:
    line = line_of("freecell", 617)
    before = seat.play("freecell", 617, line[:-1])
    page = new_context(**signed_in(live.url, seat.token)).new_page()
    page.goto(f"{live.url}/game/{before['id']}")
    wait_ply(page, before["ply"])
    page.evaluate(HEARD)
    page.locator(BOARD).focus()
    key_move(page, line[-1])  # the largest group the legal list allows: t2's four cards
    page.locator(f"{BOARD}[data-state='won']").wait_for()
    page.locator(".banner").wait_for()
    assert page.evaluate("flights")[0] > 20  # the rest flew home, not only the card moved
