"""A group of game writes in one transaction: the few statements that carry all its rows.

The writer (server/storage/writer.py) commits what queued while its last
commit ran as one group; docs/architecture.md, "The write path", says why
each database gets the statements it gets here. :func:`apply_writes` applies
any group inside a SQLAlchemy transaction; :func:`apply_actions` the moves
rows and games updates alone, on a driver's own cursor (every group of plain
actions: the writer sends them without SQLAlchemy).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from sqlalchemy import Table, insert, select, update
from sqlalchemy.engine import Connection

from server.storage.models import Game, GameAction
from server.storage.queries.games import GameMissing, GameWrite, WriteConflict

_GAMES = cast(Table, Game.__table__)
_MOVES = cast(Table, GameAction.__table__)

_MOVE_COLUMNS = ("game_id", "ply", "action", "played_ms")
#: the games columns an action changes (``id`` picks the row)
_UPDATED = (
    "state",
    "score",
    "ply",
    "undos",
    "key_open",
    "ended_ms",
    "updated_ms",
    "paused_ms",
    "stopped_ms",
)


#: the databases whose action rows go to the driver's cursor as they are (:func:`apply_actions`)
DIRECT = frozenset(("sqlite", "postgresql"))


def apply_writes(
    conn: Connection, writes: Sequence[GameWrite], statements: Statements | None = None
) -> None:
    """Apply many writes in the caller's transaction, a few statements for the whole group.

    The games rows are updated first, each only where it still stands where
    its write expects it (see :class:`GameWrite`); when fewer rows match than
    were updated, nothing of the group may commit: this raises
    :class:`WriteConflict` (:class:`GameMissing` for a row that is gone) and
    the caller rolls back. For a group of several games it cannot tell which
    one moved on: the writer then commits them one by one and the conflict
    fails alone. ``statements`` keeps the text of SQLite's multi-row
    statements from one call to the next (the writer holds one).
    """
    new_games = [w.new_game for w in writes if w.new_game is not None]
    if new_games:
        conn.execute(insert(_GAMES), new_games)
    named: dict[Table, list[dict[str, Any]]] = {}
    for w in writes:
        for table, row in w.rows:
            named.setdefault(table, []).append(row)
    for table, rows in named.items():
        conn.execute(insert(table), rows)
    name = conn.dialect.name
    if name in DIRECT:
        cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        quote = conn.dialect.identifier_preparer.quote
        apply_actions(cursor, name, writes, statements or Statements(quote))
    else:
        moves, updates = _gathered(writes)
        if moves or updates:
            _apply_portable(conn, moves, updates)
    for w in writes:
        for work in w.then:
            work(conn)


def plain(writes: Sequence[GameWrite]) -> bool:
    """Whether the writes are only moves and games updates (every move of a game in play):
    :func:`apply_actions` alone stores them, without SQLAlchemy."""
    return all(w.new_game is None and not w.rows and not w.then for w in writes)


def apply_actions(
    cursor: Any, dialect: str, writes: Sequence[GameWrite], statements: Statements
) -> None:
    """The moves rows and games updates of ``writes`` (their other parts are
    :func:`apply_writes`'s), sent on a driver's own cursor (``dialect`` ``sqlite`` or
    ``postgresql``) in the caller's transaction, with the checks of :func:`apply_writes`.

    The statements are the driver's text with its own parameters: SQLAlchemy has nothing
    to compile, convert or track for them, so the writer runs a group of plain actions on
    its connection's driver directly (its whole Python per commit was SQLAlchemy's
    connection, transaction and execution machinery, about 300,000 instructions).
    """
    moves, updates = _gathered(writes)
    if not (moves or updates):
        return
    if dialect == "sqlite":
        _apply_sqlite(cursor, moves, updates, statements)
    elif dialect == "postgresql":
        _apply_postgresql(cursor, moves, updates)
    else:
        raise ValueError(f"no direct statements for {dialect!r}")


def _gathered(
    writes: Sequence[GameWrite],
) -> tuple[list[dict[str, Any]], dict[str, tuple[int, dict[str, Any]]]]:
    """The moves rows of ``writes``, and each game's update with the ply it expects."""
    moves: list[dict[str, Any]] = []
    updates: dict[str, tuple[int, dict[str, Any]]] = {}
    for w in writes:
        moves += w.moves
        u = w.update
        if u is None:
            continue
        if w.after_ply is None:
            raise ValueError(f"the update of game {u['id']!r} names no after_ply")
        earlier = updates.get(u["id"])
        # a game's later write follows its earlier one: the first expectation, the last values
        updates[u["id"]] = (w.after_ply if earlier is None else earlier[0], u)
    return moves, updates


