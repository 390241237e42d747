"""An arena deal costs the database what a solo game costs: its end is one write, the next deal
another, and between them the node reads nothing it wrote itself.

At a deal's end the result and the player's totals ride in the write of the action that ended
it (the group commit); the next deal's game and its ``arena_games`` row are one write too; the
deal's row is not read back (server/arenas/seats.py). Counted on the real engines: every
statement that names a game or arena table, and the thread it ran in (the writer's, or the
event loop's async sessions, or the scoring's own thread).
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, event

from server.app import App
from server.config import Config
from tests.server.arenas.conftest import lose
from tests.server.arenas.test_rules import arena_of, deal
from tests.server.conftest import Connect, FakeClock
from tests.server.databases import run_sql

#: the tables of a deal and its result (not the deals drawn ahead: ``arena_deals``)
DEAL_TABLES = re.compile(r"\b(games|arena_games|arena_players)\b")


@contextmanager
def statements() -> Iterator[list[tuple[str, str]]]:
    """(thread, statement) of every statement any engine runs meanwhile on those tables."""
    seen: list[tuple[str, str]] = []

    def heard(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if DEAL_TABLES.search(statement):
            seen.append((threading.current_thread().name, statement))

    event.listen(Engine, "before_cursor_execute", heard)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", heard)


async def test_a_deal_s_end_and_the_next_deal_are_one_write_each_and_read_nothing(
    server: App, connect: Connect, clock: FakeClock, config: Config
) -> None:
    alice = await connect()
    await alice.hello("alice")
    code = await arena_of(server, alice)
    first = await deal(alice, code)  # this node's first deal to her looks in the database
    await lose(alice, first, clock)
    second = await deal(alice, code)
    await asyncio.gather(*server.arena_play.tasks)  # the deal after it, drawn ahead
    commits = server.writer.commits

    with statements() as seen:
        await lose(alice, second, clock)
        third = await deal(alice, code)

    assert third["seq"] == 2 and third["game"]["id"] != second["game"]["id"]
    assert server.writer.commits - commits == 2  # the resign with its result; the new deal
    assert seen and all(thread.startswith("writer") for thread, _ in seen), seen
    stored = run_sql(
        config.db,
        "SELECT seq, state, game_id FROM arena_games WHERE arena = :c ORDER BY seq",
        {"c": code},
    )
    assert stored == [
        (0, "resigned", first["game"]["id"]),
        (1, "resigned", second["game"]["id"]),
        (2, None, third["game"]["id"]),
    ]
    assert run_sql(
        config.db, "SELECT played, points FROM arena_players WHERE arena = :c", {"c": code}
    ) == [(2, 0)]
