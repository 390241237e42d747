"""Arena games a node dealt and died before naming in ``arena_games``: found, and dropped when
never played (server/arenas/play.py says what becomes of them)."""

from __future__ import annotations

from sqlalchemy import delete, exists, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import ArenaGame, Game
from shared import protocol as p


async def orphans(
    session: AsyncSession, *, player_id: int, deal_key: str, since_ms: int
) -> list[tuple[str, int, str]]:
    """The player's arena games on this deal, dealt since ``since_ms``, that no ``arena_games``
    row names: (id, ply, state), oldest first (a range of ix_games_player_started)."""
    result = await session.execute(
        select(Game.id, Game.ply, Game.state)
        .where(
            Game.player_id == player_id,
            Game.started_ms >= since_ms,
            Game.kind == p.ARENA,
            Game.deal_key == deal_key,
            ~exists().where(ArenaGame.game_id == Game.id),
        )
        .order_by(Game.started_ms, Game.id)
    )
    return [(str(gid), int(ply), str(state)) for gid, ply, state in result]


async def drop_unplayed(session: AsyncSession, *, game_id: str) -> bool:
    """Delete a game nobody played (no action stored) and no arena row names: whether it
    went."""
    result = await session.execute(
        delete(Game).where(
            Game.id == game_id,
            Game.ply == 0,
            ~exists().where(ArenaGame.game_id == Game.id),
        )
    )
    return bool(getattr(result, "rowcount", 0))
