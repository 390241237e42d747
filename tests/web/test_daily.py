"""The daily challenge in the browser: a first visit lands in the ranked attempt, it is played
and ended, the leaderboard shows the player's place, practice starts on the same deal, and the
result can be shared."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import LiveServer
from tests.web.pages import BOARD, register, wait_ply


def test_daily_attempt_leaderboard_practice_and_share(page: Any, live: LiveServer) -> None:
    register(page, f"{live.url}/daily/freecell", "alice")  # the first visit, then the attempt
    wait_ply(page, 0)
    assert "ranked attempt" in page.locator(".game-head").inner_text()
    page.get_by_role("button", name="Leaderboard").click()
    page.get_by_text("You have no ended attempt on this day.").wait_for()

    page.get_by_role("button", name="Auto").click()  # an action, refused or played: either way
    page.get_by_role("button", name="Resign", exact=True).click()
    page.get_by_role("button", name="Yes, resign").click()
    page.locator(f"{BOARD}[data-state='resigned']").wait_for()
    page.locator(".my-place", has_text="Your place: 1 of 1").wait_for()
    row = page.locator(".leaderboard tr.me")
    assert "alice" in row.inner_text() and "resigned" in row.inner_text()
    share = page.locator(".share-text").inner_text()
    assert (
        share.startswith("Patience Club") and "Freecell daily" in share and "rank 1 of 1" in share
    )
    assert "Daily streak" in page.locator(".streak").inner_text()

    page.get_by_role("button", name="Practice this deal").click()
    page.locator(".game-head", has_text="practice").wait_for()
    page.locator(f"{BOARD}[data-state='playing'][data-ply='0']").wait_for()

    page.reload()  # the daily again: the same attempt, ended
    page.locator(f"{BOARD}[data-state='resigned']").wait_for()
    assert "ranked attempt" in page.locator(".game-head").inner_text()


def test_the_leaderboard_page_lists_the_days_attempts(new_context: Any, live: LiveServer) -> None:
    alice = new_context().new_page()
    register(alice, f"{live.url}/daily/freecell", "alice")
    wait_ply(alice, 0)
    alice.get_by_role("button", name="Resign", exact=True).click()
    alice.get_by_role("button", name="Yes, resign").click()
    alice.locator(f"{BOARD}[data-state='resigned']").wait_for()
    bob = new_context().new_page()
    register(bob, f"{live.url}/", "bob")
    bob.get_by_role("link", name="Freecell leaderboard").click()
    bob.locator(".leaderboard table").wait_for()
    assert "alice" in bob.locator(".leaderboard table").inner_text()
    assert "You have no ended attempt" in bob.locator(".my-place").inner_text()
