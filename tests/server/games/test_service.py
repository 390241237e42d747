"""Solo games over the wire: the ply rule, undo, resign, ownership, ended games, time."""

from __future__ import annotations

import asyncio

from shared.games import new_game
from tests.server.conftest import Client, Connect, FakeClock


async def test_start_game_deals_the_engines_deal_and_the_view_has_id_and_time(
    player: Client,
) -> None:
    game = await player.start("freecell", seed=617)
    expected = new_game("freecell", seed=617).view()
    assert {k: game[k] for k in expected} == expected
    assert isinstance(game["id"], str) and 1 <= len(game["id"]) <= 32
    assert game["elapsed_ms"] == 0


async def test_without_a_seed_the_server_deals_a_fresh_keyed_deal(player: Client) -> None:
    first = (await player.request("start_game", variant="westhaven"))["game"]
    second = (await player.request("start_game", variant="westhaven"))["game"]
    assert set(first["deal"]) == {"commitment"}  # the key stays on the server
    assert len(first["deal"]["commitment"]) == 64
    assert first["deal"] != second["deal"] and first["piles"] != second["piles"]


async def test_unknown_variants_and_options_name_the_field(player: Client) -> None:
    reply = await player.request("start_game", variant="spider")
    assert (reply["code"], "'variant'" in reply["message"]) == ("invalid_field", True)
    reply = await player.request("start_game", variant="freecell", options={"cells": 3})
    assert (reply["code"], "'options'" in reply["message"]) == ("invalid_field", True)
    reply = await player.request("start_game", variant="freecell", seed=0)
    assert (reply["code"], "'seed'" in reply["message"]) == ("invalid_field", True)


async def test_a_move_is_played_by_the_engine(player: Client) -> None:
    game = await player.start()
    move = game["legal"][0]
    reply = await player.move(game, move)
    engine = new_game("freecell", seed=617)
    engine.play(move)
    assert reply["type"] == "game"
    assert reply["game"]["piles"] == engine.view()["piles"]
    assert reply["game"]["ply"] == 1


async def test_a_retry_of_the_last_move_changes_nothing(player: Client) -> None:
    game = await player.start()
    first = await player.move(game, game["legal"][0])
    retry = await player.move(game, game["legal"][0])
    assert retry["type"] == "game"
    assert retry["game"]["ply"] == 1
    assert retry["game"]["piles"] == first["game"]["piles"]


async def test_a_shorthand_retry_matches_the_move_it_was_recorded_as(player: Client) -> None:
    # The first Freecell deal that, without autoplay, starts with a card able to go home.
    manual = {"autoplay": False}
    seed = next(
        s
        for s in range(1, 1000)
        if any(">f" in m for m in new_game("freecell", seed=s, options=manual).legal_moves())
    )
    game = await player.start("freecell", seed=seed, autoplay=False)
    to_f = next(m for m in game["legal"] if ">f" in m)
    short = to_f.split(">")[0] + ">f"
    played = await player.move(game, short)
    assert played["game"]["ply"] == 1
    retry = await player.move(game, short)
    assert (retry["type"], retry["game"]["ply"]) == ("game", 1)


async def test_another_move_at_an_old_ply_is_stale_with_the_current_game(player: Client) -> None:
    game = await player.start()
    await player.move(game, game["legal"][0])
    stale = await player.move(game, game["legal"][1])
    assert stale["type"] == "error" and stale["code"] == "stale_ply"
    assert stale["game"]["ply"] == 1
    ahead = await player.request("move", game=game["id"], ply=5, move=game["legal"][1])
    assert ahead["code"] == "stale_ply"


async def test_an_illegal_move_says_why_and_changes_nothing(player: Client) -> None:
    game = await player.start()
    reply = await player.move(game, "t0>t0")
    assert reply["code"] == "illegal_move"
    assert "t0" in reply["message"]
    again = await player.request("get_game", game=game["id"])
    assert again["game"]["ply"] == 0


