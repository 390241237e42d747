"""Results held for review: the row of a held result, the operator's lists and decisions."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import DailyAttempt, GameAction, Player, Review

PENDING, CLEARED, CONFIRMED = "pending", "cleared", "confirmed"


async def received_actions(session: AsyncSession, *, game_id: str) -> list[tuple[str, int]]:
    """Each stored action of a game and when the server received it, in order."""
    result = await session.execute(
        select(GameAction.action, GameAction.played_ms)
        .where(GameAction.game_id == game_id)
        .order_by(GameAction.ply)
    )
    return [(str(action), int(ms)) for action, ms in result]


async def pending_games(session: AsyncSession, *, game_ids: list[str]) -> set[str]:
    """Which of these games have a result held for review, still pending."""
    if not game_ids:
        return set()
    result = await session.execute(
        select(Review.game_id).where(Review.game_id.in_(game_ids), Review.state == PENDING)
    )
    return set(result.scalars())


async def hold(
    session: AsyncSession,
    *,
    game_id: str,
    player_id: int,
    what: str,
    actions: int,
    median_gap_ms: int,
    reasons: str,
    now_ms: int,
) -> int:
    """A pending review of a result; its id."""
    row = Review(
        game_id=game_id,
        player_id=player_id,
        what=what,
        actions=actions,
        median_gap_ms=median_gap_ms,
        reasons=reasons[:1000],
        state=PENDING,
        created_ms=now_ms,
    )
    session.add(row)
    await session.flush()
    return row.id


async def listed(session: AsyncSession, *, every: bool) -> list[tuple[Review, str]]:
    """Held results with their players' names, oldest first; decided ones too if ``every``."""
    query = select(Review, Player.name).join(Player, Player.id == Review.player_id)
    if not every:
        query = query.where(Review.state == PENDING)
    result = await session.execute(query.order_by(Review.id))
    return [(review, str(name)) for review, name in result]


async def decide(
    session: AsyncSession, *, review_id: int, state: str, now_ms: int
) -> Review | None:
    """Clear or confirm a review (and the daily attempt it holds); None when there is none."""
    review = await session.get(Review, review_id)
    if review is None:
        return None
    review.state = state
    review.decided_ms = now_ms
    await session.execute(
        update(DailyAttempt).where(DailyAttempt.game_id == review.game_id).values(review=state)
    )
    return review


async def decided_since(session: AsyncSession, *, since_ms: int) -> list[dict[str, Any]]:
    """Reviews decided from ``since_ms`` on (a running server drops the ranks they change)."""
    result = await session.execute(
        select(Review.id, Review.decided_ms, Review.game_id).where(Review.decided_ms >= since_ms)
    )
    return [{"id": rid, "decided_ms": int(ms or 0), "game_id": g} for rid, ms, g in result]
