"""Two accounts asking hints back to back no longer deny them to everyone else."""

from __future__ import annotations

import asyncio
import contextlib

from server.app import App
from tests.server.conftest import Client, ServeWith, open_client

#: a deal whose hints take their whole budget (tests/server/games/test_hints.py)
SLOW = ("thumb_and_pouch", 6)


async def player(app: App, name: str) -> Client:
    client = await open_client(app)
    await client.hello(name)
    return client


async def hog(client: Client, game_id: str, stop: asyncio.Event) -> int:
    """Ask again the moment each hint is answered; how many were answered."""
    answered = 0
    while not stop.is_set():
        reply = await client.request("hint", game=game_id)
        if reply["type"] == "hint":
            answered += 1
        else:
            await asyncio.sleep(0.05)
    return answered


async def test_two_hint_hogs_leave_the_threads_to_a_third_player(serve_with: ServeWith) -> None:
    # The attack as it was seen: two threads, hints of a quarter of a second, two accounts
    # asking again at once; a third player asks now and then.
    app = await serve_with(hint_budget=0.25, hint_concurrency=2)
    hogs = [await player(app, name) for name in ("mallory", "trudy")]
    games = [(await h.start(*SLOW))["id"] for h in hogs]
    carol = await player(app, "carol")
    mine = await carol.start(*SLOW)
    stop = asyncio.Event()
    hogging = [asyncio.create_task(hog(h, g, stop)) for h, g in zip(hogs, games, strict=True)]
    try:
        await asyncio.sleep(0.5)
        replies = []
        for _ in range(6):
            replies.append(await carol.request("hint", game=mine["id"]))
            await asyncio.sleep(0.3)
    finally:
        stop.set()
        for task in hogging:
            with contextlib.suppress(Exception):
                await task
    # carol's rate (3 in a row, one more every 10 s) is what limits her, not the hogs
    answered = [r for r in replies if r["type"] == "hint"]
    assert len(answered) >= 3, [r.get("message") for r in replies]
    assert all("ask again in" in r["message"] for r in replies if r["type"] == "error")