async def test_undo_takes_back_and_counts_as_an_action(player: Client) -> None:
    game = await player.start()
    nothing = await player.request("undo", game=game["id"], ply=0)
    assert nothing["code"] == "illegal_move"
    moved = (await player.move(game, game["legal"][0]))["game"]
    undone = await player.request("undo", game=game["id"], ply=1)
    assert undone["game"]["ply"] == 2
    assert undone["game"]["piles"] == game["piles"]
    retry = await player.request("undo", game=game["id"], ply=1)
    assert (retry["type"], retry["game"]["ply"]) == ("game", 2)
    assert moved["ply"] == 1


async def test_resign_ends_the_game_and_then_only_game_over(player: Client) -> None:
    game = await player.start()
    resigned = await player.request("resign", game=game["id"], ply=0)
    assert resigned["game"]["state"] == "resigned"
    assert resigned["game"]["legal"] == []
    again = await player.request("resign", game=game["id"], ply=0)
    assert again["type"] == "game"
    assert (await player.move(game, game["legal"][0]))["code"] == "game_over"
    assert (await player.request("undo", game=game["id"], ply=0))["code"] == "game_over"
    assert (await player.request("hint", game=game["id"]))["move"] is None


async def test_other_players_games_are_forbidden_and_unknown_ids_not_found(
    player: Client, connect: Connect
) -> None:
    game = await player.start()
    other = await connect()
    await other.hello("bob")
    for kind, fields in [
        ("get_game", {}),
        ("hint", {}),
        ("move", {"ply": 0, "move": game["legal"][0]}),
        ("undo", {"ply": 0}),
        ("resign", {"ply": 0}),
    ]:
        reply = await other.request(kind, game=game["id"], **fields)
        assert reply["code"] == "forbidden", kind
        reply = await other.request(kind, game="nope", **fields)
        assert reply["code"] == "not_found", kind


async def test_elapsed_time_is_the_servers_and_stops_when_the_game_ends(
    player: Client, clock: FakeClock
) -> None:
    game = await player.start()
    clock.advance(1500)
    moved = await player.move(game, game["legal"][0])
    assert moved["game"]["elapsed_ms"] == 1500
    clock.advance(500)
    resigned = await player.request("resign", game=game["id"], ply=1)
    assert resigned["game"]["elapsed_ms"] == 2000
    clock.advance(10_000)
    later = await player.request("get_game", game=game["id"])
    assert later["game"]["elapsed_ms"] == 2000


async def test_hint_is_a_legal_move(player: Client) -> None:
    game = await player.start("freecell", seed=617)
    hint = await player.request("hint", game=game["id"])
    assert hint["type"] == "hint"
    assert hint["move"] is None or hint["move"] in game["legal"]


async def test_a_stuck_game_takes_only_undo_and_resign(player: Client) -> None:
    import random

    rng = random.Random(3)
    game = await player.start("freecell", seed=4242)
    while game["state"] == "playing":
        game = (await player.move(game, rng.choice(game["legal"])))["game"]
        assert game["ply"] < 500, "random play did not get stuck"
    assert game["state"] == "stuck" and game["legal"] == []
    refused = await player.move(game, "t0>t1")
    assert refused["code"] == "game_over" and "stuck" in refused["message"]
    assert (await player.request("hint", game=game["id"]))["move"] is None
    undone = await player.request("undo", game=game["id"], ply=game["ply"])
    assert undone["type"] == "game" and undone["game"]["ply"] == game["ply"] + 1
    resigned = await player.request("resign", game=game["id"], ply=undone["game"]["ply"])
    assert resigned["game"]["state"] == "resigned"


async def test_two_connections_racing_at_one_ply_get_one_move_and_one_stale(
    connect: Connect,
) -> None:
    first = await connect()
    token = (await first.hello("alice"))["token"]
    second = await connect()
    await second.request("hello", protocol=2, client="t/2", token=token)
    game = await first.start()
    a, b = await asyncio.gather(
        first.move(game, game["legal"][0]), second.move(game, game["legal"][1])
    )
    assert sorted([a["type"], b["type"]]) == ["error", "game"]
    loser = a if a["type"] == "error" else b
    assert loser["code"] == "stale_ply" and loser["game"]["ply"] == 1
