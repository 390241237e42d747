"""The ratings a server keeps: a rated race rated once, ratings shown beside names, the board.

A rated race is rated when it ends (every game ended, or its time limit), by
the node that ends it: the racers' ratings as they stood before it are read
and locked, the pairwise rule of :mod:`server.ratings.races` gives the new
ones, and the new ratings with one history row per racer are written in one
transaction. The history rows are keyed by each racer's game, so a race is
rated at most once: an end run again (a restart, another node taking the
room over) finds them and reads the changes back instead.

A racer whose result review holds is left out of the race's rating: the
race is rated between the others, and the held racer's rating does not move
(docs/ratings.md says why). A race rates only if at least two racers remain.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.ratings.glicko2 import PROVISIONAL_DEVIATION, Rating
from server.ratings.races import Finish, rate_race
from server.storage.models import RatingChange
from server.storage.queries import ratings as store
from server.storage.reader import BoardReader
from shared import protocol as p

log = logging.getLogger(__name__)

#: tries of a rating update that lost a race to another writer (a first rating of a player
#: inserted by two races at once)
TRIES = 3


def shown(rating: float, deviation: float, change: int | None = None) -> p.PlayerRating:
    """A rating as the clients show it: rounded, "?" while the deviation is 110 or more."""
    return p.PlayerRating(round(rating), deviation >= PROVISIONAL_DEVIATION, change)


@dataclass(frozen=True, slots=True)
class Racer:
    """A racer of a rated race as the rating reads them: their game and how it finished."""

    player: int
    game_id: str
    finish: Finish


class RatingService:
    """Rates rated races, shows ratings, answers the rating board; counts what it did."""

    def __init__(
        self,
        db_sessions: async_sessionmaker[AsyncSession],
        clock: Callable[[], int],
        reader: BoardReader | None = None,
    ) -> None:
        self.db_sessions = db_sessions
        self.clock = clock
        #: the board's reads in a thread of their own (the app's); None: through db_sessions
        self.reader = reader
        #: rated races this node rated, and the racers' ratings it changed (metrics)
        self.rated_races = 0
        self.updates = 0

    async def of(self, variant: str, players: Iterable[int]) -> dict[int, p.PlayerRating]:
        """The ratings of these players on ``variant``; a player without one is absent."""
        async with self.db_sessions() as db:
            stored = await store.current(db, variant=variant, players=players)
        return {pid: shown(r, d) for pid, (r, d, _, _) in stored.items()}

    async def rate(
        self, *, variant: str, race: str, racers: list[Racer]
    ) -> dict[int, p.PlayerRating]:
        """Rate a race once: each racer's new rating with its change (read back if the race
        was rated already). Fewer than two racers: nothing is rated, nothing returned."""
        if len(racers) < 2:
            return {}
        game_ids = [r.game_id for r in racers]
        for attempt in range(TRIES):
            try:
                return await self._rate_once(variant, race, racers, game_ids)
            except IntegrityError:
                if attempt == TRIES - 1:
                    raise
                log.info("race %s: rated by another writer meanwhile, reading again", race)
        raise AssertionError("unreachable")

    async def _rate_once(
        self, variant: str, race: str, racers: list[Racer], game_ids: list[str]
    ) -> dict[int, p.PlayerRating]:
        now = self.clock()
        async with self.db_sessions() as db, db.begin():
            done = await store.rated_games(db, game_ids=game_ids)
            if done:
                return _changes(done.values())
            stored = await store.current(
                db, variant=variant, players=[r.player for r in racers], lock=True
            )
            before = {
                r.player: Rating(*stored[r.player][:3]) if r.player in stored else Rating()
                for r in racers
            }
            # the pure rule keys racers by text
            after = rate_race(
                {str(pid): rating for pid, rating in before.items()},
                {str(r.player): r.finish for r in racers},
            )
            changes = [
                store.Change(
                    r.player,
                    r.game_id,
                    _stored(before[r.player], stored.get(r.player)),
                    _stored(after[str(r.player)], stored.get(r.player), played=1),
                )
                for r in racers
            ]
            await store.record(db, variant=variant, race=race, now_ms=now, changes=changes)
        self.rated_races += 1
        self.updates += len(changes)
        log.info("race %s rated: %d racers on %s", race, len(changes), variant)
        return {
            c.player: shown(c.after[0], c.after[1], round(c.after[0]) - round(c.before[0]))
            for c in changes
        }

    async def changes(self, game_ids: list[str]) -> dict[int, p.PlayerRating]:
        """The changes a rated race made, by player, as stored (a node that did not end it)."""
        async with self.db_sessions() as db:
            done = await store.rated_games(db, game_ids=game_ids)
        return _changes(done.values())

    async def board(self, player: int, message: p.RatingsRequest) -> p.RatingsReply:
        """The rating board of a variant and the asker's own place."""
        variant, limit = message.variant, message.limit
        if self.reader is not None:
            top, mine = await self.reader.read(
                lambda conn: store.read_board(conn, variant=variant, limit=limit, me=player)
            )
        else:
            async with self.db_sessions() as db:
                top, mine = await store.board(db, variant=variant, limit=limit, me=player)
        return p.RatingsReply(
            variant=message.variant,
            entries=tuple(_entry(rank, place) for rank, place in top),
            me=None if mine is None else _entry(*mine),
            re=message.id,
        )


def _stored(rating: Rating, old: store.Stored | None, played: int = 0) -> store.Stored:
    games = 0 if old is None else old[3]
    return (rating.rating, rating.deviation, rating.volatility, games + played)


def _changes(rows: Iterable[RatingChange]) -> dict[int, p.PlayerRating]:
    return {
        row.player_id: shown(
            row.rating_after,
            row.deviation_after,
            round(row.rating_after) - round(row.rating_before),
        )
        for row in rows
    }


def _entry(rank: int, place: store.Place) -> p.RatingEntry:
    player, name, rating, deviation, games = place
    return p.RatingEntry(rank, player, name, shown(rating, deviation), games)
