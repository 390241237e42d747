"""The writer's thread keeps one connection and sends plain actions to its driver directly."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import event

from server.storage.engine import create_sync_engine
from server.storage.queries.games import action_write, new_game_write
from server.storage.writer import Writer
from shared.deals import NumberedDeal
from tests.server.databases import run_sql

T0 = 1_800_000_000_000


@pytest.fixture
async def writer(db_url: str) -> AsyncIterator[Writer]:
    run_sql(
        db_url,
        "INSERT INTO players (id, name, name_key, token_hash, banned, created_ms, updated_ms) "
        "VALUES (1, 'p', 'p', 'h', false, 0, 0)",
    )
    writer = Writer(create_sync_engine(db_url, autocheckpoint=False))
    writer.start()
    try:
        yield writer
    finally:
        await writer.stop()


def dealt(game_id: str) -> Any:
    return new_game_write(
        game_id=game_id,
        player_id=1,
        variant="freecell",
        options={"autoplay": True},
        deal=NumberedDeal(617),
        kind="solo",
        key_open=False,
        reveal_ms=None,
        state="playing",
        score=0,
        now_ms=T0,
    )


def played(game_id: str, ply: int) -> Any:
    return action_write(
        game_id=game_id,
        ply=ply,
        action=f"t{ply % 8}>f",
        state="playing",
        score=ply,
        game_ply=ply + 1,
        undos=0,
        key_open=ply % 2 == 0,
        ended_ms=None,
        now_ms=T0 + ply,
        paused_ms=ply,
        stopped_ms=None,
    )


def stored(url: str, game_id: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    game = run_sql(
        url,
        "SELECT ply, score, key_open, updated_ms, paused_ms FROM games WHERE id = :id",
        {"id": game_id},
    )
    moves = run_sql(
        url,
        "SELECT ply, action, played_ms FROM moves WHERE game_id = :id ORDER BY ply",
        {"id": game_id},
    )
    return game, moves


async def test_commits_use_one_connection_and_store_every_row(writer: Writer, db_url: str) -> None:
    """Plain actions go to the kept connection's driver: the pool is asked once, and each row
    is stored as the SQLAlchemy statements stored it."""
    checkouts: list[object] = []
    event.listen(writer._engine, "checkout", lambda *_: checkouts.append(1))
    await writer.submit(dealt("g"))
    for ply in range(6):
        await writer.submit(played("g", ply))
    await asyncio.gather(*(writer.submit(played("g", ply)) for ply in range(6, 9)))
    assert len(checkouts) <= 1, f"the pool was asked {len(checkouts)} times for 10 commits"
    game, moves = stored(db_url, "g")
    assert game == [(9, 8, True, T0 + 8, 8)]
    assert moves == [(ply, f"t{ply % 8}>f", T0 + ply) for ply in range(9)]


async def test_a_broken_connection_is_replaced_and_the_write_stored(
    writer: Writer, db_url: str
) -> None:
    """The driver's connection dies under the writer: that commit fails, its rollback too, the
    connection is discarded, and the write, committed again alone, is stored on a new one."""
    await writer.submit(dealt("g"))
    await writer.submit(played("g", 0))
    assert writer._conn is not None
    writer._conn.connection.driver_connection.close()  # type: ignore[union-attr]
    await writer.submit(played("g", 1))
    await writer.submit(played("g", 2))
    _, moves = stored(db_url, "g")
    assert [ply for ply, _, _ in moves] == [0, 1, 2]
