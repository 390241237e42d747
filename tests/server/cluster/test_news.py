"""The news between nodes: typed, read back as sent, and delivered to whoever subscribed."""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack

from server.cluster import news
from shared import protocol as p
from shared.games import new_game


def sent(told: news.News) -> dict[str, Any]:
    """What another node reads: the map as published, through msgpack."""
    message = {"kind": told.kind, "node": "other", **told.to_map()}
    unpacked: dict[str, Any] = msgpack.unpackb(msgpack.packb(message), raw=False)
    return unpacked


def test_every_kind_of_news_reads_back_as_it_was_sent() -> None:
    examples: list[news.News] = [
        news.Online(7),
        news.Offline(7),
        news.Roster((1, 2)),
        news.RollCall(),
        news.Unwatched("ABCD", (1,), None),
        news.Ranked("gypsy", "2026-12-04", (0, 1200, 80)),
        news.RaceGames(("g1", "g2"), True),
        news.BotsRemoved((3,), ("g3",)),
        news.GamesForgotten(("g4",)),
        news.Released(("ABCD", "EFGH")),
        news.Resync(1_000),
        news.ArenaLine("ABCDEF", 7, "alice", 5, 3, 2, True),
    ]
    view = new_game("gypsy", seed=3).view() | {"id": "g1", "elapsed_ms": 0, "hints": 0}
    examples.append(news.RaceActed("g1", 7, 0, 0, 0, "playing", p.GameView.from_map(view)))
    assert {type(told) for told in examples} | {news.RaceActed} == set(news.KINDS.values())
    for told in examples:
        assert news.decode(sent(told)) == told
    assert news.decode({"kind": "nonsense", "node": "other"}) is None


def test_subscribers_hear_only_their_type_in_the_order_they_subscribed() -> None:
    heard: list[str] = []
    subscribers = news.Subscribers()

    async def later(told: news.Resync) -> None:
        heard.append(f"later {told.since_ms}")

    subscribers.subscribe(news.Resync, lambda told: heard.append(f"first {told.since_ms}"))
    subscribers.subscribe(news.Resync, later)
    subscribers.subscribe(news.Online, lambda told: heard.append("online"))
    assert subscribers.deliver(news.Offline(1)) is None
    waiting = subscribers.deliver(news.Resync(5))
    assert heard == ["first 5"] and waiting is not None
    asyncio.run(_wait(waiting))
    assert heard == ["first 5", "later 5"]


async def _wait(waiting: Any) -> None:
    await waiting
