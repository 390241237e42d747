"""Redis restarted in the middle of a race: both nodes go on serving what they can, no
acknowledged move is lost, and once Redis is back every member gets the room and the
``race_over`` they missed."""

from __future__ import annotations

import asyncio
import json
import urllib.request

from server.app import App
from tests.server.cluster.conftest import OwnRedis, StartNode, wait_for
from tests.server.conftest import open_client
from tests.server.databases import run_sql
from tests.server.pushes import push


def health(app: App) -> tuple[int, dict[str, str]]:
    with urllib.request.urlopen(f"http://127.0.0.1:{app.port}/healthz", timeout=5) as r:
        return r.status, json.loads(r.read())


async def test_a_redis_restart_mid_race_loses_no_move_and_no_race_over(
    nodes: StartNode, own_redis: OwnRedis
) -> None:
    a = await nodes("a", redis=own_redis.url)
    b = await nodes("b", redis=own_redis.url)
    alice = await open_client(a)
    await alice.hello("alice")
    bob = await open_client(b)
    await bob.hello("bob")
    code = (await alice.request("create_room", variant="freecell", seed=617, options={}))["room"][
        "code"
    ]
    await bob.request("join_room", code=code)
    await alice.request("start_race", code=code)
    game_a = (await push(alice, "race_started"))["game"]
    game_b = (await push(bob, "race_started"))["game"]

    own_redis.stop()
    await wait_for(lambda: not a.cluster.redis_up and not b.cluster.redis_up, 5)
    assert await asyncio.to_thread(health, b) == (200, {"status": "ok", "redis": "down"})

    # each node serves its own: bob's moves and resign on b, alice's on a, all stored
    moved = await bob.move(game_b, game_b["legal"][0])
    assert moved["type"] == "game", moved
    resigned = await bob.request("resign", game=game_b["id"], ply=1)
    assert resigned["game"]["state"] == "resigned"
    moved = await alice.move(game_a, game_a["legal"][0])
    assert moved["type"] == "game", moved
    await alice.request("resign", game=game_a["id"], ply=1)
    over = await push(alice, "race_over")  # a owns the room: it ended the race, from the database
    assert len(over["standings"]) == 2
    stored = run_sql(a.config.db, "SELECT count(*) FROM moves")
    assert stored == [(2,)]

    own_redis.start()  # empty: no leases, no node keys
    started = asyncio.get_running_loop().time()
    missed = await push(bob, "race_over", timeout=10)
    assert missed["standings"] == over["standings"]
    shown = await push(bob, "room", check=lambda m: m["room"]["state"] == "over", timeout=10)
    assert shown["room"]["code"] == code
    assert asyncio.get_running_loop().time() - started < 10
    await wait_for(lambda: a.cluster.redis_up and b.cluster.redis_up, 5)
    assert await asyncio.to_thread(health, b) == (200, {"status": "ok", "redis": "up"})
    # the room is still a's (its lease set again), and requests from b reach it again
    assert code in a.rooms.rooms and code not in b.rooms.rooms
    assert (await bob.request("start_race", code=code))["code"] == "not_host"
    await alice.ws.close()
    await bob.ws.close()
