"""Ratings: read a race's racers' ratings (locked for the update), write a rated race's
changes, show ratings beside names, and the rating board with a player's true rank.

Ratings travel here as plain tuples ``(rating, deviation, volatility, games)``;
the arithmetic is server/ratings/glicko2.py's.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Integer, and_, bindparam, func, literal, select, union_all
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from server.storage.models import Player, PlayerRating, RatingChange, RatingCount

#: rating, deviation, volatility, rated races
Stored = tuple[float, float, float, int]


@dataclass(frozen=True, slots=True)
class Change:
    """One racer's change in one rated race."""

    player: int
    game_id: str
    before: Stored
    after: Stored


async def rated_games(session: AsyncSession, *, game_ids: list[str]) -> dict[str, RatingChange]:
    """The stored changes of these games, by game: a race already rated has all of its."""
    if not game_ids:
        return {}
    result = await session.execute(select(RatingChange).where(RatingChange.game_id.in_(game_ids)))
    return {row.game_id: row for row in result.scalars()}


async def current(
    session: AsyncSession, *, variant: str, players: Iterable[int], lock: bool = False
) -> dict[int, Stored]:
    """The stored ratings of these players on ``variant`` (a player without one is absent);
    ``lock``: the rows are held until the transaction ends (PostgreSQL; SQLite has one
    writer at a time anyway)."""
    ids = sorted(set(players))
    if not ids:
        return {}
    query = select(PlayerRating).where(
        PlayerRating.variant == variant, PlayerRating.player_id.in_(ids)
    )
    if lock:
        query = query.with_for_update()
    result = await session.execute(query)
    return {
        row.player_id: (row.rating, row.deviation, row.volatility, row.games)
        for row in result.scalars()
    }


async def record(
    session: AsyncSession, *, variant: str, race: str, now_ms: int, changes: list[Change]
) -> None:
    """Write a rated race: every racer's new rating and the history row of each (keyed by
    the racer's game: a second writer of the same race fails on it and rolls back), and the
    counts of ratings per whole point that the board's true rank reads (of the players it
    lists: a banned player's rating changes and stays out of them)."""
    moves: Counter[int] = Counter()
    for change in changes:
        rating, deviation, volatility, games = change.after
        row = await session.get(PlayerRating, (change.player, variant))
        if await _listed_player(session, change.player):
            if row is not None:
                moves[math.floor(row.rating)] -= 1
            moves[math.floor(rating)] += 1
        if row is None:
            session.add(
                PlayerRating(
                    player_id=change.player,
                    variant=variant,
                    rating=rating,
                    deviation=deviation,
                    volatility=volatility,
                    games=games,
                    updated_ms=now_ms,
                )
            )
        else:
            row.rating, row.deviation, row.volatility = rating, deviation, volatility
            row.games, row.updated_ms = games, now_ms
        session.add(
            RatingChange(
                game_id=change.game_id,
                player_id=change.player,
                variant=variant,
                race=race,
                rating_before=change.before[0],
                deviation_before=change.before[1],
                rating_after=rating,
                deviation_after=deviation,
                volatility_after=volatility,
                at_ms=now_ms,
            )
        )
    await session.flush()
    await count(session, variant=variant, moves=moves)


async def _listed_player(session: AsyncSession, player_id: int) -> bool:
    """Whether the player's ratings are in the counts (not banned), their row share-locked
    until the transaction ends (a ban, which moves their ratings, waits for it)."""
    banned = (
        await session.execute(
            select(Player.banned).where(Player.id == player_id).with_for_update(read=True)
        )
    ).scalar_one_or_none()
    return banned is not True


async def count(session: AsyncSession, *, variant: str, moves: Counter[int]) -> None:
    """Add each change to its row of ratings per whole point, in key order (upserts)."""
    dialect = (await session.connection()).dialect.name
    for floor, change in sorted(moves.items()):
        if change == 0:
            continue
        if dialect in ("postgresql", "sqlite"):
            make = pg_insert if dialect == "postgresql" else sqlite_insert
            statement = make(RatingCount).values(variant=variant, floor=floor, players=change)
            await session.execute(
                statement.on_conflict_do_update(
                    index_elements=["variant", "floor"],
                    set_={"players": RatingCount.players + change},
                )
            )
        else:
            row = await session.get(RatingCount, (variant, floor), with_for_update=True)
            if row is None:
                session.add(RatingCount(variant=variant, floor=floor, players=change))
            else:
                row.players += change


#: a place of the board: player, name, rating, deviation, rated races
Place = tuple[int, str, float, float, int]


def _listed(variant: str) -> tuple[object, ...]:
    return (
        PlayerRating.variant == variant,
        Player.banned.is_(False),
        Player.bot.is_(False),
    )


