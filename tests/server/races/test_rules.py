"""Protocol 2's race rules over the wire: spectators, the watch rule, keyed races, connected
racers only, abandoned racers, the race lock, hints, and host actions that say why not."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.app import App
from server.config import Config
from shared.deals import commitment
from shared.protocol import MAX_SPECTATORS
from tests.server.conftest import Client, Connect, FakeClock
from tests.server.pushes import no_push, push, rejoin


async def welcomed(connect: Connect, name: str) -> tuple[Client, str, int]:
    client = await connect()
    reply = await client.hello(name)
    return client, reply["token"], reply["player"]["id"]


def connected(message: dict[str, Any], player: int) -> bool:
    return bool({p["id"]: p["connected"] for p in message["room"]["players"]}[player])


def roles(room: dict[str, Any]) -> dict[int, str]:
    return {p["id"]: p["role"] for p in room["players"]}


async def started(clients: list[Client], code: str) -> list[dict[str, Any]]:
    return [await push(client, "race_started", code=code) for client in clients]


async def test_spectators_watch_any_racer_any_time_and_never_race(connect: Connect) -> None:
    alice, _, a = await welcomed(connect, "alice")
    bob, _, b = await welcomed(connect, "bob")
    sam, _, s = await welcomed(connect, "sam")
    code = (await alice.request("create_room", variant="freecell", max_players=2))["room"]["code"]
    await bob.request("join_room", code=code)
    # A full room of racers still takes spectators; they do not count towards max_players.
    joined = (await sam.request("join_room", code=code, role="spectator"))["room"]
    assert roles(joined) == {a: "racer", b: "racer", s: "spectator"}
    assert (await sam.request("join_room", code=code, role="racer"))["room"] == joined  # fixed

    await alice.request("start_race", code=code)
    alices, bobs, sams = await started([alice, bob, sam], code)
    assert "game" not in sams and alices["game"]["deal"] == bobs["game"]["deal"]
    room = (await sam.request("join_room", code=code))["room"]
    assert {p["id"]: p["game"] for p in room["players"]}[s] is None

    # The spectator watches a racer at once; the board is the racer's own view.
    watched = await sam.request("watch", code=code, player=a)
    assert watched["game"] == alices["game"]
    moved = await alice.move(alices["game"], alices["game"]["legal"][0])
    assert (await push(sam, "game", player=a))["game"] == moved["game"]
    assert (await push(sam, "progress", player=a))["ply"] == 1
    # A racer may not, while their own game of this race is open.
    refused = await bob.request("watch", code=code, player=a)
    assert refused["code"] == "race_in_progress" and "ended" in refused["message"]
    assert (await bob.request("resign", game=bobs["game"]["id"], ply=0))["type"] == "game"
    assert (await bob.request("watch", code=code, player=a))["type"] == "game"

    # A spectator joins during the race too; a racer may not.
    late, _, _ = await welcomed(connect, "late")
    assert (await late.request("join_room", code=code))["code"] == "race_in_progress"
    assert (await late.request("join_room", code=code, role="spectator"))["type"] == "room"
    # A racer's games list names the room of a race game: a client opens the race there.
    listed = {g["id"]: g for g in (await alice.request("games"))["games"]}
    assert listed[alices["game"]["id"]]["room"] == code
    solo = await alice.start("freecell", seed=5)
    assert "room" not in {g["id"]: g for g in (await alice.request("games"))["games"]}[solo["id"]]
    # ... and hears at once how far each racer is (the pushes before it joined went to others)
    heard = {m["player"]: m for m in [await push(late, "progress") for _ in range(2)]}
    assert (heard[a]["ply"], heard[a]["state"]) == (1, "playing")
    assert heard[b]["state"] == "resigned"
    await alice.request("resign", game=alices["game"]["id"], ply=1)
    over = await push(sam, "race_over", code=code)
    assert {row["player"] for row in over["standings"]} == {a, b}  # no standing for spectators


async def test_a_room_takes_at_most_32_spectators(connect: Connect) -> None:
    host, _, _ = await welcomed(connect, "host")
    code = (await host.request("create_room", variant="gypsy"))["room"]["code"]
    await host.ws.close()  # (a client that reads no pushes would hold up its own close)
    for n in range(MAX_SPECTATORS):
        client, _, _ = await welcomed(connect, f"s{n}")
        assert (await client.request("join_room", code=code, role="spectator"))["type"] == "room"
        await client.ws.close()
    extra, _, _ = await welcomed(connect, "extra")
    assert (await extra.request("join_room", code=code, role="spectator"))["code"] == "room_full"
    assert (await extra.request("join_room", code=code))["type"] == "room"  # racers have room


async def test_a_racer_watching_before_the_race_stops_watching_when_it_starts(
    connect: Connect,
) -> None:
    alice, _, a = await welcomed(connect, "alice")
    bob, _, _ = await welcomed(connect, "bob")
    code = (await alice.request("create_room", variant="westhaven"))["room"]["code"]
    await bob.request("join_room", code=code)
    await alice.request("start_race", code=code)
    alices, bobs = await started([alice, bob], code)
    await bob.request("resign", game=bobs["game"]["id"], ply=0)
    await alice.request("resign", game=alices["game"]["id"], ply=0)
    await push(bob, "race_over")
    # Over: bob may follow alice; the next race takes his watch away.
    assert (await bob.request("watch", code=code, player=a))["type"] == "game"
    await alice.request("start_race", code=code)
    second, _ = await started([alice, bob], code)
    await alice.move(second["game"], second["game"]["legal"][0])
    await no_push(bob, "game")
    refused = await bob.request("watch", code=code, player=a)
    assert refused["code"] == "race_in_progress"


async def test_a_keyed_race_shows_its_key_to_everyone_once_it_is_over(
    connect: Connect, server: App
) -> None:
    alice, _, _a = await welcomed(connect, "alice")
    bob, _, _ = await welcomed(connect, "bob")
    room = (await alice.request("create_room", variant="gypsy"))["room"]
    assert room["seed"] is None  # no seed: every race of the room is keyed
    code = room["code"]
    await bob.request("join_room", code=code)
    await alice.request("start_race", code=code)
    alices, bobs = await started([alice, bob], code)
    deal = alices["game"]["deal"]
    assert set(deal) == {"commitment"} and bobs["game"]["deal"] == deal
    assert alices["game"]["piles"] == bobs["game"]["piles"]
    await alice.request("resign", game=alices["game"]["id"], ply=0)
    # Alice's game has ended, but the race has not: the key still waits.
    assert "key" not in (await alice.request("get_game", game=alices["game"]["id"]))["game"]["deal"]
    await bob.request("resign", game=bobs["game"]["id"], ply=0)
    await push(alice, "race_over")
    shown = (await alice.request("get_game", game=alices["game"]["id"]))["game"]["deal"]
    assert shown["commitment"] == deal["commitment"]
    assert commitment("gypsy", bytes.fromhex(shown["key"])) == deal["commitment"]
    listed = (await bob.request("games"))["games"][0]
    assert listed["deal"] == shown and listed["kind"] == "race"


async def test_a_race_deals_only_to_racers_connected_when_its_countdown_ends(
    config: Config, clock: FakeClock, server: App, connect: Connect
) -> None:
    alice, _, a = await welcomed(connect, "alice")
    bob, bob_token, b = await welcomed(connect, "bob")
    carol, _, c = await welcomed(connect, "carol")
    code = (await alice.request("create_room", variant="freecell", seed=99))["room"]["code"]
    await bob.request("join_room", code=code)
    await carol.request("join_room", code=code)
    await bob.ws.close()  # bob is gone before the race: he sits it out
    await push(alice, "room", check=lambda m: not connected(m, b))
    await alice.request("start_race", code=code)
    alices, carols = await started([alice, carol], code)
    room = (await alice.request("join_room", code=code))["room"]
    games = {p["id"]: p["game"] for p in room["players"]}
    assert games[b] is None and games[a] == alices["game"]["id"]
    # Bob comes back during the race: still a member, with no game; the room says so.
    bob = await rejoin(server, bob_token)
    again = (await bob.request("join_room", code=code))["room"]
    assert again["state"] == "racing" and {p["id"]: p["game"] for p in again["players"]}[b] is None
    await alice.request("resign", game=alices["game"]["id"], ply=0)
    await carol.request("resign", game=carols["game"]["id"], ply=0)
    over = await push(bob, "race_over")
    assert {row["player"] for row in over["standings"]} == {a, c}


async def test_a_racer_gone_for_race_abandon_s_is_resigned_and_the_race_ends(
    serve_with: Any, clock: FakeClock
) -> None:
    from tests.server.conftest import open_client

    app = await serve_with(race_abandon_s=30)
    alice = await open_client(app)
    a = (await alice.hello("alice"))["player"]["id"]
    bob = await open_client(app)
    b = (await bob.hello("bob"))["player"]["id"]
    code = (await alice.request("create_room", variant="osmosis"))["room"]["code"]
    await bob.request("join_room", code=code)
    await alice.request("start_race", code=code)
    alices, _bobs = await started([alice, bob], code)
    await alice.request("resign", game=alices["game"]["id"], ply=0)
    await bob.ws.close()
    await push(alice, "room", check=lambda m: not connected(m, b))
    clock.advance(29_000)
    await no_push(alice, "progress", wait_s=0.2)  # not yet: he may come back
    clock.advance(1_000)
    gone = await push(alice, "progress", player=b)
    assert gone["state"] == "resigned"
    over = await push(alice, "race_over", code=code)
    assert {row["player"]: row["state"] for row in over["standings"]} == {
        a: "resigned",
        b: "resigned",
    }
    room = (await alice.request("join_room", code=code))["room"]  # over, not at its time limit
    assert room["state"] == "over"


async def test_host_actions_that_are_refused_say_why(connect: Connect) -> None:
    alice, _, _a = await welcomed(connect, "alice")
    sam, _, s = await welcomed(connect, "sam")
    code = (await alice.request("create_room", variant="gypsy"))["room"]["code"]
    await sam.request("join_room", code=code, role="spectator")
    refused = await sam.request("start_race", code=code)
    assert refused["code"] == "not_host" and code in refused["message"]
    await alice.request("leave_room", code=code)
    handed = await push(sam, "room", check=lambda m: m["room"]["host"] == s)
    assert roles(handed["room"]) == {s: "spectator"}
    refused = await sam.request("start_race", code=code)
    assert refused["code"] == "no_racers" and "connected to race" in refused["message"]
    bob, _, _ = await welcomed(connect, "bob")
    await bob.request("join_room", code=code)
    assert (await sam.request("start_race", code=code))["type"] == "ok"  # a host who watches
    again = await sam.request("start_race", code=code)
    assert again["code"] == "race_in_progress" and "race_over" in again["message"]
    assert "game" not in (await push(sam, "race_started"))
    assert (await push(bob, "race_started"))["game"]["ply"] == 0


async def test_a_racer_cannot_play_their_races_numbered_deal_on_the_side(
    connect: Connect,
) -> None:
    alice, _, _ = await welcomed(connect, "alice")
    sam, _, _ = await welcomed(connect, "sam")
    code = (await alice.request("create_room", variant="freecell", seed=617))["room"]["code"]
    await sam.request("join_room", code=code, role="spectator")
    await alice.request("start_race", code=code)
    locked = await alice.request("start_game", variant="freecell", seed=617)
    assert locked["code"] == "race_locked"  # from the countdown on
    game = (await push(alice, "race_started"))["game"]
    locked = await alice.request("start_game", variant="freecell", seed=617)
    assert locked["code"] == "race_locked" and code in locked["message"]
    assert (await alice.request("start_game", variant="freecell", seed=618))["type"] == "game"
    assert (await alice.request("start_game", variant="gypsy", seed=617))["type"] == "game"
    assert (await sam.request("start_game", variant="freecell", seed=617))["type"] == "game"
    await alice.request("resign", game=game["id"], ply=0)
    assert (await alice.request("start_game", variant="freecell", seed=617))["type"] == "game"


async def test_hints_in_a_race_are_the_rooms_to_allow(connect: Connect) -> None:
    alice, _, _ = await welcomed(connect, "alice")
    off = (await alice.request("create_room", variant="freecell"))["room"]
    on = (await alice.request("create_room", variant="freecell", hints=True))["room"]
    assert (off["hints"], on["hints"]) == (False, True)
    for room, answer in ((off, "hints_off"), (on, "hint")):
        await alice.request("start_race", code=room["code"])
        game = (await push(alice, "race_started", code=room["code"]))["game"]
        reply = await alice.request("hint", game=game["id"])
        assert reply.get("code", reply["type"]) == answer
        if answer == "hint":
            assert reply["move"] in game["legal"]
            moved = await alice.move(game, game["legal"][0])
            assert moved["game"]["hints"] == 1


async def test_room_codes_cannot_be_tried_by_the_thousand(connect: Connect) -> None:
    mallory, _, _ = await welcomed(connect, "mallory")
    for n in range(19):
        assert (await mallory.request("join_room", code=f"ABCDE{n % 8 + 2}"))["code"] == "not_found"
    await mallory.send({"type": "join_room", "id": 99, "code": "ABCDEF"})
    last = await mallory.recv()
    assert (last["code"], last["re"]) == ("not_found", 99)
    with pytest.raises(Exception):  # noqa: B017 - the server closes: websockets raises
        await asyncio.wait_for(mallory.recv(), 5)
    assert mallory.ws.close_code == 1008


async def test_bots_are_shown_as_bots_and_race(connect: Connect) -> None:
    alice, _, a = await welcomed(connect, "alice")
    robot = await connect()
    r = (await robot.request("hello", protocol=2, client="bot/1", name="robot", bot=True))[
        "player"
    ]["id"]
    code = (await alice.request("create_room", variant="freecell"))["room"]["code"]
    room = (await robot.request("join_room", code=code))["room"]
    assert {p["id"]: p["bot"] for p in room["players"]} == {a: False, r: True}
    await alice.request("start_race", code=code)
    assert (await push(robot, "race_started"))["game"]["ply"] == 0
