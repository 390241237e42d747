"""A race between two browsers and a third that watches: a link to share, members, countdown,
live progress, hints off said in words, a link lost and back mid-race with no move lost or
doubled, a spectator who picks a racer by name, watching a racer once one's own game is over,
standings, and a rematch on a keyed deal whose key shows, checked, once the race is over."""

from __future__ import annotations

import hashlib
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
WATCHED = ".watched .board"


def test_two_racers_and_a_spectator_race_to_standings_and_a_rematch(
    new_context: Any, live: LiveServer
) -> None:
    alice_ctx, bob_ctx, carol_ctx = new_context(), new_context(), new_context()
    alice, bob, carol = alice_ctx.new_page(), bob_ctx.new_page(), carol_ctx.new_page()
    pages = (alice, bob, carol)
    faults = [client_faults(page) for page in pages]
    errors = [page_errors(page) for page in pages]
    register(alice, f"{live.url}/", "alice")
    alice.locator("#race-variant").select_option("freecell")
    alice.locator("#race-deal").select_option("numbered")
    alice.locator("#race-seed").fill("617")
    alice.locator("#race-minutes").fill("20")  # hints stay off
    alice.get_by_role("button", name="Create race").click()
    alice.wait_for_url(re.compile(r"/race/[A-Z0-9]{6}$"))
    link = alice.locator(".share-link").input_value()
    assert link == alice.url
    assert "time limit 20 min" in alice.locator(".room-state").inner_text()
    assert "hints off" in alice.locator(".room-state").inner_text()

    register(bob, link, "bob")  # a first visit to the link lands in the room
    bob.locator(".members li", has_text="alice").wait_for()
    alice.locator(".members li[data-connected='true']", has_text="bob").wait_for()
    register(carol, f"{link}?as=spectator", "carol")  # and as a spectator, with ?as=spectator
    alice.locator(".members li", has_text="carol").get_by_text("spectator").wait_for()
    carol.get_by_text("You are watching this room").wait_for()

    alice.get_by_role("button", name="Start race").click()
    bob.locator(".countdown", has_text="Starting in").wait_for()
    alice_game, bob_game = new_game("freecell", seed=617), new_game("freecell", seed=617)
    assert_board(alice, alice_game, OWN)
    assert_board(bob, bob_game, OWN)
    assert (
        alice.locator(".strip").bounding_box()["width"]
        < alice.locator(".own").bounding_box()["width"]
    )
    assert alice.get_by_role("button", name="Hint", exact=True).is_disabled()
    assert "Hints are off in this race" in alice.locator(".hint-note").inner_text()
    assert carol.locator(".game").count() == 0  # a spectator has no board of their own
    racers = carol.locator(".progress li").all_inner_texts()
    assert [line.split("\n")[0] for line in racers] == ["alice", "bob"]
    # the spectator picks bob by his name; his board takes the large place
    carol.locator(".progress").get_by_role("button", name="bob").click()
    assert_board(carol, bob_game, WATCHED)
    assert carol.locator(f".own {WATCHED}").count() == 1

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
    assert_board(carol, bob_game, WATCHED)  # played once: the spectator saw ply 1, not 2
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
    assert_board(alice, bob_game, WATCHED)
    assert_board(carol, bob_game, WATCHED)

    bob.get_by_role("button", name="Resign", exact=True).click()
    bob.get_by_role("button", name="Yes, resign").click()
    for page in pages:
        standings = page.locator(".standings table")
        standings.wait_for()
        rows = standings.locator("tbody tr").all_inner_texts()
        assert sorted(row.split("\t")[1] for row in rows) == ["alice", "bob"], rows  # not carol
        for row in rows:
            assert "resigned" in row and re.search(r"\d+:\d\d", row), "state and time"

    # a rematch without a number is on a keyed deal; its key waits for the race's end
    alice.get_by_role("button", name="Rematch").click()
    bob.locator(".countdown", has_text="Starting in").wait_for()
    for page in (alice, bob):
        page.locator(f"{OWN}[data-ply='0'][data-state='playing']").wait_for()
        page.locator(".standings").wait_for(state="hidden")
        assert "its key shows when the race is over" in page.locator(".game-head").inner_text()
    carol.locator(f"{WATCHED}[data-ply='0'][data-state='playing']").wait_for()  # still bob's
    assert "Watching bob" in carol.locator(".watching-title").inner_text()
    commitment = alice.locator(".game-head .commitment").inner_text().removeprefix("commitment ")
    alice.get_by_role("button", name="Resign", exact=True).click()
    alice.get_by_role("button", name="Yes, resign").click()
    alice.locator(f"{OWN}[data-state='resigned']").wait_for()
    assert alice.locator(".deal-key").count() == 0, "the key waits for race_over"
    bob.get_by_role("button", name="Resign", exact=True).click()
    bob.get_by_role("button", name="Yes, resign").click()
    carol.locator(".standings table").wait_for()
    for page in (alice, bob):
        page.get_by_role("button", name="Check the deal").click()
        page.locator(".check-result[data-matches='true']").wait_for()
        key = page.locator(".deal-key").inner_text().removeprefix("key ")
        text = f"patience-club/deal/v1|freecell|{key}"
        assert hashlib.sha256(text.encode()).hexdigest() == commitment
    assert faults == [[], [], []]
    # (the browser logs the dropped link as an error of its own)
    assert [[e for e in page if "WebSocket" not in e] for page in errors] == [[], [], []]


def test_the_race_form_chooses_what_spectators_see_and_the_room_says_it(
    new_context: Any, live: LiveServer
) -> None:
    page = new_context().new_page()
    errors = page_errors(page)
    register(page, f"{live.url}/", "alice")
    page.locator("#race-rated").check()  # a rated race hides the boards, whatever is chosen
    page.get_by_role("button", name="Create race").click()
    page.wait_for_url(re.compile(r"/race/[A-Z0-9]{6}$"))
    assert "boards hidden until the end" in page.locator(".room-state").inner_text()
    page.goto(f"{live.url}/")
    page.locator("#race-boards").select_option("delayed")
    page.get_by_role("button", name="Create race").click()
    page.wait_for_url(re.compile(r"/race/[A-Z0-9]{6}$"))
    assert "boards shown late" in page.locator(".room-state").inner_text()
    assert errors == []


def test_the_race_form_asks_for_winnable_deals_and_the_race_deals_one_from_the_pool(
    new_context: Any, live: LiveServer
) -> None:
    from tests.server.races.test_winnable import dealt_keys, pool, pooled, won_keys

    keys = won_keys(1)
    live.call(lambda app: pool(app, "hard", keys))
    page = new_context().new_page()
    errors = page_errors(page)
    register(page, f"{live.url}/", "alice")
    page.locator("#race-variant").select_option("osmosis")
    page.locator("#race-deal").select_option("hard")
    page.get_by_role("button", name="Create race").click()
    page.wait_for_url(re.compile(r"/race/[A-Z0-9]{6}$"))
    assert "winnable deals, hard" in page.locator(".room-state").inner_text()
    page.get_by_role("button", name="Start race").click()
    page.locator(OWN).wait_for()
    assert live.call(pooled) == []  # the race took the pool's one hard deal, and dealt it
    assert live.call(dealt_keys) == keys
    assert errors == []
