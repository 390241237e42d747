"""``games``: a player's own games, newest first, to go back to one; and when a solo game's key
shows."""

from __future__ import annotations

import datetime

from shared.deals import commitment
from tests.server.conftest import Client, Connect, FakeClock, ServeWith, open_client


async def test_the_games_list_holds_the_players_own_games_newest_first(
    clock: FakeClock, player: Client, connect: Connect
) -> None:
    other = await connect()
    await other.hello("other")
    await other.start("gypsy", seed=5)
    started = []
    for n, variant in enumerate(["freecell", "osmosis", "westhaven"]):
        clock.advance(1_000)
        started.append(await player.start(variant, seed=100 + n))
    clock.advance(2_500)
    moved = await player.move(started[1], started[1]["legal"][0])
    await player.request("resign", game=started[2]["id"], ply=0)

    listed = (await player.request("games"))["games"]
    assert [g["id"] for g in listed] == [g["id"] for g in reversed(started)]
    newest = listed[0]
    assert newest == {
        "id": started[2]["id"],
        "variant": "westhaven",
        "options": started[2]["options"],
        "deal": {"seed": 102},
        "kind": "solo",
        "state": "resigned",
        "ply": 0,
        "score": 0,
        "elapsed_ms": 2_500,
        "started_at": datetime.datetime.fromtimestamp((clock.now - 2_500) / 1000, tz=datetime.UTC)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z"),
    }
    assert (listed[1]["ply"], listed[1]["elapsed_ms"]) == (moved["game"]["ply"], 3_500)
    playing = (await player.request("games", state="playing"))["games"]
    assert [g["id"] for g in playing] == [started[1]["id"], started[0]["id"]]
    assert len((await player.request("games", limit=1))["games"]) == 1
    assert (await player.request("games", state="lost"))["code"] == "invalid_field"


async def test_at_most_100_are_listed_and_20_unless_asked(serve_with: ServeWith) -> None:
    # 107 messages in a row: above the default burst, which would refuse the last ones on a slow
    # machine (rate_limited) and make this a test of the rate limit instead
    app = await serve_with(rate_burst=1_000)
    player = await open_client(app)
    await player.hello("alice")
    for n in range(105):
        await player.request("start_game", variant="freecell", seed=n + 1)
    assert len((await player.request("games"))["games"]) == 20
    assert len((await player.request("games", limit=1000))["games"]) == 100


async def test_a_solo_games_key_shows_once_it_ended_and_a_chosen_key_from_the_start(
    player: Client,
) -> None:
    drawn = (await player.request("start_game", variant="gypsy"))["game"]
    secret = drawn["deal"]
    assert set(secret) == {"commitment"}
    listed = (await player.request("games"))["games"][0]
    assert listed["deal"] == secret
    ended = (await player.request("resign", game=drawn["id"], ply=0))["game"]
    key = bytes.fromhex(ended["deal"]["key"])
    assert commitment("gypsy", key) == secret["commitment"]
    assert (await player.request("games"))["games"][0]["deal"] == ended["deal"]
    # Anyone may play a deal by its key (that one, or any other they choose): shown at once.
    chosen = (await player.request("start_game", variant="gypsy", key=key.hex()))["game"]
    assert chosen["deal"] == ended["deal"] and chosen["piles"] == drawn["piles"]
    mine = bytes(32)
    picked = (await player.request("start_game", variant="freecell", key=mine.hex()))["game"]
    assert picked["deal"] == {"commitment": commitment("freecell", mine), "key": mine.hex()}
    both = await player.request("start_game", variant="freecell", seed=3, key=mine.hex())
    assert both["code"] == "invalid_field"
