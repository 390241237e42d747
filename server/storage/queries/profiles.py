"""A player's profile: each read is one indexed query on the player's own rows."""

from __future__ import annotations

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from server.storage.models import (
    Arena,
    ArenaPlayer,
    DailyAttempt,
    Game,
    Player,
    PlayerRating,
    RatingChange,
)

#: a rating now: variant, rating, deviation, rated races
Current = tuple[str, float, float, int]
#: one recent game: id, variant, kind, state, ended, elapsed (its clock), moves
Recent = tuple[str, str, str, str, int, int, int]


async def by_name(session: AsyncSession, *, name: str) -> Player | None:
    """The player called ``name``, without regard to case."""
    result = await session.execute(select(Player).where(Player.name_key == name.lower()))
    return result.scalars().first()


async def set_hidden(session: AsyncSession, *, player_id: int, hidden: bool) -> None:
    await session.execute(
        update(Player).where(Player.id == player_id).values(profile_hidden=hidden)
    )


async def ratings(session: AsyncSession, *, player_id: int) -> list[Current]:
    result = await session.execute(
        select(
            PlayerRating.variant, PlayerRating.rating, PlayerRating.deviation, PlayerRating.games
        )
        .where(PlayerRating.player_id == player_id)
        .order_by(PlayerRating.variant)
    )
    return [(str(v), float(r), float(d), int(g)) for v, r, d, g in result]


async def history(
    session: AsyncSession, *, player_id: int, variant: str, limit: int
) -> list[tuple[int, float, float]]:
    """The latest ``limit`` rated races' ratings after them, oldest first (at, rating,
    deviation): a range of ix_rating_history_player."""
    result = await session.execute(
        select(RatingChange.at_ms, RatingChange.rating_after, RatingChange.deviation_after)
        .where(RatingChange.player_id == player_id, RatingChange.variant == variant)
        .order_by(RatingChange.at_ms.desc())
        .limit(limit)
    )
    return [(int(at), float(r), float(d)) for at, r, d in reversed(result.all())]


async def winning_times(session: AsyncSession, *, player_id: int) -> dict[str, list[int]]:
    """Each variant's winning times (the game's clock, as ``stats`` counts them)."""
    result = await session.execute(
        select(Game.variant, Game.ended_ms - Game.started_ms - Game.paused_ms).where(
            Game.player_id == player_id, Game.state == "won", Game.ended_ms.is_not(None)
        )
    )
    times: dict[str, list[int]] = {}
    for variant, elapsed in result:
        times.setdefault(str(variant), []).append(int(elapsed or 0))
    return times


async def won_dailies(session: AsyncSession, *, player_id: int) -> list[tuple[str, str]]:
    """(variant, date) of every daily the player won."""
    result = await session.execute(
        select(DailyAttempt.variant, DailyAttempt.date).where(
            DailyAttempt.player_id == player_id, DailyAttempt.state == "won"
        )
    )
    return [(str(v), str(d)) for v, d in result]


async def recent(session: AsyncSession, *, player_id: int, now_ms: int, limit: int) -> list[Recent]:
    """The latest ended games whose deal is public now: a numbered deal, a key shown to the
    player (``key_open``), or a daily's once its day is over. A game whose key is still
    secret (today's daily, a race not over) is left out: its replay would tell the deal."""
    public = or_(
        Game.seed.is_not(None),
        Game.key_open.is_(True),
        and_(Game.reveal_ms.is_not(None), Game.reveal_ms <= now_ms),
    )
    result = await session.execute(
        select(
            Game.id,
            Game.variant,
            Game.kind,
            Game.state,
            Game.ended_ms,
            Game.ended_ms - Game.started_ms - Game.paused_ms,
            Game.ply,
        )
        .where(Game.player_id == player_id, Game.ended_ms.is_not(None), public)
        .order_by(Game.started_ms.desc())
        .limit(limit)
    )
    return [
        (str(i), str(v), str(k), str(s), int(e or 0), max(0, int(t or 0)), int(m))
        for i, v, k, s, e, t, m in result
    ]


async def arenas(
    session: AsyncSession, *, player_id: int, now_ms: int, limit: int
) -> list[tuple[str, str, str, int, int, int]]:
    """The arenas the player joined that are over (not cancelled), latest first: code, name,
    variant, final place (one plus the players with more points: equal points share one),
    points, end."""
    other = aliased(ArenaPlayer)
    above = (
        select(func.count())
        .select_from(other)
        .where(other.arena == ArenaPlayer.arena, other.points > ArenaPlayer.points)
        .scalar_subquery()
    )
    result = await session.execute(
        select(Arena.code, Arena.name, Arena.variant, above, ArenaPlayer.points, Arena.ends_ms)
        .join(Arena, Arena.code == ArenaPlayer.arena)
        .where(
            ArenaPlayer.player_id == player_id,
            Arena.ends_ms <= now_ms,
            Arena.cancelled_ms.is_(None),
        )
        .order_by(Arena.ends_ms.desc())
        .limit(limit)
    )
    return [
        (str(code), str(name), str(variant), int(ahead) + 1, int(points), int(ends))
        for code, name, variant, ahead, points, ends in result
    ]
