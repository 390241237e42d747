"""What review found of each ranked result, and the players whose wins keep to a solver's line.

One row per ranked result review judged (:class:`server.storage.models.Assessment`),
held or not. ``patience-club admin efficient`` reads them across results: a
player with at least a few ranked wins, most of them on a solver's line, is
shown with each of those wins as the evidence (lichess looks at a player's
accuracy against an engine over many games the same way).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import Assessment, Player


async def store(session: AsyncSession, row: Assessment) -> None:
    """Keep ``row``; a result judged again (a race's standings read twice) keeps the first."""
    if await session.get(Assessment, row.game_id) is None:
        session.add(row)


@dataclass(frozen=True, slots=True)
class Flagged:
    """A player whose ranked wins are mostly on a solver's line, with those wins."""

    player_id: int
    name: str
    wins: int
    efficient: int
    evidence: list[Assessment]


async def efficient_players(session: AsyncSession, *, min_wins: int, share: float) -> list[Flagged]:
    """Players with at least ``min_wins`` judged ranked wins of which at least ``share`` were
    on a solver's line, most such wins first; each with those wins, newest first."""
    wins = func.count()
    on_line = func.sum(case((Assessment.efficient.is_(True), 1), else_=0))
    query = (
        select(Assessment.player_id, Player.name, wins, on_line)
        .join(Player, Player.id == Assessment.player_id)
        .where(Assessment.won.is_(True))
        .group_by(Assessment.player_id, Player.name)
        .having(wins >= max(1, min_wins))
    )
    flagged = []
    for player_id, name, count, efficient in (await session.execute(query)).all():
        efficient = int(efficient or 0)
        if efficient < share * count:
            continue
        rows = await session.execute(
            select(Assessment)
            .where(Assessment.player_id == player_id, Assessment.efficient.is_(True))
            .order_by(Assessment.created_ms.desc())
        )
        flagged.append(Flagged(player_id, str(name), count, efficient, list(rows.scalars())))
    return sorted(flagged, key=lambda f: (-f.efficient, f.name))
