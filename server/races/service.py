"""Race rooms: members, host, watchers, the requests on them, and what members are told.

A room's whole state lives in memory and is saved at every change
(:mod:`server.storage.queries.rooms`), so a restarted server reads it back:
waiting rooms keep their members, a countdown starts its race, a race goes
on with the same games and the same clock, and players who reconnect
continue. The race itself (countdown, games, progress, end) is the
:class:`~server.races.race.RaceRunner`'s; who is connected is
:class:`~server.races.presence.Presence`'s; the rooms themselves, their
views, saves and pushes, are the :class:`~server.races.rooms.RoomTable`'s,
which all of these share (each is handed the parts it uses). Race games
are ordinary games of the :class:`~server.games.service.GameService`. Rooms
nobody is connected to are closed after a day without a change.

With several nodes (:mod:`server.cluster`) a room is run by one node at a
time, its owner, which holds the room's lease: this service holds only the
rooms its node owns (:attr:`RoomService.rooms`, the table's), and
:class:`~server.races.owners.Owners` sends each request on a room to the
node that runs it. Pushes go to this node's connections and, through Redis,
to every other node's.

Members are racers or spectators. Racers join while the room waits or is
over; spectators at any time, never race, and may watch any racer; a racer
may watch others only once their own game of the current race has ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.config import Config
from server.errors import (
    Busy,
    NoRacers,
    NotFound,
    NotHost,
    NotInRoom,
    RaceInProgress,
    RoomFull,
    TooManyRooms,
    UnknownRoom,
)
from server.games.fields import checked_options
from server.net.connection import PlayerInfo
from server.net.routing import error_of
from server.races import rated
from server.races.guards import RoomGuards
from server.races.presence import Presence
from server.races.race import RaceRunner
from server.races.rooms import RoomTable
from server.races.state import COUNTDOWN, OVER, RACING, WAITING, Member, RoomState, new_code
from server.races.transitions import Change, after, allows
from server.storage.models import Room
from server.storage.queries import rooms as store
from shared import protocol as p
from shared.states import ENDED

if TYPE_CHECKING:
    from server.cluster.node import Cluster
    from server.deals.pool import DealPool
    from server.games.service import GameService
    from server.ratings.service import RatingService
    from server.storage.queries.rooms import LoadedMember

log = logging.getLogger(__name__)

#: a room nobody is connected to, not racing, is closed after this long without a change
IDLE_ROOM_MS = 24 * 3_600_000
#: how often (by the server's clock) idle rooms are looked for
SWEEP_MS = 60_000


class RoomService(RoomGuards):
    """The rules of rooms: who may join, leave, start a race and watch; idle rooms closed."""

    def __init__(
        self,
        table: RoomTable,
        race: RaceRunner,
        presence: Presence,
        games: GameService,
        deals: DealPool,
        ratings: RatingService,
        cluster: Cluster,
        db_sessions: async_sessionmaker[AsyncSession],
        config: Config,
        clock: Callable[[], int],
    ) -> None:
        self.table = table
        self.ratings = ratings
        #: the rooms this node owns (all of them, on a node alone): the table's
        self.rooms = table.rooms
        self.race = race
        self.presence = presence
        self.games = games
        #: the winnable deals of rooms that ask for them
        self.deals = deals
        self.cluster = cluster
        self.db_sessions = db_sessions
        self.config = config
        self.clock = clock
        self._ticker: asyncio.Task[None] | None = None
        self._checks: set[asyncio.Task[None]] = set()

    # -- life cycle --------------------------------------------------------------------

    async def start(self) -> None:
        self.presence.start()
        if not self.cluster.enabled:  # (with several nodes, the owners claim them)
            async with self.db_sessions() as db, db.begin():
                loaded = await store.load_all(db)
                await store.nobody_connected(db)  # nobody is, yet
            for row, members in loaded:
                self.adopt(row, members)
            log.info("%d rooms loaded", len(self.rooms))
        self._ticker = asyncio.create_task(self._tick(), name="races")

    def adopt(self, row: Room, members: list[LoadedMember]) -> RoomState:
        """Run a room as stored: its countdown goes on, a race whose end was missed ends."""
        room = RoomState.from_row(row, [Member(*member) for member in members])
        self.rooms[room.code] = room
        self.race.track(room)
        if self.cluster.enabled:
            # Members of a node that died count as gone from now, not from this node's start.
            now = self.clock()
            for member in room.members:
                if member.id not in self.cluster.online:
                    self.presence.gone.setdefault(member.id, now)
        if room.state == COUNTDOWN:
            self.race.schedule(room)
        elif room.state == RACING:
            if self.cluster.enabled:
                self._later(self.race.check_over(room), f"check-{room.code}")
            # a delayed room's watchers see the race from its start, not from this node's
            self._later(self.race.rebuild_boards(room), f"boards-{room.code}")
        self._later(rated.read_ratings(self.ratings, room, room.members), f"rated-{room.code}")
        return room

    def _later(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self._checks.add(task)
        task.add_done_callback(self._checks.discard)

    async def stop(self) -> None:
        countdowns = [x.countdown for x in self.rooms.values()]
        tasks = [t for t in [self._ticker, *self._checks, *countdowns] if t]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.presence.stop()

    # -- requests ----------------------------------------------------------------------------

    def get(self, code: str) -> RoomState:
        room = self.rooms.get(code)
        if room is None:
            raise NotFound(f"no room {code!r}")
        return room

    def _member_of(self, code: str, player_id: int) -> tuple[RoomState, Member]:
        room = self.get(code)
        member = room.member(player_id)
        if member is None:
            raise NotInRoom(f"you are not in room {code!r}")
        return room, member

    async def _check_room_count(self, player: int) -> None:
        if len(await self.table.all_rooms_of(player)) >= p.MAX_ROOMS_PER_PLAYER:
            raise TooManyRooms(
                f"you are in {p.MAX_ROOMS_PER_PLAYER} rooms already; leave one first",
            )

    async def create(self, player: PlayerInfo, message: p.CreateRoom) -> RoomState:
        rated.check_create(player, message)
        await self._check_room_count(player.id)
        options = checked_options(self.games.variants, message.variant, message.options)
        code = await self.new_code()
        now = self.clock()
        limit = message.time_limit_s or self.config.race_time_limit_s
        room = RoomState(
            code=code,
            variant=message.variant,
            options=options,
            host=player.id,
            max_players=message.max_players,
            time_limit_s=limit,
            seed=message.seed,
            created_ms=now,
            hints=message.hints,
            rated=message.rated,
            boards=p.HIDDEN if message.rated else message.boards,
            difficulty=(message.difficulty or p.MEDIUM) if message.winnable else None,
            members=[Member(player.id, player.name, now, 0, p.RACER, player.bot)],
        )
        await rated.read_ratings(self.ratings, room, room.members)
        self.rooms[code] = room
        await self.table.save(room)
        log.info("room %s created by player %d (%s)", code, player.id, room.variant)
        return room

    async def join(self, player: PlayerInfo, code: str, role: str) -> RoomState:
        room = self.rooms.get(code)
        if room is None:
            # Counted as the client's mistake: room codes cannot be tried by the thousand.
            raise UnknownRoom(f"no room {code!r}")
        if room.member(player.id) is not None:
            return room  # already in: the room in every state, the member's role unchanged
        if role == p.SPECTATOR:
            if room.count(p.SPECTATOR) >= p.MAX_SPECTATORS:
                raise RoomFull(f"room {code!r} has {p.MAX_SPECTATORS} spectators")
        else:
            if room.state in (COUNTDOWN, RACING):
                raise RaceInProgress(
                    f"room {code!r} is racing; join after the race, or as a spectator now",
                )
            if room.count(p.RACER) >= room.max_players:
                raise RoomFull(f"room {code!r} has {room.max_players} racers")
            rated.check_join(room, player, role)
        await self._check_room_count(player.id)
        seq = max((m.seq for m in room.members), default=-1) + 1
        member = Member(player.id, player.name, self.clock(), seq, role, player.bot)
        await rated.read_ratings(self.ratings, room, [member])
        room.members.append(member)
        await self.table.save(room)
        self.table.push_room(room, skip=player.id)
        return room

    async def leave(self, player: int, code: str) -> None:
        room, _ = self._member_of(code, player)
        game_id = room.racers.get(player)
        if room.state == RACING and game_id is not None:
            live = await self.race.game(game_id)
            if live.state not in ENDED:
                await self.games.resign_now(live)  # leaving a race gives it up
        room.members = [m for m in room.members if m.id != player]
        # nobody watches the leaver, and the leaver watches nothing here
        self.table.drop_watches(code, players=[player], targets=[player])
        if not room.members:
            await self._close(room)
            log.info("room %s closed: its last player left", code)
            return
        if room.host == player:
            room.host = room.members[0].id  # the next member in joining order
        await self.table.save(room)
        self.table.push_room(room)

    async def start_race(self, player: int, code: str, seed: int | None) -> None:
        room, _ = self._member_of(code, player)
        if room.host != player:
            raise NotHost(f"only the host of room {code!r} starts its race")
        if not allows(room.state, Change.START):
            raise RaceInProgress(f"room {code!r} is already racing: wait for race_over")
        racers = self.race.connected_racers(room)
        if not racers:
            raise NoRacers(
                f"nobody in room {code!r} is connected to race (spectators do not race)",
            )
        rated.check_start(room, racers, seed)
        if seed is None and room.race == 0:
            seed = room.seed  # the first race deals the seed the room was created with
        key = None if seed is not None else await self._race_key(room)
        if not allows(room.state, Change.START):  # started while the deal was drawn
            raise RaceInProgress(f"room {code!r} is already racing: wait for race_over")
        countdown = self.config.race_countdown_ms
        room.state = after(room.state, Change.START)
        room.race += 1
        room.race_seed = seed
        room.race_key = key
        room.race_start_ms = self.clock() + countdown
        room.standings = None
        await self.table.save(room)
        self.table.push_room(room, skip=player)
        self.table.push(room, p.RaceCountdown(code=code, start_in_ms=countdown))
        self.race.schedule(room)

    async def _race_key(self, room: RoomState) -> str:
        """A fresh secret key for a race (hex): one the solver has won, of the room's
        difficulty, where the room asks for winnable deals (from the deal pool, which never
        waits for the solver unless the pool is empty: then ``busy`` past
        ``deal_pool_wait_s``, the race not started)."""
        if room.difficulty is None:
            return secrets.token_hex(32)
        key = await self.deals.draw(room.variant, room.options, room.difficulty)
        return key.hex()

    async def watch_check(
        self, player: int, code: str, target: int
    ) -> tuple[str, p.GameView | None]:
        """The game ``player`` may watch of ``target`` (the watch rule), on the room's owner,
        and the board to show first: None for the board as it stands, or a board of a while
        ago (a room with delayed boards); refused where the room hides boards."""
        room, me = self._member_of(code, player)
        game_id = room.racers.get(target)
        if game_id is None or room.member(target) is None:
            raise NotFound(f"player {target} has no game in room {code!r}")
        if me.racer and target != player and not await self.race.done_racing(room, player):
            raise RaceInProgress(
                "you may watch the others once your own game of this race has ended",
            )
        await self.race.boards_ready(room)
        return game_id, self.race.boards.shown(room, player, target)

    async def new_code(self) -> str:
        """A code no room has; with several nodes, its lease taken here first."""
        cluster = self.cluster
        while True:
            code = new_code()
            if code in self.rooms:
                continue
            if not cluster.enabled:
                return code
            try:
                if not await cluster.leases.acquire(code):
                    continue
            except (RedisError, OSError):
                raise Busy(
                    "rooms cannot be created right now; try again in a few seconds"
                ) from None
            async with self.db_sessions() as db:
                if await store.load(db, code=code) is None:
                    return code
            await cluster.leases.release([code])

    async def banned(self, player_id: int) -> None:
        """A banned player leaves every room they are in."""
        for room in self.table.rooms_of(player_id):
            log.info("room %s: player %d banned, treated as having left", room.code, player_id)
            await self.leave(player_id, room.code)
        self.presence.gone.pop(player_id, None)

    # -- time ---------------------------------------------------------------------------------

    async def _tick(self) -> None:
        """Ends races past their time limit (and races whose end a crash interrupted), resigns
        racers gone too long, and closes idle rooms."""
        every = self.config.race_tick_ms / 1000
        swept = self.clock()
        while True:
            await asyncio.sleep(every)
            if self.clock() - swept >= SWEEP_MS:
                swept = self.clock()
                try:
                    await self._close_idle()
                    self.presence.forget_gone()
                except Exception:
                    log.exception("closing idle rooms failed")
            for room in list(self.rooms.values()):
                if room.state != RACING:
                    continue
                try:
                    self.race.boards.due(room)
                    await self.presence.resign_gone(room)
                    await self.race.check_time(room)
                except Exception:
                    log.exception("room %s: time check failed", room.code)

    async def _close_idle(self) -> None:
        """Rooms left behind (no member connected, no race, no change for a day) are closed."""
        now = self.clock()
        online = self.cluster.online
        for room in list(self.rooms.values()):
            if room.state not in (WAITING, OVER) or now - room.touched_ms < IDLE_ROOM_MS:
                continue
            if any(m.id in online for m in room.members):
                continue
            await self._close(room)
            log.info("room %s closed: idle since %d", room.code, room.touched_ms)

    async def forget_racers_here(self, code: str, gone: set[int]) -> None:
        """Drop ``gone`` from the room's last race (bots removed)."""
        room = self.get(code)
        if gone.isdisjoint(room.racers):
            return
        self.race.forget(room)
        room.racers = {pid: game for pid, game in room.racers.items() if pid not in gone}
        self.race.track(room)
        self.table.drop_watches(code, targets=sorted(gone))
        await self.table.save(room)

    async def _close(self, room: RoomState) -> None:
        if room.countdown is not None:
            room.countdown.cancel()
        self.rooms.pop(room.code, None)
        self.race.forget(room)
        self.table.watchers.drop_room(room.code)
        async with self.db_sessions() as db, db.begin():
            removed = await store.remove(db, code=room.code, fence=room.fence)
        if not removed:  # another node took it meanwhile: its room, not this node's to close
            log.warning("room %s: not closed, another node holds it now", room.code)
            return
        if self.cluster.enabled:
            await self.cluster.leases.release([room.code])

    # -- the operators' requests (patience-club admin) ------------------------------------

    async def end_race_here(self, code: str) -> tuple[bool, str]:
        """End the room's race as its time limit would (``admin end-race``); what was done."""
        room = self.rooms.get(code)
        if room is None:
            return False, f"no room {code!r}"
        if room.state == COUNTDOWN:
            return False, f"room {code} is counting down to its race: end it once it has started"
        if room.state != RACING:
            return False, f"room {code} is {room.state}, not racing: there is no race to end"
        await self.race.end_now(room)
        return True, (
            f"race {room.race} of room {code} ended: race_over with "
            f"{len(room.standings or ())} standings sent to {len(room.members)} members"
        )

    async def close_here(self, code: str) -> tuple[bool, str]:
        """Close the room (``admin close-room``)."""
        """A race running ends first, as its time limit would; every member is told (an
        ``error`` push, ``not_in_room``) and removed."""
        room = self.rooms.get(code)
        if room is None:
            return False, f"no room {code!r}"
        ended = ""
        if room.state == RACING:
            await self.race.end_now(room)
            ended = f" (its race {room.race} ended first)"
        members = len(room.members)
        told = error_of(NotInRoom(f"room {code} was closed by the server's operator"), None)
        self.table.push(room, told)
        await self._close(room)
        log.info("room %s closed by the operator", code)
        told_whom = f"its {members} members" if members != 1 else "its member"
        return True, f"room {code} closed{ended}: {told_whom} told and removed"
