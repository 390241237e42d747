"""The daily challenge in the browser: a first visit lands on the start step (the game, its
rules, the streak, Start: nothing dealt before), then the ranked attempt (hints off, said
in words; a keyed deal whose key waits for the day's end), it is played and ended, the
leaderboard shows the player's place, the streak and stats show, practice starts on the same
deal with ``practice: true``, and the result can be shared. Resumed from home's games list, the
attempt learns from the server that hints are off."""

from __future__ import annotations

from typing import Any

import msgpack

from tests.web.conftest import LiveServer
from tests.web.pages import BOARD, client_faults, register, wait_ply


def sent_messages(page: Any) -> list[dict[str, Any]]:
    """Every message the page sends from now on, decoded."""
    sent: list[dict[str, Any]] = []

    def frames(ws: Any) -> None:
        ws.on(
            "framesent",
            lambda frame: sent.append(msgpack.unpackb(frame)) if isinstance(frame, bytes) else None,
        )

    page.on("websocket", frames)
    return sent


def test_daily_attempt_leaderboard_practice_and_share(page: Any, live: LiveServer) -> None:
    faults = client_faults(page)
    sent = sent_messages(page)
    register(page, f"{live.url}/daily/freecell", "alice")  # the first visit: the start step
    intro = page.locator(".daily-intro")
    intro.wait_for()
    words = intro.inner_text()
    assert "Freecell daily" in words and "Your daily streak: 0 days" in words
    assert "the clock starts then and never pauses" in words
    assert page.locator(BOARD).count() == 0  # nothing dealt: no board, no card
    assert not [m for m in sent if m["type"] == "daily" and m.get("start")]
    page.get_by_role("button", name="Start", exact=True).click()  # then the attempt
    wait_ply(page, 0)
    assert [m.get("start") for m in sent if m["type"] == "daily"] == [None, True]
    head = page.locator(".game-head").inner_text()
    assert "ranked attempt" in head
    assert page.get_by_role("button", name="Your ranked attempt").count() == 0  # it is this
    assert "Deal keyed " in head and "its key shows when the day ends (UTC)" in head
    hint = page.get_by_role("button", name="Hint", exact=True)
    assert hint.is_disabled()
    assert "Hints are off in a ranked daily attempt" in page.locator(".hint-note").inner_text()
    page.locator(BOARD).focus()
    page.keyboard.press("h")  # the key says why too, and asks the server nothing
    page.locator(".message", has_text="Hints are off in a ranked daily attempt").wait_for()
    assert not [m for m in sent if m["type"] == "hint"]
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
    stats = page.locator(".streak", has_text="Freecell: 1 played, 0 won")
    stats.wait_for()
    assert "Daily streak: 0 days" in stats.inner_text() and "dailies won: 0" in stats.inner_text()
    # a daily's key waits for the end of its day, also once the attempt has ended
    assert page.get_by_role("button", name="Check the deal").count() == 0

    page.get_by_role("button", name="Practice this deal").click()
    page.locator(".game-head", has_text="practice").wait_for()
    page.locator(f"{BOARD}[data-state='playing'][data-ply='0']").wait_for()
    dailies = [m for m in sent if m["type"] == "daily"]
    assert dailies[0] == {"type": "daily", "id": dailies[0]["id"], "variant": "freecell"}
    assert dailies[-1] == {
        "type": "daily",
        "id": dailies[-1]["id"],
        "variant": "freecell",
        "practice": True,
    }
    assert page.get_by_role("button", name="Hint", exact=True).is_enabled()  # practice: hints
    page.get_by_role("button", name="Hint", exact=True).click()
    page.locator(".message", has_text="Hint:").wait_for()
    page.get_by_role("button", name="Your ranked attempt").click()
    page.locator(f"{BOARD}[data-state='resigned']").wait_for()
    assert "ranked attempt" in page.locator(".game-head").inner_text()

    page.reload()  # the daily again: the same attempt, ended
    page.locator(f"{BOARD}[data-state='resigned']").wait_for()
    assert "ranked attempt" in page.locator(".game-head").inner_text()

    # the attempt from home's games list: the page learns its kind from the games list, and
    # the server's hints_off, said in the words of that kind, disables the Hint button
    page.get_by_role("link", name="Patience Club").click()
    page.locator(".your-games a", has_text="daily attempt").click()
    # each board that went (the practice game's, the attempt's) told the server: its clock
    # may pause (an unranked one)
    left = [m["game"] for m in sent if m["type"] == "leave_game"]
    assert len(left) >= 2 and len(set(left)) == 2, left
    page.locator(f"{BOARD}[data-state='resigned']").wait_for()
    hint = page.get_by_role("button", name="Hint", exact=True)
    hint.click()
    off = "Hints are off in a ranked daily attempt (practice games allow them)."
    page.locator(".message", has_text=off).wait_for()
    assert hint.is_disabled()
    assert page.locator(".hint-note").inner_text() == off
    assert faults == []


def test_the_leaderboard_page_lists_the_days_attempts(new_context: Any, live: LiveServer) -> None:
    alice = new_context().new_page()
    register(alice, f"{live.url}/daily/freecell", "alice")
    alice.get_by_role("button", name="Start", exact=True).click()
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
