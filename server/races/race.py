"""The race of a room: countdown, one game per racer on one deal, progress, the end, the time limit.

A race starts when its countdown ends, with one game for each racer
connected then, all on the room's deal of that race (a numbered deal, or a
fresh keyed one whose key shows once the race is over), started together
(one group commit, one start time); the racers who are not connected sit it
out, with no game and no standing. Every stored action of a racer's game
comes back through :meth:`RaceRunner.on_action` (a game listener): the other
members get ``progress``, watchers the board, and when every game has ended
(or the time limit passed, ``timeout``) the race is over: the keys shown,
each result checked by review, the standings pushed.

With several nodes the room's owner runs the race, but a racer plays on the
node they are connected to: the actions of a race game played elsewhere
come to the owner as :class:`~server.cluster.news.RaceActed` news
(:meth:`RaceRunner.remote_action`),
and whatever the owner reads of the race's games to decide (ended? the
standings, the timeouts) it reads as stored, never from its own cache,
which another node's moves have left behind.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.cluster import news
from server.cluster.news import RaceActed
from server.config import Config
from server.games.live import LiveGame
from server.races.boards import Boards, History, history
from server.races.rooms import RoomTable
from server.races.standings import ranked
from server.races.state import RACING, Member, RoomState
from server.races.transitions import Change, after, allows
from server.ratings.races import Finish
from server.ratings.service import Racer
from server.storage.queries import games as game_store
from server.storage.queries import reviews as review_store
from shared import protocol as p
from shared.game import WON
from shared.states import ENDED, TIMEOUT

if TYPE_CHECKING:
    from server.cluster.node import Cluster
    from server.games.service import GameService
    from server.games.store import GameStore
    from server.ratings.service import RatingService
    from server.review.service import ReviewService

log = logging.getLogger(__name__)

#: the ratings a race's end made (or read back), by player
RatingsNow = Mapping[int, p.PlayerRating]


#: told that a race ended: its room's code, its games, the games whose result is held
RaceOverListener = Callable[[str, list[LiveGame], set[str]], Awaitable[None]]


class RaceRunner:
    """Runs the races of the rooms of ``table``; knows which game belongs to which room."""

    def __init__(
        self,
        table: RoomTable,
        games: GameService,
        store: GameStore,
        review: ReviewService,
        ratings: RatingService,
        cluster: Cluster,
        db_sessions: async_sessionmaker[AsyncSession],
        config: Config,
        clock: Callable[[], int],
    ) -> None:
        self.table = table
        self.games = games
        self.store = store
        self.review = review
        self.ratings = ratings
        self.cluster = cluster
        self.db_sessions = db_sessions
        self.config = config
        self.clock = clock
        #: race game id -> room code, to route game actions to their room
        self.by_game: dict[str, str] = {}
        #: races started since the server started (a metric)
        self.started = 0
        #: race games of rooms owned elsewhere -> whether their room allows hints (as told)
        self.hinted: dict[str, bool] = {}
        #: the board rule: what watchers are sent of the racers' boards
        self.boards = Boards(table, clock, config.board_delay_s)
        #: room code -> the rebuild of its delayed boards, under way (see rebuild_boards)
        self._rebuilding: dict[str, asyncio.Future[None]] = {}
        #: told once a race has ended: (room code, its games, those whose result review
        #: holds); a live match's round (server/challenges/) is scored here
        self.over_listeners: list[RaceOverListener] = []

    def track(self, room: RoomState) -> None:
        """Route the actions of the room's current race games to it."""
        for game_id in room.racers.values():
            self.by_game[game_id] = room.code

    def forget(self, room: RoomState) -> None:
        for game_id in room.racers.values():
            self.by_game.pop(game_id, None)

    async def rebuild_boards(self, room: RoomState) -> None:
        """A room taken over (or loaded at a restart) mid-race whose boards are delayed:
        each racer's boards of the race rebuilt from the stored moves (server/races/boards.py),
        so that its watchers see the whole board as it was ``board_delay_s`` ago."""
        if self.boards.rule(room) != p.DELAYED:
            return
        done = asyncio.get_running_loop().create_future()
        self._rebuilding[room.code] = done
        try:
            histories: dict[int, History] = {}
            for player, game_id in list(room.racers.items()):
                live = await self.store.get(game_id)
                async with self.db_sessions() as db:
                    played = await review_store.received_actions(db, game_id=game_id)
                histories[player] = await asyncio.to_thread(history, live, played)
            self.boards.rebuilt(room, histories)
        except Exception:
            # (its watchers then see the boards played from now on, as before the rebuild)
            log.exception("room %s: the delayed boards could not be rebuilt", room.code)
        finally:
            done.set_result(None)
            if self._rebuilding.get(room.code) is done:
                del self._rebuilding[room.code]

    async def boards_ready(self, room: RoomState) -> None:
        """Wait for the room's delayed boards to be rebuilt, if they are being rebuilt."""
        rebuilding = self._rebuilding.get(room.code)
        if rebuilding is not None:
            await asyncio.shield(rebuilding)

    def connected_racers(self, room: RoomState) -> list[Member]:
        return [m for m in room.members if m.racer and m.id in self.cluster.online]

    async def game(self, game_id: str) -> LiveGame:
        """A race game as it stands: with several nodes, as stored (another node may have
        played it since this one cached it)."""
        return await self.store.current(game_id)

    async def states(self, game_ids: list[str]) -> dict[str, str]:
        """The state of each game: from memory on a node alone, else as stored."""
        if not self.cluster.enabled:
            return {gid: (await self.store.get(gid)).state for gid in game_ids}
        async with self.db_sessions() as db:
            return await game_store.states(db, game_ids=game_ids)

    async def done_racing(self, room: RoomState, player: int) -> bool:
        """Whether ``player`` has no game still open in the room's current race."""
        game_id = room.racers.get(player)
        if room.state != RACING or game_id is None:
            return True
        return (await self.states([game_id])).get(game_id) in ENDED

    def schedule(self, room: RoomState) -> None:
        """Start the room's race when its countdown ends (``race_start_ms``)."""
        delay = max(0, (room.race_start_ms or 0) - self.clock())
        delay = min(delay, self.config.race_countdown_ms)
        room.countdown = asyncio.create_task(self._count_down(room, delay), name=room.code)

    async def _count_down(self, room: RoomState, delay_ms: int) -> None:
        await asyncio.sleep(delay_ms / 1000)
        room.countdown = None
        try:
            await self._begin(room)
        except Exception:
            log.exception("room %s: the race could not start", room.code)
            if allows(room.state, Change.CALL_OFF):  # (once dealt, its time limit ends it)
                await self._call_off(room)

    async def _call_off(self, room: RoomState) -> None:
        """The race did not start: the room waits again, as before its ``start_race``."""
        room.state = after(room.state, Change.CALL_OFF)
        room.race -= 1
        room.race_seed = room.race_key = None
        await self.table.save(room)
        self.table.push_room(room)

    async def _begin(self, room: RoomState) -> None:
        if not allows(room.state, Change.BEGIN):
            return
        racers = self.connected_racers(room)
        if not racers:
            log.info("room %s: race %d called off, no racer connected", room.code, room.race)
            await self._call_off(room)
            return
        games = self.games
        key = None if room.race_key is None else bytes.fromhex(room.race_key)
        # Started together: one group commit, one start time for everyone.
        started = await asyncio.gather(
            *(
                games.start(
                    m.id,
                    room.variant,
                    room.options,
                    seed=room.race_seed,
                    key=key,
                    kind=p.RACE,
                    guarded=False,
                )
                for m in racers
            )
        )
        self.forget(room)
        room.racers = {m.id: live.id for m, live in zip(racers, started, strict=True)}
        self.track(room)
        room.state = after(room.state, Change.BEGIN)
        room.race_start_ms = started[0].started_ms
        self.started += 1
        # racers watch others only once their own game has ended
        self.table.drop_watches(room.code, players=list(room.racers))
        self.cluster.tell(news.RaceGames(tuple(room.racers.values()), room.hints))
        await self.table.save(room)
        views = {m.id: games.view(live) for m, live in zip(racers, started, strict=True)}
        self.boards.started(room, views)
        for m in racers:
            self.table.push(room, p.RaceStarted(code=room.code, game=views[m.id]), to=[m.id])
        others = [m.id for m in room.members if m.id not in room.racers]
        self.table.push(room, p.RaceStarted(code=room.code), to=others)
        self.table.push_room(room)
        log.info(
            "room %s: race %d started on %s, %d racers",
            room.code,
            room.race,
            "a keyed deal" if key is not None else f"seed {room.race_seed}",
            len(racers),
        )

    def on_action(self, live: LiveGame, action: str) -> Awaitable[None] | None:
        """After every stored action of any game: a race's pushes and its end (nothing to
        await, and no coroutine made, for a game that is in no race)."""
        code = self.by_game.get(live.id)
        room = self.table.rooms.get(code) if code is not None else None
        cluster = self.cluster
        if room is None:
            if live.kind == p.RACE and cluster.enabled:  # a room another node runs
                cluster.tell(self._action(live, with_view=True))
            return None
        if room.racers.get(live.owner) != live.id:
            return None
        watched = (
            cluster.enabled
            or room.boards == p.DELAYED  # kept for later watchers
            or bool(self.table.watchers.of(room.code, live.owner))
        )
        return self._acted(room, self._action(live, with_view=watched))

    def _action(self, live: LiveGame, *, with_view: bool) -> RaceActed:
        game = live.game
        view = self.games.view(live) if with_view else None
        return RaceActed(
            live.id, live.owner, game.ply, game.foundation_cards, game.score, live.state, view
        )

    async def remote_action(self, action: RaceActed) -> None:
        """An action of a race game played on another node: if this node runs its room."""
        code = self.by_game.get(action.game)
        room = self.table.rooms.get(code) if code is not None else None
        if room is None or room.racers.get(action.player) != action.game:
            return
        await self._acted(room, action)

    def race_games(self, told: news.RaceGames) -> None:
        """Another node started a race: whether its games may have hints."""
        if len(self.hinted) > 100_000:
            self.hinted.clear()  # old races' games: their hints no longer matter
        for game_id in told.games:
            self.hinted[game_id] = told.hints

    async def _acted(self, room: RoomState, action: RaceActed) -> None:
        if action.view is not None:
            self.boards.acted(room, action.player, action.view)
        if room.state != RACING:
            return
        progress = p.Progress(
            code=room.code,
            player=action.player,
            ply=action.ply,
            foundation=action.foundation,
            score=action.score,
            state=action.state,
        )
        self.table.push(room, progress, skip=action.player)
        if action.state in ENDED:
            await self.check_over(room)

    async def _racing(self, room: RoomState) -> list[LiveGame]:
        return [await self.game(gid) for gid in room.racers.values()]

    async def check_over(self, room: RoomState) -> None:
        """End the race if every game of it has ended."""
        if room.state != RACING:
            return
        states = await self.states(list(room.racers.values()))
        if all(state in ENDED for state in states.values()):
            await self._finish(room, await self._racing(room))

    async def _finish(self, room: RoomState, racing: list[LiveGame], timeout: bool = False) -> None:
        if not allows(room.state, Change.FINISH):
            return
        room.state = after(room.state, Change.FINISH)  # first: the timeouts below come back
        # through on_action, and find the race over
        self.boards.over(room)  # no delayed board comes after the final ones (below)
        if timeout:
            racing = [
                live if live.state in ENDED else await self.games.end(live, TIMEOUT)
                for live in racing
            ]
        await self.games.reveal(racing)
        if room.boards != p.LIVE or room.rated:  # the final boards, to whoever watches them
            for live in racing:
                board = p.GameReply(game=self.games.view(live), code=room.code, player=live.owner)
                self.table.push_board(room.code, live.owner, board)
        # other nodes' copies of these games are behind now (timeouts, keys shown)
        self.cluster.tell(news.GamesForgotten(tuple(live.id for live in racing)))
        now = self.clock()
        names = {m.id: m.name for m in room.members}
        what = f"race {room.code}"
        entries = []
        held_games = set()
        for live in racing:
            held = await self.review.check(live, what, since_ms=room.race_start_ms)
            if held:
                held_games.add(live.id)
            entry = {
                "player": live.owner,
                "name": names.get(live.owner, "?"),
                "state": live.state,
                "elapsed_ms": live.elapsed_ms(now),
                "moves": live.game.ply,
                "score": live.game.score,
                "undos": live.undos,
                "foundation": live.game.foundation_cards,
            }
            entries.append(entry | ({"review": p.PENDING} if held else {}))
        rated = await self._rate(room, [x for x in racing if x.id not in held_games], now)
        room.standings = self._standings(room, entries, rated)
        room.over_ms = now
        await self.table.save(room)
        self.table.push(room, p.RaceOver(code=room.code, standings=room.standings))
        self.table.push_room(room)
        log.info("room %s: race %d over", room.code, room.race)
        for listener in self.over_listeners:
            try:
                await listener(room.code, racing, held_games)
            except Exception:
                log.exception("room %s: a listener of the race's end failed", room.code)

    async def end_now(self, room: RoomState) -> None:
        """End the race at once, as its time limit would (an operator's ``end-race``)."""
        await self._finish(room, await self._racing(room), timeout=True)

    async def stored_standings(self, room: RoomState) -> tuple[p.Standing, ...]:
        """The standings of the room's last race, from its stored games (a node that took the
        room over after the race ended has none in memory)."""
        racing = await self._racing(room)
        async with self.db_sessions() as db:
            held = await review_store.pending_games(db, game_ids=[live.id for live in racing])
        names = {m.id: m.name for m in room.members}
        entries = []
        for live in racing:
            entry = {
                "player": live.owner,
                "name": names.get(live.owner, "?"),
                "state": live.state,
                "elapsed_ms": live.elapsed_ms(live.ended_ms or self.clock()),
                "moves": live.game.ply,
                "score": live.game.score,
                "undos": live.undos,
                "foundation": live.game.foundation_cards,
            }
            entries.append(entry | ({"review": p.PENDING} if live.id in held else {}))
        rated = await self.ratings.changes([x.id for x in racing]) if room.rated else {}
        room.standings = self._standings(room, entries, rated)
        return room.standings

    async def _rate(self, room: RoomState, racing: list[LiveGame], now: int) -> RatingsNow:
        """Rate the race of a rated room (once: its end may run again) between the racers
        whose results stand; their new ratings with the change. A failure leaves the race
        unrated (logged): it never keeps the race from ending."""
        if not room.rated:
            return {}
        racers = [
            Racer(x.owner, x.id, Finish(x.state == WON, x.elapsed_ms(now), x.game.foundation_cards))
            for x in racing
        ]
        try:
            rated = await self.ratings.rate(
                variant=room.variant, race=f"{room.code}/{room.race}", racers=racers
            )
        except Exception:
            log.exception("room %s: race %d could not be rated", room.code, room.race)
            return {}
        for member in room.members:
            if member.id in rated:
                member.rating = replace(rated[member.id], change=None)
        return rated

    @staticmethod
    def _standings(
        room: RoomState, entries: list[dict[str, Any]], rated: RatingsNow
    ) -> tuple[p.Standing, ...]:
        """The standings, each with the racer's rating: with the race's change when it
        rated them, else as it stood."""
        shown = {m.id: m.rating for m in room.members}
        return tuple(
            p.Standing(**entry, rating=rated.get(entry["player"], shown.get(entry["player"])))
            for entry in ranked(entries)
        )

    async def check_time(self, room: RoomState) -> None:
        """End a race past its time limit, or (on a node alone) one whose end a crash
        interrupted; with several nodes that is checked when a node takes the room over."""
        deadline = (room.race_start_ms or 0) + room.time_limit_s * 1000
        if self.clock() >= deadline:
            await self._finish(room, await self._racing(room), timeout=True)
        elif not self.cluster.enabled:
            await self.check_over(room)
