"""Arenas: their rows, their deals, who joined, each deal dealt and its result.

A deal's result and its player's totals are written in one transaction
(:func:`record_sync`): the totals are the sum of the player's results, read
back under the rows' lock, so whichever node scores a deal, and however
often a result is scored again (a restart, two nodes at the arena's end), the
table's points are the sum of its games' points.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Connection, Table, false, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import Arena, ArenaDeal, ArenaGame, ArenaPlayer, Player


async def arena(session: AsyncSession, *, code: str) -> Arena | None:
    return await session.get(Arena, code)


async def changed(session: AsyncSession, *, since_ms: int, ends_after_ms: int) -> list[Arena]:
    """Arenas changed after ``since_ms`` that end after ``ends_after_ms``."""
    result = await session.execute(
        select(Arena).where(Arena.updated_ms > since_ms, Arena.ends_ms > ends_after_ms)
    )
    return list(result.scalars())


async def listed(session: AsyncSession, *, ends_after_ms: int) -> list[Arena]:
    """Every arena that ends after ``ends_after_ms`` (the operators' list), soonest first."""
    result = await session.execute(
        select(Arena).where(Arena.ends_ms > ends_after_ms).order_by(Arena.starts_ms, Arena.code)
    )
    return list(result.scalars())


async def counts(session: AsyncSession, *, codes: Iterable[str]) -> dict[str, int]:
    """Players who joined each arena."""
    wanted = list(codes)
    if not wanted:
        return {}
    result = await session.execute(
        select(ArenaPlayer.arena, func.count())
        .where(ArenaPlayer.arena.in_(wanted))
        .group_by(ArenaPlayer.arena)
    )
    return {code: count for code, count in result.all()}


async def joined_by(session: AsyncSession, *, player_id: int, codes: Iterable[str]) -> set[str]:
    wanted = list(codes)
    if not wanted:
        return set()
    result = await session.execute(
        select(ArenaPlayer.arena).where(
            ArenaPlayer.player_id == player_id, ArenaPlayer.arena.in_(wanted)
        )
    )
    return set(result.scalars())


async def is_joined(session: AsyncSession, *, code: str, player_id: int) -> bool:
    return await session.get(ArenaPlayer, (code, player_id)) is not None


async def names(session: AsyncSession, *, ids: Iterable[int]) -> dict[int, str]:
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    result = await session.execute(select(Player.id, Player.name).where(Player.id.in_(wanted)))
    return dict(result.all())


#: player, name, points, played, wins, fire
TableLine = tuple[int, str, int, int, int, bool]


async def table(session: AsyncSession, *, code: str) -> list[TableLine]:
    """Every ranked player of an arena with their totals: bots and banned players left out."""
    result = await session.execute(
        select(
            ArenaPlayer.player_id,
            Player.name,
            ArenaPlayer.points,
            ArenaPlayer.played,
            ArenaPlayer.wins,
            ArenaPlayer.fire,
        )
        .join(Player, Player.id == ArenaPlayer.player_id)
        .where(ArenaPlayer.arena == code, Player.bot == false(), Player.banned == false())
    )
    return [tuple(row) for row in result.all()]  # type: ignore[misc]


ARENA_GAMES = cast(Table, ArenaGame.__table__)


def dealt_row(
    *, game_id: str, code: str, player_id: int, seq: int, allowance_ms: int, deadline_ms: int
) -> dict[str, Any]:
    """The ``arena_games`` row of a deal just dealt (stored with its game: see
    :meth:`~server.games.service.GameService.start`'s ``rows``)."""
    return {
        "game_id": game_id,
        "arena": code,
        "player_id": player_id,
        "seq": seq,
        "berserk": False,
        "allowance_ms": allowance_ms,
        "deadline_ms": deadline_ms,
        "state": None,
        "time_ms": 0,
        "points": 0,
        "on_streak": False,
        "held": False,
    }


async def deals(session: AsyncSession, *, code: str) -> list[ArenaDeal]:
    result = await session.execute(
        select(ArenaDeal).where(ArenaDeal.arena == code).order_by(ArenaDeal.seq)
    )
    return list(result.scalars())


async def deal(session: AsyncSession, *, code: str, seq: int) -> ArenaDeal | None:
    return await session.get(ArenaDeal, (code, seq))


async def last_game(session: AsyncSession, *, code: str, player_id: int) -> ArenaGame | None:
    """The player's latest deal in the arena (the one being played, or the last finished)."""
    result = await session.execute(
        select(ArenaGame)
        .where(ArenaGame.arena == code, ArenaGame.player_id == player_id)
        .order_by(ArenaGame.seq.desc())
        .limit(1)
    )
    return result.scalar_one_or_none()


async def game(session: AsyncSession, *, game_id: str) -> ArenaGame | None:
    return await session.get(ArenaGame, game_id)


async def games_of(session: AsyncSession, *, code: str, player_id: int) -> list[ArenaGame]:
    result = await session.execute(
        select(ArenaGame)
        .where(ArenaGame.arena == code, ArenaGame.player_id == player_id)
        .order_by(ArenaGame.seq)
    )
    return list(result.scalars())


async def results(
    session: AsyncSession, *, code: str, players: Iterable[int]
) -> dict[int, list[ArenaGame]]:
    wanted = sorted(set(players))
    found: dict[int, list[ArenaGame]] = {pid: [] for pid in wanted}
    if not wanted:
        return found
    result = await session.execute(
        select(ArenaGame)
        .where(ArenaGame.arena == code, ArenaGame.player_id.in_(wanted))
        .order_by(ArenaGame.player_id, ArenaGame.seq)
    )
    for row in result.scalars():
        found[row.player_id].append(row)
    return found


async def overdue(session: AsyncSession, *, now_ms: int) -> list[tuple[str, str]]:
    """(game id, arena) of every deal still being played past its deadline."""
    result = await session.execute(
        select(ArenaGame.game_id, ArenaGame.arena).where(
            ArenaGame.state.is_(None), ArenaGame.deadline_ms <= now_ms
        )
    )
    return [(gid, code) for gid, code in result.all()]


async def open_games(session: AsyncSession, *, code: str) -> list[str]:
    """The games of an arena still being played."""
    result = await session.execute(
        select(ArenaGame.game_id).where(ArenaGame.arena == code, ArenaGame.state.is_(None))
    )
    return list(result.scalars())


async def game_ids(session: AsyncSession, *, code: str) -> list[str]:
    """Every game of an arena."""
    result = await session.execute(select(ArenaGame.game_id).where(ArenaGame.arena == code))
    return list(result.scalars())


@dataclass(frozen=True, slots=True)
class Result:
    """A deal's result as it is written: its state, time, points, streak, whether held."""

    state: str
    time_ms: int
    points: int
    on_streak: bool
    held: bool


@dataclass(frozen=True, slots=True)
class Totals:
    points: int
    played: int
    wins: int
    fire: bool


#: a player's deals in the arena as stored (in order) -> this deal's result and the totals,
#: or None when there is nothing to score
ScoreOf = Callable[[Sequence[Any]], "tuple[Result, Totals] | None"]


def record_sync(
    conn: Connection, *, game_id: str, code: str, player_id: int, score: ScoreOf
) -> Totals | None:
    """A deal's result and its player's totals, written in one transaction of a synchronous
    connection (run in a thread: on SQLite the write lock is held for the statements alone, not for
    the event loop's turns between them). ``score`` gives this deal's result and the totals
    from the player's finished deals as stored; None when it was scored already."""
    games = conn.execute(
        select(ArenaGame)
        .where(ArenaGame.arena == code, ArenaGame.player_id == player_id)
        .order_by(ArenaGame.seq)
        .with_for_update()
    ).all()
    scored = score(games)
    if scored is None:
        return None
    result, totals = scored
    done = conn.execute(
        update(ArenaGame)
        .where(ArenaGame.game_id == game_id, ArenaGame.state.is_(None))
        .values(
            state=result.state,
            time_ms=result.time_ms,
            points=result.points,
            on_streak=result.on_streak,
            held=result.held,
        )
    )
    if not done.rowcount:
        return None
    conn.execute(
        update(ArenaPlayer)
        .where(ArenaPlayer.arena == code, ArenaPlayer.player_id == player_id)
        .values(points=totals.points, played=totals.played, wins=totals.wins, fire=totals.fire)
    )
    return totals
