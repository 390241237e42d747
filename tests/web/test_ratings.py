"""Ratings in the browser: a rated race created from the home page, its standings with each
racer's rating and change ("1500? +0"), and the room's members with their ratings after it."""

from __future__ import annotations

import re
from typing import Any

from tests.web.conftest import LiveServer
from tests.web.pages import client_faults, page_errors, register


def test_a_rated_race_shows_each_racers_rating_and_its_change(
    new_context: Any, live: LiveServer
) -> None:
    alice, bob = new_context().new_page(), new_context().new_page()
    faults = [client_faults(page) for page in (alice, bob)]
    errors = [page_errors(page) for page in (alice, bob)]
    register(alice, f"{live.url}/", "alice")
    alice.locator("#race-variant").select_option("freecell")
    alice.locator("#race-rated").check()
    alice.get_by_role("button", name="Create race").click()
    alice.wait_for_url(re.compile(r"/race/[A-Z0-9]{6}$"))
    assert "rated" in alice.locator(".room-state").inner_text()
    register(bob, alice.url, "bob")
    alice.locator(".members li[data-connected='true']", has_text="bob").wait_for()
    assert alice.locator(".members .rating").count() == 0  # nobody has a rating yet

    alice.get_by_role("button", name="Start race").click()
    for page in (alice, bob):
        page.get_by_role("button", name="Resign", exact=True).click()
        page.get_by_role("button", name="Yes, resign").click()
    for page in (alice, bob):
        standings = page.locator(".standings table")
        standings.wait_for()
        # both resigned with no card home: a draw, each a new player's 1500, still provisional
        names = standings.locator("tbody th").all_inner_texts()
        assert sorted(names) == ["alice 1500? +0", "bob 1500? +0"], names
        badge = standings.locator(".rating").first
        assert badge.get_attribute("title") == "rating 1500? +0, provisional"
    # the room now shows each member's rating beside the name
    alice.reload()
    alice.locator(".members .rating", has_text="1500?").first.wait_for()
    assert alice.locator(".members .rating").all_inner_texts() == ["1500?", "1500?"]
    assert all(not f for f in faults) and all(not e for e in errors)
