"""A node stalled past its room lease cannot write over the node that took the room.

The owner of a room is stopped (SIGSTOP) for longer than its lease; another node takes the
room (a new fencing token) and plays on with it; the first node resumes with requests
waiting for it that change the room as it remembers it. Its saves carry its old token and the
database refuses them: what is stored is the second node's room.
"""

from __future__ import annotations

import asyncio
import signal

import redis

from server.config import Config
from tests.server.cluster.test_kill import client, two_nodes
from tests.server.databases import run_sql

MEMBERS = "SELECT player_id FROM room_members WHERE room_code = :c"
FENCE = "SELECT fence FROM rooms WHERE code = :c"


async def test_a_stalled_owner_resumes_and_none_of_its_saves_is_stored(config: Config) -> None:
    leases = redis.Redis.from_url(config.redis)
    async with two_nodes(config) as ((stalled, port_a), (_, port_b)):
        alice, _ = await client(port_a, name="alice")
        carol, carol_hello = await client(port_a, name="carol")
        erin, erin_hello = await client(port_a, name="erin")
        code = (await alice.request("create_room", variant="gypsy"))["room"]["code"]
        lease = f"{config.redis_prefix}room:{code}"
        assert leases.get(lease) == b"a"
        taken_by_a = run_sql(config.db, FENCE, {"c": code})[0][0]

        stalled.send_signal(signal.SIGSTOP)
        try:
            loop = asyncio.get_running_loop()
            stopped = loop.time()
            while leases.get(lease) is not None:  # the lease runs out (5 s)
                assert loop.time() - stopped < 10
                await asyncio.sleep(0.1)
            bob, bob_hello = await client(port_b, name="bob")
            dave, dave_hello = await client(port_b, name="dave")
            joined = await bob.request("join_room", code=code)  # b takes the room, and plays on
            assert joined["type"] == "room", joined
            assert (await dave.request("join_room", code=code, role="spectator"))["type"] == "room"
            assert leases.get(lease) == b"b"
            taken_by_b = run_sql(config.db, FENCE, {"c": code})[0][0]
            assert taken_by_b > taken_by_a
            # requests for the stalled node, which still runs the room as it left it
            await carol.send({"type": "join_room", "id": 1, "code": code})
            await erin.send({"type": "join_room", "id": 1, "code": code, "role": "spectator"})
        finally:
            stalled.send_signal(signal.SIGCONT)
        answers = [await asyncio.wait_for(c.recv(), 10) for c in (carol, erin)]
        # either refused (busy: its save was refused) or run by b (a had let go first)
        assert {a.get("code", a["type"]) for a in answers} <= {"busy", "room"}, answers
        await asyncio.sleep(1.5)  # a's next renewal: it has let the room go in any case

        players = {w["player"]["id"] for w in (bob_hello, dave_hello, carol_hello, erin_hello)} | {
            (await alice.request("join_room", code=code))["room"]["host"]
        }
        view = (await bob.request("join_room", code=code))["room"]
        stored = {int(row[0]) for row in run_sql(config.db, MEMBERS, {"c": code})}
        # what is stored is what b runs: bob and dave are there, whatever a remembered
        assert stored == {m["id"] for m in view["players"]}
        assert {bob_hello["player"]["id"], dave_hello["player"]["id"]} <= stored <= players
        assert run_sql(config.db, FENCE, {"c": code})[0][0] == taken_by_b
        assert leases.get(lease) == b"b"
        for c in (alice, bob, carol, dave, erin):
            await c.ws.close()
    leases.close()
