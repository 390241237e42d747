"""A race between two browsers: a link to share, members, countdown, live progress, a link lost
and back mid-race, watching a racer, standings and a rematch."""

from __future__ import annotations

import re
from typing import Any

from shared.games import new_game
from tests.web.conftest import LiveServer
from tests.web.pages import (
    assert_board,
    click_move,
    client_faults,
    drag,
    first_pile_move,
    page_errors,
    pile,
    register,
    top_card,
)

OWN = ".own .game .board"


def test_two_racers_race_to_standings_and_a_rematch(new_context: Any, live: LiveServer) -> None:
    alice_ctx, bob_ctx = new_context(), new_context()
    alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
    faults = [client_faults(alice), client_faults(bob)]
    errors = [page_errors(alice), page_errors(bob)]
    register(alice, f"{live.url}/", "alice")
    alice.locator("#race-variant").select_option("freecell")
    alice.locator("#race-deal").select_option("numbered")
    alice.locator("#race-seed").fill("617")
    alice.locator("#race-hints").check()
    alice.locator("#race-minutes").fill("20")
    alice.get_by_role("button", name="Create race").click()
    alice.wait_for_url(re.compile(r"/race/[A-Z0-9]{6}$"))
    link = alice.locator(".share-link").input_value()
    assert link == alice.url
    assert "time limit 20 min" in alice.locator(".room-state").inner_text()

    register(bob, link, "bob")  # a first visit to the link lands in the room
    bob.locator(".members li", has_text="alice").wait_for()
    alice.locator(".members li[data-connected='true']", has_text="bob").wait_for()

    alice.get_by_role("button", name="Start race").click()
    bob.locator(".countdown", has_text="Starting in").wait_for()
    alice_game, bob_game = new_game("freecell", seed=617), new_game("freecell", seed=617)
    assert_board(alice, alice_game, OWN)
    assert_board(bob, bob_game, OWN)
    assert (
        alice.locator(".strip").bounding_box()["width"]
        < alice.locator(".own").bounding_box()["width"]
    )

    drag(alice, top_card(alice, "t4", OWN), pile(alice, "r0", OWN))
    alice_game.play("t4>r0")
    assert_board(alice, alice_game, OWN)
    bob.locator(".progress li", has_text="1 moves").wait_for()

    # bob's link drops; his move waits, then is played once when he is back
    bob_ctx.set_offline(True)
    live.drop_connections()
    bob.locator("#link-status", has_text="offline").wait_for()
    click_move(bob, "t7", "t1", OWN)
    bob.locator(".message", has_text="Offline").wait_for()
    bob_ctx.set_offline(False)
    bob_game.play("t7>t1")
    assert_board(bob, bob_game, OWN)
    bob.reload()
    assert_board(bob, bob_game, OWN)  # the race game, found again after a reload
    # (progress pushed while a member was away is not sent again: the strip catches up with
    # the next action)
    click_move(bob, "t4", "r0", OWN)
    bob_game.play("t4>r0")
    assert_board(bob, bob_game, OWN)
    alice.locator(".progress li", has_text="2 moves").wait_for()

    # alice resigns, then watches bob by clicking his name
    alice.get_by_role("button", name="Resign", exact=True).click()
    alice.get_by_role("button", name="Yes, resign").click()
    alice.locator(f"{OWN}[data-state='resigned']").wait_for()
    alice.locator(".progress").get_by_role("button", name="bob").click()
    alice.locator(".watched .board[data-ply='2']").wait_for()
    move = first_pile_move(bob_game)
    click_move(bob, *move.split(">"), OWN)
    bob_game.play(move)
    assert_board(bob, bob_game, OWN)
    assert_board(alice, bob_game, ".watched .board")

    bob.get_by_role("button", name="Resign", exact=True).click()
    bob.get_by_role("button", name="Yes, resign").click()
    for page in (alice, bob):
        standings = page.locator(".standings table")
        standings.wait_for()
        text = standings.inner_text()
        assert "alice" in text and "bob" in text and "resigned" in text
        assert re.search(r"\d+:\d\d", text), "standings show each racer's time"

    alice.get_by_role("button", name="Rematch").click()
    bob.locator(".countdown", has_text="Starting in").wait_for()
    for page in (alice, bob):
        page.locator(f"{OWN}[data-ply='0'][data-state='playing']").wait_for()
        page.locator(".standings").wait_for(state="hidden")
    assert faults == [[], []]
    # (the browser logs the dropped link as an error of its own)
    assert [[e for e in page if "WebSocket" not in e] for page in errors] == [[], []]
