"""A player's statistics, computed from their games (one grouped query on ix_games_player_id)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import Game


async def per_variant(session: AsyncSession, *, player_id: int) -> list[dict[str, Any]]:
    """Games played and won per variant, the best winning time and the fewest winning moves.

    A winning time is the game's clock (server/games/clock.py): for an unranked game its
    active time, the time nobody had it open (``paused_ms``) left out."""
    won = Game.state == "won"
    result = await session.execute(
        select(
            Game.variant,
            func.count(),
            func.sum(case((won, 1), else_=0)),
            func.min(case((won, Game.ended_ms - Game.started_ms - Game.paused_ms), else_=None)),
            func.min(case((won, Game.ply), else_=None)),
        )
        .where(Game.player_id == player_id)
        .group_by(Game.variant)
        .order_by(Game.variant)
    )
    return [
        {
            "variant": variant,
            "played": int(played),
            "won": int(won_count or 0),
            "best_ms": None if best is None else int(best),
            "fewest_moves": None if fewest is None else int(fewest),
        }
        for variant, played, won_count, best, fewest in result
    ]
