"""kill -9 of the node that runs a race: its players reconnect to the other node and carry on,
every acknowledged move is there, the other node takes the room over within 10 s and the race
ends on its own clock (its time limit counted from the same start)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import redis
from websockets.exceptions import ConnectionClosed

from server.config import Config
from tests.server.conftest import Client
from tests.server.databases import run_sql
from tests.server.pushes import push

SCRIPT = Path(sys.executable).parent / "patience-club"
#: the race's time limit: long enough to take the room over first, short for a test
LIMIT_S = 10
START = "SELECT race_start_ms FROM rooms WHERE code = :c"


async def spawn(
    config: Config, node_id: str, extra: Mapping[str, str] | None = None
) -> asyncio.subprocess.Process:
    settings = {
        "PATIENCE_DAILY_AHEAD": "0",
        "PATIENCE_STUCK_WORKERS": "0",
        "PATIENCE_REGISTRATION_LIMIT": "0",
        "PATIENCE_REVIEW_MEDIAN_MS": "0",
        "PATIENCE_RACE_COUNTDOWN_MS": "100",
        "PATIENCE_RACE_TICK_MS": "100",
        "PATIENCE_RACE_TIME_LIMIT_S": str(LIMIT_S),
        **(extra or {}),
    }
    return await asyncio.create_subprocess_exec(
        str(SCRIPT),
        "serve",
        "--port", "0",
        "--metrics-port", "0",
        "--db", config.db,
        "--redis", config.redis,
        "--redis-prefix", config.redis_prefix,
        "--node-id", node_id,
        "--log-level", "WARNING",
        "--rate-limit", "100000",
        "--rate-burst", "100000",
        stdout=asyncio.subprocess.PIPE,
        env=os.environ | settings,
    )  # fmt: skip


async def port_of(process: asyncio.subprocess.Process) -> int:
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), 30)
    match = re.search(rb":(\d+)/ws", line)
    assert match, line
    return int(match.group(1))


@asynccontextmanager
async def two_nodes(
    config: Config, extra: Mapping[str, str] | None = None
) -> AsyncIterator[list[tuple[asyncio.subprocess.Process, int]]]:
    """Nodes ``a`` and ``b`` as processes, started side by side (``extra``: more settings, as
    ``PATIENCE_*`` variables); killed at the end."""
    processes = [await spawn(config, "a", extra), await spawn(config, "b", extra)]
    try:
        ports = await asyncio.gather(*(port_of(process) for process in processes))
        yield list(zip(processes, ports, strict=True))
    finally:
        for process in processes:
            if process.returncode is None:
                process.kill()
                await process.wait()


async def client(port: int, token: str | None = None, name: str = "") -> tuple[Client, Any]:
    from websockets.asyncio.client import connect

    c = Client(await connect(f"ws://127.0.0.1:{port}/ws", max_size=None, close_timeout=1))
    hello = {"token": token} if token else {"name": name}
    welcome = await c.request("hello", protocol=2, client="tests/1", **hello)
    assert welcome["type"] == "welcome", welcome
    return c, welcome


async def play(c: Client, game: dict[str, Any], moves: int) -> dict[str, Any]:
    for _ in range(moves):
        reply = await c.move(game, game["legal"][0])
        assert reply["type"] == "game", reply
        game = reply["game"]
    return game


def stored_plies(config: Config, game_id: str) -> list[int]:
    query = "SELECT ply FROM moves WHERE game_id = :g ORDER BY ply"
    rows = run_sql(config.db, query, {"g": game_id})
    return [int(r[0]) for r in rows]


async def test_kill_9_of_the_room_owner_mid_race(config: Config) -> None:
    lease_of = redis.Redis.from_url(config.redis)
    async with two_nodes(config) as ((owner, port_a), (_, port_b)):
        alice, alice_hello = await client(port_a, name="alice")
        dave, dave_hello = await client(port_a, name="dave")  # a solo game on the same node
        bob, _ = await client(port_b, name="bob")
        carol, _ = await client(port_b, name="carol")

        code = (await alice.request("create_room", variant="freecell", seed=617, options={}))[
            "room"
        ]["code"]
        assert lease_of.get(f"{config.redis_prefix}room:{code}") == b"a"
        await bob.request("join_room", code=code)
        await carol.request("join_room", code=code, role="spectator")
        await alice.request("start_race", code=code)
        game_a = (await push(alice, "race_started"))["game"]
        game_b = (await push(bob, "race_started"))["game"]
        start_ms = run_sql(config.db, START, {"c": code})
        started = asyncio.get_running_loop().time()
        game_a = await play(alice, game_a, 3)
        game_b = await play(bob, game_b, 2)
        solo = await play(dave, await dave.start(), 3)

        owner.send_signal(signal.SIGKILL)
        await owner.wait()
        killed = asyncio.get_running_loop().time()

        # alice and dave come back on b: hello with their token, the room, the game, and on
        alice, _ = await client(port_b, token=alice_hello["token"])
        joined = await alice.request("join_room", code=code)  # a member gets the room anyway
        assert joined["type"] == "room", joined
        assert joined["room"]["state"] == "racing"
        mine = await alice.request("get_game", game=game_a["id"])
        assert mine["game"]["ply"] == 3 == len(stored_plies(config, game_a["id"]))
        game_a = await play(alice, mine["game"], 1)
        dave, _ = await client(port_b, token=dave_hello["token"])
        again = await dave.request("get_game", game=solo["id"])
        assert again["game"]["ply"] == 3
        await play(dave, again["game"], 1)
        assert lease_of.get(f"{config.redis_prefix}room:{code}") == b"b"
        assert asyncio.get_running_loop().time() - killed < 10

        # the race ends on its own clock: the time limit from the same start, not from the
        # takeover (bob's game is left open: it times out)
        await alice.request("resign", game=game_a["id"], ply=game_a["ply"])
        for c in (alice, bob, carol):
            over = await push(c, "race_over", timeout=LIMIT_S + 5)
        ended = asyncio.get_running_loop().time()
        assert LIMIT_S - 1 <= ended - started < LIMIT_S + 4  # not from the takeover (+5 s)
        states = {s["player"]: s["state"] for s in over["standings"]}
        assert sorted(states.values()) == ["resigned", "timeout"]
        assert run_sql(config.db, START, {"c": code}) == start_ms
        assert stored_plies(config, game_a["id"]) == [0, 1, 2, 3]
        assert stored_plies(config, game_b["id"]) == [0, 1]
        assert stored_plies(config, solo["id"]) == [0, 1, 2, 3]
        for c in (alice, bob, carol, dave):
            await c.ws.close()
    lease_of.close()


async def test_sigterm_closes_with_1001_and_hands_the_rooms_on_at_once(config: Config) -> None:
    lease_of = redis.Redis.from_url(config.redis)
    async with two_nodes(config) as ((leaving, port_a), (_, port_b)):
        alice, welcome = await client(port_a, name="alice")
        bob, _ = await client(port_b, name="bob")
        code = (await alice.request("create_room", variant="gypsy"))["room"]["code"]
        await bob.request("join_room", code=code)
        lease = f"{config.redis_prefix}room:{code}"
        assert lease_of.get(lease) == b"a"

        leaving.send_signal(signal.SIGTERM)
        sent = asyncio.get_running_loop().time()
        async with asyncio.timeout(15):  # a node that never closes fails here, not hangs
            with contextlib.suppress(ConnectionClosed):
                while True:
                    await alice.recv()
        assert alice.ws.close_code == 1001
        while lease_of.get(lease) != b"b":
            # taken on the released lease's news, not when it would have expired (5 s)
            assert asyncio.get_running_loop().time() - sent < 3, lease_of.get(lease)
            await asyncio.sleep(0.05)
        assert await asyncio.wait_for(leaving.wait(), 10) == 0
        alice, _ = await client(port_b, token=welcome["token"])
        assert (await alice.request("start_race", code=code))["type"] == "ok"
        assert (await push(bob, "race_started"))["game"]["variant"] == "gypsy"
        for c in (alice, bob):
            await c.ws.close()
    lease_of.close()
