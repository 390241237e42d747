"""A day's season points made what the stored daily results say, as differences: on one
transaction's session, so that the server (an attempt ending, a day closing) and the
operator's command (a review decided, ``patience-club admin clear``) share them.

The rule is one: an open day's listed attempts earn their points for playing
out and winning; a closed day's listed attempts earn those and their final
places' points. Whatever changed who is listed (a result held, cleared or
confirmed) is brought to the rule by scoring the attempt again (an open day)
or the whole day (a closed day: a cleared result takes a place, the places
below it move down). So the boards always equal a plain recomputation from
the stored results (tests/server/seasons/test_recompute.py checks it with
Hypothesis).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.seasons.points import attempt_points, boards_of, places
from server.storage.models import DailyAttempt, SeasonClosed
from server.storage.queries import seasons as store


async def score_attempt(db: AsyncSession, *, variant: str, date: str, player_id: int) -> None:
    """One attempt of an open day: its points for playing out and winning, or none when it
    is not listed (not ended, held for review, its player a bot or banned)."""
    won = await store.listed_attempt(db, variant=variant, date=date, player_id=player_id)
    await store.set_points(
        db,
        variant=variant,
        date=date,
        player_id=player_id,
        points=None if won is None else attempt_points(won, None),
        won=bool(won),
        place=None,
        boards=boards_of(variant, date),
    )


async def score_day(db: AsyncSession, *, variant: str, date: str) -> int:
    """A closed day: every listed attempt's final place and points, changed by the
    difference; an attempt no longer listed loses what it earned. Returns how many were
    placed."""
    order = await store.day_order(db, variant=variant, date=date)
    placed = places([(pid, key) for pid, key, _ in order])
    stored = await store.day_points(db, variant=variant, date=date)
    boards = boards_of(variant, date)
    only_place: list[tuple[int, int]] = []
    for pid, _, won in order:
        place = placed[pid]
        points = attempt_points(won, place)
        before = stored.pop(pid, None)
        if before is not None and before[:2] == (points, won):
            if before[2] != place:
                only_place.append((pid, place))
            continue
        await store.set_points(
            db, variant=variant, date=date, player_id=pid, points=points, won=won,
            place=place, boards=boards,
        )  # fmt: skip
    for pid in stored:  # scored once, no longer listed (a review held it)
        await store.set_points(
            db, variant=variant, date=date, player_id=pid, points=None, won=False,
            place=None, boards=boards,
        )  # fmt: skip
    await store.set_places(db, variant=variant, date=date, placed=only_place)
    return len(placed)


async def is_closed(db: AsyncSession, *, variant: str, date: str) -> bool:
    return await db.get(SeasonClosed, (variant, date)) is not None


async def rescore(db: AsyncSession, *, variant: str, date: str, player_id: int) -> None:
    """An attempt's listing changed (it ended, a review of it was decided): its points, or,
    its day closed, the whole day's. The day's row is share-locked first, and its close locks
    it exclusively: an attempt ending, or a review decided, as its day closes on another node
    is scored after the close, as part of the closed day (the close's reads see it when it
    came first)."""
    await store.lock_day(db, variant=variant, date=date, exclusive=False)
    if await is_closed(db, variant=variant, date=date):
        await score_day(db, variant=variant, date=date)
    else:
        await score_attempt(db, variant=variant, date=date, player_id=player_id)


async def review_decided(db: AsyncSession, *, game_id: str) -> None:
    """A held daily result was cleared or confirmed: its day's points as the rule gives them
    now (nothing to do for a game that is not a daily attempt)."""
    row = (
        await db.execute(
            select(DailyAttempt.variant, DailyAttempt.date, DailyAttempt.player_id).where(
                DailyAttempt.game_id == game_id
            )
        )
    ).first()
    if row is None:
        return
    await rescore(db, variant=str(row[0]), date=str(row[1]), player_id=int(row[2]))
