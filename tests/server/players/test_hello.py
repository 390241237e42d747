"""hello and welcome: registration, tokens, names, and the order of messages."""

from __future__ import annotations

import hashlib

from sqlalchemy import select

from server.app import App
from server.config import Config
from server.storage.models import Player
from tests.server.conftest import Client, Connect, FakeClock, ServeWith, open_client


async def test_a_new_name_registers_and_gets_a_token_of_at_least_128_bits(connect: Connect) -> None:
    client = await connect()
    welcome = await client.hello("alice")
    assert welcome["re"] == 1
    assert welcome["protocol"] == 2
    assert welcome["player"] == {"id": welcome["player"]["id"], "name": "alice", "bot": False}
    assert [v["id"] for v in welcome["server"]["variants"]] == [
        "osmosis",
        "thumb_and_pouch",
        "gypsy",
        "freecell",
        "westhaven",
    ]
    token = welcome["token"]
    assert isinstance(token, str) and len(token) * 6 >= 128


async def test_the_welcome_says_how_to_lay_out_each_variant(connect: Connect) -> None:
    # VariantInfo's layout: rows of pile ids ("" a gap), and how each pile fans out
    welcome = await (await connect()).hello("layla")
    freecell = next(v for v in welcome["server"]["variants"] if v["id"] == "freecell")
    columns = [f"t{i}" for i in range(8)]
    assert freecell["layout"] == {
        "rows": [["r0", "r1", "r2", "r3", "", "f0", "f1", "f2", "f3"], columns],
        "fan": {
            **{pile: "stack" for pile in ["r0", "r1", "r2", "r3", "f0", "f1", "f2", "f3"]},
            **{pile: "down" for pile in columns},
        },
    }
    osmosis = next(v for v in welcome["server"]["variants"] if v["id"] == "osmosis")
    assert osmosis["layout"]["rows"][:2] == [["s", "w"], ["r0", "f0"]]
    assert osmosis["layout"]["fan"]["r0"] == "right" == osmosis["layout"]["fan"]["f3"]


async def test_the_token_brings_back_the_same_player_without_a_new_token(connect: Connect) -> None:
    first = await (await connect()).hello("alice")
    again = await (await connect()).request(
        "hello", protocol=2, client="tests/1", token=first["token"]
    )
    assert again["type"] == "welcome"
    assert again["player"] == first["player"]
    assert "token" not in again


async def test_only_a_hash_of_the_token_is_stored(server: App, connect: Connect) -> None:
    token = (await (await connect()).hello("alice"))["token"]
    async with server.db_sessions() as db:
        stored = (await db.execute(select(Player.token_hash))).scalar_one()
    assert stored != token and token not in stored
    assert stored == hashlib.sha256(token.encode()).hexdigest()


async def test_names_are_unique_without_regard_to_case(connect: Connect) -> None:
    await (await connect()).hello("Alice")
    reply = await (await connect()).request("hello", protocol=2, client="t/1", name="aLICE")
    assert reply["code"] == "name_taken"


async def test_bad_names_are_refused_and_the_connection_may_try_again(connect: Connect) -> None:
    client = await connect()
    for name in ["", "x" * 25, "al ice", "élodie", "a/b"]:
        reply = await client.request("hello", protocol=2, client="t/1", name=name)
        assert reply["code"] == "invalid_name", name
    assert (await client.hello("alice"))["player"]["name"] == "alice"


async def test_an_unknown_token_is_bad_token(connect: Connect) -> None:
    reply = await (await connect()).request("hello", protocol=2, client="t/1", token="nope")
    assert reply["code"] == "bad_token"


async def test_a_banned_player_is_refused(server: App, connect: Connect) -> None:
    token = (await (await connect()).hello("mallory"))["token"]
    async with server.db_sessions() as db, db.begin():
        player = (await db.execute(select(Player))).scalar_one()
        player.banned = True
    reply = await (await connect()).request("hello", protocol=2, client="t/1", token=token)
    assert reply["code"] == "banned"


async def test_another_protocol_version_is_a_mismatch(connect: Connect) -> None:
    client = await connect()
    for version in (1, 3):
        reply = await client.request("hello", protocol=version, client="t/1", name="bob")
        assert reply["code"] == "protocol_mismatch"
    assert (await client.hello("bob"))["protocol"] == 2


