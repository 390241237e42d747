"""Ratings: read a race's racers' ratings (locked for the update), write a rated race's
changes, show ratings beside names, and the rating board with a player's true rank.

Ratings travel here as plain tuples ``(rating, deviation, volatility, games)``;
the arithmetic is server/ratings/glicko2.py's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import Player, PlayerRating, RatingChange

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
    the racer's game: a second writer of the same race fails on it and rolls back)."""
    for change in changes:
        rating, deviation, volatility, games = change.after
        row = await session.get(PlayerRating, (change.player, variant))
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
