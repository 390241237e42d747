"""Replays: a won game opens at /replay/ID from its end banner and steps through move by move
(first, back, forward, last, play) to the same final board; the link opens it for another
player once the deal is shown, and a game still played says why it has no replay."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from shared.games import new_game
from shared.solver import Budget, solve
from tests.web.conftest import LiveServer
from tests.web.pages import assert_board, client_faults, page_errors, register, wait_ply
from tests.web.seats import Seat, signed_in
from tests.web.test_end import NOTATION

REPLAY = ".replay .board"


@pytest.fixture
def seat(live: LiveServer) -> Iterator[Seat]:
    player = Seat(live.url, "winner")
    yield player
    player.close()


def test_a_replay_steps_through_a_won_game_to_the_same_final_board(
    live: LiveServer, seat: Seat, new_context: Callable[..., Any]
) -> None:
    line = list(solve("freecell", 617, {}, Budget(positions=200_000)).line)
    actions = [line[0], "undo", *line]  # an undo on the way: replayed as played
    won = seat.play("freecell", 617, actions)
    assert won["state"] == "won"
    page = new_context(**signed_in(live.url, seat.token)).new_page()
    faults, errors = client_faults(page), page_errors(page)
    page.goto(f"{live.url}/game/{won['id']}")
    wait_ply(page, won["ply"])
    page.locator(".banner").get_by_role("link", name="Watch the replay").click()
    page.wait_for_url(f"**/replay/{won['id']}")

    engine = new_game("freecell", seed=617)
    assert_board(page, engine, REPLAY)  # as dealt
    step = page.locator(".replay-step")
    assert f"{len(actions)} moves" in step.inner_text()
    forward = page.get_by_role("button", name="Forward")
    for action in actions[:3]:
        forward.click()
        engine.play(action)
        assert_board(page, engine, REPLAY)
    assert step.inner_text().startswith("Move 3 of")
    assert not NOTATION.search(step.inner_text()), step.inner_text()  # the board's names
    page.get_by_role("button", name="Back").click()
    wait_ply(page, 2, REPLAY)
    page.keyboard.press("ArrowRight")
    wait_ply(page, 3, REPLAY)

    page.get_by_role("button", name="Last").click()
    final = new_game("freecell", seed=617)
    for action in actions:
        final.play(action)
    assert_board(page, final, REPLAY)  # the same final board as the game's
    assert page.locator(REPLAY).get_attribute("data-state") == "won"
    assert page.get_by_role("button", name="Forward").is_disabled()
    assert page.url.endswith(f"?step={len(actions)}")

    page.get_by_role("button", name="First").click()
    wait_ply(page, 0, REPLAY)
    page.get_by_label("Speed").select_option("8")
    page.get_by_role("button", name="Play").click()
    # plays on by itself (8 moves a second: ply 6 is on screen for 125 ms, which a poll of
    # the page under load can miss, so the wait is for any ply from 6 on)
    page.wait_for_function(
        f'() => Number(document.querySelector("{REPLAY}")?.dataset.ply) >= 6', polling=50
    )
    page.get_by_role("button", name="Pause").click()
    page.screenshot(path="/tmp/replay-desktop.png")
    assert faults == [] and errors == []

    # the link, shared: another player opens it at a step (the deal is a numbered one)
    other = new_context().new_page()
    register(other, f"{live.url}/replay/{won['id']}?step=5", "friend")
    wait_ply(other, 5, REPLAY)
    at_five = new_game("freecell", seed=617)
    for action in actions[:5]:
        at_five.play(action)
    assert_board(other, at_five, REPLAY)
    assert "winner" in other.locator(".replay h2").inner_text()


def test_a_game_still_played_has_no_replay_yet(
    live: LiveServer, seat: Seat, new_context: Callable[..., Any]
) -> None:
    playing = seat.play("freecell", 617, [])
    page = new_context(**signed_in(live.url, seat.token, lang="fr")).new_page()
    page.goto(f"{live.url}/replay/{playing['id']}")
    assert "encore en cours" in page.get_by_role("alert").inner_text()
