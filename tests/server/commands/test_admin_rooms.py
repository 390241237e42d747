"""``patience-club admin rooms``, ``end-race``, ``close-room``, ``remove-bots`` against a real
running server: the command writes to the database, the server acts within its poll."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import func, select
from websockets.exceptions import ConnectionClosed

from server.app import App
from server.cli import main as cli
from server.config import Config
from server.storage.models import Game, OperatorRequest, Player, Room
from tests.server.conftest import Client, Connect, FakeClock, open_client
from tests.server.pushes import admin, fix_daily, push, rejoin, until


@pytest.fixture
def config(config: Config) -> Config:
    """Races with a short countdown and a fast tick; every registration from loopback."""
    return config.replace(race_countdown_ms=60, race_tick_ms=20, registration_limit=0)


async def welcomed(connect: Connect, name: str, bot: bool = False) -> tuple[Client, str, int]:
    client = await connect()
    reply = await client.request("hello", protocol=2, client="tests/1", name=name, bot=bot)
    assert reply["type"] == "welcome", reply
    return client, reply["token"], reply["player"]["id"]


def listed(out: str) -> dict[str, list[str]]:
    """``admin rooms``' lines by code: the line's columns (two spaces or more apart)."""
    rows = [line.split("  ") for line in out.splitlines()[1:]]
    return {row[0]: [cell.strip() for cell in row if cell.strip()] for row in rows}


async def racing(alice: Client, bob: Client, **room: Any) -> tuple[str, dict[str, Any]]:
    code = (await alice.request("create_room", variant="gypsy", **room))["room"]["code"]
    await bob.request("join_room", code=code)
    await alice.request("start_race", code=code)
    game = (await push(alice, "race_started", code=code))["game"]
    await push(bob, "race_started", code=code)
    return code, game


async def test_rooms_lists_each_room_with_its_members_and_who_is_connected(
    capsys: pytest.CaptureFixture[str], config: Config, server: App, connect: Connect
) -> None:
    assert await admin(capsys, config, "rooms") == (0, "no rooms\n")
    alice, _, _ = await welcomed(connect, "alice")
    bob, bob_token, _ = await welcomed(connect, "bob")
    first = (await alice.request("create_room", variant="freecell"))["room"]["code"]
    second = (await bob.request("create_room", variant="westhaven"))["room"]["code"]
    await bob.request("join_room", code=first)
    code, out = await admin(capsys, config, "rooms")
    assert code == 0
    assert out.splitlines()[0].split() == [
        "code", "variant", "state", "members/connected", "host", "created", "(UTC)",
    ]  # fmt: skip
    # The test's clock: 1_800_000_000_000 ms is 2027-01-15 08:00 UTC.
    assert listed(out) == {
        first: [first, "freecell", "waiting", "2/2", "alice", "2027-01-15 08:00"],
        second: [second, "westhaven", "waiting", "1/1", "bob", "2027-01-15 08:00"],
    }

    await bob.ws.close()  # bob goes: his rows say so within a moment

    async def bob_gone() -> bool:
        rows = listed((await admin(capsys, config, "rooms"))[1])
        return rows[first][3] == "2/1" and rows[second][3] == "1/0"

    await until(bob_gone)
    bob = await rejoin(server, bob_token)
    await alice.request("start_race", code=first)
    await push(alice, "race_started")

    async def back_and_racing() -> bool:
        rows = listed((await admin(capsys, config, "rooms"))[1])
        return rows[first][2:4] == ["racing #1", "2/2"] and rows[second][3] == "1/1"

    await until(back_and_racing)


async def test_end_race_ends_a_running_race_as_its_time_limit_would(
    capsys: pytest.CaptureFixture[str], config: Config, server: App, connect: Connect
) -> None:
    alice, _, a = await welcomed(connect, "alice")
    bob, _, b = await welcomed(connect, "bob")
    sam, _, _ = await welcomed(connect, "sam")
    code, game = await racing(alice, bob)
    await sam.request("join_room", code=code, role="spectator")
    moved = (await alice.move(game, game["legal"][0]))["game"]

    done, out = await admin(capsys, config, "end-race", code.lower())
    assert done == 0, out
    assert out == f"race 1 of room {code} ended: race_over with 2 standings sent to 3 members\n"
    for client in (alice, bob, sam):
        over = await push(client, "race_over", code=code)
        assert {s["player"]: s["state"] for s in over["standings"]} == {a: "timeout", b: "timeout"}
    assert (await alice.move(moved, moved["legal"][0]))["code"] == "game_over"
    async with server.db_sessions() as db:
        assert await db.scalar(select(Game.state).where(Game.id == game["id"])) == "timeout"
        assert await db.scalar(select(Room.state).where(Room.code == code)) == "over"
    assert server.rooms.rooms[code].state == "over"

    # Over now: nothing to end; a code naming no room, or no code at all, is refused.
    done, out = await admin(capsys, config, "end-race", code)
    assert (done, out) == (1, f"patience-club admin: room {code} is over, not racing: "
                              "there is no race to end\n")  # fmt: skip
    done, out = await admin(capsys, config, "end-race", "ZZZZZZ")
    assert done == 1 and "no room 'ZZZZZZ'" in out
    with pytest.raises(SystemExit) as usage:
        await admin(capsys, config, "end-race", "K7QF")
    assert usage.value.code == 2
    async with server.db_sessions() as db:  # refusals ask the server nothing
        assert await db.scalar(select(func.count()).select_from(OperatorRequest)) == 1


async def test_close_room_tells_and_removes_its_members_and_the_room_goes(
    capsys: pytest.CaptureFixture[str], config: Config, server: App, connect: Connect
) -> None:
    alice, _, a = await welcomed(connect, "alice")
    bob, _, b = await welcomed(connect, "bob")
    code, game = await racing(alice, bob)
    quiet = (await bob.request("create_room", variant="osmosis"))["room"]["code"]

    done, out = await admin(capsys, config, "close-room", code)
    assert done == 0, out
    assert out == f"room {code} closed (its race 1 ended first): its 2 members told and removed\n"
    for client in (alice, bob):
        over = await push(client, "race_over", code=code)
        assert {s["player"] for s in over["standings"]} == {a, b}
        told = await push(client, "error")
        assert told["code"] == "not_in_room" and code in told["message"]
        assert "closed by the server's operator" in told["message"]
    assert (await alice.request("join_room", code=code))["code"] == "not_found"
    assert (await alice.request("get_game", game=game["id"]))["game"]["state"] == "timeout"
    assert list(listed((await admin(capsys, config, "rooms"))[1])) == [quiet]
    async with server.db_sessions() as db:
        assert await db.get(Room, code) is None
    done, out = await admin(capsys, config, "close-room", code)
    assert done == 1 and f"no room {code!r}" in out


async def test_remove_bots_removes_bots_and_what_only_they_own_never_a_persons(
    capsys: pytest.CaptureFixture[str], config: Config, server: App, connect: Connect
) -> None:
    alice, alice_token, a = await welcomed(connect, "alice")
    robot, robot_token, r = await welcomed(connect, "robot", bot=True)
    drone, _, _ = await welcomed(connect, "drone", bot=True)
    mine = await alice.start("freecell", 617)
    solo = await robot.start("freecell", 617)
    await robot.move(solo, solo["legal"][0])
    await drone.start("gypsy", 5)
    await fix_daily(server, "gypsy", server.daily.today())
    assert (await drone.request("daily", start=True, variant="gypsy"))["type"] == "game"
    # A race the robot hosted and raced in with alice, over: her game stays hers.
    shared = (await robot.request("create_room", variant="freecell"))["room"]["code"]
    await alice.request("join_room", code=shared)
    await robot.request("start_race", code=shared)
    raced = [await push(x, "race_started", code=shared) for x in (robot, alice)]
    for client, message in zip((robot, alice), raced, strict=True):
        await client.request("resign", game=message["game"]["id"], ply=0)
    await push(alice, "race_over", code=shared)
    lonely = (await drone.request("create_room", variant="gypsy"))["room"]["code"]

    done, out = await admin(capsys, config, "remove-bots", "--dry-run")
    assert done == 0
    assert out.splitlines() == [
        "would remove:",
        "bot accounts: 2 (robot, drone)",
        "their games: 4 (1 actions), daily attempts: 1, held results: 0",
        "room memberships: 2; rooms with only bots, closed: 1; rooms a bot hosted, handed on: 1",
        "dry run: nothing changed",
    ]
    done, out = await admin(capsys, config, "remove-bots", "alice", "robot")
    assert (done, out) == (1, f"patience-club admin: player {a} (alice) is not a bot: "
                              "remove-bots never removes a person's account\n")  # fmt: skip
    async with server.db_sessions() as db:
        assert await db.scalar(select(func.count()).select_from(Player)) == 3

    done, out = await admin(capsys, config, "remove-bots")
    assert done == 0, out
    assert out.splitlines()[:3] == [
        "removed:",
        "bot accounts: 2 (robot, drone)",
        "their games: 4 (1 actions), daily attempts: 1, held results: 0",
    ]
    handed = await push(alice, "room", check=lambda m: m["room"]["host"] == a)
    assert [p["id"] for p in handed["room"]["players"]] == [a]
    with pytest.raises(ConnectionClosed):  # the bot's connection is closed, with 1008
        while True:
            await asyncio.wait_for(robot.recv(), 5)
    assert robot.ws.close_code == 1008
    refused = await open_client(server)
    back = await refused.request("hello", protocol=2, client="tests/1", token=robot_token)
    assert back["code"] == "bad_token"
    assert (await alice.request("join_room", code=lonely))["code"] == "not_found"
    assert r not in server.players
    # Alice keeps everything of hers: her account, her game, her room (hosted by her now).
    alice = await rejoin(server, alice_token)
    assert (await alice.request("get_game", game=mine["id"]))["game"]["id"] == mine["id"]
    kept = {g["id"] for g in (await alice.request("games"))["games"]}
    assert kept == {mine["id"], raced[1]["game"]["id"]}
    room = (await alice.request("join_room", code=shared))["room"]
    assert room["host"] == a and {p["id"]: p["game"] for p in room["players"]} == {
        a: raced[1]["game"]["id"]
    }
    async with server.db_sessions() as db:
        assert (await db.get(Room, shared)).racers == {str(a): raced[1]["game"]["id"]}
        assert await db.scalar(select(func.count()).select_from(Game)) == 2
    rows = listed((await admin(capsys, config, "rooms"))[1])
    assert list(rows) == [shared] and rows[shared][4] == "alice"
    players = (await admin(capsys, config, "list-players"))[1].splitlines()[1:]
    assert [line.split()[1] for line in players] == ["alice"]
    assert (await admin(capsys, config, "remove-bots"))[1] == "no bot accounts: nothing to remove\n"


async def test_with_no_server_running_nothing_changes_unless_offline(
    capsys: pytest.CaptureFixture[str], config: Config, clock: FakeClock
) -> None:
    app = App(config, clock=clock)
    await app.start()
    alice = await open_client(app)
    await alice.hello("alice")
    robot = await open_client(app)
    await robot.request("hello", protocol=2, client="tests/1", name="robot", bot=True)
    code = (await alice.request("create_room", variant="gypsy"))["room"]["code"]
    await robot.request("join_room", code=code)
    await alice.request("start_race", code=code)
    await push(alice, "race_started")
    await app.stop()

    db = ["--db", config.db]
    assert await asyncio.to_thread(cli, ["admin", "rooms", *db]) == 0
    assert listed(capsys.readouterr().out)[code][2:4] == ["racing #1", "2/0"]
    assert await asyncio.to_thread(cli, ["admin", "end-race", code, "--wait", "0.3", *db]) == 1
    out = capsys.readouterr().out
    assert "no running server took the request within 0.3 s: nothing changed" in out
    assert await asyncio.to_thread(cli, ["admin", "close-room", code, "--wait", "0.3", *db]) == 1
    assert "use --offline" in capsys.readouterr().out
    assert await asyncio.to_thread(cli, ["admin", "remove-bots", "--offline", *db]) == 0
    assert capsys.readouterr().out.startswith("removed (the server is stopped):\nbot accounts: 1")
    assert await asyncio.to_thread(cli, ["admin", "close-room", code, "--offline", *db]) == 0
    removed = f"room {code} removed from the database (the server is stopped)\n"
    assert capsys.readouterr().out == removed
    assert await asyncio.to_thread(cli, ["admin", "rooms", *db]) == 0
    assert capsys.readouterr().out == "no rooms\n"

    # A request nobody took was taken by its command: a server started later does not act on it.
    again = App(config, clock=clock)
    await again.start()
    try:
        async with again.db_sessions() as session:
            taken = (await session.execute(select(OperatorRequest.taken_by))).scalars()
            assert list(taken) == ["command", "command"]
    finally:
        await again.stop()


async def test_a_bot_removed_mid_race_resigns_and_the_race_goes_on_without_it(
    capsys: pytest.CaptureFixture[str], config: Config, server: App, connect: Connect
) -> None:
    alice, _, a = await welcomed(connect, "alice")
    robot, _, r = await welcomed(connect, "robot", bot=True)
    code, game = await racing(alice, robot)
    assert (await admin(capsys, config, "remove-bots", "robot"))[0] == 0
    gone = await push(alice, "progress", player=r)
    assert gone["state"] == "resigned"
    room = (await alice.request("join_room", code=code))["room"]
    assert room["state"] == "racing" and [p["id"] for p in room["players"]] == [a]
    moved = await alice.move(game, game["legal"][0])
    assert moved["type"] == "game"
    await alice.request("resign", game=game["id"], ply=1)
    over = await push(alice, "race_over", code=code)
    assert [s["player"] for s in over["standings"]] == [a]
    async with server.db_sessions() as db:
        stored = await db.get(Room, code)
        assert stored is not None and stored.racers == {str(a): game["id"]}


async def test_a_request_left_waiting_over_a_minute_is_dropped_not_carried_out(
    server: App, connect: Connect
) -> None:
    from server.storage.queries import players, requests

    alice, _, _ = await welcomed(connect, "alice")
    bob, _, _ = await welcomed(connect, "bob")
    code, _ = await racing(alice, bob)
    async with server.db_sessions() as db, db.begin():
        old = await requests.add(
            db, action=requests.END_RACE, target=code, now_ms=players.now_ms() - 61_000
        )

    async def answered() -> bool:
        async with server.db_sessions() as db:
            row = await requests.get(db, request_id=old)
            return row is not None and row.done_ms is not None

    await until(answered)
    async with server.db_sessions() as db:
        row = await requests.get(db, request_id=old)
        assert row is not None and (row.ok, row.taken_by) == (False, "server")
        assert row.outcome == "not taken within a minute of being asked: dropped"
    assert server.rooms.rooms[code].state == "racing"
