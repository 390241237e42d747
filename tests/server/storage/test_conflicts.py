"""Two processes writing the same game: the database decides, and a game cannot fork.

Two writers, each with its own engine on one database, stand for two server
nodes that both hold a game in memory (a player connected to both). Each
writes what its node played at the ply it saw; the first commit wins, the
other write changes nothing and fails with :class:`WriteConflict`, which the
game service can answer with ``stale_ply`` and the game as stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.storage.engine import create_sync_engine
from server.storage.queries.games import GameWrite, WriteConflict, action_write, new_game_write
from server.storage.writer import Writer
from shared.deals import NumberedDeal
from tests.server.databases import run_sql

T0 = 1_800_000_000_000


@pytest.fixture
async def writers(db_url: str) -> AsyncIterator[tuple[Writer, Writer]]:
    """Two writers on the database (the second gathers its groups for 50 ms), and a player."""
    run_sql(
        db_url,
        "INSERT INTO players (id, name, name_key, token_hash, banned, created_ms, updated_ms) "
        "VALUES (1, 'p', 'p', 'h', false, 0, 0)",
    )
    first = Writer(create_sync_engine(db_url, autocheckpoint=False))
    second = Writer(create_sync_engine(db_url, autocheckpoint=False), delay_s=0.05)
    first.start()
    second.start()
    try:
        yield first, second
    finally:
        await first.stop()
        await second.stop()


def new_game(game_id: str) -> GameWrite:
    return new_game_write(
        game_id=game_id,
        player_id=1,
        variant="freecell",
        options={},
        deal=NumberedDeal(617),
        kind="solo",
        key_open=False,
        reveal_ms=None,
        state="playing",
        score=0,
        now_ms=T0,
    )


def move(game_id: str, ply: int, action: str) -> GameWrite:
    """A move taken at ``ply``: its moves row, and the game one ply on."""
    return action_write(
        game_id=game_id,
        ply=ply,
        action=action,
        state="playing",
        score=ply,
        game_ply=ply + 1,
        undos=0,
        key_open=False,
        ended_ms=None,
        now_ms=T0 + ply,
    )


def resign(game_id: str, ply: int) -> GameWrite:
    """A resign at ``ply``: no moves row, the game ended where it stands."""
    return action_write(
        game_id=game_id,
        ply=None,
        action="resign",
        state="resigned",
        score=0,
        game_ply=ply,
        undos=0,
        key_open=True,
        ended_ms=T0 + 99,
        now_ms=T0 + 99,
    )


async def outcomes(*futures: asyncio.Future[None]) -> list[BaseException | None]:
    results = await asyncio.gather(*futures, return_exceptions=True)
    return [r if isinstance(r, BaseException) else None for r in results]


def stored(url: str, game_id: str) -> tuple[Any, list[tuple[Any, ...]]]:
    """The game's (ply, state, ended_ms) and its moves rows (ply, action), as stored."""
    (row,) = run_sql(url, "SELECT ply, state, ended_ms FROM games WHERE id = :id", {"id": game_id})
    moves = run_sql(
        url, "SELECT ply, action FROM moves WHERE game_id = :id ORDER BY ply", {"id": game_id}
    )
    return row, moves


async def test_two_writers_playing_the_same_ply_store_exactly_one_move(
    writers: tuple[Writer, Writer], db_url: str
) -> None:
    first, second = writers
    await first.submit(new_game("g"))
    for round_ in range(3):  # each round both play the ply that the last round left
        ply = round_
        results = await outcomes(
            first.submit(move("g", ply, f"t1>r{round_}")),
            second.submit(move("g", ply, f"t2>r{round_}")),
        )
        assert sorted(r is None for r in results) == [False, True], results
        loser = next(r for r in results if r is not None)
        assert isinstance(loser, WriteConflict) and loser.game_id == "g"
    (ply, state, _), moves = stored(db_url, "g")
    assert (ply, state) == (3, "playing")
    assert [p for p, _ in moves] == [0, 1, 2]


async def test_a_move_and_a_resign_at_one_ply_cannot_both_be_stored(
    writers: tuple[Writer, Writer], db_url: str
) -> None:
    first, second = writers
    await first.submit(new_game("g"))
    await first.submit(move("g", 0, "t1>r0"))
    moved, resigned = await outcomes(
        first.submit(move("g", 1, "t2>r1")), second.submit(resign("g", 1))
    )
    assert (moved is None) != (resigned is None), (moved, resigned)
    assert isinstance(moved or resigned, WriteConflict)
    row, moves = stored(db_url, "g")
    if moved is None:
        assert (row, moves) == ((2, "playing", None), [(0, "t1>r0"), (1, "t2>r1")])
    else:
        assert (row, moves) == ((1, "resigned", T0 + 99), [(0, "t1>r0")])
    # Nothing is taken on a game that ended either: the ended game stays as it is.
    if resigned is None:
        (late,) = await outcomes(first.submit(move("g", 1, "t3>r1")))
        assert isinstance(late, WriteConflict)
        assert stored(db_url, "g") == (row, moves)


async def test_a_stale_write_in_a_group_fails_alone_and_the_others_are_stored(
    writers: tuple[Writer, Writer], db_url: str
) -> None:
    first, second = writers
    for game_id in ("g", "h1", "h2", "h3"):
        await first.submit(new_game(game_id))
    await first.submit(move("g", 0, "t1>r0"))  # the first node moved g on
    commits = second.commits
    # The second node, which has not seen that, writes g at ply 0 in one group with others.
    results = await outcomes(
        second.submit(move("h1", 0, "t1>r1")),
        second.submit(move("g", 0, "t5>r5")),
        second.submit(move("h2", 0, "t1>r2")),
        second.submit(move("h3", 0, "t1>r3")),
    )
    assert [type(r) for r in results] == [type(None), WriteConflict, type(None), type(None)]
    assert second.commits == commits + 1  # one group, retried write by write
    assert stored(db_url, "g") == ((1, "playing", None), [(0, "t1>r0")])
    for n in (1, 2, 3):
        assert stored(db_url, f"h{n}") == ((1, "playing", None), [(0, f"t1>r{n}")])


async def test_a_write_of_a_game_that_is_gone_is_no_conflict(
    writers: tuple[Writer, Writer], db_url: str
) -> None:
    """A row deleted under the server is an error of its own, not another node's move."""
    first, _ = writers
    await first.submit(new_game("g"))
    run_sql(db_url, "DELETE FROM games WHERE id = 'g'")
    (failed,) = await outcomes(first.submit(resign("g", 0)))
    assert failed is not None and not isinstance(failed, WriteConflict)
