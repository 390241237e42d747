"""The rules of challenges: who may send a game, who may answer, the ghost, the result.

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
push goes to the players' connections on every node (``Cluster.fan_out``).
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.challenges import ghost, outcome
from server.challenges.outcome import Score, Side
from server.cluster.node import Cluster
from server.errors import NotChallengeable, NotFound
from server.games.live import LiveGame
from server.games.service import GameService
from server.games.store import GameStore
from server.net.connection import Connection
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


def new_id() -> str:
    """Ten URL-safe characters (60 random bits): a link nobody guesses."""
    return secrets.token_urlsafe(8)[:10]


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


def result_of(live: LiveGame, held: bool) -> dict[str, Any]:
    """How a game of a challenge ended, as stored (ChallengeSide's fields, and review)."""
    ended = live.ended_ms if live.ended_ms is not None else live.started_ms
    return {
        "game": live.id,
        "state": live.state,
        "elapsed_ms": live.elapsed_ms(ended),
        "moves": live.game.ply,
        "home": live.game.foundation_cards,
        "hints": live.hints,
        "undos": live.undos,
        "held": held,
    }


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
        cluster: Cluster,
        players: dict[int, set[Connection]],
        db_sessions: async_sessionmaker[AsyncSession],
        clock: Callable[[], int],
    ) -> None:
        self.games = games
        self.store = store
        self.review = review
        self.cluster = cluster
        #: this node's connections by player (pushes)
        self.players = players
        self.db_sessions = db_sessions
        self.clock = clock
        #: one request at a time per challenge on this node (two clicks of one player)
        self._locks: dict[str, asyncio.Lock] = {}
        #: challenges done on this node, and rounds opened (metrics)
        self.done = 0

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
            db.add(_new_match(match_id, best_of, player, None, now))
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
        return await self.view(player, challenge_id)

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
            loaded = await self._loaded(challenge_id)
            row, match, game = loaded.challenge, loaded.match, loaded.game
            if row.challenger_id == player:
                raise NotChallengeable("this is your own challenge: send its link to a friend")
            if row.opponent_id == player and row.opponent_game is not None:
                return await self.view(player, challenge_id), await self.store.current(
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
                    loaded = await self._loaded(challenge_id)
                    if loaded.challenge.opponent_id != player:
                        raise NotChallengeable("this challenge was answered by another player")
            live = await self._deal(player, game)
            async with self.db_sessions() as db, db.begin():
                mine = await store.set_game(db, challenge_id=row.id, game_id=live.id)
            if not mine:  # another node of this player dealt it first: that game is theirs
                await self._drop(live)
                loaded = await self._loaded(challenge_id)
                assert loaded.challenge.opponent_game is not None
                live = await self.store.current(loaded.challenge.opponent_game)
            log.info("challenge %s answered by player %d (game %s)", row.id, player, live.id)
            if took:  # the challenger is told who plays it now
                await self.push(row.id, [row.challenger_id])
            return await self.view(player, challenge_id), live

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
        loaded = await self._loaded(challenge_id)
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

    async def on_action(self, live: LiveGame, _action: str) -> None:
        """A game ended: the challenge it answers is done, or the rematch it sets opens."""
        if live.state not in ENDED or live.kind not in CHALLENGE_KINDS:
            return
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
            await self.push(row.id, [row.opponent_id] if row.opponent_id else [])

    async def _finish(self, row: Challenge, live: LiveGame) -> None:
        mine = result_of(live, await self._held(live, f"challenge {row.id}"))
        theirs = row.challenger_result
        assert theirs is not None and row.opponent_id is not None
        async with self.db_sessions() as db:
            bots = await store.bots(db, [row.challenger_id, row.opponent_id])
            game = await db.get(Game, row.challenger_game)
        assert game is not None
        challenger = _side(theirs, row.challenger_id in bots)
        opponent = _side(mine, row.opponent_id in bots)
        won_by = outcome.winner(challenger, opponent)
        why = outcome.unranked(challenger, opponent, key_chosen=game.key_chosen)
        now = self.clock()
        async with self.db_sessions() as db, db.begin():
            done = await store.finished(
                db, challenge_id=row.id, result=mine, outcome=won_by, unranked=why, now_ms=now
            )
            if done:
                match = await store.match_for_update(db, match_id=row.match_id)
                _score(match, row.challenger_id, won_by, why is None, now)
        if done:
            self.done += 1
            log.info("challenge %s done: %s (%s)", row.id, won_by, why or "ranked")
            await self.push(row.id, [row.challenger_id, row.opponent_id])

    # -- rematch ------------------------------------------------------------------------------

    async def rematch(self, player: int, challenge_id: str) -> tuple[p.ChallengeView, LiveGame]:
        """The next round (a new match once this one is over), on a new deal, played first by
        the asker; a round the other player sent already is answered instead."""
        loaded = await self._loaded(challenge_id)
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
                    db.add(_new_match(match_id, match.best_of, player, other, now))
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
        return await self.view(player, made.id), live

    async def _resume(self, player: int, pending: Challenge) -> tuple[p.ChallengeView, LiveGame]:
        if pending.challenger_id == player:
            return await self.view(player, pending.id), await self.store.current(
                pending.challenger_game
            )
        return await self.accept(player, pending.id)

    # -- live matches in race rooms ------------------------------------------------------------

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
                db.add(_new_match(match_id, best_of, player, other, now))
            log.info("room %s: a best of %d match started by player %d", code, best_of, player)
            async with self.db_sessions() as db:
                found = await db.get(Match, match_id)
                names = await store.names_of(db, [player, other])
            assert found is not None
            reply = p.MatchReply(code, _match_view(found, names))
            self._push_encoded(p.encode(reply), [other])
        else:
            async with self.db_sessions() as db:
                names = await store.names_of(db, [found.first_id, found.second_id or 0])
        return p.MatchReply(code, _match_view(found, names))

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
        one, two = _side(mine, match.first_id in bots), _side(theirs, match.second_id in bots)
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
                _score(locked, match.first_id, won_by, why is None, now)
        except IntegrityError:
            log.info("room %s: this race's round was recorded already", code)
            return
        self.done += 1
        log.info("room %s: match %s round recorded: %s", code, match.id, won_by)
        await self.push(round_id, [match.first_id, match.second_id])

    def _push_encoded(self, data: bytes, players: Sequence[int]) -> None:
        for pid in players:
            for connection in list(self.players.get(pid, ())):
                connection.send_encoded(data)
            self.cluster.fan_out(data, to=[pid])

    # -- views and pushes --------------------------------------------------------------------

    async def _loaded(self, challenge_id: str) -> store.Loaded:
        async with self.db_sessions() as db:
            loaded = await store.load(db, challenge_id=challenge_id)
        if loaded is None:
            raise NotFound(f"no challenge {challenge_id!r}")
        return loaded

    async def about(self, challenge_id: str) -> dict[str, Any] | None:
        """What anyone may know of a challenge without signing in (its landing page)."""
        if not challenge_id or len(challenge_id) > p.MAX_CHALLENGE_ID:
            return None
        try:
            seen = await self.view(None, challenge_id)
        except NotFound:
            return None
        return {
            "id": seen.id,
            "challenger": seen.challenger_name,
            "variant": seen.variant,
            "best_of": seen.match.best_of,
            "round": seen.round,
            "state": seen.state,
        }

    async def view(self, asker: int | None, challenge_id: str) -> p.ChallengeView:
        return view_of(asker, await self._loaded(challenge_id))

    async def listed(self, player: int, limit: int) -> tuple[p.ChallengeView, ...]:
        async with self.db_sessions() as db:
            rows = await store.listed(db, player_id=player, limit=limit)
            loaded = await store.complete(db, rows)
        return tuple(view_of(player, one) for one in loaded)

    async def push(self, challenge_id: str, players: Sequence[int]) -> None:
        """Each player's view of the challenge, to their connections on every node."""
        loaded = await self._loaded(challenge_id)
        for pid in players:
            self._push_encoded(p.encode(p.ChallengeReply(challenge=view_of(pid, loaded))), [pid])


def _new_match(match_id: str, best_of: int, first: int, second: int | None, now: int) -> Match:
    return Match(
        id=match_id,
        best_of=best_of,
        first_id=first,
        second_id=second,
        first_wins=0,
        second_wins=0,
        draws=0,
        rounds=0,
        state=p.MATCH_PLAYING,
        created_ms=now,
        updated_ms=now,
    )


def _side(result: dict[str, Any], bot: bool) -> Side:
    return Side(
        state=str(result["state"]),
        elapsed_ms=int(result["elapsed_ms"]),
        home=int(result["home"]),
        hints=int(result["hints"]),
        bot=bot,
        held=bool(result.get("held")),
    )


def _score(match: Match, challenger: int, won_by: str, ranked: bool, now: int) -> None:
    """The match's score after a round (a match of one round is over after it)."""
    first_won = (
        None if won_by == p.DRAW else (won_by == p.CHALLENGER) == (challenger == match.first_id)
    )
    score = Score(match.first_wins, match.second_wins, match.draws, match.rounds).after(
        first_won=first_won, ranked=ranked
    )
    match.first_wins, match.second_wins = score.first_wins, score.second_wins
    match.draws, match.rounds, match.updated_ms = score.draws, score.rounds, now
    decided = score.decided(match.best_of)
    if decided is not None or match.best_of == 1:
        match.state = p.MATCH_OVER
        match.winner_id = {1: match.first_id, 2: match.second_id}.get(decided or 0)


def _shown_side(
    result: dict[str, Any] | None, player: int | None, names: dict[int, str]
) -> p.ChallengeSide | None:
    if result is None or player is None:
        return None
    return p.ChallengeSide(
        player=player,
        name=names.get(player, "?"),
        game=str(result["game"]),
        state=str(result["state"]),
        elapsed_ms=int(result["elapsed_ms"]),
        moves=int(result["moves"]),
        home=int(result["home"]),
        hints=int(result["hints"]),
        undos=int(result["undos"]),
    )


def _match_view(match: Match, names: dict[int, str]) -> p.MatchView:
    return p.MatchView(
        id=match.id,
        best_of=match.best_of,
        first=match.first_id,
        first_name=names.get(match.first_id, "?"),
        second=match.second_id,
        second_name=None if match.second_id is None else names.get(match.second_id, "?"),
        first_wins=match.first_wins,
        second_wins=match.second_wins,
        draws=match.draws,
        rounds=match.rounds,
        state=match.state,
        winner=match.winner_id,
    )


def view_of(asker: int | None, loaded: store.Loaded) -> p.ChallengeView:
    """The challenge as ``asker`` may see it: the challenger's result to the challenger, both
    results to anyone once it is done; never the deal's key."""
    row, match, game, names = loaded.challenge, loaded.match, loaded.game, loaded.names
    done = row.state == p.CHALLENGE_DONE
    assert game.commitment is not None
    mine = row.challenger_game if asker == row.challenger_id else None
    if asker is not None and asker == row.opponent_id:
        mine = row.opponent_game
    return p.ChallengeView(
        id=row.id,
        kind=game.kind,
        variant=game.variant,
        options=dict(game.options),
        commitment=game.commitment,
        round=row.round,
        state=row.state,
        challenger=row.challenger_id,
        challenger_name=names.get(row.challenger_id, "?"),
        match=_match_view(match, names),
        opponent=row.opponent_id,
        opponent_name=None if row.opponent_id is None else names.get(row.opponent_id, "?"),
        game=mine,
        result=row.result if done else None,
        ranked=row.ranked if done else None,
        unranked=row.unranked if done else None,
        challenger_result=_shown_side(
            row.challenger_result if done or asker == row.challenger_id else None,
            row.challenger_id,
            names,
        ),
        opponent_result=_shown_side(row.opponent_result if done else None, row.opponent_id, names),
    )
