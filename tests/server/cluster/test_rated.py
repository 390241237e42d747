"""A rated race whose racers are on two nodes: rated once, by the room's node, and shown on
both (standings with the change; the room's members with their ratings)."""

from __future__ import annotations

from sqlalchemy import func, select

from server.storage.models import RatingChange
from tests.server.cluster.conftest import StartNode
from tests.server.cluster.test_race import welcomed
from tests.server.pushes import push


async def test_a_rated_race_across_two_nodes_is_rated_once(nodes: StartNode) -> None:
    a, b = await nodes("a"), await nodes("b")
    alice, alice_id = await welcomed(a, "alice")
    bob, bob_id = await welcomed(b, "bob")
    code = (await alice.request("create_room", variant="freecell", rated=True))["room"]["code"]
    assert (await bob.request("join_room", code=code))["type"] == "room"  # run by a
    assert (await alice.request("start_race", code=code))["type"] == "ok"
    for client in (alice, bob):
        game = (await push(client, "race_started"))["game"]
        assert (await client.request("resign", game=game["id"], ply=0))["type"] == "game"
    for client in (alice, bob):
        over = await push(client, "race_over", code=code)
        shown = {s["player"]: s["rating"] for s in over["standings"]}
        assert shown == {
            pid: {"rating": 1500, "provisional": True, "change": 0} for pid in (alice_id, bob_id)
        }
    room = await push(bob, "room", check=lambda m: m["room"]["state"] == "over")
    assert {p["id"]: p.get("rating") for p in room["room"]["players"]} == {
        pid: {"rating": 1500, "provisional": True} for pid in (alice_id, bob_id)
    }
    assert (a.race.ratings.rated_races, b.race.ratings.rated_races) == (1, 0)
    async with b.db_sessions() as db:
        assert await db.scalar(select(func.count()).select_from(RatingChange)) == 2
    board = await bob.request("ratings", variant="freecell")  # asked of b: one database
    assert {e["player"] for e in board["entries"]} == {alice_id, bob_id}
    for client in (alice, bob):
        await client.ws.close()
