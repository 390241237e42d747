"""Races over the wire: rooms, countdown, progress, watch, disconnects, restart, standings."""

from __future__ import annotations

import asyncio
from typing import Any

from server.app import App
from server.config import Config
from shared.protocol import CODE_ALPHABET
from tests.server.conftest import Client, Connect, FakeClock, open_client
from tests.server.pushes import no_push, play_line, push, rejoin, winning_line


def connected(message: dict[str, Any], player: int) -> bool:
    return bool({p["id"]: p["connected"] for p in message["room"]["players"]}[player])


async def welcomed(connect: Connect, name: str) -> tuple[Client, str, int]:
    client = await connect()
    reply = await client.hello(name)
    return client, reply["token"], reply["player"]["id"]


async def test_a_three_player_race_from_room_to_standings_through_a_restart(
    config: Config, clock: FakeClock, server: App, connect: Connect
) -> None:
    alice, alice_token, a = await welcomed(connect, "alice")
    bob, bob_token, b = await welcomed(connect, "bob")
    carol, carol_token, c = await welcomed(connect, "carol")
    dave, dave_token, d = await welcomed(connect, "dave")

    created = await alice.request(
        "create_room", variant="freecell", seed=617, options={}, time_limit_s=600
    )
    assert created["type"] == "room", created
    room = created["room"]
    code = room["code"]
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    assert (room["host"], room["state"], room["max_players"]) == (a, "waiting", 8)
    assert (room["seed"], room["hints"]) == (617, False)
    assert room["players"] == [
        {"id": a, "name": "alice", "connected": True, "game": None, "role": "racer", "bot": False}
    ]

    joined = await bob.request("join_room", code=code.lower())  # read aloud, typed in lower case
    assert [p["id"] for p in joined["room"]["players"]] == [a, b]
    seen = await push(alice, "room")
    assert [p["name"] for p in seen["room"]["players"]] == ["alice", "bob"]
    await carol.request("join_room", code=code)
    await dave.request("join_room", code=code)

    refused = await bob.request("start_race", code=code)
    assert refused["code"] == "not_host"
    assert (await alice.request("start_race", code=code))["type"] == "ok"
    for client in (alice, bob, carol, dave):
        countdown = await push(client, "race_countdown")
        assert countdown == {"type": "race_countdown", "code": code, "start_in_ms": 60}
    late, _, _ = await welcomed(connect, "erin")
    assert (await late.request("join_room", code=code))["code"] == "race_in_progress"

    games: dict[int, dict[str, Any]] = {}
    for client, pid in ((alice, a), (bob, b), (carol, c), (dave, d)):
        started = await push(client, "race_started", code=code)
        games[pid] = started["game"]
    assert len({g["id"] for g in games.values()}) == 4
    assert {g["deal"]["seed"] for g in games.values()} == {617}
    assert len({str(g["piles"]) for g in games.values()}) == 1  # the same deal for everyone

    # Each action pushes progress to the other members, not to the player.
    moved = await bob.move(games[b], games[b]["legal"][0])
    games[b] = moved["game"]
    for client in (alice, carol, dave):
        progress = await push(client, "progress", player=b)
        assert (progress["ply"], progress["state"], progress["code"]) == (1, "playing", code)
        assert progress["foundation"] == sum(
            len(p["up"]) for p in games[b]["piles"] if p["id"].startswith("f")
        )
    await no_push(bob, "progress")

    # Dave gives up and follows Alice's board instead.
    resigned = await dave.request("resign", game=games[d]["id"], ply=0)
    assert resigned["game"]["state"] == "resigned"
    assert (await push(alice, "progress", player=d))["state"] == "resigned"
    watched = await dave.request("watch", code=code, player=a)
    assert (watched["type"], watched["game"]["id"]) == ("game", games[a]["id"])
    forbidden = await dave.request("get_game", game=games[a]["id"])
    assert forbidden["code"] == "forbidden"  # watching is the only way to follow another board

    # Carol's connection drops; the others see it; she comes back and continues.
    await carol.ws.close()
    await push(alice, "room", check=lambda m: not connected(m, c))
    carol = await rejoin(server, carol_token)
    await push(alice, "room", check=lambda m: connected(m, c))
    again = await carol.request("join_room", code=code)
    assert again["room"]["state"] == "racing"
    mine = {p["id"]: p["game"] for p in again["room"]["players"]}[c]
    assert mine == games[c]["id"]
    moved = await carol.move(games[c], games[c]["legal"][0])
    games[c] = moved["game"]

    # The server restarts in the middle of the race.
    clock.advance(5_000)
    for client in (alice, bob, carol, dave):
        await client.ws.close()
    await server.stop()
    restarted = App(config, clock=clock)
    await restarted.start()
    try:
        alice = await rejoin(restarted, alice_token)
        bob = await rejoin(restarted, bob_token)
        carol = await rejoin(restarted, carol_token)
        dave = await rejoin(restarted, dave_token)
        room = (await alice.request("join_room", code=code))["room"]
        assert (room["state"], room["host"]) == ("racing", a)
        assert {p["id"]: p["game"] for p in room["players"]} == {
            pid: g["id"] for pid, g in games.items()
        }
        carol_game = (await carol.request("get_game", game=games[c]["id"]))["game"]
        assert (carol_game["ply"], carol_game["elapsed_ms"]) == (1, 5_000)
        await dave.request("watch", code=code, player=a)

        # Alice wins; Dave sees her board move; Bob and Carol resign.
        clock.advance(55_000)
        game = await play_line(alice, games[a], winning_line("freecell", 617))
        assert game["state"] == "won"
        followed = await push(dave, "game", player=a)
        assert followed["game"]["id"] == games[a]["id"]
        assert all(p["down"] == 0 for p in followed["game"]["piles"])  # Freecell has none
        clock.advance(1_000)
        await bob.request("resign", game=games[b]["id"], ply=1)
        await no_push(alice, "race_over")
        clock.advance(1_000)
        await carol.request("resign", game=games[c]["id"], ply=1)
        over = await push(alice, "race_over", code=code)
        for client in (bob, carol, dave):
            assert (await push(client, "race_over", code=code)) == over
        standings = over["standings"]
        assert standings[0]["player"] == a
        assert {s["player"] for s in standings[1:]} == {b, c, d}
        assert standings[0] == {
            "rank": 1,
            "player": a,
            "name": "alice",
            "state": "won",
            "elapsed_ms": 60_000,
            "moves": len(winning_line("freecell", 617)),
            "score": 52,
            "undos": 0,
            "foundation": 52,
        }
        # The others all ended with no card home: they share a place, however soon each
        # resigned (Dave at once, Bob and Carol a minute later).
        ended = {s["player"]: (s["rank"], s["elapsed_ms"], s["foundation"]) for s in standings}
        assert ended[d] == (2, 0, 0)
        assert ended[b] == (2, 61_000, 0) and ended[c] == (2, 62_000, 0)

        # Rematch on a new, keyed deal; then the host leaves and hands the room over.
        assert (await alice.request("start_race", code=code))["type"] == "ok"
        rematch: dict[int, dict[str, Any]] = {}
        for client, pid in ((alice, a), (bob, b), (carol, c), (dave, d)):
            rematch[pid] = (await push(client, "race_started", code=code))["game"]
        assert {g["id"] for g in rematch.values()}.isdisjoint(g["id"] for g in games.values())
        assert len({str(g["deal"]) for g in rematch.values()}) == 1
        assert set(rematch[a]["deal"]) == {"commitment"} and rematch[a]["ply"] == 0
        assert (await alice.request("join_room", code=code))["room"]["seed"] is None
        assert (await alice.request("leave_room", code=code))["type"] == "ok"
        handed = await push(bob, "room", check=lambda m: m["room"]["host"] == b)
        assert [p["id"] for p in handed["room"]["players"]] == [b, c, d]
        left = (await alice.request("get_game", game=rematch[a]["id"]))["game"]
        assert left["state"] == "resigned"  # leaving a race gives it up
        assert (await alice.request("start_race", code=code))["code"] == "not_in_room"
    finally:
        await restarted.stop()


