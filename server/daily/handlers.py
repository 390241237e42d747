"""``daily`` and ``leaderboard``: the day's deal and its ranking (the daily service), each
entry with its player's rating on the variant beside the name."""

from __future__ import annotations

from dataclasses import replace

from server.daily.service import DailyService
from server.games.service import GameService
from server.net.connection import Connection
from server.net.routing import Route
from server.ratings.service import RatingService
from shared import protocol as p


class DailyHandlers:
    def __init__(self, daily: DailyService, games: GameService, ratings: RatingService) -> None:
        self.daily = daily
        self.games = games
        self.ratings = ratings

    def routes(self) -> tuple[Route, ...]:
        return (
            Route(p.DailyRequest, self.daily_game),
            Route(p.LeaderboardRequest, self.leaderboard),
        )

    async def daily_game(self, connection: Connection, message: p.DailyRequest) -> p.Reply:
        player = connection.welcomed_player
        service = self.daily
        start = service.practice if message.practice else service.attempt
        live, date = await start(player.id, message.variant)
        await live.settled()
        view = self.games.view(live)
        return p.GameReply(game=view, daily=p.DailyInfo(date), re=message.id)

    async def leaderboard(self, connection: Connection, message: p.LeaderboardRequest) -> p.Reply:
        date, entries, me = await self.daily.leaderboard(
            connection.welcomed_player.id, message.variant, message.date, message.limit
        )
        shown = [*entries, *([] if me is None else [me])]
        ratings = await self.ratings.of(message.variant, {s.player for s in shown})
        return p.LeaderboardReply(
            variant=message.variant,
            date=date,
            entries=tuple(replace(s, rating=ratings.get(s.player)) for s in entries),
            me=None if me is None else replace(me, rating=ratings.get(me.player)),
            re=message.id,
        )
