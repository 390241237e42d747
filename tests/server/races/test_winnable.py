"""Winnable races over the wire: a room's host asks for winnable deals of a difficulty at
creation, and each race the server deals comes from the deal pool of that difficulty (an
empty pool past ``deal_pool_wait_s``: ``busy``, the race not started)."""

from __future__ import annotations

from sqlalchemy import select

from server.app import App
from server.deals.difficulty import find
from server.deals.pool import options_text
from server.storage.models import Game, PooledDeal
from shared.deals import commitment
from shared.variants import STANDARD
from shared.variants.osmosis import OsmosisRules
from tests.server.conftest import Connect, ServeWith, open_client
from tests.server.pushes import push


def won_keys(count: int) -> list[str]:
    """Keys of Osmosis deals the pool's own worker function has won (milliseconds each)."""
    keys: list[str] = []
    while len(keys) < count:
        keys += [found.key.hex() for found in find(OsmosisRules, {}, 4, 10.0)]
    return keys[:count]


async def pool(app: App, difficulty: str, keys: list[str]) -> None:
    """``keys`` in the Osmosis pool of ``difficulty``, as the pool's workers store them."""
    text = options_text(STANDARD.rules("osmosis", {}).options)
    async with app.db_sessions() as db, db.begin():
        db.add_all(
            PooledDeal(
                variant="osmosis",
                options=text,
                difficulty=difficulty,
                deal_key=key,
                positions=1,
                line=1,
                created_ms=0,
            )
            for key in keys
        )


async def pooled(app: App) -> list[tuple[str, str]]:
    async with app.db_sessions() as db:
        rows = await db.execute(select(PooledDeal.difficulty, PooledDeal.deal_key))
        return [(difficulty, key) for difficulty, key in rows.all()]


async def dealt_keys(app: App) -> list[str]:
    """The keys of every game's keyed deal."""
    async with app.db_sessions() as db:
        rows = await db.execute(select(Game.deal_key).where(Game.deal_key.is_not(None)))
        return [key for key in rows.scalars() if key is not None]


async def test_a_winnable_room_deals_each_race_from_the_pool_of_its_difficulty(
    serve_with: ServeWith,
) -> None:
    app = await serve_with(deal_pool_workers=0)
    hard, medium = won_keys(3), won_keys(1)
    await pool(app, "hard", hard)
    await pool(app, "medium", medium)
    alice, bob = await open_client(app), await open_client(app)
    await alice.hello("alice")
    await bob.hello("bob")
    reply = await alice.request(
        "create_room", variant="osmosis", winnable=True, difficulty="hard", hints=True
    )
    room = reply["room"]
    assert room["difficulty"] == "hard" and room["seed"] is None
    code = room["code"]
    assert (await bob.request("join_room", code=code))["room"]["difficulty"] == "hard"
    dealt = []
    for _ in range(2):
        assert (await alice.request("start_race", code=code))["type"] == "ok"
        alices = (await push(alice, "race_started", code=code))["game"]
        bobs = (await push(bob, "race_started", code=code))["game"]
        assert bobs["deal"] == alices["deal"] and set(alices["deal"]) == {"commitment"}
        async with app.db_sessions() as db:
            row = await db.get(Game, alices["id"])
            assert row is not None and row.deal_key is not None
            dealt.append(row.deal_key)
        assert commitment("osmosis", bytes.fromhex(dealt[-1])) == alices["deal"]["commitment"]
        for client, game in ((alice, alices), (bob, bobs)):
            await client.request("resign", game=game["id"], ply=0)
        await push(alice, "race_over", code=code)
    # Two races, two hard deals of the pool, each taken out of it; the medium one untouched.
    assert set(dealt) <= set(hard) and len(set(dealt)) == 2
    left = await pooled(app)
    assert ("medium", medium[0]) in left and not set(dealt) & {key for _, key in left}


async def test_an_empty_pool_past_its_wait_is_busy_and_the_race_does_not_start(
    serve_with: ServeWith,
) -> None:
    app = await serve_with(deal_pool_workers=0, deal_pool_wait_s=0.0)
    alice = await open_client(app)
    await alice.hello("alice")
    room = (await alice.request("create_room", variant="osmosis", winnable=True))["room"]
    assert room["difficulty"] == "medium"  # the default difficulty
    refused = await alice.request("start_race", code=room["code"])
    assert refused["code"] == "busy" and "winnable medium osmosis" in refused["message"]
    again = await alice.request("join_room", code=room["code"])
    assert again["room"]["state"] == "waiting" and again["room"]["race"] == 0
    await pool(app, "medium", won_keys(1))
    assert (await alice.request("start_race", code=room["code"]))["type"] == "ok"
    await push(alice, "race_started", code=room["code"])


async def test_winnable_asks_for_no_seed_and_difficulty_for_winnable(connect: Connect) -> None:
    alice = await connect()
    await alice.hello("alice")
    for fields in (
        {"winnable": True, "seed": 5},
        {"difficulty": "easy"},
        {"winnable": True, "difficulty": "extreme"},
        {"winnable": "yes"},
    ):
        reply = await alice.request("create_room", variant="osmosis", **fields)
        assert reply["code"] == "invalid_field", (fields, reply)
    plain = (await alice.request("create_room", variant="osmosis"))["room"]
    assert "difficulty" not in plain
