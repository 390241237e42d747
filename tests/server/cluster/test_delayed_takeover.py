"""A room with delayed boards taken over mid-race by another node: its watchers see the whole
board as it was ``board_delay_s`` ago, rebuilt from the stored moves, not only the moves played
since the takeover."""

from __future__ import annotations

import asyncio

from tests.server.cluster.conftest import StartNode, wait_for
from tests.server.conftest import open_client
from tests.server.pushes import push

#: seconds behind that the room shows boards: longer than a node's stop and the takeover
DELAY_S = 6


async def test_a_room_taken_over_shows_the_delayed_board_from_the_race_start(
    nodes: StartNode,
) -> None:
    changes = {"board_delay_s": DELAY_S, "race_abandon_s": 600}
    a, b = await nodes("a", **changes), await nodes("b", **changes)
    alice = await open_client(a)  # a racer on the node that will stop
    alice_id = (await alice.hello("alice"))["player"]["id"]
    bob = await open_client(b)  # a racer on the node that takes over (the race goes on)
    await bob.hello("bob")
    sam = await open_client(b)  # a spectator on that node
    await sam.hello("sam")
    created = await alice.request("create_room", variant="freecell", seed=617, boards="delayed")
    code = created["room"]["code"]
    await bob.request("join_room", code=code)
    await sam.request("join_room", code=code, role="spectator")
    assert code in a.rooms.rooms
    assert (await alice.request("start_race", code=code))["type"] == "ok"
    game = (await push(alice, "race_started", code=code))["game"]

    for _ in range(2):  # two moves a delay ago ...
        game = (await alice.move(game, game["legal"][0]))["game"]
    await asyncio.sleep(DELAY_S + 0.5)
    game = (await alice.move(game, game["legal"][0]))["game"]  # ... and one just now
    assert game["ply"] == 3

    await a.stop()  # its rooms are released; b takes them over
    await wait_for(lambda: code in b.rooms.rooms, 3.0)
    shown = await sam.request("watch", code=code, player=alice_id)
    assert shown["type"] == "game", shown  # (before: none was that old on b)
    assert shown["game"]["ply"] == 2  # the board of a delay ago, its first moves included
    assert shown["game"]["piles"] != game["piles"]
    later = await push(sam, "game", timeout=DELAY_S + 5, player=alice_id)
    assert later["game"]["ply"] == 3 and later["game"]["piles"] == game["piles"]
    for client in (bob, sam):
        await client.ws.close()
