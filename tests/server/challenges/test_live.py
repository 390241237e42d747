"""Live matches in race rooms: two racers play a best of 3 or 5, each race between them a round
with its results side by side and the match's running score, pushed to both."""

from __future__ import annotations

from typing import Any

from server.app import App
from tests.server.challenges.test_challenges import homeward, named
from tests.server.conftest import Client, Connect, FakeClock
from tests.server.pushes import no_push, push


async def raced(
    host: Client, other: Client, code: str, clock: FakeClock, winner: Client | None
) -> dict[str, Any]:
    """One race: ``winner`` gets a card home then resigns, the other resigns at once (None:
    both resign); the round's ``challenge`` push as the host sees it."""
    assert (await host.request("start_race", code=code))["type"] == "ok"
    games = {}
    for client in (host, other):
        games[id(client)] = (await push(client, "race_started", timeout=10))["game"]
    for client in (host, other):
        game = games[id(client)]
        if client is winner:
            await homeward(client, clock, game)
        else:
            await client.request("resign", game=game["id"], ply=game["ply"])
    for client in (host, other):
        await push(client, "race_over", code=code)
    rounds = [(await push(c, "challenge"))["challenge"] for c in (host, other)]
    assert rounds[0]["match"] == rounds[1]["match"]
    return rounds[0]


async def test_a_best_of_three_played_live_in_a_race_room(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    alice, bob = await named(connect, "alice"), await named(connect, "bob")
    code = (await alice.request("create_room", variant="freecell"))["room"]["code"]
    refused = await alice.request("match_start", room=code)
    assert refused["code"] == "not_challengeable" and "has 1" in refused["message"]
    await bob.request("join_room", code=code)
    started = await alice.request("match_start", room=code, best_of=3)
    assert started["type"] == "match" and started["room"] == code
    match = started["match"]
    assert (match["first_name"], match["second_name"], match["best_of"]) == ("alice", "bob", 3)
    assert (await push(bob, "match"))["match"] == match  # bob is told
    again = await bob.request("match_start", room=code, best_of=5)
    assert again["match"]["id"] == match["id"]  # the match being played, whoever asks
    first = await raced(alice, bob, code, clock, winner=None)
    assert first["result"] == "draw" and first["match"]["draws"] == 1
    assert first["challenger_result"]["name"] == "alice"
    assert first["opponent_result"]["name"] == "bob"
    second = await raced(alice, bob, code, clock, winner=bob)
    assert second["result"] == "opponent" and second["round"] == 2
    assert (second["match"]["first_wins"], second["match"]["second_wins"]) == (0, 1)
    refused = await alice.request("challenge_rematch", challenge=second["id"])
    assert refused["code"] == "not_challengeable" and "next race" in refused["message"]
    third = await raced(alice, bob, code, clock, winner=bob)
    assert third["match"]["state"] == "over" and third["match"]["winner"] == match["second"]
    # over: the next race is no round of it, and a new match may start
    await alice.request("start_race", code=code)
    for client in (alice, bob):
        game = (await push(client, "race_started", timeout=10))["game"]
        await client.request("resign", game=game["id"], ply=game["ply"])
    await push(alice, "race_over", code=code)
    await no_push(alice, "challenge")
    new = await bob.request("match_start", room=code, best_of=5)
    assert new["match"]["id"] != match["id"] and new["match"]["first_name"] == "bob"


async def test_who_may_start_a_live_match(server: App, connect: Connect) -> None:
    alice, bob, carol = (
        await named(connect, "alice"),
        await named(connect, "bob"),
        await named(connect, "carol"),
    )
    robot = await named(connect, "robot", bot=True)
    code = (await alice.request("create_room", variant="freecell"))["room"]["code"]
    await bob.request("join_room", code=code)
    await carol.request("join_room", code=code, role="spectator")
    refused = await carol.request("match_start", room=code)
    assert refused["code"] == "not_challengeable" and "racer" in refused["message"]
    assert (await carol.request("match_start", room="NOROOM"))["code"] == "not_found"
    refused = await alice.request("match_start", room=code, best_of=1)
    assert refused["code"] == "invalid_field"
    other = (await robot.request("create_room", variant="freecell"))["room"]["code"]
    await alice.request("join_room", code=other)
    refused = await alice.request("match_start", room=other)
    assert refused["code"] == "not_challengeable" and "bot" in refused["message"]
