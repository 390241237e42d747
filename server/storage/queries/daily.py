"""Daily deals, attempts and the leaderboard's reads; the server secret they derive from."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import Daily, DailyAttempt, Game, GameAction, Player, Setting
from server.storage.queries import leaderboard
from server.storage.queries.leaderboard import SortKey


async def setting(session: AsyncSession, *, key: str, default: str) -> str:
    """The stored value of ``key``; ``default`` is stored first when there is none (committed)."""
    row = await session.get(Setting, key)
    if row is not None:
        return row.value
    session.add(Setting(key=key, value=default))
    try:
        await session.commit()
    except IntegrityError:  # another process stored it first: theirs wins
        await session.rollback()
        row = await session.get(Setting, key)
        assert row is not None
        return row.value
    return default


async def daily(session: AsyncSession, *, variant: str, date: str) -> Daily | None:
    return await session.get(Daily, (variant, date))


async def dailies_on(session: AsyncSession, *, dates: list[str]) -> list[Daily]:
    result = await session.execute(select(Daily).where(Daily.date.in_(dates)))
    return list(result.scalars())


async def attempt(
    session: AsyncSession, *, variant: str, date: str, player_id: int
) -> DailyAttempt | None:
    return await session.get(DailyAttempt, (variant, date, player_id))


async def open_attempts(session: AsyncSession) -> list[DailyAttempt]:
    result = await session.execute(select(DailyAttempt).where(DailyAttempt.finished.is_(False)))
    return list(result.scalars())


async def open_attempt_of(session: AsyncSession, *, game_id: str) -> DailyAttempt | None:
    """The open attempt whose game is ``game_id`` (started on another node, say)."""
    result = await session.execute(
        select(DailyAttempt).where(
            DailyAttempt.game_id == game_id, DailyAttempt.finished.is_(False)
        )
    )
    return result.scalars().first()


def finished_values(
    state: str,
    elapsed_ms: int,
    moves: int,
    score: int,
    key: SortKey,
    *,
    undos: int,
    foundation: int,
    held: bool,
) -> dict[str, Any]:
    """An ended attempt's row values; ``held``: held for review (not listed until cleared)."""
    return {
        "finished": True,
        "state": state,
        "elapsed_ms": elapsed_ms,
        "moves": moves,
        "score": score,
        "undos": undos,
        "foundation": foundation,
        "rank_group": key[0],
        "rank_a": key[1],
        "rank_b": key[2],
        "review": "pending" if held else "",
    }


async def ranked_player(session: AsyncSession, *, player_id: int) -> bool:
    """Whether the player's results are ranked: neither a bot nor banned."""
    player = await session.get(Player, player_id)
    return player is not None and not player.bot and not player.banned


async def finish(
    session: AsyncSession, *, variant: str, date: str, player_id: int, values: dict[str, Any]
) -> None:
    await session.execute(
        update(DailyAttempt)
        .where(
            DailyAttempt.variant == variant,
            DailyAttempt.date == date,
            DailyAttempt.player_id == player_id,
        )
        .values(**values)
    )


async def unfinished_before(session: AsyncSession, *, date: str) -> list[tuple[DailyAttempt, Game]]:
    """Attempts of days before ``date`` still open, with their games as last stored."""
    result = await session.execute(
        select(DailyAttempt, Game)
        .join(Game, Game.id == DailyAttempt.game_id)
        .where(DailyAttempt.finished.is_(False), DailyAttempt.date < date)
    )
    return [(row[0], row[1]) for row in result]


async def actions_before(
    session: AsyncSession, *, game_id: str, before_ms: int
) -> list[tuple[str, int]]:
    """A game's actions played before ``before_ms``, in order, with their times."""
    result = await session.execute(
        select(GameAction.action, GameAction.played_ms)
        .where(GameAction.game_id == game_id, GameAction.played_ms < before_ms)
        .order_by(GameAction.ply)
    )
    return [(str(action), int(played)) for action, played in result]


async def top(
    session: AsyncSession, *, variant: str, date: str, limit: int
) -> list[dict[str, Any]]:
    """The best ``limit`` ended attempts, best first (an index range scan)."""
    result = await session.execute(leaderboard.top_query(variant, date, limit))
    return [leaderboard.entry(row) for row in result]


async def entry_of(
    session: AsyncSession, *, variant: str, date: str, player_id: int
) -> leaderboard.Mine | None:
    """A player's ended attempt, its sort key and review state, or None."""
    result = await session.execute(leaderboard.entry_query(variant, date, player_id))
    return leaderboard.mine(result.first())


async def better_than(session: AsyncSession, *, variant: str, date: str, key: SortKey) -> int:
    """How many ended attempts rank strictly before ``key``: three range counts on the index."""
    group, a, b = key
    same_day = and_(
        DailyAttempt.variant == variant,
        DailyAttempt.date == date,
        DailyAttempt.finished.is_(True),
        DailyAttempt.review.not_in(leaderboard.UNLISTED_REVIEWS),
    )
    ranges = (
        DailyAttempt.rank_group < group,
        and_(DailyAttempt.rank_group == group, DailyAttempt.rank_a < a),
        and_(DailyAttempt.rank_group == group, DailyAttempt.rank_a == a, DailyAttempt.rank_b < b),
    )
    total = 0
    for condition in ranges:
        count = await session.scalar(
            select(func.count()).select_from(DailyAttempt).where(same_day, condition)
        )
        total += int(count or 0)
    return total


async def won_dates(session: AsyncSession, *, player_id: int) -> list[str]:
    """The days on which the player won a daily (any variant), latest first."""
    result = await session.execute(
        select(DailyAttempt.date)
        .where(DailyAttempt.player_id == player_id, DailyAttempt.state == "won")
        .distinct()
        .order_by(DailyAttempt.date.desc())
    )
    return list(result.scalars())


async def rank_keys(session: AsyncSession, *, variant: str, date: str) -> list[SortKey]:
    """The sort keys of a day's ended attempts, in order (read from the leaderboard index)."""
    result = await session.execute(leaderboard.keys_query(variant, date))
    return [(int(g), int(a), int(b)) for g, a, b in result]
