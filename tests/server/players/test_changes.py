"""What an operator's command stores acts at once on the running server: bans, unbans, new
tokens and new names, from another process (the admin command in a thread here)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from server.app import App
from server.config import Config
from server.daily.deals import utc_date
from tests.server.conftest import Client, FakeClock, ServeWith, open_client
from tests.server.pushes import admin, fix_daily, push, until


async def closed_within(client: Client, seconds: float) -> int | None:
    """Read until the server closes the connection; its close code."""

    async def drain() -> None:
        while True:
            await client.recv()

    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(drain(), seconds)
    return client.ws.close_code


async def hello(app: App, name: str) -> tuple[Client, dict[str, Any]]:
    client = await open_client(app)
    return client, await client.hello(name)


async def test_a_ban_closes_the_connections_resigns_the_race_hands_on_the_room_and_hides_results(
    capsys: pytest.CaptureFixture[str], config: Config, clock: FakeClock, serve_with: ServeWith
) -> None:
    app = await serve_with(race_countdown_ms=50, race_tick_ms=20)
    await fix_daily(app, "freecell", utc_date(clock.now))
    mallory, welcome = await hello(app, "mallory")
    m = welcome["player"]["id"]
    second = await open_client(app)  # mallory's other connection
    await second.request("hello", protocol=2, client="t/1", token=welcome["token"])
    alice, alice_welcome = await hello(app, "alice")
    a = alice_welcome["player"]["id"]

    attempt = (await mallory.request("daily", start=True, variant="freecell"))["game"]
    clock.advance(10_000)
    await mallory.request("resign", game=attempt["id"], ply=0)
    board = await alice.request("leaderboard", variant="freecell")
    assert [e["player"] for e in board["entries"]] == [m]

    code = (await mallory.request("create_room", variant="gypsy"))["room"]["code"]
    await alice.request("join_room", code=code)
    await mallory.request("start_race", code=code)
    race_game = (await push(mallory, "race_started"))["game"]
    await push(alice, "race_started")

    assert (await admin(capsys, config, "ban", "mallory"))[0] == 0
    for client in (mallory, second):
        assert await closed_within(client, 2.0) == 1008
    gone = await push(alice, "progress", player=m)
    assert gone["state"] == "resigned"
    handed = await push(alice, "room", check=lambda r: r["room"]["host"] == a)
    assert [p["id"] for p in handed["room"]["players"]] == [a]
    live = await app.game_store.get(race_game["id"])
    assert live.state == "resigned"
    assert (await alice.request("leaderboard", variant="freecell"))["entries"] == []
    refused = await (await open_client(app)).request(
        "hello", protocol=2, client="t/1", token=welcome["token"]
    )
    assert refused["code"] == "banned"

    # Lifting the ban lists the results again, as quickly.
    assert (await admin(capsys, config, "unban", str(m)))[0] == 0

    async def listed() -> bool:
        return bool((await alice.request("leaderboard", variant="freecell"))["entries"])

    await until(listed, 2.0)
    back = await (await open_client(app)).request(
        "hello", protocol=2, client="t/1", token=welcome["token"]
    )
    assert back["type"] == "welcome"


async def test_a_new_token_closes_the_connections_of_the_old_one_and_a_rename_shows(
    capsys: pytest.CaptureFixture[str], config: Config, serve_with: ServeWith
) -> None:
    app = await serve_with()
    bob, welcome = await hello(app, "bob")
    b = welcome["player"]["id"]
    carol, _ = await hello(app, "carol")
    code = (await carol.request("create_room", variant="osmosis"))["room"]["code"]
    await bob.request("join_room", code=code)

    assert (await admin(capsys, config, "rename", "bob", "robert"))[0] == 0

    def named(message: dict[str, Any]) -> str:
        return str({p["id"]: p["name"] for p in message["room"]["players"]}[b])

    await push(carol, "room", timeout=2.0, check=lambda m: named(m) == "robert")
    assert (await bob.request("stats"))["player"]["name"] == "robert"  # still connected

    code_, out = await admin(capsys, config, "reset-token", "robert")
    assert code_ == 0
    assert await closed_within(bob, 2.0) == 1008
    token = out.split()[-1]
    again = await (await open_client(app)).request("hello", protocol=2, client="t/1", token=token)
    assert again["player"] == {"id": b, "name": "robert", "bot": False}
    old = await (await open_client(app)).request(
        "hello", protocol=2, client="t/1", token=welcome["token"]
    )
    assert old["code"] == "bad_token"