async def test_both_name_and_token_is_an_invalid_field(connect: Connect) -> None:
    reply = await (await connect()).request(
        "hello", protocol=2, client="t/1", name="bob", token="x"
    )
    assert reply["code"] == "invalid_field"
    assert "'token'" in reply["message"] and "'name'" in reply["message"]


async def test_anything_before_hello_is_hello_first(connect: Connect) -> None:
    client = await connect()
    reply = await client.request("start_game", variant="freecell")
    assert reply["code"] == "hello_first"
    assert (await client.hello("alice"))["type"] == "welcome"


async def test_requests_sent_beside_hello_are_answered_after_its_welcome(
    connect: Connect,
) -> None:
    token = (await (await connect()).hello("alice"))["token"]
    client = await connect()
    # hello and start_game sent together, nothing read in between: the server answers hello
    # before it reads the next
    hello = {"type": "hello", "id": 1, "protocol": 2, "client": "t/1", "token": token}
    start = {"type": "start_game", "id": 2, "variant": "freecell", "seed": 617, "options": {}}
    await client.send(hello)
    await client.send(start)
    welcome, game = await client.recv(), await client.recv()
    assert (welcome["type"], welcome["re"]) == ("welcome", 1)
    assert (game["type"], game["re"], game["game"]["ply"]) == ("game", 2, 0)
    # a hello refused: what came beside it is hello_first, nothing was played
    other = await connect()
    hello["token"] = "nobody's"
    await other.send(hello)
    await other.send(start)
    refused, after = await other.recv(), await other.recv()
    assert (refused["code"], refused["re"]) == ("bad_token", 1)
    assert (after["code"], after["re"]) == ("hello_first", 2)


async def test_a_second_hello_is_already_welcomed(player: Client) -> None:
    reply = await player.request("hello", protocol=2, client="t/1", name="other")
    assert reply["code"] == "already_welcomed"


async def test_a_bot_says_so_at_registration_and_stays_one(connect: Connect) -> None:
    client = await connect()
    welcome = await client.request("hello", protocol=2, client="bot/1", name="robot", bot=True)
    assert welcome["player"]["bot"] is True
    again = await (await connect()).request(
        "hello", protocol=2, client="bot/1", token=welcome["token"]
    )
    assert again["player"] == welcome["player"]
    person = await (await connect()).hello("person")
    assert person["player"]["bot"] is False
    bad = await (await connect()).request("hello", protocol=2, client="t/1", name="x", bot="yes")
    assert (bad["code"], "'bot'" in bad["message"]) == ("invalid_field", True)


async def test_registrations_from_one_address_are_limited_per_hour_across_servers(
    serve_with: ServeWith, config: Config, clock: FakeClock
) -> None:
    first = await serve_with(registration_limit=3)
    tokens = []
    for n in range(2):
        tokens.append((await (await open_client(first)).hello(f"early{n}"))["token"])
    # Another server on the same database counts the same rows.
    second = await serve_with(registration_limit=3)
    assert (await (await open_client(second)).hello("third"))["type"] == "welcome"
    for app in (first, second):
        client = await open_client(app)
        refused = await client.request("hello", protocol=2, client="t/1", name="fourth")
        assert refused["code"] == "too_many_accounts"
        # The connection stays open; returning players are not counted.
        back = await client.request("hello", protocol=2, client="t/1", token=tokens[0])
        assert back["type"] == "welcome"
    async with first.db_sessions() as db:
        stored = (await db.execute(select(Player.name, Player.registered_ip))).all()
    assert sorted(stored) == [
        ("early0", "127.0.0.1"),
        ("early1", "127.0.0.1"),
        ("third", "127.0.0.1"),
    ]
    clock.advance(3_600_001)  # an hour later the address may register again
    assert (await (await open_client(second)).hello("fourth"))["type"] == "welcome"


async def test_a_registration_limit_of_0_is_no_limit(serve_with: ServeWith) -> None:
    app = await serve_with(registration_limit=0)
    for n in range(25):
        assert (await (await open_client(app)).hello(f"p{n}"))["type"] == "welcome"