async def test_a_race_past_its_time_limit_ends_in_timeout(
    clock: FakeClock, server: App, connect: Connect
) -> None:
    alice, _, a = await welcomed(connect, "alice")
    bob, _, b = await welcomed(connect, "bob")
    code = (await alice.request("create_room", variant="gypsy", time_limit_s=60))["room"]["code"]
    await bob.request("join_room", code=code)
    await alice.request("start_race", code=code)
    game = (await push(alice, "race_started"))["game"]
    await push(bob, "race_started")
    clock.advance(30_000)
    moved = await alice.move(game, game["legal"][0])
    clock.advance(31_000)
    over = await push(bob, "race_over", code=code)
    assert {s["state"] for s in over["standings"]} == {"timeout"}
    assert {s["elapsed_ms"] for s in over["standings"]} == {61_000}
    late = await alice.move(moved["game"], moved["game"]["legal"][0])
    assert late["code"] == "game_over"
    room = (await bob.request("join_room", code=code))["room"]
    assert room["state"] == "over"
    assert {s["player"] for s in over["standings"]} == {a, b}
    home = [s["foundation"] for s in over["standings"]]
    assert home == sorted(home, reverse=True)
    # More cards home ranks first, as many share the rank (Gypsy's score, which counts
    # built pairs too, does not rank).
    ranks = [s["rank"] for s in over["standings"]]
    assert ranks == ([1, 1] if home[0] == home[1] else [1, 2])


