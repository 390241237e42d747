"""A challenge between two browsers: "Challenge a friend" on the end banner of a finished secret
deal, the link's landing before sign-in ("alice challenges you"), the friend's game on the same
deal with the ghost line under its header, the results side by side on both pages (the
challenger's by a push), the match's score, and a rematch that comes back to the challenger."""

from __future__ import annotations

import re
from typing import Any

from tests.web.conftest import LiveServer
from tests.web.pages import BOARD, client_faults, page_errors, register

SHOTS = "/tmp/challenge-shots"


def resign(page: Any) -> None:
    page.get_by_role("button", name="Resign", exact=True).click()
    page.get_by_role("button", name="Yes, resign").click()
    page.locator(f"{BOARD}[data-state='resigned']").wait_for()


def test_a_friend_answers_a_challenge_link_and_both_see_the_results(
    new_context: Any, live: LiveServer
) -> None:
    alice = new_context().new_page()
    bob = new_context(viewport={"width": 390, "height": 844}).new_page()  # a phone
    faults = [client_faults(p) for p in (alice, bob)]
    errors = [page_errors(p) for p in (alice, bob)]
    register(alice, f"{live.url}/play/freecell", "alice")
    alice.locator(f"{BOARD}[data-state='playing']").wait_for()
    resign(alice)
    banner = alice.locator(".banner")
    banner.get_by_label("Match length").select_option("3")
    banner.get_by_role("button", name="Challenge a friend").click()
    link = banner.locator(".challenge-link").input_value()
    assert re.fullmatch(rf"{re.escape(live.url)}/challenge/[A-Za-z0-9_-]+", link), link
    alice.screenshot(path=f"{SHOTS}-banner-desktop.png")
    banner.get_by_role("link", name="Follow this challenge").click()
    alice.get_by_text("Waiting for a friend to play it.").wait_for()
    assert "Best of 3" in alice.locator(".match-score").inner_text()

    # Bob's first visit: who challenges him, before he has a name.
    bob.goto(link)
    bob.locator(".invitation", has_text="alice challenges you to Freecell, best of 3").wait_for()
    bob.screenshot(path=f"{SHOTS}-landing-phone.png")
    field = bob.get_by_label("Name", exact=True)
    field.fill("bob")
    field.press("Enter")
    bob.get_by_role("heading", name="alice challenges you: Freecell").wait_for()
    bob.get_by_role("button", name="Play", exact=True).click()
    bob.locator(f"{BOARD}[data-state='playing']").wait_for()
    bob.locator(".ghost-line", has_text="Ghost of alice:").wait_for()
    assert "cards home" in bob.locator(".ghost-line").inner_text()
    bob.screenshot(path=f"{SHOTS}-ghost-phone.png")
    # no key while he plays: only the commitment is on his page
    assert "Key" not in bob.locator(".game-head").inner_text()
    alice.get_by_text("bob is playing it now.").wait_for()
    resign(bob)

    for page in (bob, alice):  # alice's page hears of it by a push
        result = page.locator(".challenge-result")
        result.wait_for()
        table = result.locator("table.side-by-side")
        heads = table.locator("thead th").all_inner_texts()
        assert heads == ["alice", "bob"], heads
        assert table.get_by_role("link", name="Watch the replay").count() == 2
        assert (
            "1 draw" in page.locator(".match-score").inner_text()
            or "1" in page.locator(".match-score").inner_text()
        )
    alice.screenshot(path=f"{SHOTS}-result-desktop.png")
    bob.screenshot(path=f"{SHOTS}-result-phone.png")

    # Bob answers with a rematch: a new deal, his to play first; then it is alice's turn.
    bob.get_by_role("button", name="Rematch").click()
    bob.get_by_text("Your round: play this deal").wait_for()
    bob.locator(f"{BOARD}[data-state='playing']").wait_for()
    resign(bob)
    alice.get_by_role("link", name="Play the next round").click()
    alice.get_by_role("heading", name="bob challenges you: Freecell").wait_for()
    assert "Round 2" in alice.locator(".challenge-head .round").inner_text()
    alice.get_by_role("button", name="Play", exact=True).click()
    alice.locator(".ghost-line", has_text="Ghost of bob").wait_for()
    resign(alice)
    alice.locator(".challenge-result").wait_for()
    # home lists them, each a link to its page
    alice.get_by_role("link", name="Home").first.click()
    lines = alice.locator(".your-challenges li")
    lines.first.wait_for()
    assert "Freecell with bob, round 2" in lines.first.inner_text()
    assert "Best of 3" in lines.first.inner_text()
    assert faults == [[], []] and errors == [[], []]


def test_a_live_match_in_a_race_room_keeps_its_score(new_context: Any, live: LiveServer) -> None:
    alice, bob = new_context().new_page(), new_context().new_page()
    faults = [client_faults(p) for p in (alice, bob)]
    errors = [page_errors(p) for p in (alice, bob)]
    register(alice, f"{live.url}/", "alice")
    alice.locator("#race-variant").select_option("freecell")
    alice.get_by_role("button", name="Create race").click()
    alice.wait_for_url(re.compile(r"/race/[A-Z0-9]{6}$"))
    register(bob, alice.url, "bob")
    alice.locator(".members li", has_text="bob").wait_for()
    match = alice.locator(".race-match")
    match.get_by_role("button", name="Best of 3").click()
    for page in (alice, bob):
        page.locator(
            ".race-match .match-score", has_text="Best of 3 \u00b7 alice 0 \u2013 0 bob"
        ).wait_for()
    alice.get_by_role("button", name="Start race").click()
    for page in (alice, bob):
        page.locator(f".own {BOARD}[data-state='playing']").wait_for()
        page.get_by_role("button", name="Resign", exact=True).click()
        page.get_by_role("button", name="Yes, resign").click()
    for page in (alice, bob):
        page.locator(".race-match .match-score", has_text="1 draw").wait_for()
        heads = page.locator(".race-match table.side-by-side thead th").all_inner_texts()
        assert heads == ["alice", "bob"], heads
    alice.screenshot(path=f"{SHOTS}-race-match-desktop.png")
    assert faults == [[], []] and errors == [[], []]
