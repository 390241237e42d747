"""An arena player's deals read for a decided review, and their totals written (locked: the
rows are those :func:`server.storage.queries.arenas.record_sync` writes)."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import ArenaDeal, ArenaGame, ArenaPlayer


async def arena_game(session: AsyncSession, *, game_id: str) -> ArenaGame | None:
    return await session.get(ArenaGame, game_id)


async def player_games(session: AsyncSession, *, code: str, player_id: int) -> list[ArenaGame]:
    """The player's deals of the arena in the order played, locked for the update."""
    result = await session.execute(
        select(ArenaGame)
        .where(ArenaGame.arena == code, ArenaGame.player_id == player_id)
        .order_by(ArenaGame.seq)
        .with_for_update()
    )
    return list(result.scalars())


async def pars(session: AsyncSession, *, code: str) -> dict[int, int]:
    """Each deal's par time, by its place in the sequence."""
    result = await session.execute(
        select(ArenaDeal.seq, ArenaDeal.par_ms).where(ArenaDeal.arena == code)
    )
    return {int(seq): int(par) for seq, par in result}


async def set_totals(
    session: AsyncSession, *, code: str, player_id: int, points: int, played: int, wins: int,
    fire: bool,
) -> None:  # fmt: skip
    await session.execute(
        update(ArenaPlayer)
        .where(ArenaPlayer.arena == code, ArenaPlayer.player_id == player_id)
        .values(points=points, played=played, wins=wins, fire=fire)
    )


async def line(
    session: AsyncSession, *, game_id: str
) -> tuple[str, int, int, int, int, bool] | None:
    """The arena and player of a deal, with the player's totals: code, player, points, played,
    wins, fire (None: not an arena deal)."""
    row = (
        await session.execute(
            select(
                ArenaGame.arena,
                ArenaGame.player_id,
                ArenaPlayer.points,
                ArenaPlayer.played,
                ArenaPlayer.wins,
                ArenaPlayer.fire,
            )
            .join(
                ArenaPlayer,
                (ArenaPlayer.arena == ArenaGame.arena)
                & (ArenaPlayer.player_id == ArenaGame.player_id),
            )
            .where(ArenaGame.game_id == game_id)
        )
    ).first()
    if row is None:
        return None
    code, pid, points, played, wins, fire = row
    return str(code), int(pid), int(points), int(played), int(wins), bool(fire)
