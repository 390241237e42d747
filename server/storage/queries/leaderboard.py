"""The leaderboard's reads on a synchronous connection: a request is one call in a reader thread.

Through the async driver every statement is a thread hop and its rows are
built on the event loop; a leaderboard request (the top entries and the
player's own) and the reading of a day's rank keys (100,000 rows) are done
here as one call each, in one thread, with the same statements the async
functions of :mod:`server.storage.queries.daily` use.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Connection, Select, and_, bindparam, select

from server.storage.models import DailyAttempt, Player

#: a result's sort key as the leaderboard index orders it: (rank_group, rank_a, rank_b)
SortKey = tuple[int, int, int]
#: a player's own ended attempt: its entry, sort key and review state ('' when not held)
Mine = tuple[dict[str, Any], SortKey, str]

_ENTRY = (
    DailyAttempt.player_id,
    Player.name,
    DailyAttempt.state,
    DailyAttempt.elapsed_ms,
    DailyAttempt.moves,
    DailyAttempt.score,
    DailyAttempt.undos,
    DailyAttempt.foundation,
)
_KEY = (DailyAttempt.rank_group, DailyAttempt.rank_a, DailyAttempt.rank_b)

#: review states that keep an attempt off the leaderboard
UNLISTED_REVIEWS = ("pending", "confirmed")


def listed(variant: str, date: str) -> ColumnElement[bool]:
    """The attempts a day's leaderboard lists: ended, not held for review (nor confirmed), of
    players who are neither bots nor banned (the query joins ``players``)."""
    return and_(
        DailyAttempt.variant == variant,
        DailyAttempt.date == date,
        DailyAttempt.finished.is_(True),
        DailyAttempt.review.not_in(UNLISTED_REVIEWS),
        Player.bot.is_(False),
        Player.banned.is_(False),
    )


def entry(row: Any) -> dict[str, Any]:
    pid, name, state, elapsed, moves, score, undos, foundation = row[:8]
    return {
        "player": pid,
        "name": name,
        "state": state,
        "elapsed_ms": elapsed,
        "moves": moves,
        "score": score,
        "undos": undos,
        "foundation": foundation,
    }


def top_query(variant: str, date: str, limit: int) -> Select[*tuple[Any, ...]]:
    """The best ``limit`` listed attempts, best first: a range of the leaderboard index."""
    return (
        select(*_ENTRY)
        .join(Player, Player.id == DailyAttempt.player_id)
        .where(listed(variant, date))
        .order_by(*_KEY)
        .limit(limit)
    )


def entry_query(variant: str, date: str, player_id: int) -> Select[*tuple[Any, ...]]:
    """A player's ended attempt with its sort key and review state, held or not (a bot has
    none): a primary key read."""
    return (
        select(*_ENTRY, *_KEY, DailyAttempt.review)
        .join(Player, Player.id == DailyAttempt.player_id)
        .where(
            DailyAttempt.variant == variant,
            DailyAttempt.date == date,
            DailyAttempt.player_id == player_id,
            DailyAttempt.finished.is_(True),
            Player.bot.is_(False),
        )
    )


def keys_query(variant: str, date: str) -> Select[*tuple[Any, ...]]:
    """Every listed attempt's sort key, in order."""
    return (
        select(*_KEY)
        .join(Player, Player.id == DailyAttempt.player_id)
        .where(listed(variant, date))
        .order_by(*_KEY)
    )


def mine(row: Any) -> Mine | None:
    if row is None:
        return None
    return entry(row), (int(row[8]), int(row[9]), int(row[10])), str(row[11])


# Built once: building a statement costs more than running it on the index.
_TOP = top_query(bindparam("variant"), bindparam("date"), bindparam("limit"))  # type: ignore[arg-type]
_MINE = entry_query(bindparam("variant"), bindparam("date"), bindparam("player"))  # type: ignore[arg-type]
_KEYS = keys_query(bindparam("variant"), bindparam("date"))  # type: ignore[arg-type]


def _reading(conn: Connection) -> Connection:
    """The connection for reads of committed rows, with the fewest round trips.

    On PostgreSQL in autocommit: no ``BEGIN`` before the statements and no
    ``ROLLBACK`` when the connection goes back to its pool, two round trips of
    four, each one a wait for the database's process when the machine is busy
    (every statement still reads committed rows; the two of a request may see
    different commits, as two requests may). SQLite's reads cost no round trip.
    """
    if conn.dialect.name == "postgresql":
        return conn.execution_options(isolation_level="AUTOCOMMIT")
    return conn


def read_board(
    conn: Connection, *, variant: str, date: str, limit: int, player_id: int
) -> tuple[list[dict[str, Any]], Mine | None]:
    """The top ``limit`` entries, and the player's own entry with its key and review."""
    conn = _reading(conn)
    day = {"variant": variant, "date": date}
    top = [entry(row) for row in conn.execute(_TOP, day | {"limit": limit})]
    return top, mine(conn.execute(_MINE, day | {"player": player_id}).first())


def read_keys(conn: Connection, *, variant: str, date: str) -> list[SortKey]:
    result = _reading(conn).execute(_KEYS, {"variant": variant, "date": date})
    return [(int(g), int(a), int(b)) for g, a, b in result]
