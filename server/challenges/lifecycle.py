"""The life of a challenge: who may send a game, who may answer, the ghost, the result,
the rematch.

A challenge is made from the sender's own finished solo or daily-practice
game on a keyed deal. Its first answerer plays a new game on the same deal
(the key theirs to see only by the usual rule: at its end for a solo game,
at the end of the day for a daily's deal); nothing of the challenger's game
but the ghost's counts reaches them before their own game ends. When it
ends (this service hears every acknowledged action, on whichever node it was
played), the challenge is done and the match scored in one transaction, and
both players are told.

Every challenge is a round of a match; a rematch is the next round (a new
match once the last is over), on a deal the server draws, which the asker
plays first: when their game ends, the round opens to the other player, who
is told. A daily practice challenge is answered only after the answerer's
own ranked attempt of that day has ended (practice comes after the attempt,
docs/fair-play.md).

The database is the arbiter between nodes: each change of a challenge's
state is a compare-and-set (server/storage/queries/challenges.py), and a
push goes to the players' connections on every node (views.py). The live
matches of race rooms, whose rounds are races, are matches.py's.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.challenges import ghost, outcome
from server.challenges.matches import LiveMatches
from server.challenges.records import new_id, new_match, result_of, score, side
from server.challenges.views import ChallengeViews
from server.errors import NotChallengeable
from server.games.live import LiveGame
from server.games.service import GameService
from server.games.store import GameStore
from server.review.service import ReviewService
from server.storage.models import Challenge, Game, Match
from server.storage.queries import challenges as store
from server.storage.queries.reviews import pending_games, received_actions
from shared import protocol as p
from shared.games import new_game
from shared.states import ENDED
from shared.variants import Variants

log = logging.getLogger(__name__)

#: kinds of game that can be sent as a challenge, and that answer one
CHALLENGE_KINDS = frozenset({p.SOLO, p.PRACTICE})


def homes(
    variants: Variants,
    variant: str,
    options: dict[str, bool | int],
    key: bytes,
    actions: Sequence[str],
) -> tuple[int, list[int]]:
    """Cards home at the deal and after each recorded action (replayed; run in a thread)."""
    game = new_game(variant, key=key, options=options, variants=variants)
    at_deal = game.foundation_cards
    after = []
    for action in actions:
        game.play(action)
        after.append(game.foundation_cards)
    return at_deal, after


def day_of(reveal_ms: int) -> str:
    """The UTC date of a daily whose key shows at ``reveal_ms`` (the end of its day)."""
    moment = datetime.datetime.fromtimestamp((reveal_ms - 1) / 1000, tz=datetime.UTC)
    return moment.date().isoformat()


class ChallengeService:
    """Sends, answers and scores challenges; tells both players of each result."""

    def __init__(
        self,
        games: GameService,
        store: GameStore,
        review: ReviewService,
        views: ChallengeViews,
        matches: LiveMatches,
        db_sessions: async_sessionmaker[AsyncSession],
        clock: Callable[[], int],
    ) -> None:
        self.games = games
        self.store = store
        self.review = review
        self.views = views
        #: the live matches of race rooms, whose rounds count among the challenges done
        self.matches = matches
        self.db_sessions = db_sessions
        self.clock = clock
        #: one request at a time per challenge on this node (two clicks of one player)
        self._locks: dict[str, asyncio.Lock] = {}
        #: challenges answered and done on this node
        self.answered = 0

    @property
    def done(self) -> int:
        """Challenges done on this node, live matches' rounds included (metrics)."""
        return self.answered + self.matches.done

    def _lock(self, challenge_id: str) -> asyncio.Lock:
        if len(self._locks) > 10_000:
            self._locks = {k: v for k, v in self._locks.items() if v.locked()}
        return self._locks.setdefault(challenge_id, asyncio.Lock())

    # -- sending -------------------------------------------------------------------------------

    async def create(self, player: int, game_id: str, best_of: int) -> p.ChallengeView:
        """The player's finished game sent as the first round of a match of ``best_of``."""
        live = await self.store.get(game_id)
        if live.owner != player:
            raise NotChallengeable(f"game {game_id!r} is another player's: send your own")
        live = await self.store.current(game_id)
        await live.settled()
        if live.kind not in CHALLENGE_KINDS:
            raise NotChallengeable(
                f"a {live.kind} game cannot be sent: a solo or daily practice game can"
            )
        if live.keyed is None:
            raise NotChallengeable(
                "a numbered deal cannot be sent: its friend could look it up; play a secret deal"
            )
        if live.state not in ENDED:
            raise NotChallengeable("finish the game first (win it or resign): then send it")
        async with self.db_sessions() as db:
            row = await db.get(Game, live.id)
            is_bot = bool(await store.bots(db, [player]))
        assert row is not None
        if best_of > 1 and row.key_chosen:
            raise NotChallengeable(
                "a match is played on deals the server drew: this game's key was chosen"
            )
        if best_of > 1 and is_bot:
            raise NotChallengeable("a match is between two people: a bot account plays none")
        challenge_id, match_id = new_id(), new_id()
        points, result = await self._opening(live, challenge_id)
        now = self.clock()
        async with self.db_sessions() as db, db.begin():
            db.add(new_match(match_id, best_of, player, None, now))
            await db.flush()
            db.add(
                Challenge(
                    id=challenge_id,
                    match_id=match_id,
                    round=1,
                    state=p.CHALLENGE_OPEN,
                    challenger_id=player,
                    challenger_game=live.id,
                    ghost=points,
                    challenger_result=result,
                    created_ms=now,
                )
            )
        log.info("challenge %s sent by player %d (game %s)", challenge_id, player, live.id)
        return await self.views.view(player, challenge_id)

    async def _opening(
        self, live: LiveGame, challenge_id: str
    ) -> tuple[list[list[int]], dict[str, Any]]:
        """The ghost and the challenger's result of a game that ended."""
        keyed = live.keyed
        assert keyed is not None
        async with self.db_sessions() as db:
            actions = await received_actions(db, game_id=live.id)
        at_deal, after = await asyncio.to_thread(
            homes,
            self.store.variants,
            live.game.variant,
            dict(live.game.options),
            keyed.key,
            [action for action, _ in actions],
        )
        ended = live.ended_ms if live.ended_ms is not None else self.clock()
        points = ghost.timeline(
            started_ms=live.started_ms,
            ended_ms=ended,
            elapsed_ms=live.elapsed_ms(ended),
            played_ms=[ms for _, ms in actions],
            homes=after,
            home_at_deal=at_deal,
        )
        return points, result_of(live, await self._held(live, f"challenge {challenge_id}"))

    async def _held(self, live: LiveGame, what: str) -> bool:
        """Whether review holds this game's result: judged once (a game sent to several
        friends is not held again for each), then read as stored."""
        async with self.db_sessions() as db:
            if await pending_games(db, game_ids=[live.id]):
                return True
        return await self.review.check(live, what)

    # -- answering -----------------------------------------------------------------------------

    async def accept(self, player: int, challenge_id: str) -> tuple[p.ChallengeView, LiveGame]:
        """The player's game in the challenge: dealt now, or theirs already (resumed)."""
        async with self._lock(challenge_id):
            loaded = await self.views.loaded(challenge_id)
            row, match, game = loaded.challenge, loaded.match, loaded.game
            if row.challenger_id == player:
                raise NotChallengeable("this is your own challenge: send its link to a friend")
            if row.opponent_id == player and row.opponent_game is not None:
                return await self.views.view(player, challenge_id), await self.store.current(
                    row.opponent_game
                )
            if row.state == p.CHALLENGE_SETTING:
                name = loaded.names.get(row.challenger_id, "?")
                raise NotChallengeable(f"{name} is still playing this round's deal")
            if row.opponent_id not in (None, player) or (
                match.second_id is not None and player not in (match.first_id, match.second_id)
            ):
                raise NotChallengeable("this challenge is another player's to answer")
            took = False
            if row.state == p.CHALLENGE_OPEN:
                await self._may_answer(player, match, game)
                async with self.db_sessions() as db, db.begin():
                    took = await store.claim(
                        db, challenge_id=row.id, player_id=player, now_ms=self.clock()
                    )
                    if took:
                        await store.second_player(db, match_id=match.id, player_id=player)
                if not took:
                    loaded = await self.views.loaded(challenge_id)
                    if loaded.challenge.opponent_id != player:
                        raise NotChallengeable("this challenge was answered by another player")
            live = await self._deal(player, game)
            async with self.db_sessions() as db, db.begin():
                mine = await store.set_game(db, challenge_id=row.id, game_id=live.id)
            if not mine:  # another node of this player dealt it first: that game is theirs
                await self._drop(live)
                loaded = await self.views.loaded(challenge_id)
                assert loaded.challenge.opponent_game is not None
                live = await self.store.current(loaded.challenge.opponent_game)
            log.info("challenge %s answered by player %d (game %s)", row.id, player, live.id)
            if took:  # the challenger is told who plays it now
                await self.views.push(row.id, [row.challenger_id])
            return await self.views.view(player, challenge_id), live

    async def _may_answer(self, player: int, match: Match, game: Game) -> None:
        async with self.db_sessions() as db:
            is_bot = bool(await store.bots(db, [player]))
            if match.best_of > 1 and is_bot:
                raise NotChallengeable("a match is between two people: a bot account plays none")
            reveal_ms = game.reveal_ms
            if game.kind == p.PRACTICE and reveal_ms is not None and self.clock() < reveal_ms:
                date = day_of(reveal_ms)
                ended = await store.daily_attempt_ended(
                    db, variant=game.variant, date=date, player_id=player
                )
                if not ended:
                    raise NotChallengeable(
                        f"this challenge is on the daily {game.variant} deal of {date}: "
                        "play your daily attempt first, then answer it"
                    )

    async def _deal(self, player: int, game: Game) -> LiveGame:
        """A game on the challenge's deal; its key shows by the rule of its kind."""
        assert game.deal_key is not None
        return await self.games.start(
            player,
            game.variant,
            game.options,
            key=bytes.fromhex(game.deal_key),
            kind=game.kind,
            reveal_ms=game.reveal_ms,
        )

    async def _drop(self, live: LiveGame) -> None:
        """A game dealt for a challenge that another request answered first: never played."""
        await live.settled()
        self.store.forget(live.id)
        async with self.db_sessions() as db, db.begin():
            await db.execute(delete(Game).where(Game.id == live.id))

    # -- the ghost ----------------------------------------------------------------------------

    async def ghost(self, player: int, challenge_id: str) -> p.GhostReply:
        """Where the challenger was at the elapsed time of the player's game in it."""
        loaded = await self.views.loaded(challenge_id)
        row = loaded.challenge
        if row.opponent_id != player or row.opponent_game is None:
            raise NotChallengeable("the ghost is shown to whoever plays the challenge, in play")
        live = await self.store.current(row.opponent_game)
        elapsed = live.elapsed_ms(self.clock())
        assert row.ghost is not None and row.challenger_result is not None
        moves, home, state = ghost.at(
            row.ghost, elapsed, final_state=str(row.challenger_result["state"])
        )
        return p.GhostReply(row.id, elapsed, moves, home, state)

    # -- the end of a game --------------------------------------------------------------------

    def on_action(self, live: LiveGame, _action: str) -> Awaitable[None] | None:
        """A game ended: the challenge it answers is done, or the rematch it sets opens
        (nothing to await, and no coroutine made, for any other action)."""
        if live.state not in ENDED or live.kind not in CHALLENGE_KINDS:
            return None
        return self._ended(live)

    async def _ended(self, live: LiveGame) -> None:
        async with self.db_sessions() as db:
            waiting = await store.of_game(db, game_id=live.id)
        for row in waiting:
            try:
                if row.challenger_game == live.id:
                    await self._open_round(row, live)
                else:
                    await self._finish(row, live)
            except Exception:
                log.exception("challenge %s: its end could not be stored", row.id)

    async def _open_round(self, row: Challenge, live: LiveGame) -> None:
        points, result = await self._opening(live, row.id)
        async with self.db_sessions() as db, db.begin():
            opened = await store.opened(db, challenge_id=row.id, ghost=points, result=result)
        if opened:
            await self.views.push(row.id, [row.opponent_id] if row.opponent_id else [])

    async def _finish(self, row: Challenge, live: LiveGame) -> None:
        mine = result_of(live, await self._held(live, f"challenge {row.id}"))
        theirs = row.challenger_result
        assert theirs is not None and row.opponent_id is not None
        async with self.db_sessions() as db:
            bots = await store.bots(db, [row.challenger_id, row.opponent_id])
            game = await db.get(Game, row.challenger_game)
        assert game is not None
        challenger = side(theirs, row.challenger_id in bots)
        opponent = side(mine, row.opponent_id in bots)
        won_by = outcome.winner(challenger, opponent)
        why = outcome.unranked(challenger, opponent, key_chosen=game.key_chosen)
        now = self.clock()
        async with self.db_sessions() as db, db.begin():
            done = await store.finished(
                db, challenge_id=row.id, result=mine, outcome=won_by, unranked=why, now_ms=now
            )
            if done:
                match = await store.match_for_update(db, match_id=row.match_id)
                score(match, row.challenger_id, won_by, why is None, now)
        if done:
            self.answered += 1
            log.info("challenge %s done: %s (%s)", row.id, won_by, why or "ranked")
            await self.views.push(row.id, [row.challenger_id, row.opponent_id])

    # -- rematch ------------------------------------------------------------------------------

    async def rematch(self, player: int, challenge_id: str) -> tuple[p.ChallengeView, LiveGame]:
        """The next round (a new match once this one is over), on a new deal, played first by
        the asker; a round the other player sent already is answered instead."""
        loaded = await self.views.loaded(challenge_id)
        row, match, game = loaded.challenge, loaded.match, loaded.game
        if player not in (row.challenger_id, row.opponent_id):
            raise NotChallengeable("only its two players answer a challenge with a rematch")
        if row.state != p.CHALLENGE_DONE:
            raise NotChallengeable("this challenge is not done yet: a rematch comes after it")
        if game.kind not in CHALLENGE_KINDS:
            raise NotChallengeable("a live match's next round is the room's next race")
        other = row.opponent_id if player == row.challenger_id else row.challenger_id
        assert other is not None
        match_id, round_no = match.id, match.rounds + 1
        if match.state == p.MATCH_OVER:
            async with self.db_sessions() as db:
                later = await store.later_match(db, after=match, players=(player, other))
            if later is None:
                match_id, round_no = new_id(), 1
            else:
                match_id, round_no = later.id, later.rounds + 1
        async with self.db_sessions() as db:
            pending = await store.pending_round(db, match_id=match_id)
        if pending is not None:
            return await self._resume(player, pending)
        live = await self.games.start(player, game.variant, game.options)
        now = self.clock()
        try:
            async with self.db_sessions() as db, db.begin():
                if round_no == 1:
                    db.add(new_match(match_id, match.best_of, player, other, now))
                    await db.flush()
                db.add(
                    Challenge(
                        id=new_id(),
                        match_id=match_id,
                        round=round_no,
                        state=p.CHALLENGE_SETTING,
                        challenger_id=player,
                        challenger_game=live.id,
                        opponent_id=other,
                        created_ms=now,
                    )
                )
        except IntegrityError:
            # the other player asked for the same round at the same moment: theirs stands
            await self._drop(live)
            async with self.db_sessions() as db:
                pending = await store.pending_round(db, match_id=match_id)
            if pending is None:
                raise
            return await self._resume(player, pending)
        async with self.db_sessions() as db:
            made = await store.pending_round(db, match_id=match_id)
        assert made is not None
        log.info("challenge %s: rematch %s by player %d", row.id, made.id, player)
        return await self.views.view(player, made.id), live

    async def _resume(self, player: int, pending: Challenge) -> tuple[p.ChallengeView, LiveGame]:
        if pending.challenger_id == player:
            return await self.views.view(player, pending.id), await self.store.current(
                pending.challenger_game
            )
        return await self.accept(player, pending.id)
