"""Live matches in race rooms: the two racers of a room play a match whose rounds are their
races from then on, each recorded as a challenge that is done when its race ends.

A race on a numbered deal is no round (its deal could be known); a round is
recorded once however often the race's end runs, the match's row locked
while its score changes (server/storage/queries/challenges.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.challenges import outcome
from server.challenges.records import new_id, new_match, result_of, score, side
from server.challenges.views import ChallengeViews, match_view
from server.errors import NotChallengeable, NotFound
from server.games.live import LiveGame
from server.storage.models import Challenge, Match
from server.storage.queries import challenges as store
from shared import protocol as p

log = logging.getLogger(__name__)


class LiveMatches:
    """Starts a live match in a race room and records each race of it as a round."""

    def __init__(
        self,
        views: ChallengeViews,
        db_sessions: async_sessionmaker[AsyncSession],
        clock: Callable[[], int],
    ) -> None:
        self.views = views
        self.db_sessions = db_sessions
        self.clock = clock
        #: rounds of live matches recorded on this node
        self.done = 0

    async def start_match(self, player: int, code: str, best_of: int) -> p.MatchReply:
        """A live match between the two racers of room ``code``: its races from now on are
        its rounds. Asked again while it is being played, the same match."""
        async with self.db_sessions() as db:
            racers = await store.room_racers(db, code=code)
            if racers is None:
                raise NotFound(f"no room {code!r}")
            if player not in racers:
                raise NotChallengeable("only a racer of the room starts a match in it")
            if len(racers) != 2:
                raise NotChallengeable(
                    f"a match is between two racers: room {code} has {len(racers)}"
                )
            if await store.bots(db, racers):
                raise NotChallengeable("a match is between two people: a bot account plays none")
            other = next(pid for pid in racers if pid != player)
            found = await store.live_match(db, code=code, players={player, other})
        if found is None:
            now = self.clock()
            match_id = store.live_prefix(code) + new_id()[: 15 - len(code)]
            async with self.db_sessions() as db, db.begin():
                db.add(new_match(match_id, best_of, player, other, now))
            log.info("room %s: a best of %d match started by player %d", code, best_of, player)
            async with self.db_sessions() as db:
                found = await db.get(Match, match_id)
                names = await store.names_of(db, [player, other])
            assert found is not None
            reply = p.MatchReply(code, match_view(found, names))
            self.views.send(p.encode(reply), [other])
        else:
            async with self.db_sessions() as db:
                names = await store.names_of(db, [found.first_id, found.second_id or 0])
        return p.MatchReply(code, match_view(found, names))

    async def race_over(self, code: str, racing: list[LiveGame], held: set[str]) -> None:
        """A race ended in room ``code``: a round of the live match between its two racers,
        if one is being played there (a race on a numbered deal is no round: its deal could be
        known). Recorded once however often the race's end runs (its games are the round's)."""
        if len(racing) != 2 or any(live.keyed is None for live in racing):
            return
        by_player = {live.owner: live for live in racing}
        async with self.db_sessions() as db:
            match = await store.live_match(db, code=code, players=set(by_player))
            bots = await store.bots(db, by_player)
        if match is None or match.second_id is None:
            return
        first, second = by_player[match.first_id], by_player[match.second_id]
        mine, theirs = result_of(first, first.id in held), result_of(second, second.id in held)
        one, two = side(mine, match.first_id in bots), side(theirs, match.second_id in bots)
        won_by = outcome.winner(one, two)
        why = outcome.unranked(one, two, key_chosen=False)
        now = self.clock()
        round_id = new_id()
        try:
            async with self.db_sessions() as db, db.begin():
                locked = await store.match_for_update(db, match_id=match.id)
                db.add(
                    Challenge(
                        id=round_id,
                        match_id=match.id,
                        round=locked.rounds + 1,
                        state=p.CHALLENGE_DONE,
                        challenger_id=match.first_id,
                        challenger_game=first.id,
                        opponent_id=match.second_id,
                        opponent_game=second.id,
                        challenger_result=mine,
                        opponent_result=theirs,
                        result=won_by,
                        ranked=why is None,
                        unranked=why,
                        created_ms=now,
                        accepted_ms=now,
                        ended_ms=now,
                    )
                )
                await db.flush()
                score(locked, match.first_id, won_by, why is None, now)
        except IntegrityError:
            log.info("room %s: this race's round was recorded already", code)
            return
        self.done += 1
        log.info("room %s: match %s round recorded: %s", code, match.id, won_by)
        await self.views.push(round_id, [match.first_id, match.second_id])
