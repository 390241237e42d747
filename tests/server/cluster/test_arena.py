"""An arena on two nodes: joined on one, played on the other, one table everywhere, and a node
killed mid-arena loses no acknowledged result."""

from __future__ import annotations

import asyncio
import signal
from typing import Any

from server.app import App
from server.config import Config
from server.deals.pool import options_text
from shared.variants.osmosis import OsmosisRules
from tests.server.arenas.conftest import fill_pool, won_keys
from tests.server.cluster.conftest import StartNode
from tests.server.cluster.test_kill import client, two_nodes
from tests.server.conftest import Client, open_client
from tests.server.databases import run_sql
from tests.server.pushes import keyed_line, play_line, push

KEY_OF = "SELECT deal_key FROM games WHERE id = :g"


def key_of(config: Config, game_id: str) -> bytes:
    return bytes.fromhex(run_sql(config.db, KEY_OF, {"g": game_id})[0][0])


async def welcomed(app: App, name: str) -> Client:
    c = await open_client(app)
    await c.hello(name)
    return c


async def test_joined_on_one_node_played_on_the_other_with_one_table(
    config: Config, nodes: StartNode
) -> None:
    a = await nodes("a", arena_push_ms=20, rate_limit=10_000.0, rate_burst=10_000)
    b = await nodes("b", arena_push_ms=20, rate_limit=10_000.0, rate_burst=10_000)
    await fill_pool(a)
    alice_a = await welcomed(a, "alice")
    bob_b = await welcomed(b, "bob")
    code = (await alice_a.request("arena_create", variant="osmosis", minutes=30))["arena"]["code"]
    joined = await bob_b.request("arena_join", code=code)  # an arena node b never saw made
    assert joined["type"] == "arena" and joined["arena"]["players"] == 2, joined
    token = (await alice_a.request("stats"))["player"]
    alice_b = await open_client(b)
    hello = next(m for m in alice_a.received if m.get("type") == "welcome")
    await alice_b.request("hello", protocol=2, client="tests/1", token=hello["token"])
    dealt = await alice_b.request("arena_play", code=code)  # joined on a, played on b
    assert dealt["type"] == "arena_game", dealt
    bobs = await bob_b.request("arena_play", code=code)
    assert bobs["game"]["deal"] == dealt["game"]["deal"]  # one sequence, whichever node drew
    line = keyed_line("osmosis", key_of(config, dealt["game"]["id"]))
    await play_line(alice_b, dealt["game"], line)
    # the table on a (where alice joined) and on b says the same: told across nodes
    for follower in (alice_a, bob_b):
        pushed = await push(
            follower, "arena_standings", check=lambda m: bool(m["top"]) and m["top"][0]["wins"] == 1
        )
        assert pushed["top"][0]["player"] == token["id"] and pushed["players"] == 2
    tables = [await c.request("arena_table", code=code) for c in (alice_a, bob_b)]
    assert tables[0]["entries"] == tables[1]["entries"]


async def test_kill_9_mid_arena_loses_no_acknowledged_result(config: Config) -> None:
    extra = {
        "PATIENCE_DEAL_POOL_WORKERS": "0",
        "PATIENCE_ARENA_TICK_MS": "200",
        "PATIENCE_ARENA_PUSH_MS": "20",
        "PATIENCE_REVIEW_MIN_ACTIONS": "1000000",
    }
    async with two_nodes(config, extra) as ((node_a, port_a), (_, port_b)):
        options = options_text(dict(OsmosisRules.option_defaults))
        for key, line in won_keys():
            run_sql(
                config.db,
                "INSERT INTO pooled_deals (variant, options, difficulty, deal_key, positions, "
                "line, created_ms) VALUES ('osmosis', :o, 'medium', :k, 1, :l, 0)",
                {"o": options, "k": key.hex(), "l": line},
            )
        alice, hello = await client(port_a, name="alice")
        bob, bob_hello = await client(port_a, name="bob")
        carol, _ = await client(port_b, name="carol")
        code = (await alice.request("arena_create", variant="osmosis", minutes=30))["arena"]["code"]
        await bob.request("arena_join", code=code)
        await carol.request("arena_join", code=code)
        for _ in range(2):  # two wins, the second acknowledged just before the kill
            dealt = await alice.request("arena_play", code=code)
            line = keyed_line("osmosis", key_of(config, dealt["game"]["id"]))
            await play_line(alice, dealt["game"], line)
        bobs = await bob.request("arena_play", code=code)
        bob_line = keyed_line("osmosis", key_of(config, bobs["game"]["id"]))
        game: dict[str, Any] = await play_line(bob, bobs["game"], bob_line[:3])

        node_a.send_signal(signal.SIGKILL)
        await node_a.wait()

        alice, _ = await client(port_b, token=hello["token"])
        back = await alice.request("arena_join", code=code)
        assert (back["me"]["points"], back["me"]["wins"]) == (6, 2)  # acknowledged on a
        assert back["me"]["fire"] and back["game"] is None
        bob, _ = await client(port_b, token=bob_hello["token"])
        again = await bob.request("arena_play", code=code)
        assert again["game"]["id"] == game["id"] and again["game"]["ply"] == 3
        await play_line(bob, again["game"], bob_line[3:])
        mine = (await bob.request("arena_join", code=code))["me"]
        assert (mine["points"], mine["played"]) == (3, 1)
        stored = run_sql(
            config.db,
            "SELECT points, played FROM arena_players WHERE arena = :c ORDER BY points",
            {"c": code},
        )
        assert stored == [(0, 0), (3, 1), (6, 2)]
        pushed = await push(carol, "arena_standings", check=lambda m: m["top"][1]["points"] == 3)
        assert pushed["players"] == 3 and pushed["top"][0]["points"] == 6
        for c in (alice, bob, carol):
            await c.ws.close()
        await asyncio.sleep(0)
