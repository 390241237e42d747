"""Results held for review: ``held [--all]``, ``clear ID``, ``confirm ID``.

A ranked result played faster than the review rule allows (docs/fair-play.md)
is held: left out of leaderboards, marked ``"review": "pending"`` in race
standings. ``held`` lists the pending ones, one line each starting with the
id to decide them by; ``clear`` lists a result again, ``confirm`` keeps it
out. ``--all`` lists decided results too, with their state.
"""

from __future__ import annotations

import argparse
from types import MappingProxyType

from sqlalchemy.ext.asyncio import AsyncSession

from server.commands.admin.common import Action, AdminError
from server.storage.queries import players
from server.storage.queries import reviews as store


def _every(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--all", action="store_true", help="decided results too")


def _review_id(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", type=int, help="the id 'held' lists first")


async def held(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    """``ID NAME WHAT GAME_ID MEDIAN`` per result (and its state with ``--all``)."""
    lines = []
    for review, name in await store.listed(db, every=args.all):
        line = f"{review.id}  {name}  {review.what}  {review.game_id}  {review.median_gap_ms} ms"
        lines.append(f"{line}  {review.state}" if args.all else line)
    return lines or ["no results held for review"]


async def clear(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    return await _decide(db, args.id, store.CLEARED)


async def confirm(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    return await _decide(db, args.id, store.CONFIRMED)


async def _decide(db: AsyncSession, review_id: int, state: str) -> list[str]:
    review = await store.decide(db, review_id=review_id, state=state, now_ms=players.now_ms())
    if review is None:
        raise AdminError(f"no held result {review_id} (see 'patience-club admin held --all')")
    await db.commit()
    after = "listed again" if state == store.CLEARED else "kept out of the rankings"
    return [f"result {review.id} ({review.what}, game {review.game_id}) {state}: {after}"]


ACTIONS = MappingProxyType({
    "held": Action("list the results held for review (ID NAME WHAT GAME MEDIAN)", _every, held),
    "clear": Action("clear a held result: it is listed again", _review_id, clear),
    "confirm": Action("confirm a held result: it stays out of the rankings", _review_id, confirm),
})  # fmt: skip
