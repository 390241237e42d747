"""A player's profile, read from the rows the other features keep; hidden ones shown by name.

Nothing here is kept: every profile is read when asked, from indexed rows of
the one player (their ratings and rating history, games, daily attempts and
season points). The recent games are only those whose deal is public now,
so that a replay opened from a profile tells nobody a deal still in play
(docs/fair-play.md).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.errors import NotFound
from server.profiles.streaks import best_streak, current_streak
from server.ratings.service import shown
from server.seasons.service import SeasonService
from server.storage.queries import profiles as store
from server.storage.queries import seasons as seasons_store
from server.storage.queries import stats as stats_store
from shared import protocol as p


class ProfileService:
    def __init__(
        self,
        db_sessions: async_sessionmaker[AsyncSession],
        seasons: SeasonService,
        clock: Callable[[], int],
    ) -> None:
        self.db_sessions = db_sessions
        #: the season's days closed before a profile shows their places
        self.seasons = seasons
        #: today's date as the dailies count it (UTC)
        self.today = seasons.daily.today
        self.clock = clock

    async def profile(self, asker: int, message: p.ProfileRequest) -> p.ProfileReply:
        await self.seasons.close_days()  # past days' places are final (once a day)
        async with self.db_sessions() as db:
            player = await store.by_name(db, name=message.name)
            if player is None:
                raise NotFound(f"no player called {message.name!r}")
            info = p.PlayerInfo(player.id, player.name, player.bot)
            mine = player.id == asker
            if player.profile_hidden and not mine:
                return p.ProfileReply(player=info, hidden=True, mine=False, re=message.id)
            ratings = []
            for variant, rating, deviation, games in await store.ratings(db, player_id=player.id):
                points = await store.history(
                    db, player_id=player.id, variant=variant, limit=p.MAX_HISTORY
                )
                ratings.append(
                    p.ProfileRating(
                        variant,
                        shown(rating, deviation),
                        games,
                        tuple(p.RatingPoint(at, round(r), round(d)) for at, r, d in points),
                    )
                )
            played = await stats_store.per_variant(db, player_id=player.id)
            times = await store.winning_times(db, player_id=player.id)
            won_days = await store.won_dailies(db, player_id=player.id)
            days = await seasons_store.player_days(db, player_id=player.id, limit=p.MAX_PLACES)
            recent = await store.recent(
                db, player_id=player.id, now_ms=self.clock(), limit=p.MAX_RECENT
            )
            arenas = await store.arenas(
                db, player_id=player.id, now_ms=self.clock(), limit=p.MAX_ARENAS
            )
        today = self.today()
        by_variant: dict[str, list[str]] = {}
        for variant, date in won_days:
            by_variant.setdefault(variant, []).append(date)
        every = [date for _, date in won_days]
        variants = tuple(
            p.ProfileVariant(
                variant=row["variant"],
                played=row["played"],
                won=row["won"],
                best_ms=row["best_ms"],
                median_ms=_median(times.get(row["variant"], [])),
                streak=current_streak(by_variant.get(row["variant"], []), today),
                best_streak=best_streak(by_variant.get(row["variant"], [])),
            )
            for row in played
        )
        return p.ProfileReply(
            player=info,
            hidden=player.profile_hidden,
            mine=mine,
            ratings=tuple(ratings),
            variants=variants,
            streak=current_streak(every, today),
            best_streak=best_streak(every),
            dailies=tuple(p.DailyPlace(*row) for row in days),
            arenas=tuple(p.ProfileArena(*row) for row in arenas),
            recent=tuple(p.RecentGame(*row) for row in recent),
            re=message.id,
        )

    async def settings(self, player: int, message: p.ProfileSettings) -> p.Ok:
        async with self.db_sessions() as db, db.begin():
            await store.set_hidden(db, player_id=player, hidden=message.hidden)
        return p.Ok(re=message.id)


def _median(times: list[int]) -> int | None:
    return None if not times else round(statistics.median(times))
