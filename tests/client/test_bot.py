"""The greedy bot plays real games on the real server to their end."""

from __future__ import annotations

import random

import pytest

from client.bot import Bot, fallback_move
from shared.game import Game
from shared.games import new_game
from shared.protocol import GameReply, GameView, GetGame
from tests.client.conftest import OpenConnection


def view_of(game: Game) -> GameView:
    return GameView.from_map(game.view() | {"id": "g", "elapsed_ms": 0, "hints": 0})


async def test_the_bot_plays_freecell_to_an_end_the_server_agrees_with(
    open_connection: OpenConnection,
) -> None:
    bot = Bot(await open_connection("robot"), seed=3, max_actions=60, delay=0)
    final = await bot.play_solo("freecell", 617)
    assert final.state in ("won", "resigned")
    assert final.score > 0, "hints and greedy moves send cards home"
    check = await bot.conn.request(GetGame(game=final.id), GameReply)
    assert check.game.state == final.state
    assert check.game.ply == final.ply


@pytest.mark.parametrize("variant", ["osmosis", "thumb_and_pouch", "gypsy", "westhaven"])
async def test_the_bot_ends_a_game_of_every_other_variant(
    open_connection: OpenConnection, variant: str
) -> None:
    bot = Bot(await open_connection(f"bot-{variant[:8]}"), seed=5, max_actions=25, delay=0)
    final = await bot.play_solo(variant, 617)
    assert final.state in ("won", "resigned")
    assert final.ply <= 25 + 1


def test_fallback_prefers_foundation_moves_then_cards_that_turn_up() -> None:
    rng = random.Random(1)
    view = view_of(new_game("thumb_and_pouch", seed=617))
    move = fallback_move(view, rng, [])
    assert move is not None and str(move) in view.legal
    home = [m for m in view.legal if ">f" in m]
    if home:
        assert str(move) == home[0]


def test_fallback_has_nothing_on_an_ended_game() -> None:
    game = new_game("freecell", seed=617)
    game.resign()
    assert fallback_move(view_of(game), random.Random(1), []) is None


async def test_the_bot_asks_once_in_a_game_without_hints_and_says_so_once(
    open_connection: OpenConnection,
) -> None:
    """A daily attempt has no hints: the bot hears so once, says so once, then plays its own
    choices for the rest of the game without asking again."""
    said: list[str] = []
    bot = Bot(await open_connection("dailybot"), seed=7, max_actions=8, delay=0, log=said.append)
    await bot.played.start_daily("freecell")
    final = await bot.play_current()
    assert final.ply >= 3, final.ply
    assert [line for line in said if line.startswith("no hint")] == [
        "no hint: hints are off in a ranked daily attempt"
    ]
