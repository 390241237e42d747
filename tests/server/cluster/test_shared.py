"""What every node answers alike: the registration limit per address, a daily attempt started
on one node and ended on the other, the leaderboard and a player's true rank."""

from __future__ import annotations

import asyncio

from server.daily.deals import utc_date
from tests.server.cluster.conftest import StartNode
from tests.server.conftest import Client, open_client
from tests.server.pushes import fix_daily


async def test_the_registration_limit_holds_across_nodes(nodes: StartNode) -> None:
    a, b = await nodes("a", registration_limit=1), await nodes("b", registration_limit=1)
    clients = [await open_client(app) for app in (a, b, a, b)]
    replies = await asyncio.gather(
        *(
            c.request("hello", protocol=2, client="tests/1", name=f"p{n}")
            for n, c in enumerate(clients)
        )
    )
    kinds = sorted(r.get("code", r["type"]) for r in replies)
    assert kinds == ["too_many_accounts"] * 3 + ["welcome"], replies
    for c in clients:
        await c.ws.close()


async def hello(app: object, name: str) -> tuple[Client, str]:
    c = await open_client(app)  # type: ignore[arg-type]
    return c, (await c.hello(name))["token"]


async def test_a_daily_ended_on_another_node_and_the_same_ranks_from_both(
    nodes: StartNode,
) -> None:
    a, b = await nodes("a"), await nodes("b")
    today = utc_date(a.clock())
    await fix_daily(a, "freecell", today)
    dave, dave_token = await hello(b, "dave")
    early = await dave.request("leaderboard", variant="freecell")  # b reads the day's ranks now
    assert early["entries"] == []

    alice, alice_token = await hello(a, "alice")
    attempt = (await alice.request("daily", start=True, variant="freecell"))["game"]
    again = await open_client(b)  # alice ends on b the attempt she started on a
    await again.request("hello", protocol=2, client="tests/1", token=alice_token)
    # this deal's t4>r0 bares an ace, which goes home: one card home
    moved = await again.request("move", game=attempt["id"], ply=0, move="t4>r0")
    assert moved["game"]["score"] == 1  # Freecell scores its cards home
    ended = await again.request("resign", game=attempt["id"], ply=moved["game"]["ply"])
    assert ended["game"]["state"] == "resigned"
    carol, _ = await hello(a, "carol")
    game = (await carol.request("daily", start=True, variant="freecell"))["game"]
    moved = await carol.request("move", game=game["id"], ply=0, move="t4>r0")
    await carol.request("resign", game=game["id"], ply=moved["game"]["ply"])

    game = (await dave.request("daily", start=True, variant="freecell"))["game"]
    # no card home: ranked below both, although he played longest (a resign's time never ranks)
    await asyncio.sleep(0.3)
    await dave.request("resign", game=game["id"], ply=0)
    on_b = await dave.request("leaderboard", variant="freecell")
    dave_on_a = await open_client(a)
    await dave_on_a.request("hello", protocol=2, client="tests/1", token=dave_token)
    on_a = await dave_on_a.request("leaderboard", variant="freecell")
    ranks_b = sorted((e["rank"], e["name"]) for e in on_b["entries"])
    assert ranks_b == sorted((e["rank"], e["name"]) for e in on_a["entries"])
    assert ranks_b == [(1, "alice"), (1, "carol"), (3, "dave")]  # equal cards home: one place
    assert on_b["me"]["rank"] == on_a["me"]["rank"] == 3
    for c in (dave, alice, again, carol, dave_on_a):
        await c.ws.close()
