"""``replay`` against a real server: a won game stepped through to its end, and who may
replay what and when (a game in play never; another's only once its deal is shown; a
racer never the deal they race on)."""

from __future__ import annotations

from typing import Any

import pytest

from server.config import Config
from shared.games import new_game
from shared.solver import WON, Budget, solve_position
from tests.server.conftest import Client, Connect
from tests.server.pushes import push

BUDGET = Budget(positions=10_000)


@pytest.fixture
def config(config: Config) -> Config:
    """Whole games played at once: above the rate a person plays at."""
    return config.replace(rate_limit=10_000.0, rate_burst=10_000)


def boards_of(reply: dict[str, Any]) -> list[dict[str, dict[str, Any]]]:
    """The whole board at every step, from the first board and each step's changed piles."""
    first = {pile["id"]: pile for pile in reply["boards"][0]["piles"]}
    order = list(first)
    boards = [first]
    for changed in reply["boards"][1:]:
        board = dict(boards[-1])
        for pile in changed["piles"]:
            assert pile["id"] in board, pile
            board[pile["id"]] = pile
        boards.append(board)
    assert all(list(board) == order for board in boards)
    return boards


async def played(client: Client, variant: str, seed: int, actions: list[str]) -> dict[str, Any]:
    game = await client.start(variant, seed)
    for action in actions:
        reply = await client.move(game, action)
        assert reply["type"] == "game", reply
        game = reply["game"]
    return game


def won_line(variant: str, seed: int) -> list[str]:
    result = solve_position(new_game(variant, seed=seed), BUDGET)
    assert result.verdict == WON
    return list(result.line)


async def test_a_won_game_replays_move_by_move_to_its_last_board(player: Client) -> None:
    line = won_line("osmosis", 26)
    # an undo and a move taken again on the way: the replay holds them as they were played
    actions = [line[0], "undo", *line]
    started = await player.start("osmosis", 26)
    early = await player.request("replay", game=started["id"])
    assert early["type"] == "replay" and early["state"] == "playing", early
    assert early["actions"] == [] and len(early["boards"]) == 1  # its player's, as dealt
    game = started
    for action in actions:
        game = (await player.move(game, action))["game"]
        if game["ply"] == 3:  # midway: its player sees the line so far, the undo in it
            midway = await player.request("replay", game=game["id"])
            assert midway["actions"] == actions[:3] and len(midway["boards"]) == 4, midway
    assert game["state"] == "won"

    reply = await player.request("replay", game=game["id"])
    assert reply["type"] == "replay", reply
    assert (reply["game"], reply["player"], reply["variant"]) == (game["id"], "alice", "osmosis")
    assert (reply["state"], reply["kind"], reply["deal"]) == ("won", "solo", {"seed": 26})
    assert reply["score"] == game["score"]
    assert reply["actions"] == actions
    boards = boards_of(reply)
    assert len(boards) == len(actions) + 1
    engine = new_game("osmosis", seed=26)
    assert list(boards[0].values()) == engine.view()["piles"]
    for action, board in zip(actions, boards[1:], strict=True):
        engine.play(action)
        assert list(board.values()) == engine.view()["piles"], action
    assert list(boards[-1].values()) == game["piles"]  # the same final board
    # a step sends only what changed
    assert len(reply["boards"][1]["piles"]) < len(reply["boards"][0]["piles"])


async def test_who_may_replay_what(player: Client, connect: Connect) -> None:
    bob = await connect()
    await bob.hello("bob")
    missing = await bob.request("replay", game="nosuchgame")
    assert missing["code"] == "not_found", missing

    # a numbered deal, ended: its deal is shown, so anyone may replay it
    numbered = await player.start("freecell", 617)
    resigned = (await player.request("resign", game=numbered["id"], ply=0))["game"]
    assert resigned["state"] == "resigned"
    seen = await bob.request("replay", game=numbered["id"])
    assert seen["type"] == "replay" and seen["player"] == "alice", seen
    assert seen["actions"] == [] and len(seen["boards"]) == 1

    # a secret deal in play: its player only (its key still secret); resigned: its key is
    # out, anyone
    keyed = (await player.request("start_game", variant="freecell"))["game"]
    moved = (await player.move(keyed, keyed["legal"][0]))["game"]
    own = await player.request("replay", game=keyed["id"])
    assert own["type"] == "replay" and own["actions"] == [keyed["legal"][0]], own
    assert set(own["deal"]) == {"commitment"}
    refused = await bob.request("replay", game=keyed["id"])
    assert refused["code"] == "forbidden" and "still being played" in refused["message"]
    assert "key" not in str(refused)
    await player.request("resign", game=keyed["id"], ply=moved["ply"])
    for client in (player, bob):
        reply = await client.request("replay", game=keyed["id"])
        assert reply["type"] == "replay" and "key" in reply["deal"], reply
        assert reply["actions"] == [keyed["legal"][0]]


async def test_a_secret_daily_replays_for_its_player_only(player: Client, connect: Connect) -> None:
    bob = await connect()
    await bob.hello("bob")
    daily = await player.request("daily", start=True, variant="thumb_and_pouch")
    game = daily["game"]
    moved = (await player.move(game, game["legal"][0]))["game"]
    await player.request("resign", game=game["id"], ply=moved["ply"])
    own = await player.request("replay", game=game["id"])
    assert own["type"] == "replay" and own["kind"] == "daily", own
    assert set(own["deal"]) == {"commitment"}  # its day goes on: the key is still secret
    refused = await bob.request("replay", game=game["id"])
    assert refused["code"] == "forbidden" and "still secret" in refused["message"], refused


async def test_a_racer_does_not_replay_the_deal_they_race_on(
    player: Client, connect: Connect
) -> None:
    bob = await connect()
    await bob.hello("bob")
    finished = await player.start("freecell", 617)
    await player.request("resign", game=finished["id"], ply=0)
    code = (await bob.request("create_room", variant="freecell", seed=617))["room"]["code"]
    await bob.request("start_race", code=code)
    race_game = (await push(bob, "race_started"))["game"]
    locked = await bob.request("replay", game=finished["id"])
    assert locked["code"] == "race_locked" and code in locked["message"], locked
    await bob.request("resign", game=race_game["id"], ply=0)
    assert (await bob.request("replay", game=finished["id"]))["type"] == "replay"
