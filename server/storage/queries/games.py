"""Games and their moves: the rows an action writes (stored as a group: game_writes.py), the
reads that rebuild it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Table, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import Game, GameAction
from shared.deals import Deal, KeyedDeal, NumberedDeal


@dataclass(slots=True)
class GameWrite:
    """What one acknowledged request changes: maybe a new game, its new moves, its new state.

    An ``update`` is a compare-and-set: it applies only to a games row that is
    still at ``after_ply`` (the ply the action was taken at) and has not ended
    (``ended_ms`` NULL). Within one process a game's actions are taken one at a
    time, so that always holds; when two processes act on the same game at
    once (a player connected to two nodes), the first commit moves the row on
    and the other's write is a :class:`WriteConflict`: the database is the
    arbiter, and a game cannot fork.
    """

    new_game: dict[str, Any] | None = None
    moves: list[dict[str, Any]] = field(default_factory=list)
    #: the games row's new values, ``id`` included
    update: dict[str, Any] | None = None
    #: the games row's ply before this write (required with ``update``)
    after_ply: int | None = None
    #: other tables' rows that name a new game, written in its transaction (so that no game
    #: is stored without them: an arena's deal row), as (table, row)
    rows: list[tuple[Table, dict[str, Any]]] = field(default_factory=list)
    #: more work of the same transaction, after the games rows (a feature's rows that must be
    #: stored with the action: an arena deal's result, with the action that ended it)
    then: list[Callable[[Connection], None]] = field(default_factory=list)


class WriteConflict(Exception):
    """The game's row moved on under this write: another process stored an action first.

    The write changed nothing; what is stored is the truth (reload the game).
    """

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id!r} changed under this write: another process acted first")
        self.game_id = game_id


class GameMissing(Exception):
    """The games row of a write is not there (deleted under the server)."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id!r} is not stored")
        self.game_id = game_id


def new_game_write(
    *,
    game_id: str,
    player_id: int,
    variant: str,
    options: dict[str, Any],
    deal: Deal,
    kind: str,
    key_open: bool,
    reveal_ms: int | None,
    state: str,
    score: int,
    now_ms: int,
) -> GameWrite:
    """The games row of a game just dealt: a numbered deal (its seed) or a keyed one."""
    keyed = deal if isinstance(deal, KeyedDeal) else None
    row = {
        "id": game_id,
        "player_id": player_id,
        "variant": variant,
        "options": options,
        "seed": deal.seed if isinstance(deal, NumberedDeal) else None,
        "deal_key": None if keyed is None else keyed.key_text,
        "commitment": None if keyed is None else keyed.commitment,
        "kind": kind,
        "key_open": key_open,
        "key_chosen": key_open,
        "reveal_ms": reveal_ms,
        "state": state,
        "score": score,
        "ply": 0,
        "undos": 0,
        "hints": 0,
        "started_ms": now_ms,
        "ended_ms": None,
        "updated_ms": now_ms,
    }
    return GameWrite(new_game=row)


def action_write(
    *,
    game_id: str,
    ply: int | None,
    action: str,
    state: str,
    score: int,
    game_ply: int,
    undos: int,
    key_open: bool,
    ended_ms: int | None,
    now_ms: int,
    paused_ms: int = 0,
    stopped_ms: int | None = None,
) -> GameWrite:
    """An action's moves row (none when ``ply`` is None: a resign, a timeout) and game update.

    ``now_ms`` is when the server received the action: the moves row's ``played_ms``.
    """
    moves: list[dict[str, Any]] = []
    if ply is not None:
        moves.append({"game_id": game_id, "ply": ply, "action": action, "played_ms": now_ms})
    update = {
        "id": game_id,
        "state": state,
        "score": score,
        "ply": game_ply,
        "undos": undos,
        "key_open": key_open,
        "ended_ms": ended_ms,
        "updated_ms": now_ms,
        "paused_ms": paused_ms,
        "stopped_ms": stopped_ms,
    }
    # a move or undo is taken at ``ply``; a resign or timeout at the game's ply, which stays
    return GameWrite(moves=moves, update=update, after_ply=game_ply if ply is None else ply)


def deal_of_row(row: Game) -> Deal:
    """The deal a stored game was dealt from."""
    if row.deal_key is not None:
        return KeyedDeal(row.variant, bytes.fromhex(row.deal_key))
    assert row.seed is not None, f"game {row.id} has neither a seed nor a key"
    return NumberedDeal(row.seed)


def replay_record(row: Game, actions: list[str], *, resigned: bool) -> dict[str, Any]:
    """The record of docs/notation.md that rebuilds a stored game: its deal, actions and resign."""
    deal: dict[str, Any] = {"seed": row.seed} if row.deal_key is None else {"key": row.deal_key}
    return {
        "variant": row.variant,
        "options": row.options,
        **deal,
        "actions": actions,
        "resigned": resigned,
    }


_GAMES = cast(Table, Game.__table__)


async def load(session: AsyncSession, *, game_id: str) -> tuple[Game, list[str]] | None:
    """A game's row and its actions in order, or None."""
    row = await session.get(Game, game_id)
    if row is None:
        return None
    result = await session.execute(
        select(GameAction.action).where(GameAction.game_id == game_id).order_by(GameAction.ply)
    )
    return row, list(result.scalars())


async def ply_and_state(session: AsyncSession, *, game_id: str) -> tuple[int, str] | None:
    """A game's stored ply and state (cheaper than the game: is a copy in memory behind?)."""
    row = (await session.execute(select(Game.ply, Game.state).where(Game.id == game_id))).first()
    return None if row is None else (int(row[0]), str(row[1]))


async def states(session: AsyncSession, *, game_ids: list[str]) -> dict[str, str]:
    """The stored state of each game (another node may have played it since this one read it)."""
    if not game_ids:
        return {}
    result = await session.execute(select(Game.id, Game.state).where(Game.id.in_(game_ids)))
    return {game_id: state for game_id, state in result}


async def open_keys(session: AsyncSession, *, game_ids: list[str]) -> None:
    """The keys of these games show from now on."""
    await session.execute(update(Game).where(Game.id.in_(game_ids)).values(key_open=True))


async def count_hints(session: AsyncSession, *, game_id: str, hints: int) -> None:
    """A game's count of answered hints (only that column: actions write the others)."""
    await session.execute(update(Game).where(Game.id == game_id).values(hints=hints))


async def save_clock(
    session: AsyncSession, *, game_id: str, ply: int, paused_ms: int, stopped_ms: int | None
) -> None:
    """A game's clock as it was at ``ply`` (only its columns: actions write the others, the
    clock's too). Stored only while the row is still at that ply and not ended: a clock saved
    late (its task waited for the database) must not overwrite what a later action stored
    with the clock as it then was (a win's active time would become its wall time)."""
    # (the table's statement, not the mapped class's: it runs as Core, without the ORM's
    # evaluation of the WHERE clause against loaded objects: the clocks' transaction loads none)
    values = {"paused_ms": paused_ms, "stopped_ms": stopped_ms}
    c = _GAMES.c
    await session.execute(
        update(_GAMES).where(c.id == game_id, c.ply == ply, c.ended_ms.is_(None)).values(values)
    )


async def listed(
    session: AsyncSession, *, player_id: int, state: str | None, limit: int
) -> list[Game]:
    """A player's games, newest first (``ix_games_player_started``), in ``state`` when given."""
    query = select(Game).where(Game.player_id == player_id)
    if state is not None:
        query = query.where(Game.state == state)
    result = await session.execute(query.order_by(Game.started_ms.desc()).limit(limit))
    return list(result.scalars())