async def board(
    session: AsyncSession, *, variant: str, limit: int, me: int
) -> tuple[list[tuple[int, Place]], tuple[int, Place] | None]:
    """The best ``limit`` ratings of ``variant`` with their ranks (equal ratings share one),
    and ``me``'s own place with its true rank (None when they have no rating here)."""
    columns = (
        PlayerRating.player_id,
        Player.name,
        PlayerRating.rating,
        PlayerRating.deviation,
        PlayerRating.games,
    )
    listed = _listed(variant)
    rows = (
        await session.execute(
            select(*columns)
            .join(Player, Player.id == PlayerRating.player_id)
            .where(*listed)  # type: ignore[arg-type]
            .order_by(PlayerRating.rating.desc(), PlayerRating.player_id)
            .limit(limit)
        )
    ).all()
    top: list[tuple[int, Place]] = []
    for position, row in enumerate(rows):
        place: Place = (row[0], row[1], row[2], row[3], row[4])
        rank = top[-1][0] if top and top[-1][1][2] == place[2] else position + 1
        top.append((rank, place))
    own = (
        await session.execute(
            select(*columns)
            .join(Player, Player.id == PlayerRating.player_id)
            .where(*listed, PlayerRating.player_id == me)  # type: ignore[arg-type]
        )
    ).first()
    if own is None:
        return top, None
    above = await session.scalar(
        select(func.count())
        .select_from(PlayerRating)
        .join(Player, Player.id == PlayerRating.player_id)
        .where(*listed, PlayerRating.rating > own[2])  # type: ignore[arg-type]
    )
    return top, (int(above or 0) + 1, (own[0], own[1], own[2], own[3], own[4]))


# -- the board's reads, on a synchronous connection (one call in a reader thread) -----------

_COLUMNS = (
    PlayerRating.player_id,
    Player.name,
    PlayerRating.rating,
    PlayerRating.deviation,
    PlayerRating.games,
)
_LISTED = and_(
    PlayerRating.variant == bindparam("variant"),
    Player.banned.is_(False),
    Player.bot.is_(False),
)
_TOP = (
    select(*_COLUMNS)
    .join(Player, Player.id == PlayerRating.player_id)
    .where(_LISTED)
    .order_by(PlayerRating.rating.desc(), PlayerRating.player_id)
    .limit(bindparam("limit", type_=Integer))
)
_OWN = (
    select(*_COLUMNS)
    .join(Player, Player.id == PlayerRating.player_id)
    .where(_LISTED, PlayerRating.player_id == bindparam("player", type_=Integer))
)


def _place(row: Any) -> Place:
    return (int(row[0]), str(row[1]), float(row[2]), float(row[3]), int(row[4]))


def _one_statement() -> Any:
    """The board's top and the asker's own place with its rank, in one statement (one round
    trip). The rank counts, for the asker's rating r: the players of the whole points above
    r (an integer point f is above floor(r) exactly when f > r), and those within r's own
    point above r: the listed players' ratings between r and the next point that has
    players (none between them but r's own point's). The counts hold only the players the
    board lists (migration 0021: a ban moves a player out of them), so no banned player is
    counted in a request."""
    top = _TOP.subquery("top")
    numbered = select(
        func.row_number().over(order_by=(top.c.rating.desc(), top.c.player_id)),
        *top.c,
        literal(0, Integer),
        literal(0, Integer),
    )
    counts = aliased(RatingCount)
    other = aliased(PlayerRating)
    other_player = aliased(Player)
    rating = PlayerRating.rating
    points_above = (
        select(func.coalesce(func.sum(counts.players), 0))
        .where(counts.variant == PlayerRating.variant, counts.floor > rating)
        .scalar_subquery()
    )
    next_point = (
        select(func.min(counts.floor))
        .where(counts.variant == PlayerRating.variant, counts.floor > rating, counts.players > 0)
        .correlate(PlayerRating)  # the asker's row, two levels up
        .scalar_subquery()
    )
    near = (
        select(func.count())
        .select_from(other)
        .join(other_player, other_player.id == other.player_id)
        .where(
            other.variant == PlayerRating.variant,
            other.rating > rating,
            other.rating < func.coalesce(next_point, 1_000_000_000),
            other_player.banned.is_(False),
        )
        .scalar_subquery()
    )
    own = _OWN.with_only_columns(literal(0, Integer), *_COLUMNS, points_above, near)
    return union_all(numbered, own)


_ONE = _one_statement()


def read_board(
    conn: Connection, *, variant: str, limit: int, me: int
) -> tuple[list[tuple[int, Place]], tuple[int, Place] | None]:
    """:func:`board` on a synchronous connection, in one statement, its true rank from the
    counts per point instead of a count over every rating above (which reads half the board
    on average)."""
    if conn.dialect.name == "postgresql":
        conn = conn.execution_options(isolation_level="AUTOCOMMIT")
    ordered: list[tuple[int, Place]] = []
    mine = None
    for row in conn.execute(_ONE, {"variant": variant, "limit": limit, "player": me}):
        place = _place(row[1:6])
        if row[0] == 0:
            mine = (int(row[6]) + int(row[7]) + 1, place)
        else:
            ordered.append((int(row[0]), place))
    ordered.sort(key=lambda numbered: numbered[0])
    top: list[tuple[int, Place]] = []
    for position, (_, place) in enumerate(ordered):
        rank = top[-1][0] if top and top[-1][1][2] == place[2] else position + 1
        top.append((rank, place))
    return top, mine
