"""``could_win`` against a real server: a deal lost at the 12th position, the line from
there, the boards to play it back, and who may ask when."""

from __future__ import annotations

from typing import Any

import pytest

from server.app import App
from server.config import Config
from shared.games import new_game
from shared.solver import UNWINNABLE, WON, Budget, solve_position
from tests.server.conftest import Client, Connect

BUDGET = Budget(positions=10_000)


@pytest.fixture
def config(config: Config) -> Config:
    """Whole games played at once: above the rate a person plays at."""
    return config.replace(rate_limit=10_000.0, rate_burst=10_000)


def lost_at_the_twelfth_position() -> tuple[int, list[str]]:
    """An Osmosis deal and the actions of a game on it: 11 actions of the solver's winning
    line (the player's positions 1 to 12, all winnable), then one the solver proves loses."""
    for seed in range(1, 500):
        result = solve_position(new_game("osmosis", seed=seed), BUDGET)
        if result.verdict != WON or len(result.line) < 14:
            continue
        start = list(result.line[:11])
        game = new_game("osmosis", seed=seed)
        for action in start:
            game.play(action)
        for move in game.legal_moves():
            after = new_game("osmosis", seed=seed)
            for action in [*start, move]:
                after.play(action)
            if solve_position(after, BUDGET).verdict == UNWINNABLE:
                return seed, [*start, move]
    raise AssertionError("no Osmosis deal lost at its 12th position among seeds 1-499")


async def play(client: Client, seed: int, actions: list[str]) -> dict[str, Any]:
    game = await client.start("osmosis", seed)
    for action in actions:
        reply = await client.move(game, action)
        assert reply["type"] == "game", reply
        game = reply["game"]
    return game


async def test_the_last_winnable_position_and_a_line_from_it(player: Client) -> None:
    seed, actions = lost_at_the_twelfth_position()
    game = await play(player, seed, actions)
    early = await player.request("could_win", game=game["id"])
    assert early["type"] == "error" and early["code"] == "forbidden", early  # still playing
    resigned = await player.request("resign", game=game["id"], ply=game["ply"])
    assert resigned["game"]["state"] == "resigned"

    answer = await player.request("could_win", game=game["id"])
    assert answer["type"] == "could_win", answer
    assert answer["deal"] == "won"
    assert answer["ply"] == 11  # the 12th position: after 11 actions
    line = answer["line"]
    replayed = new_game("osmosis", seed=seed)
    for action in actions[:11]:
        replayed.play(action)
    assert [b["piles"] for b in answer["boards"][:1]] == [replayed.view()["piles"]]
    for action, board in zip(line, answer["boards"][1:], strict=True):
        replayed.play(action)
        assert board["piles"] == replayed.view()["piles"]
    assert replayed.state == "won"


async def test_a_won_game_was_winnable_and_others_may_not_ask(
    player: Client, connect: Connect
) -> None:
    result = solve_position(new_game("osmosis", seed=26), BUDGET)
    assert result.verdict == WON
    game = await play(player, 26, list(result.line))
    assert game["state"] == "won"
    answer = await player.request("could_win", game=game["id"])
    assert answer["type"] == "could_win", answer
    told = (answer["deal"], answer["ply"], answer["line"], answer["boards"])
    assert told == ("won", None, [], [])
    bob = await connect()
    await bob.hello("bob")
    other = await bob.request("could_win", game=game["id"])
    assert other["type"] == "error" and other["code"] == "forbidden", other


async def test_a_secret_deal_is_not_told_before_it_is_shown(player: Client, server: App) -> None:
    reply = await player.request("start_game", variant="osmosis", options={})
    game = reply["game"]
    moves = game["legal"]
    reply = await player.move(game, moves[0])
    game = reply["game"]
    if game["state"] == "stuck":  # a stuck game has not ended: its key is still secret
        answer = await player.request("could_win", game=game["id"])
        assert answer["type"] == "error" and answer["code"] == "forbidden", answer
    resigned = await player.request("resign", game=game["id"], ply=game["ply"])
    assert "key" in resigned["game"]["deal"]
    answer = await player.request("could_win", game=game["id"])
    assert answer["type"] == "could_win", answer