def _check(
    matched: int, updates: dict[str, tuple[int, dict[str, Any]]], stored: Callable[[str], bool]
) -> None:
    """Raise unless every update found its row (see :func:`apply_writes`); ``stored`` tells
    whether a game's row is there at all."""
    if matched == len(updates):
        return
    if len(updates) > 1:
        raise WriteConflict(next(iter(updates)))  # one of them; the writer retries one by one
    (game_id,) = updates
    raise WriteConflict(game_id) if stored(game_id) else GameMissing(game_id)


def _stored_by(cursor: Any, mark: str) -> Callable[[str], bool]:
    """Whether a games row is there, asked on a driver's cursor (``mark``: its parameter)."""

    def stored(game_id: str) -> bool:
        cursor.execute(f"SELECT 1 FROM games WHERE id = {mark}", (game_id,))
        return cursor.fetchone() is not None

    return stored


# -- SQLite: multi-row statements ---------------------------------------------------------
# The writer is a thread, and SQLite's driver releases the GIL for every row it steps
# through: with executemany, a commit of N rows took the GIL back from the busy event loop N
# times (up to 0.5 ms each), so commits, and every move waiting on one, slowed down as the
# load grew. One statement per few hundred rows (multi-row VALUES, CASE) takes it back a few
# times.

#: rows per statement, so that no statement binds more than 999 parameters (old SQLite)
MOVE_ROWS = 200
UPDATE_ROWS = 58


def _apply_sqlite(
    cursor: Any,
    moves: list[dict[str, Any]],
    updates: dict[str, tuple[int, dict[str, Any]]],
    statements: Statements,
) -> None:
    matched = 0
    pending = list(updates.items())
    for start in range(0, len(pending), UPDATE_ROWS):
        chunk = pending[start : start + UPDATE_ROWS]
        params: list[Any] = []
        for column in _UPDATED:
            for game_id, (_, u) in chunk:
                params += (game_id, u[column])
        params += (game_id for game_id, _ in chunk)
        for game_id, (after, _) in chunk:
            params += (game_id, after)
        cursor.execute(statements.update_games(len(chunk)), params)
        matched += cursor.rowcount
    _check(matched, updates, _stored_by(cursor, "?"))
    for start in range(0, len(moves), MOVE_ROWS):
        rows = moves[start : start + MOVE_ROWS]
        cursor.execute(
            statements.insert_moves(len(rows)),
            [m[column] for m in rows for column in _MOVE_COLUMNS],
        )


