"""A node that stored a player's new arena game and stopped before naming it in ``arena_games``
(the player never told of it): on the other node, a game nobody played is dropped and its deal
dealt again, once; one the player found in their games and played in is played on. Either way
the player has one game of the deal, scored once.

Node a is brought to that moment by its own parts, in the order ``ArenaPlay._deal_next`` runs
them (the deal drawn, the game started and stored), and then stopped: the moment between two
writes that a kill -9 cannot be timed to hit."""

from __future__ import annotations

from typing import Any

from server.app import App
from shared import protocol as p
from tests.server.arenas.conftest import fill_pool
from tests.server.cluster.conftest import StartNode
from tests.server.cluster.test_arena import key_of, welcomed
from tests.server.conftest import Client, open_client
from tests.server.databases import run_sql
from tests.server.pushes import keyed_line, play_line

NODE = {"review_min_actions": 1_000_000, "arena_push_ms": 20, "rate_limit": 10_000.0,
        "rate_burst": 10_000}  # fmt: skip


async def dealt_and_not_named(app: App, code: str, player: int) -> str:
    """What node ``app`` has done for a player's first deal when it dies before its arena row:
    the deal drawn, the game started and stored."""
    arena = await app.arena_catalogue.arena(code)
    deal = await app.arena_deals.deal(arena, 0)
    live = await app.games.start(
        player, arena.variant, arena.options, key=deal.key, kind=p.ARENA,
        reveal_ms=arena.ends_ms, guarded=False,
    )  # fmt: skip
    return live.id


async def again(app: App, first: Client) -> Client:
    hello = next(m for m in first.received if m.get("type") == "welcome")
    client = await open_client(app)
    await client.request("hello", protocol=2, client="tests/1", token=hello["token"])
    return client


async def test_a_deal_dealt_by_a_node_that_died_is_dealt_again_or_played_on(
    config: Any, nodes: StartNode
) -> None:
    a = await nodes("a", **NODE)
    b = await nodes("b", **NODE)
    await fill_pool(a)
    alice_a, bob_a = await welcomed(a, "alice"), await welcomed(a, "bob")
    alice_id = (await alice_a.request("stats"))["player"]["id"]
    bob_id = (await bob_a.request("stats"))["player"]["id"]
    code = (await alice_a.request("arena_create", variant="osmosis", minutes=30))["arena"]["code"]
    await bob_a.request("arena_join", code=code)
    alices = await dealt_and_not_named(a, code, alice_id)
    bobs = await dealt_and_not_named(a, code, bob_id)
    deal = (await alice_a.request("get_game", game=alices))["game"]["deal"]
    # bob finds his in his list of games and plays two moves in it
    listed = {g["id"] for g in (await bob_a.request("games"))["games"]}
    assert bobs in listed
    line = keyed_line("osmosis", key_of(config, bobs))
    view = (await bob_a.request("get_game", game=bobs))["game"]
    view = await play_line(bob_a, view, line[:2])
    await a.stop()

    alice_b, bob_b = await again(b, alice_a), await again(b, bob_a)
    # alice never played hers: it is gone, and the same deal is dealt again, once
    dealt = await alice_b.request("arena_play", code=code)
    assert dealt["type"] == "arena_game" and dealt["seq"] == 0, dealt
    assert dealt["game"]["id"] != alices and dealt["game"]["deal"] == deal
    assert dealt["game"]["ply"] == 0
    assert run_sql(config.db, "SELECT count(*) FROM games WHERE id = :g", {"g": alices}) == [(0,)]
    assert (await alice_b.request("arena_play", code=code))["game"]["id"] == dealt["game"]["id"]
    won = await play_line(
        alice_b, dealt["game"], keyed_line("osmosis", key_of(config, dealt["game"]["id"]))
    )
    assert won["state"] == "won"
    # bob played in his: it is played on, as it stood
    played_on = await bob_b.request("arena_play", code=code)
    assert played_on["game"]["id"] == bobs and played_on["game"]["ply"] == 2, played_on
    await play_line(bob_b, played_on["game"], line[2:])

    for client, games in ((alice_b, dealt["game"]["id"]), (bob_b, bobs)):
        nxt = await client.request("arena_play", code=code)  # the first is scored first
        assert nxt["seq"] == 1, nxt
        me = (await client.request("arena_join", code=code))["me"]
        assert (me["played"], me["wins"]) == (1, 1) and me["points"] >= 2, me
        arena_games = run_sql(
            config.db,
            "SELECT game_id, seq FROM arena_games WHERE arena = :c AND seq = 0 AND player_id = "
            "(SELECT player_id FROM games WHERE id = :g)",
            {"c": code, "g": games},
        )
        assert arena_games == [(games, 0)]
    for c in (alice_b, bob_b):
        await c.ws.close()
