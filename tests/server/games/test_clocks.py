"""Game clocks over the wire: a stuck game's clock stops, an unranked game nobody has open
pauses (server/games/clock.py, opened.py), ranked clocks never pause, best times are active."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from sqlalchemy import event

from server.app import App
from server.storage.queries import games as store
from tests.server.conftest import Client, Connect, FakeClock, open_client
from tests.server.pushes import keyed_line, play_line

KEY = bytes(range(32))


async def until_left(server: App, game_id: str) -> None:
    """Wait until the server has seen the connections close (it hears of it a moment later)."""
    for _ in range(200):
        if server.opened.openers(game_id) == 0:
            await server.opened.drain()  # and its clock stored, which the games list reads
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"game {game_id} is still open")


async def stuck_game(player: Client, clock: FakeClock) -> dict[str, Any]:
    """Random play, a second per action, until the game is stuck."""
    rng = random.Random(3)
    game = await player.start("freecell", seed=4242)
    while game["state"] == "playing":
        clock.advance(1000)
        game = (await player.move(game, rng.choice(game["legal"])))["game"]
        assert game["ply"] < 500, "random play did not get stuck"
    return game


async def test_a_stuck_game_stops_its_clock_and_an_undo_starts_it_again(
    player: Client, clock: FakeClock
) -> None:
    game = await stuck_game(player, clock)
    assert game["state"] == "stuck"
    stopped = game["elapsed_ms"]
    assert stopped == 1000 * game["ply"]
    clock.advance(15 * 60_000)
    assert (await player.request("get_game", game=game["id"]))["game"]["elapsed_ms"] == stopped
    listed = (await player.request("games"))["games"]
    assert [g["elapsed_ms"] for g in listed if g["id"] == game["id"]] == [stopped]
    # An unranked game does not count the time it was stuck; the clock runs again from there.
    undone = await player.request("undo", game=game["id"], ply=game["ply"])
    assert undone["game"]["state"] == "playing"
    assert undone["game"]["elapsed_ms"] == stopped
    clock.advance(2000)
    assert (await player.request("get_game", game=game["id"]))["game"][
        "elapsed_ms"
    ] == stopped + 2000


async def test_an_unranked_clock_pauses_when_nobody_has_the_game_open(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    first = await connect()
    token = (await first.hello("alice"))["token"]
    game = await first.start()
    clock.advance(10_000)
    game = (await first.move(game, game["legal"][0]))["game"]
    assert game["elapsed_ms"] == 10_000
    await first.ws.close()
    await until_left(server, game["id"])

    # Back within the grace (30 s): the time away counts, as a reload would.
    clock.advance(20_000)
    second = await connect()
    await second.request("hello", protocol=2, client="t/2", token=token)
    assert (await second.request("get_game", game=game["id"]))["game"]["elapsed_ms"] == 30_000

    # Gone for 13 minutes: the clock ran the grace, then paused, and goes on from there.
    await second.ws.close()
    await until_left(server, game["id"])
    clock.advance(13 * 60_000)
    third = await connect()
    await third.request("hello", protocol=2, client="t/3", token=token)
    listed = (await third.request("games"))["games"]
    assert [g["elapsed_ms"] for g in listed] == [60_000]
    assert (await third.request("get_game", game=game["id"]))["game"]["elapsed_ms"] == 60_000
    clock.advance(1000)
    game = (await third.request("get_game", game=game["id"]))["game"]
    assert game["elapsed_ms"] == 61_000

    # Leaving the board on an open connection pauses it too; so does opening another game.
    assert (await third.request("leave_game", game=game["id"]))["type"] == "ok"
    clock.advance(5 * 60_000)
    assert (await third.request("get_game", game=game["id"]))["game"]["elapsed_ms"] == 91_000
    other = await third.start()
    clock.advance(5 * 60_000)
    assert (await third.request("get_game", game=game["id"]))["game"]["elapsed_ms"] == 121_000
    clock.advance(5 * 60_000)  # the other game, left for this one, pauses in its turn
    assert (await third.request("get_game", game=other["id"]))["game"]["elapsed_ms"] == 330_000


async def test_a_restarted_server_keeps_the_pause(serve_with: Any, clock: FakeClock) -> None:
    app = await serve_with()
    client = await open_client(app)
    token = (await client.hello("alice"))["token"]
    game = await client.start()
    clock.advance(5000)
    await client.ws.close()
    await until_left(app, game["id"])
    await app.stop()
    clock.advance(60 * 60_000)
    app = await serve_with()
    client = await open_client(app)
    await client.request("hello", protocol=2, client="t/2", token=token)
    assert (await client.request("get_game", game=game["id"]))["game"]["elapsed_ms"] == 35_000
    await client.ws.close()


async def test_clocks_of_many_connections_closing_at_once_are_all_stored(
    serve_with: Any, clock: FakeClock
) -> None:
    """A dozen players leave at once: every clock is stored (a restart reads each one
    paused), in one transaction on a connection of the pool, none opened for it."""
    app = await serve_with()
    players = [await open_client(app) for _ in range(12)]
    tokens = [(await c.hello(f"p{n}"))["token"] for n, c in enumerate(players)]
    games = [await c.start() for c in players]
    clock.advance(5000)
    opened: list[object] = []

    def connected(*_: object) -> None:
        opened.append(_)

    event.listen(app.engine.sync_engine, "connect", connected)
    try:
        await asyncio.gather(*(c.ws.close() for c in players))
        for game in games:
            await until_left(app, game["id"])
    finally:
        event.remove(app.engine.sync_engine, "connect", connected)
    assert len(opened) <= 1  # one more for the saves at most, when none was free in the pool
    await app.stop()
    clock.advance(60 * 60_000)
    app = await serve_with()
    for token, game in zip(tokens, games, strict=True):
        client = await open_client(app)
        await client.request("hello", protocol=2, client="t/2", token=token)
        seen = (await client.request("get_game", game=game["id"]))["game"]
        assert seen["elapsed_ms"] == 35_000  # 5 s played, the grace, then paused
        await client.ws.close()


async def test_best_times_compare_active_time(player: Client, clock: FakeClock) -> None:
    line = keyed_line("freecell", KEY)
    game = (await player.request("start_game", variant="freecell", key=KEY.hex()))["game"]
    half = len(line) // 2
    game = await play_line(player, game, line[:half], clock, 1000)
    assert (await player.request("leave_game", game=game["id"]))["type"] == "ok"
    clock.advance(60 * 60_000)
    game = (await player.request("get_game", game=game["id"]))["game"]
    game = await play_line(player, game, line[half:], clock, 1000)
    assert game["state"] == "won"
    active = 1000 * len(line) + 30_000  # an action a second, and the grace before the pause
    assert game["elapsed_ms"] == active
    stats = await player.request("stats")
    assert [v["best_ms"] for v in stats["variants"] if v["variant"] == "freecell"] == [active]


async def test_a_clock_stored_late_never_overwrites_a_later_action(
    server: App, player: Client, clock: FakeClock
) -> None:
    """The stopped clock is stored by a task that may wait for the database (under load, past
    the player's return and win): storing it then must leave the won game's clock alone, or the
    best time would count the hour away (its wall time)."""
    line = keyed_line("freecell", KEY)
    game = (await player.request("start_game", variant="freecell", key=KEY.hex()))["game"]
    half = len(line) // 2
    game = await play_line(player, game, line[:half], clock, 1000)
    assert (await player.request("leave_game", game=game["id"]))["type"] == "ok"
    await until_left(server, game["id"])
    left = await server.game_store.get(game["id"])
    late = (left.game.ply, left.paused_ms, left.stopped_ms)  # the clock as the task took it
    clock.advance(60 * 60_000)
    game = (await player.request("get_game", game=game["id"]))["game"]
    game = await play_line(player, game, line[half:], clock, 1000)
    assert game["state"] == "won"
    async with server.db_sessions() as db, db.begin():
        await store.save_clock(
            db, game_id=game["id"], ply=late[0], paused_ms=late[1], stopped_ms=late[2]
        )
    stats = await player.request("stats")
    active = 1000 * len(line) + 30_000
    assert [v["best_ms"] for v in stats["variants"] if v["variant"] == "freecell"] == [active]