class Statements:
    """The text of SQLite's multi-row statements by row count, each built once for its owner
    (``quote``: the dialect's quoting of names)."""

    def __init__(self, quote: Callable[[str], str]) -> None:
        self._quote = quote
        self._text: dict[tuple[str, int], str] = {}

    def insert_moves(self, rows: int) -> str:
        sql = self._text.get(("moves", rows))
        if sql is None:
            quote = self._quote
            columns = ", ".join(quote(c) for c in _MOVE_COLUMNS)
            values = ", ".join(["(?, ?, ?, ?)"] * rows)
            sql = f"INSERT INTO {quote(_MOVES.name)} ({columns}) VALUES {values}"
            self._text[("moves", rows)] = sql
        return sql

    def update_games(self, rows: int) -> str:
        """``UPDATE games SET state = CASE id WHEN ? THEN ? ... END, ... WHERE id IN (?, ...)
        AND ended_ms IS NULL AND ply = CASE id WHEN ? THEN ? ... END``."""
        sql = self._text.get(("games", rows))
        if sql is None:
            quote = self._quote
            key = quote("id")
            whens = " ".join(["WHEN ? THEN ?"] * rows)
            sets = ", ".join(f"{quote(c)} = CASE {key} {whens} END" for c in _UPDATED)
            marks = ", ".join(["?"] * rows)
            sql = (
                f"UPDATE {quote(_GAMES.name)} SET {sets} WHERE {key} IN ({marks}) "
                f"AND {quote('ended_ms')} IS NULL AND {quote('ply')} = CASE {key} {whens} END"
            )
            self._text[("games", rows)] = sql
        return sql


# -- PostgreSQL: one statement per table, its rows as arrays ------------------------------
# ``unnest`` turns one array per column into rows: the text never changes with the row count
# (psycopg prepares it once per connection) and a group of any size is one round trip per
# table, with no limit on parameters to chunk for.

_PG_UPDATE = (
    "UPDATE games AS g SET state = u.state, score = u.score, ply = u.ply, undos = u.undos, "
    "key_open = u.key_open, ended_ms = u.ended_ms, updated_ms = u.updated_ms, "
    "paused_ms = u.paused_ms, stopped_ms = u.stopped_ms "
    "FROM unnest(%s::varchar[], %s::integer[], %s::varchar[], %s::integer[], %s::integer[], "
    "%s::integer[], %s::boolean[], %s::bigint[], %s::bigint[], %s::bigint[], %s::bigint[]) "
    "AS u(id, after_ply, state, score, ply, undos, key_open, ended_ms, updated_ms, paused_ms, "
    "stopped_ms) "
    "WHERE g.id = u.id AND g.ply = u.after_ply AND g.ended_ms IS NULL"
)
_PG_INSERT_MOVES = (
    "INSERT INTO moves (game_id, ply, action, played_ms) "
    "SELECT * FROM unnest(%s::varchar[], %s::integer[], %s::varchar[], %s::bigint[])"
)


def _apply_postgresql(
    cursor: Any, moves: list[dict[str, Any]], updates: dict[str, tuple[int, dict[str, Any]]]
) -> None:
    if updates:
        # in the order of the primary key: two processes lock the rows they share in one order
        ordered = sorted(updates.items())
        arrays: list[list[Any]] = [[game_id for game_id, _ in ordered]]
        arrays.append([after for _, (after, _) in ordered])
        arrays += [[u[column] for _, (_, u) in ordered] for column in _UPDATED]
        cursor.execute(_PG_UPDATE, tuple(arrays))
        _check(cursor.rowcount, updates, _stored_by(cursor, "%s"))
    if moves:
        cursor.execute(
            _PG_INSERT_MOVES, tuple([m[column] for m in moves] for column in _MOVE_COLUMNS)
        )


# -- any other database: Core statements, a row at a time --------------------------------


def _apply_portable(
    conn: Connection, moves: list[dict[str, Any]], updates: dict[str, tuple[int, dict[str, Any]]]
) -> None:
    matched = 0
    for game_id, (after, u) in updates.items():
        statement = (
            update(_GAMES)
            .where(_GAMES.c.id == game_id, _GAMES.c.ply == after, _GAMES.c.ended_ms.is_(None))
            .values({column: u[column] for column in _UPDATED})
        )
        matched += conn.execute(statement).rowcount

    def stored(game_id: str) -> bool:
        return conn.execute(select(_GAMES.c.id).where(_GAMES.c.id == game_id)).first() is not None

    _check(matched, updates, stored)
    if moves:
        conn.execute(insert(_MOVES), moves)
