"""A game's size is bounded: ``max_actions`` actions at most, then only resign; what each
action keeps in memory (the undo history) does not grow with the game."""

from __future__ import annotations

import gc
import tracemalloc
from typing import Any

import pytest

from server.app import App
from tests.server.conftest import Client, ServeWith, open_client

FAST = {"rate_limit": 100_000.0, "rate_burst": 100_000}


def shuffle(view: dict[str, Any]) -> str:
    """A card to a free cell and back, forever: the cheapest way to grow a game."""
    back = [m for m in view["legal"] if m.startswith("r")]
    return back[0] if back else next(m for m in view["legal"] if m.endswith(">r0"))


async def played(client: Client, view: dict[str, Any], actions: int) -> dict[str, Any]:
    for _ in range(actions):
        reply = await client.move(view, shuffle(view))
        assert reply["type"] == "game", reply
        view = reply["game"]
        client.received.clear()  # (the test client keeps what it read: not the server's memory)
    return view


async def test_past_max_actions_only_resign_is_accepted(serve_with: ServeWith) -> None:
    app = await serve_with(max_actions=30, **FAST)
    client = await open_client(app)
    await client.hello("shuffler")
    view = await played(client, await client.start("freecell", seed=617, autoplay=False), 30)
    assert view["ply"] == 30
    refused = await client.move(view, shuffle(view))
    assert refused["code"] == "too_many_actions" and "resign" in refused["message"]
    undo = await client.request("undo", game=view["id"], ply=30)
    assert undo["code"] == "too_many_actions"
    resigned = await client.request("resign", game=view["id"], ply=30)
    assert (resigned["type"], resigned["game"]["state"]) == ("game", "resigned")


@pytest.mark.sqlite_only  # memory per action: the database plays no part
async def test_what_a_game_keeps_per_action_is_bounded(serve_with: ServeWith) -> None:
    """Shuffling a card back and forth keeps one undo snapshot per action: its size must not
    depend on how long the game has been (copy on write: only the piles an action changed)."""
    app: App = await serve_with(**FAST)
    client = await open_client(app)
    await client.hello("shuffler")
    view = await client.start("freecell", seed=617, autoplay=False)
    live = await app.game_store.get(view["id"])
    view = await played(client, view, 50)  # warm up: caches, first snapshots
    tracemalloc.start(1)
    try:
        engine = [tracemalloc.Filter(True, "*/shared/*")]
        gc.collect()
        before = tracemalloc.take_snapshot().filter_traces(engine)
        view = await played(client, view, 400)
        gc.collect()
        after = tracemalloc.take_snapshot().filter_traces(engine)
    finally:
        tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    per_action = grown / 400
    assert live.game.ply == 450
    # About 430 bytes in a Freecell game's history; far below what a position copy costs.
    assert 0 < per_action < 1024, per_action
