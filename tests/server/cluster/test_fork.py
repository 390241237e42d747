"""A game cannot fork: one player on two nodes sending moves on the same game gets each ply played
once; the loser is answered ``stale_ply`` with the game as stored, and both nodes go on from it."""

from __future__ import annotations

import asyncio

from server.config import Config
from tests.server.cluster.conftest import StartNode
from tests.server.conftest import open_client
from tests.server.databases import run_sql


def board(view: dict[str, object]) -> dict[str, object]:
    """A view without its clock (each node answers at its own moment)."""
    return {k: v for k, v in view.items() if k != "elapsed_ms"}


def stored(config: Config, game_id: str) -> list[tuple[int, str]]:
    rows = run_sql(
        config.db, "SELECT ply, action FROM moves WHERE game_id = :g ORDER BY ply", {"g": game_id}
    )
    return [(int(ply), str(action)) for ply, action in rows]


async def test_two_moves_at_one_ply_through_two_nodes_play_one(
    nodes: StartNode, config: Config
) -> None:
    a, b = await nodes("a"), await nodes("b")
    on_a = await open_client(a)
    token = (await on_a.hello("alice"))["token"]
    on_b = await open_client(b)
    reply = await on_b.request("hello", protocol=2, client="tests/1", token=token)
    assert reply["type"] == "welcome"

    game = await on_a.start()
    seen = await on_b.request("get_game", game=game["id"])  # b has its own copy now
    assert seen["game"]["ply"] == 0
    first, second = game["legal"][0], game["legal"][1]

    replies = await asyncio.gather(on_a.move(game, first), on_b.move(game, second))
    kinds = sorted(r["type"] for r in replies)
    assert kinds == ["error", "game"], replies
    won = next(r for r in replies if r["type"] == "game")
    lost = next(r for r in replies if r["type"] == "error")
    assert lost["code"] == "stale_ply"
    assert board(lost["game"]) == board(won["game"])  # the game as stored, on either node
    moves = stored(config, game["id"])
    assert len(moves) == 1 and moves[0][0] == 0
    loser = on_a if replies[0] is lost else on_b
    winner = on_b if loser is on_a else on_a

    # the loser plays on from the game it was shown; the winner's node catches up by itself
    now = lost["game"]
    moved = await loser.move(now, now["legal"][0])
    assert moved["type"] == "game" and moved["game"]["ply"] == 2, moved
    after = moved["game"]
    moved = await winner.move(after, after["legal"][0])
    assert moved["type"] == "game" and moved["game"]["ply"] == 3, moved
    shown = (await loser.request("get_game", game=game["id"]))["game"]
    assert board(shown) == board(moved["game"])

    # the same move sent through both nodes (a retry after a reconnection) is played once and
    # acknowledged on both
    again = moved["game"]
    move = again["legal"][0]
    replies = await asyncio.gather(on_a.move(again, move), on_b.move(again, move))
    assert [r["type"] for r in replies] == ["game", "game"], replies
    assert board(replies[0]["game"]) == board(replies[1]["game"])
    assert [ply for ply, _ in stored(config, game["id"])] == [0, 1, 2, 3]
    await on_a.ws.close()
    await on_b.ws.close()
