"""``daily`` and ``leaderboard``: the day's deal and its ranking (the daily service), each
entry with its player's rating on the variant beside the name."""

from __future__ import annotations

from dataclasses import replace

from server.daily.service import DailyService
from server.games.opened import OpenGames
from server.games.service import GameService
from server.net.connection import Connection
from server.net.routing import Route
from server.players.stats import streak
from server.ratings.service import RatingService
from server.storage.queries import daily as daily_store
from shared import protocol as p
from shared.deals import commitment


class DailyHandlers:
    def __init__(
        self, daily: DailyService, games: GameService, ratings: RatingService, opened: OpenGames
    ) -> None:
        self.daily = daily
        self.games = games
        self.ratings = ratings
        #: the game each connection has open (an unranked clock pauses when nobody has)
        self.opened = opened

    def routes(self) -> tuple[Route, ...]:
        return (
            Route(p.DailyRequest, self.daily_game),
            Route(p.LeaderboardRequest, self.leaderboard),
        )

    async def daily_game(self, connection: Connection, message: p.DailyRequest) -> p.Reply:
        """The attempt (resumed, or dealt now with ``start``), a practice game, or, for a
        player who has not started today's attempt, the start step: nothing of the deal but
        its commitment, and no clock running (protocol.md, "Daily challenge")."""
        player = connection.welcomed_player
        service = self.daily
        if message.date is not None:
            live, date = (
                await service.archive(player.id, message.variant, message.date),
                (message.date),
            )
        elif message.practice:
            live, date = await service.practice(player.id, message.variant)
        elif message.start:
            live, date = await service.attempt(player.id, message.variant)
        else:
            found, date = await service.started(player.id, message.variant)
            if found is None:
                return await self._intro(player.id, message, date)
            live = found
        await live.settled()
        self.opened.open(connection.number, live)
        view = self.games.view(live)
        return p.GameReply(game=view, daily=p.DailyInfo(date), re=message.id)

    async def _intro(self, player: int, message: p.DailyRequest, date: str) -> p.Reply:
        deal = await self.daily.deal(message.variant, date)
        async with self.daily.db_sessions() as db:
            won = await daily_store.won_dates(db, player_id=player)
        return p.DailyIntro(
            variant=message.variant,
            date=date,
            daily_streak=streak(won, date),
            commitment=None if deal.key is None else commitment(message.variant, deal.key),
            re=message.id,
        )

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
