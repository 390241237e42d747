"""Fair play shown in the browser, end to end: a keyed solo deal shows the start of its
commitment and nothing of its key while it is played; once the game is resigned the key shows,
the page checks it with WebCrypto, and the command it offers to copy checks it too; the key
deals the same game again. A daily's key is held until its day has ended."""

from __future__ import annotations

import hashlib
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgpack

from server.config import Config
from shared.games import new_game
from tests.server.conftest import FakeClock
from tests.web.conftest import LiveServer
from tests.web.pages import BOARD, assert_board, client_faults, page_errors, register, wait_ply

DAY_MS = 86_400_000


def deals_received(page: Any) -> list[tuple[str, dict[str, Any]]]:
    """The state and ``deal`` of every game the page receives from now on (views in replies
    and pushes, entries of the games list)."""
    deals: list[tuple[str, dict[str, Any]]] = []

    def frames(ws: Any) -> None:
        def received(frame: bytes | str) -> None:
            if isinstance(frame, bytes):
                message = msgpack.unpackb(frame)
                for view in (message.get("game"), *(g for g in message.get("games") or [])):
                    if isinstance(view, dict) and "deal" in view:
                        deals.append((view["state"], view["deal"]))

        ws.on("framereceived", received)

    page.on("websocket", frames)
    return deals


def test_a_keyed_deal_shows_its_commitment_then_its_key_checked_two_ways(
    page: Any, live: LiveServer
) -> None:
    faults, errors = client_faults(page), page_errors(page)
    deals = deals_received(page)
    register(page, f"{live.url}/", "alice")
    page.goto(f"{live.url}/play/freecell")  # no deal number: the server draws a secret key
    wait_ply(page, 0)
    commitment = page.locator(".game-head .commitment").inner_text().removeprefix("commitment ")
    assert len(commitment) == 64
    head = page.locator(".game-head").inner_text()
    assert f"Deal keyed {commitment[:8]}\u2026" in head
    assert "its key shows when the game is won or resigned" in head
    assert page.get_by_role("button", name="Check the deal").count() == 0

    page.get_by_role("button", name="Resign", exact=True).click()
    page.get_by_role("button", name="Yes, resign").click()
    page.locator(f"{BOARD}[data-state='resigned']").wait_for()
    key = page.locator(".deal-key").inner_text().removeprefix("key ")
    text = f"patience-club/deal/v1|freecell|{key}"
    assert hashlib.sha256(text.encode()).hexdigest() == commitment

    page.get_by_role("button", name="Check the deal").click()
    result = page.locator(".check-result[data-matches='true']")
    result.wait_for()
    assert "matches the commitment (SHA-256 by WebCrypto)" in result.inner_text()

    command = page.get_by_label("Command that checks the deal").input_value()
    assert command == f"patience-club verify freecell {commitment} {key}"
    words = shlex.split(command)
    run = subprocess.run(
        [str(Path(sys.executable).parent / words[0]), *words[1:]],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("OK: the key matches")

    page.get_by_role("link", name="Play this deal again").click()
    page.locator(f"{BOARD}[data-state='playing']").wait_for()  # the new game, not the old (ply 0)
    wait_ply(page, 0)
    game = new_game("freecell", key=bytes.fromhex(key))
    assert_board(page, game)  # the same deal, dealt again from its key
    assert page.locator(".deal-key").inner_text() == f"key {key}"  # shown from the start
    # (read at the end, when every frame has long been reported)
    secret = [(state, deal) for state, deal in deals if deal.get("commitment") == commitment]
    states = [state for state, _ in secret]
    assert states[0] == "playing" and "resigned" in states
    before = secret[: states.index("resigned")]  # the drawn key's game, until it ended
    assert all(set(deal) == {"commitment"} for _, deal in before), "no key while it was played"
    assert secret[states.index("resigned")][1]["key"] == key
    assert faults == [] and errors == []


def test_a_dailys_key_shows_once_its_day_has_ended(page: Any, web_config: Config) -> None:
    """The attempt's key is held while its day lasts, also once the attempt has ended; the day
    over (the server's clock moved past midnight UTC), the same game shows it, checked."""
    clock = FakeClock()
    live = LiveServer(web_config, clock=clock).start()
    try:
        register(page, f"{live.url}/daily/freecell", "alice")
        page.get_by_role("button", name="Start", exact=True).click()
        wait_ply(page, 0)
        page.get_by_role("button", name="Resign", exact=True).click()
        page.get_by_role("button", name="Yes, resign").click()
        page.locator(f"{BOARD}[data-state='resigned']").wait_for()
        page.get_by_role("link", name="Patience Club").click()
        page.locator(".your-games a", has_text="daily attempt").click()
        page.locator(f"{BOARD}[data-state='resigned']").wait_for()
        assert "its key shows when" in page.locator(".game-head").inner_text()
        assert page.locator(".deal-key").count() == 0
        commitment = page.locator(".game-head .commitment").inner_text().removeprefix("commitment ")

        clock.advance(DAY_MS)
        page.reload()
        page.get_by_role("button", name="Check the deal").click()
        page.locator(".check-result[data-matches='true']").wait_for()
        key = page.locator(".deal-key").inner_text().removeprefix("key ")
        text = f"patience-club/deal/v1|freecell|{key}"
        assert hashlib.sha256(text.encode()).hexdigest() == commitment
    finally:
        live.stop()
