"""Winnable deals on demand, against a real server: served from the pool, refilled by the
workers, kept across a restart, never dealt twice, and solved on request when the pool is
empty (``busy`` when that takes too long)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from sqlalchemy import select

from server.app import App
from server.config import Config
from server.deals.difficulty import difficulty_of, measure
from server.storage.models import Game, PooledDeal
from shared.games import new_game
from shared.variants import Variants
from shared.variants.osmosis import OsmosisRules
from tests.server.conftest import FakeClock, open_client

#: Osmosis alone: its deals solve in milliseconds, so the workers fill its pools at once
OSMOSIS = Variants((OsmosisRules,))


async def pooled(app: App, difficulty: str = "medium") -> list[str]:
    async with app.db_sessions() as db:
        rows = await db.execute(
            select(PooledDeal.deal_key).where(
                PooledDeal.variant == "osmosis", PooledDeal.difficulty == difficulty
            )
        )
        return list(rows.scalars())


async def until_pooled(app: App, count: int, difficulty: str = "medium") -> list[str]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        keys = await pooled(app, difficulty)
        if len(keys) >= count:
            return keys
        await asyncio.sleep(0.1)
    raise AssertionError(f"the pool of {difficulty} deals never held {count}")


async def dealt_key(app: App, game_id: str) -> str:
    async with app.db_sessions() as db:
        row = await db.get(Game, game_id)
        assert row is not None and row.deal_key is not None
        return row.deal_key


def hardness(key: str) -> float:
    found = measure(new_game("osmosis", key=bytes.fromhex(key)), 10.0, time.monotonic)
    assert found is not None
    return found.hardness


async def start_winnable(app: App, name: str, **fields: Any) -> dict[str, Any]:
    client = await open_client(app)
    try:
        await client.hello(name)
        return await client.request(
            "start_game", variant="osmosis", options={}, winnable=True, **fields
        )
    finally:
        await client.ws.close()


async def test_a_winnable_deal_comes_from_the_pool_which_refills_and_survives_a_restart(
    config: Config, clock: FakeClock
) -> None:
    app = App(config.replace(deal_pool_workers=1, deal_pool_size=2), clock=clock, variants=OSMOSIS)
    await app.start()
    try:
        before = await until_pooled(app, 2)
        reply = await start_winnable(app, "alice", difficulty="medium")
        assert reply["type"] == "game", reply
        game = reply["game"]
        assert "key" not in game["deal"]  # secret while the game is played
        key = await dealt_key(app, game["id"])
        assert key in before
        assert key not in await pooled(app)  # taken out for good
        assert difficulty_of("osmosis", hardness(key)) == "medium"
        after = await until_pooled(app, 2)  # the workers fill it again
        assert key not in after
        assert app.deal_pool.solved_on_request == 0
    finally:
        await app.stop()
    # A restart keeps the pool: with no workers at all, the next request is served from it.
    again = App(config.replace(deal_pool_workers=0), clock=clock, variants=OSMOSIS)
    await again.start()
    try:
        # the pool, and the deals the first took ahead (put back); this node takes some ahead
        ahead = [key for ready in again.deal_pool.ready.values() for key, *_ in ready]
        kept = await pooled(again) + ahead
        assert len(kept) >= 2 and key not in kept
        reply = await start_winnable(again, "bob")  # medium unless said
        assert reply["type"] == "game", reply
        second = await dealt_key(again, reply["game"]["id"])
        assert second in kept and second != key
        assert again.deal_pool.solved_on_request == 0
        assert second not in await pooled(again)
    finally:
        await again.stop()


async def test_an_empty_pool_solves_on_request(config: Config, clock: FakeClock) -> None:
    app = App(config.replace(deal_pool_workers=0), clock=clock, variants=OSMOSIS)
    await app.start()
    try:
        assert await pooled(app, "easy") == []
        reply = await start_winnable(app, "alice", difficulty="easy")
        assert reply["type"] == "game", reply
        key = await dealt_key(app, reply["game"]["id"])
        assert difficulty_of("osmosis", hardness(key)) == "easy"
        assert app.deal_pool.solved_on_request == 1
        assert key not in await pooled(app, "easy")
    finally:
        await app.stop()


async def test_an_empty_pool_that_cannot_be_filled_in_time_is_busy(
    config: Config, clock: FakeClock
) -> None:
    app = App(
        config.replace(deal_pool_workers=0, deal_pool_wait_s=0.0), clock=clock, variants=OSMOSIS
    )
    await app.start()
    try:
        reply = await start_winnable(app, "alice", difficulty="hard")
        assert reply["type"] == "error", reply
        assert reply["code"] == "busy"
        assert "no winnable hard osmosis deal is ready" in reply["message"]
    finally:
        await app.stop()


async def test_winnable_excludes_a_seed_or_key(config: Config, clock: FakeClock) -> None:
    app = App(config, clock=clock, variants=OSMOSIS)
    await app.start()
    try:
        reply = await start_winnable(app, "alice", seed=5)
        assert reply["type"] == "error" and reply["code"] == "invalid_field", reply
        client = await open_client(app)
        await client.hello("bob")
        reply = await client.request("start_game", variant="osmosis", difficulty="easy")
        assert reply["type"] == "error" and reply["code"] == "invalid_field", reply
        await client.ws.close()
    finally:
        await app.stop()


async def test_deals_are_taken_ahead_in_batches_not_one_take_per_request(
    config: Config, clock: FakeClock
) -> None:
    # A take per request doubled the write transactions (and the games' writes waited for the
    # database behind them): the node takes AHEAD at start, and again once half are dealt.
    from server.deals.pool import AHEAD, options_text
    from tests.server.races.test_winnable import pool, won_keys

    app = App(config.replace(deal_pool_workers=0), clock=clock, variants=OSMOSIS)
    await app.start()
    try:
        await pool(app, "medium", won_keys(AHEAD + 4))
        await app.deal_pool.stop()  # (its warm-up ran on an empty table): start again
        await app.deal_pool.start()
        ready = ("osmosis", options_text({"deal_three": False}), "medium")
        deadline = time.monotonic() + 30
        while len(app.deal_pool.ready.get(ready, ())) < AHEAD and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert len(await pooled(app)) == 4  # AHEAD taken ahead, in one take
        for dealt in range(1, AHEAD // 2):
            assert (await start_winnable(app, f"p{dealt}"))["type"] == "game"
            await asyncio.sleep(0.05)
            assert len(await pooled(app)) == 4, "no take while more than half are left"
        assert (await start_winnable(app, "last"))["type"] == "game"
        while await pooled(app) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert await pooled(app) == []  # half dealt: the rest taken, in one take
        assert app.deal_pool.solved_on_request == 0
    finally:
        await app.stop()


async def test_a_pool_stopped_while_it_stores_a_deal_stores_it_and_leaves_the_database_free(
    config: Config, clock: FakeClock
) -> None:
    # stop() cancels the fillers; a filler's store under way must end, not be cut inside its
    # transaction (a cut write can hold the database's lock: the put back then waited out the
    # busy timeout and failed with "database is locked").
    from server.deals.difficulty import Found
    from server.deals.pool import options_text
    from tests.server.races.test_winnable import pool, won_keys

    app = App(config.replace(deal_pool_workers=0), clock=clock, variants=OSMOSIS)
    await app.start()
    try:
        kept, taken = won_keys(2)
        await pool(app, "medium", [taken])
        text = options_text({"deal_three": False})
        found = Found(bytes.fromhex(kept), "easy", 10, 20)
        filler = asyncio.create_task(app.deal_pool._keep("osmosis", text, found))
        await asyncio.sleep(0)  # the store has begun
        filler.cancel()
        app.deal_pool._take_ahead(("osmosis", text, "medium"))  # a take under way too
        await app.deal_pool.stop()
        assert (await pooled(app, "easy")) == [kept]  # stored despite the cancellation
        assert (await pooled(app, "medium")) == [taken]  # taken ahead, then put back
        await pool(app, "hard", won_keys(1))  # and the database takes a write at once
    finally:
        await app.stop()
