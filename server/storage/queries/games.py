"""Games and their moves: the rows an action writes, the group commit, the reads that rebuild it."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Table, bindparam, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import Game, GameAction
from shared.deals import Deal, KeyedDeal, NumberedDeal


@dataclass(slots=True)
class GameWrite:
    """What one acknowledged request changes: maybe a new game, its new moves, its new state."""

    new_game: dict[str, Any] | None = None
    moves: list[dict[str, Any]] = field(default_factory=list)
    #: the games row's new values, ``id`` included
    update: dict[str, Any] | None = None


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
    }
    return GameWrite(moves=moves, update=update)


def deal_of_row(row: Game) -> Deal:
    """The deal a stored game was dealt from."""
    if row.deal_key is not None:
        return KeyedDeal(row.variant, bytes.fromhex(row.deal_key))
    assert row.seed is not None, f"game {row.id} has neither a seed nor a key"
    return NumberedDeal(row.seed)


def replay_record(row: Game, actions: list[str], *, resigned: bool) -> dict[str, Any]:
    """The record of notation.md that rebuilds a stored game: its deal, actions and resign."""
    deal: dict[str, Any] = {"seed": row.seed} if row.deal_key is None else {"key": row.deal_key}
    return {
        "variant": row.variant,
        "options": row.options,
        **deal,
        "actions": actions,
        "resigned": resigned,
    }


_GAMES = cast(Table, Game.__table__)
_MOVES = cast(Table, GameAction.__table__)
#: Core statements: the ORM's bookkeeping is pure cost for rows nobody reads back
_UPDATE_GAME = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("b_id"))
    .values(
        # a bind named "id" would clash with the column in SET; the key rides along unused
        state=bindparam("state"),
        score=bindparam("score"),
        ply=bindparam("ply"),
        undos=bindparam("undos"),
        key_open=bindparam("key_open"),
        ended_ms=bindparam("ended_ms"),
        updated_ms=bindparam("updated_ms"),
    )
)


def apply_writes(
    conn: Connection, writes: Sequence[GameWrite], statements: Statements | None = None
) -> None:
    """Apply many writes in the caller's transaction, a few statements for the whole group.

    ``statements`` keeps the text of the multi-row statements from one call to
    the next (the writer holds one); without it they are built afresh.
    """
    new_games = [w.new_game for w in writes if w.new_game is not None]
    moves = [m for w in writes for m in w.moves]
    updates: dict[str, dict[str, Any]] = {}
    for w in writes:
        if w.update is not None:
            updates[w.update["id"]] = w.update  # the last state of a game wins
    if new_games:
        conn.execute(insert(_GAMES), new_games)
    if not moves and not updates:
        return
    if conn.dialect.paramstyle != "qmark":
        if moves:
            conn.execute(insert(_MOVES), moves)
        if updates:
            rows = [{"b_id": u["id"], **u} for u in updates.values()]
            conn.execute(_UPDATE_GAME, rows)
        return
    if statements is None:
        statements = Statements()
    quote = conn.dialect.identifier_preparer.quote
    for chunk in _chunks(moves, MOVE_ROWS):
        conn.exec_driver_sql(
            statements.insert_moves(len(chunk), quote),
            tuple(m[column] for m in chunk for column in _MOVE_COLUMNS),
        )
    for chunk in _chunks(list(updates.values()), UPDATE_ROWS):
        params: list[Any] = []
        for column in _UPDATED:
            for u in chunk:
                params += (u["id"], u[column])
        params += (u["id"] for u in chunk)
        conn.exec_driver_sql(statements.update_games(len(chunk), quote), tuple(params))


# Multi-row statements, for drivers with ``?`` placeholders (SQLite's). The writer is a
# thread, and the driver releases the GIL for every row it steps through: with executemany,
# a commit of N rows took the GIL back from the busy event loop N times (up to 0.5 ms each),
# so commits, and every move waiting on one, slowed down as the load grew. One statement per
# few hundred rows, in portable SQL (multi-row VALUES, CASE), takes it back a few times.

#: rows per statement, so that no statement binds more than 999 parameters (old SQLite)
MOVE_ROWS = 200
UPDATE_ROWS = 60

_MOVE_COLUMNS = ("game_id", "ply", "action", "played_ms")
#: the games columns an action changes (``id`` picks the row)
_UPDATED = ("state", "score", "ply", "undos", "key_open", "ended_ms", "updated_ms")


class Statements:
    """The text of the multi-row statements by row count, each built once for its owner."""

    def __init__(self) -> None:
        self._text: dict[tuple[str, int], str] = {}

    def insert_moves(self, rows: int, quote: Callable[[str], str]) -> str:
        sql = self._text.get(("moves", rows))
        if sql is None:
            columns = ", ".join(quote(c) for c in _MOVE_COLUMNS)
            values = ", ".join(["(?, ?, ?, ?)"] * rows)
            sql = f"INSERT INTO {quote(_MOVES.name)} ({columns}) VALUES {values}"
            self._text[("moves", rows)] = sql
        return sql

    def update_games(self, rows: int, quote: Callable[[str], str]) -> str:
        """``UPDATE games SET state = CASE id WHEN ? THEN ? ... END, ... WHERE id IN (?, ...)``."""
        sql = self._text.get(("games", rows))
        if sql is None:
            key = quote("id")
            whens = " ".join(["WHEN ? THEN ?"] * rows)
            sets = ", ".join(f"{quote(c)} = CASE {key} {whens} END" for c in _UPDATED)
            marks = ", ".join(["?"] * rows)
            sql = f"UPDATE {quote(_GAMES.name)} SET {sets} WHERE {key} IN ({marks})"
            self._text[("games", rows)] = sql
        return sql


def _chunks(rows: list[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


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


async def listed(
    session: AsyncSession, *, player_id: int, state: str | None, limit: int
) -> list[Game]:
    """A player's games, newest first (``ix_games_player_started``), in ``state`` when given."""
    query = select(Game).where(Game.player_id == player_id)
    if state is not None:
        query = query.where(Game.state == state)
    result = await session.execute(query.order_by(Game.started_ms.desc()).limit(limit))
    return list(result.scalars())
