"""Games and their moves: the group-commit batch and the reads that rebuild a game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Table, bindparam, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncSession

from server.models import Game, Move


@dataclass(slots=True)
class GameWrite:
    """What one acknowledged request changes: maybe a new game, its new moves, its new state."""

    new_game: dict[str, Any] | None = None
    moves: list[dict[str, Any]] = field(default_factory=list)
    #: the games row's new values, ``id`` included
    update: dict[str, Any] | None = None


_GAMES = cast(Table, Game.__table__)
_MOVES = cast(Table, Move.__table__)
#: Core statements: the ORM's bookkeeping is pure cost for rows nobody reads back
_UPDATE_GAME = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("b_id"))
    .values(
        # a bind named "id" would clash with the column in SET; the key rides along unused
        state=bindparam("state"),
        score=bindparam("score"),
        ply=bindparam("ply"),
        ended_ms=bindparam("ended_ms"),
        updated_ms=bindparam("updated_ms"),
    )
)


def apply_writes(conn: Connection, writes: Sequence[GameWrite]) -> None:
    """Apply many writes in the caller's transaction, three statements for the whole group."""
    new_games = [w.new_game for w in writes if w.new_game is not None]
    moves = [m for w in writes for m in w.moves]
    updates: dict[str, dict[str, Any]] = {}
    for w in writes:
        if w.update is not None:
            updates[w.update["id"]] = w.update  # the last state of a game wins
    if new_games:
        conn.execute(insert(_GAMES), new_games)
    if moves:
        conn.execute(insert(_MOVES), moves)
    if updates:
        rows = [{"b_id": u["id"], **u} for u in updates.values()]
        conn.execute(_UPDATE_GAME, rows)


async def load(session: AsyncSession, *, game_id: str) -> tuple[Game, list[str]] | None:
    """A game's row and its actions in order, or None."""
    row = await session.get(Game, game_id)
    if row is None:
        return None
    result = await session.execute(
        select(Move.action).where(Move.game_id == game_id).order_by(Move.ply)
    )
    return row, list(result.scalars())
