"""An arena in two browsers: the list, a private arena created and its link shared, joined late,
the live standings, a deal with its par time and berserk, and the final table with the deals'
keys and the games as replays once it is over."""

from __future__ import annotations

import os
import re
from typing import Any

from server.app import App
from tests.server.arenas.conftest import fill_pool
from tests.web.conftest import LiveServer
from tests.web.pages import client_faults, page_errors, register

#: where to write the screenshots of the screens (unset: none are written)
SHOTS = os.environ.get("PATIENCE_SHOTS")


def shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def test_an_arena_from_its_link_to_its_final_table(new_context: Any, live: LiveServer) -> None:
    live.call(fill_pool)
    alice_ctx, bob_ctx = new_context(), new_context(viewport={"width": 390, "height": 844})
    alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
    faults = [client_faults(page) for page in (alice, bob)]
    errors = [page_errors(page) for page in (alice, bob)]
    register(alice, f"{live.url}/", "alice")
    alice.get_by_role("link", name="See the arenas").click()
    alice.wait_for_url(re.compile(r"/arenas$"))
    alice.get_by_text("No arena is on or coming").wait_for()
    alice.locator("#arena-variant").select_option("osmosis")
    alice.locator("#arena-minutes").fill("20")
    alice.locator("#arena-name").fill("Friday Osmosis")
    alice.get_by_role("button", name="Create arena").click()
    alice.wait_for_url(re.compile(r"/arena/[A-Z0-9]{6}$"))
    link = alice.locator(".share-link").input_value()
    assert link == alice.url
    alice.get_by_role("heading", name="Friday Osmosis").wait_for()
    alice.locator(".arena-standings th", has_text="alice").wait_for()
    alice.get_by_role("button", name="Play your first deal").click()
    alice.locator(".arena-game .board").wait_for()
    alice.locator(".arena-deal", has_text="Deal 1").wait_for()
    assert "par" in alice.locator(".arena-deal").inner_text()
    alice.get_by_role("button", name="Berserk").click()
    alice.locator(".arena-deal", has_text="berserk").wait_for()
    assert alice.get_by_role("button", name="Berserk").count() == 0
    shot(alice, "arena-desktop-playing")

    register(bob, link, "bob")  # the link, on a phone: the arena, then Join
    bob.get_by_role("button", name="Join").click()
    bob.locator(".arena-standings th", has_text="bob").wait_for()
    alice.locator(".arena-standings th", has_text="bob").wait_for()  # pushed to alice
    alice.get_by_role("button", name="Resign").click()
    alice.get_by_role("button", name=re.compile("^Yes")).click()
    bob.locator(".arena-standings tr[data-player] td:nth-child(4)", has_text="1").wait_for()
    shot(bob, "arena-phone-standings")

    code = link.rsplit("/", 1)[1]

    async def end(app: App) -> None:
        await app.arenas.cancel(code)
        await app.arenas.tick()

    live.call(end)
    for page in (alice, bob):
        page.get_by_role("heading", name="Final table").wait_for()
        page.locator(".arena-keys code").first.wait_for()
    key = alice.locator(".arena-keys code").first.inner_text()
    assert re.fullmatch(r"[0-9a-f]{64}", key)
    alice.locator(".game-head .deal .reveal").wait_for(state="detached")  # no longer secret
    assert alice.locator(".arena-final-table a.result").first.get_attribute("href", timeout=5000)
    shot(alice, "arena-desktop-final")
    shot(bob, "arena-phone-final")
    assert faults == [[], []] and errors == [[], []]
