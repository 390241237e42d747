"""The close of a day: attempts still open when their day ended count as they stood at its end.

Each such game is replayed from the actions played before midnight, so an
action after it (a win, say) changes nothing; such a game ended then. The
replays run in a thread, never on the event loop (a long game replays for
a while, and the close can find many), and each closed attempt is checked by
review on the actions it counts.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.daily.deals import day_end_ms
from server.races.standings import rank_key
from server.storage.queries import daily as store
from server.storage.queries.games import replay_record
from shared.errors import InvalidOptions, InvalidRecord
from shared.game import RESIGNED, WON
from shared.games import replay

if TYPE_CHECKING:
    from server.review.service import ReviewService
    from shared.variants import Variants

log = logging.getLogger(__name__)


async def close_days(
    db_sessions: async_sessionmaker[AsyncSession],
    variants: Variants,
    review: ReviewService,
    today: str,
) -> list[tuple[str, str, str]]:
    """Close the open attempts of days before ``today``: their (game id, variant, date)."""
    async with db_sessions() as db:
        open_ones = await store.unfinished_before(db, date=today)
        played = {
            game.id: await store.actions_before(
                db, game_id=game.id, before_ms=day_end_ms(attempt.date)
            )
            for attempt, game in open_ones
        }
    closed = []
    for attempt, game in open_ones:
        end = day_end_ms(attempt.date)
        actions = played[game.id]
        resigned = game.state == RESIGNED and (game.ended_ms or end) < end
        record = replay_record(game, [action for action, _ in actions], resigned=resigned)
        try:
            # a prover of its own (the thread must not share the server's with the loop)
            stood = await asyncio.to_thread(replay, record, variants=variants)
        except (InvalidRecord, InvalidOptions):
            log.exception("daily attempt %s does not replay", game.id)
            continue
        if stood.state == WON and actions:
            ended = actions[-1][1]
        elif resigned and game.ended_ms is not None:
            ended = game.ended_ms
        else:
            ended = end
        what = f"daily {attempt.variant} {attempt.date}"
        held = await review.hold(
            game.id,
            attempt.player_id,
            what,
            actions,
            game.started_ms,
            record,
            fresh=True,  # a daily's deal: nobody sees it before their attempt
            won=stood.state == WON,
        )
        elapsed = max(0, ended - game.started_ms)
        moves, score = stood.ply, stood.score
        undos = sum(1 for action, _ in actions if action == "undo")
        home = stood.foundation_cards
        key = rank_key(stood.state, elapsed, moves, home)
        values = store.finished_values(
            stood.state, elapsed, moves, score, key, undos=undos, foundation=home, held=held
        )
        async with db_sessions() as db, db.begin():
            await store.finish(
                db,
                variant=attempt.variant,
                date=attempt.date,
                player_id=attempt.player_id,
                values=values,
            )
        closed.append((attempt.game_id, attempt.variant, attempt.date))
    return closed
