"""A challenge sent on one node and answered on another: the database is the arbiter (one
answerer, one game, one result, the match scored once) and the pushes reach each player on
the node they are connected to."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import func, select

from server.storage.models import Challenge, Game
from tests.server.cluster.conftest import StartNode
from tests.server.cluster.test_race import welcomed
from tests.server.conftest import Client, open_client
from tests.server.pushes import push


async def resigned(client: Client, game: dict[str, Any]) -> dict[str, Any]:
    reply = await client.request("resign", game=game["id"], ply=game["ply"])
    assert reply["type"] == "game", reply
    return reply["game"]  # type: ignore[no-any-return]


async def challenge(alice: Client, best_of: int = 1) -> dict[str, Any]:
    game = await resigned(alice, (await alice.request("start_game", variant="freecell"))["game"])
    reply = await alice.request("challenge_create", game=game["id"], best_of=best_of)
    return reply["challenge"]  # type: ignore[no-any-return]


async def test_two_players_on_two_nodes_answering_at_once_one_has_it(nodes: StartNode) -> None:
    a, b = await nodes("a"), await nodes("b")
    alice, _ = await welcomed(a, "alice")
    bob, _ = await welcomed(b, "bob")
    carol, _ = await welcomed(a, "carol")
    for _ in range(3):
        sent = await challenge(alice)
        answers = await asyncio.gather(
            bob.request("challenge_accept", challenge=sent["id"]),
            carol.request("challenge_accept", challenge=sent["id"]),
        )
        kinds = sorted(r["type"] for r in answers)
        assert kinds == ["challenge_game", "error"], answers
        assert next(r for r in answers if r["type"] == "error")["code"] == "not_challengeable"
    for client in (alice, bob, carol):
        await client.ws.close()


async def test_a_challenge_sent_on_one_node_is_answered_and_scored_on_another(
    nodes: StartNode,
) -> None:
    a, b = await nodes("a"), await nodes("b")
    alice, _ = await welcomed(a, "alice")
    bob, _ = await welcomed(b, "bob")
    bob_on_a = await open_client(a)
    first = next(m for m in bob.received if m.get("type") == "welcome")
    assert (await bob_on_a.request("hello", protocol=2, client="t", token=first["token"]))[
        "type"
    ] == "welcome"
    sent = await challenge(alice, best_of=3)
    # Bob answers from both nodes at once: one game is his, both answers carry it.
    answers = await asyncio.gather(
        bob.request("challenge_accept", challenge=sent["id"]),
        bob_on_a.request("challenge_accept", challenge=sent["id"]),
    )
    assert [r["type"] for r in answers] == ["challenge_game"] * 2, answers
    mine = answers[0]["game"]
    assert answers[1]["game"]["id"] == mine["id"]
    ghost = await bob.request("challenge_ghost", challenge=sent["id"])
    assert ghost["type"] == "ghost" and ghost["moves"] == 0
    await resigned(bob, mine)  # on b
    for client in (alice, bob, bob_on_a):  # alice on a hears of a game that ended on b
        done = (await push(client, "challenge", check=lambda m: m["challenge"]["state"] == "done"))[
            "challenge"
        ]
        assert done["state"] == "done" and done["result"] == "draw"
        assert done["match"]["rounds"] == 1 and done["match"]["draws"] == 1
    # The next round, asked on a, opens to bob on b.
    rematch = await alice.request("challenge_rematch", challenge=sent["id"])
    assert rematch["challenge"]["state"] == "setting"
    await resigned(alice, rematch["game"])
    opened = await push(bob, "challenge", check=lambda m: m["challenge"]["round"] == 2)
    assert opened["challenge"]["state"] == "open"
    again = await bob.request("challenge_accept", challenge=opened["challenge"]["id"])
    await resigned(bob, again["game"])
    done = await push(
        alice,
        "challenge",
        check=lambda m: m["challenge"]["round"] == 2 and m["challenge"]["state"] == "done",
    )
    assert done["challenge"]["match"]["rounds"] == 2
    async with a.db_sessions() as db:
        bobs = await db.scalar(
            select(func.count()).select_from(Game).where(Game.player_id == mine_owner(done))
        )
        done_rows = await db.scalar(
            select(func.count()).select_from(Challenge).where(Challenge.state == "done")
        )
    assert (bobs, done_rows) == (2, 2)  # one game per round: the extra one dealt was dropped
    for client in (alice, bob, bob_on_a):
        await client.ws.close()


def mine_owner(done: dict[str, Any]) -> int:
    return int(done["challenge"]["opponent"])


async def test_a_live_match_in_a_room_run_by_one_node_is_scored_for_both(
    nodes: StartNode,
) -> None:
    a, b = await nodes("a"), await nodes("b")
    alice, _ = await welcomed(a, "alice")
    bob, _ = await welcomed(b, "bob")
    code = (await alice.request("create_room", variant="freecell"))["room"]["code"]  # run by a
    assert (await bob.request("join_room", code=code))["type"] == "room"
    started = await bob.request("match_start", room=code, best_of=3)  # asked on b
    assert started["type"] == "match", started
    assert (await push(alice, "match"))["match"]["id"] == started["match"]["id"]
    assert (await alice.request("start_race", code=code))["type"] == "ok"
    for client in (alice, bob):
        game = (await push(client, "race_started"))["game"]
        await resigned(client, game)
    for client in (alice, bob):  # bob on b hears of the round its owner, a, recorded
        done = (await push(client, "challenge"))["challenge"]
        assert done["state"] == "done" and done["match"]["draws"] == 1
    assert (a.challenges.done, b.challenges.done) == (1, 0)
    for client in (alice, bob):
        await client.ws.close()