async def test_room_errors(connect: Connect) -> None:
    alice, _, _ = await welcomed(connect, "alice")
    bob, _, _ = await welcomed(connect, "bob")
    assert (await bob.request("join_room", code="ABCDEF"))["code"] == "not_found"
    assert (await bob.request("join_room", code="ABCDE0"))["code"] == "invalid_field"
    bad = await alice.request("create_room", variant="spider")
    assert (bad["code"], "'variant'" in bad["message"]) == ("invalid_field", True)
    code = (await alice.request("create_room", variant="westhaven", max_players=1))["room"]["code"]
    assert (await bob.request("join_room", code=code))["code"] == "room_full"
    assert (await bob.request("leave_room", code=code))["code"] == "not_in_room"
    assert (await bob.request("watch", code=code, player=1))["code"] == "not_in_room"
    assert (await alice.request("watch", code=code, player=1))["code"] == "not_found"
    assert (await alice.request("leave_room", code=code))["type"] == "ok"
    assert (await alice.request("join_room", code=code))["code"] == "not_found"  # closed

    codes = [
        (await bob.request("create_room", variant="freecell"))["room"]["code"] for _ in range(8)
    ]
    refused = await bob.request("create_room", variant="freecell")
    assert refused["code"] == "too_many_rooms"
    mine = (await alice.request("create_room", variant="freecell"))["room"]["code"]
    assert (await bob.request("join_room", code=mine))["code"] == "too_many_rooms"
    await bob.request("leave_room", code=codes[0])
    assert (await bob.request("join_room", code=mine))["type"] == "room"


async def test_a_room_left_alone_for_a_day_is_closed(clock: FakeClock, connect: Connect) -> None:
    alice, _, _ = await welcomed(connect, "alice")
    bob, _, _ = await welcomed(connect, "bob")
    kept = (await bob.request("create_room", variant="osmosis"))["room"]["code"]
    gone = (await alice.request("create_room", variant="osmosis"))["room"]["code"]
    await alice.ws.close()
    clock.advance(25 * 3_600_000)
    carol, _, _ = await welcomed(connect, "carol")
    for _ in range(100):  # watch changes nothing: not_in_room while the room exists
        await asyncio.sleep(0.02)
        if (await carol.request("watch", code=gone, player=1))["code"] == "not_found":
            break
    assert (await carol.request("join_room", code=gone))["code"] == "not_found"
    assert (await carol.request("join_room", code=kept))["type"] == "room"  # bob is connected


async def test_a_countdown_cut_by_a_restart_starts_its_race_after_it(
    config: Config, clock: FakeClock
) -> None:
    first = App(config.replace(race_countdown_ms=10_000), clock=clock)
    await first.start()
    try:
        alice = await open_client(first)
        token = (await alice.hello("alice"))["token"]
        code = (await alice.request("create_room", variant="freecell"))["room"]["code"]
        await alice.request("start_race", code=code)
        assert (await push(alice, "race_countdown"))["start_in_ms"] == 10_000
        await alice.ws.close()
    finally:
        await first.stop()
    clock.advance(9_000)  # down for nine seconds: one second of countdown left
    # the same countdown setting as before the restart: the race starts a (real) second after the
    # room is loaded, time for alice to come back on a loaded machine (at the races' 60 ms she
    # could miss it, and a race with nobody connected is called off)
    second = App(config.replace(race_countdown_ms=10_000), clock=clock)
    await second.start()
    try:
        alice = await rejoin(second, token)
        for _ in range(250):
            room = (await alice.request("join_room", code=code))["room"]
            if room["state"] == "racing":
                break
            await asyncio.sleep(0.02)
        assert room["state"] == "racing"
        game = (await alice.request("get_game", game=room["players"][0]["game"]))["game"]
        assert (game["ply"], game["elapsed_ms"]) == (0, 0)
    finally:
        await second.stop()
