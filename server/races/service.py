"""Race rooms: members, host, watchers, the requests on them, and what members are told.

A room's whole state lives in memory and is saved at every change
(:mod:`server.storage.queries.rooms`), so a restarted server reads it back:
waiting rooms keep their members, a countdown starts its race, a race goes
on with the same games and the same clock, and players who reconnect
continue. The race itself (countdown, games, progress, end) is the
:class:`~server.races.race.RaceRunner`'s; its games are ordinary games of
the :class:`~server.games.service.GameService`. Rooms nobody is connected
to are closed after a day without a change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from server.games.fields import checked_options
from server.games.live import LiveGame
from server.games.ply import ENDED
from server.races.race import RaceRunner
from server.races.state import (
    COUNTDOWN,
    OVER,
    RACING,
    WAITING,
    Member,
    RoomState,
    new_code,
)
from server.storage.queries import rooms as store
from shared import protocol as p
from shared.errors import ProtocolError

if TYPE_CHECKING:
    from server.app import App
    from server.net.connection import Connection

log = logging.getLogger(__name__)

#: a room nobody is connected to, not racing, is closed after this long without a change
IDLE_ROOM_MS = 24 * 3_600_000
#: how often (by the server's clock) idle rooms are looked for
SWEEP_MS = 60_000

#: refuses a race seed when it is the daily deal: (variant, options, seed) -> refuse?
SeedGuard = Callable[[str, dict[str, bool | int], int], bool]


class RoomService:
    def __init__(self, app: App) -> None:
        self.app = app
        self.rooms: dict[str, RoomState] = {}
        self.race = RaceRunner(app, self)
        self.seed_guards: list[SeedGuard] = []
        self._ticker: asyncio.Task[None] | None = None

    # -- life cycle --------------------------------------------------------------------

    async def start(self) -> None:
        async with self.app.db_sessions() as db:
            loaded = await store.load_all(db)
        for row, members in loaded:
            room = RoomState.from_row(row, members)
            self.rooms[room.code] = room
            self.race.track(room)
            if room.state == COUNTDOWN:
                self.race.schedule(room)
        self._ticker = asyncio.create_task(self._tick(), name="races")
        log.info("%d rooms loaded", len(self.rooms))

    async def stop(self) -> None:
        tasks = [t for t in [self._ticker, *(x.countdown for x in self.rooms.values())] if t]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -- views and pushes -----------------------------------------------------------------

    def view(self, room: RoomState) -> p.RoomView:
        """RoomView of protocol.md, with who is connected now."""
        return room.view(self.app.players)

    def push(
        self,
        room: RoomState,
        message: p.Reply,
        *,
        to: Iterable[int] | None = None,
        skip: int | None = None,
    ) -> None:
        targets = [m.id for m in room.members] if to is None else list(to)
        for pid in targets:
            if pid == skip:
                continue
            for connection in list(self.app.players.get(pid, ())):
                connection.send(message)

    def push_room(self, room: RoomState, *, skip: int | None = None) -> None:
        self.push(room, p.RoomReply(room=self.view(room)), skip=skip)

    def rooms_of(self, player_id: int) -> list[RoomState]:
        return [room for room in self.rooms.values() if room.member(player_id) is not None]

    def connection_changed(self, player_id: int) -> None:
        """A player connected or left: the rooms they are in show it."""
        for room in self.rooms_of(player_id):
            self.push_room(room)

    def connection_welcomed(self, connection: Connection) -> None:
        """A player's first connection: the rooms they are in show them connected."""
        player = connection.welcomed_player
        if len(self.app.players.get(player.id, ())) == 1:
            self.connection_changed(player.id)

    def connection_closed(self, connection: Connection) -> None:
        """A connection ended: it watches nothing; at a player's last, their rooms show it."""
        for room in self.rooms.values():
            for watching in room.watchers.values():
                watching.discard(connection)
        player = connection.player
        if player is not None and player.id not in self.app.players:
            self.connection_changed(player.id)

    # -- requests ----------------------------------------------------------------------------

    def get(self, code: str) -> RoomState:
        room = self.rooms.get(code)
        if room is None:
            raise ProtocolError(p.NOT_FOUND, f"no room {code!r}")
        return room

    def _member_of(self, code: str, player_id: int) -> RoomState:
        room = self.get(code)
        if room.member(player_id) is None:
            raise ProtocolError(p.NOT_IN_ROOM, f"you are not in room {code!r}")
        return room

    def _check_room_count(self, player: int) -> None:
        if len(self.rooms_of(player)) >= p.MAX_ROOMS_PER_PLAYER:
            raise ProtocolError(
                p.TOO_MANY_ROOMS,
                f"you are in {p.MAX_ROOMS_PER_PLAYER} rooms already; leave one first",
            )

    async def create(self, player: int, name: str, message: p.CreateRoom) -> RoomState:
        self._check_room_count(player)
        options = checked_options(self.app.games.variants, message.variant, message.options)
        if message.seed is not None:
            self._check_seed(message.variant, options, message.seed)
        code = new_code()
        while code in self.rooms:
            code = new_code()
        now = self.app.clock()
        limit = message.time_limit_s or self.app.config.race_time_limit_s
        room = RoomState(
            code=code,
            variant=message.variant,
            options=options,
            host=player,
            max_players=message.max_players,
            time_limit_s=limit,
            seed=message.seed,
            created_ms=now,
            members=[Member(player, name, now, 0)],
        )
        self.rooms[code] = room
        await self.save(room)
        log.info("room %s created by player %d (%s)", code, player, room.variant)
        return room

    async def join(self, player: int, name: str, code: str) -> RoomState:
        room = self.get(code)
        if room.member(player) is not None:
            return room  # already in: a reconnecting player asks for the room again
        if room.state in (COUNTDOWN, RACING):
            raise ProtocolError(p.RACE_IN_PROGRESS, f"room {code!r} is racing; join after it")
        if len(room.members) >= room.max_players:
            raise ProtocolError(p.ROOM_FULL, f"room {code!r} has {room.max_players} players")
        self._check_room_count(player)
        seq = max((m.seq for m in room.members), default=-1) + 1
        room.members.append(Member(player, name, self.app.clock(), seq))
        await self.save(room)
        self.push_room(room, skip=player)
        return room

    async def leave(self, player: int, code: str) -> None:
        room = self._member_of(code, player)
        game_id = room.racers.get(player)
        if room.state == RACING and game_id is not None:
            live = await self.app.games.get(game_id)
            if live.state not in ENDED:
                await self.app.games.resign(live, live.game.ply)  # leaving a race gives it up
        room.members = [m for m in room.members if m.id != player]
        room.watchers.pop(player, None)
        for watching in room.watchers.values():
            watching.difference_update(self.app.players.get(player, ()))
        if not room.members:
            await self._close(room)
            log.info("room %s closed: its last player left", code)
            return
        if room.host == player:
            room.host = room.members[0].id  # the next member in joining order
        await self.save(room)
        self.push_room(room)

    async def start_race(self, player: int, code: str, seed: int | None) -> None:
        room = self._member_of(code, player)
        if room.host != player:
            raise ProtocolError(p.NOT_HOST, f"only the host of room {code!r} starts its race")
        if room.state in (COUNTDOWN, RACING):
            raise ProtocolError(p.RACE_IN_PROGRESS, f"room {code!r} is already racing")
        if seed is None and room.race == 0:
            seed = room.seed  # the first race deals the seed the room was created with
        if seed is None:
            seed = self._random_seed(room)
        self._check_seed(room.variant, room.options, seed)
        countdown = self.app.config.race_countdown_ms
        room.state = COUNTDOWN
        room.race += 1
        room.race_seed = seed
        room.race_start_ms = self.app.clock() + countdown
        room.standings = None
        await self.save(room)
        self.push_room(room, skip=player)
        self.push(room, p.RaceCountdown(code=code, start_in_ms=countdown))
        self.race.schedule(room)

    async def watch(self, connection: Connection, player: int, code: str, target: int) -> LiveGame:
        room = self._member_of(code, player)
        game_id = room.racers.get(target)
        if game_id is None or room.member(target) is None:
            raise ProtocolError(p.NOT_FOUND, f"player {target} has no game in room {code!r}")
        for watching in room.watchers.values():
            watching.discard(connection)  # one board at a time per connection
        room.watchers.setdefault(target, set()).add(connection)
        live = await self.app.games.get(game_id)
        await live.settled()
        return live

    async def _tick(self) -> None:
        """Ends races past their time limit (and races whose end a crash interrupted)."""
        every = self.app.config.race_tick_ms / 1000
        swept = self.app.clock()
        while True:
            await asyncio.sleep(every)
            if self.app.clock() - swept >= SWEEP_MS:
                swept = self.app.clock()
                try:
                    await self._close_idle()
                except Exception:
                    log.exception("closing idle rooms failed")
            for room in list(self.rooms.values()):
                if room.state != RACING:
                    continue
                try:
                    await self.race.check_time(room)
                except Exception:
                    log.exception("room %s: time check failed", room.code)

    async def _close_idle(self) -> None:
        """Rooms left behind (no member connected, no race, no change for a day) are closed."""
        now = self.app.clock()
        online = self.app.players
        for room in list(self.rooms.values()):
            if room.state not in (WAITING, OVER) or now - room.touched_ms < IDLE_ROOM_MS:
                continue
            if any(m.id in online for m in room.members):
                continue
            await self._close(room)
            log.info("room %s closed: idle since %d", room.code, room.touched_ms)

    async def _close(self, room: RoomState) -> None:
        if room.countdown is not None:
            room.countdown.cancel()
        self.rooms.pop(room.code, None)
        self.race.forget(room)
        async with self.app.db_sessions() as db, db.begin():
            await store.remove(db, code=room.code)

    # -- helpers ------------------------------------------------------------------------------

    def _random_seed(self, room: RoomState) -> int:
        while True:
            seed = secrets.randbelow(p.MAX_SEED) + 1
            if not any(guard(room.variant, room.options, seed) for guard in self.seed_guards):
                return seed

    def _check_seed(self, variant: str, options: dict[str, bool | int], seed: int) -> None:
        if any(guard(variant, options, seed) for guard in self.seed_guards):
            raise ProtocolError(
                p.DAILY_LOCKED, f"seed {seed} is today's daily deal of {variant}; race another"
            )

    async def save(self, room: RoomState) -> None:
        """Store the room's whole state, one save at a time."""
        async with room.lock:
            members = [(m.id, m.joined_ms, m.seq) for m in room.members]
            room.touched_ms = self.app.clock()
            async with self.app.db_sessions() as db, db.begin():
                await store.save(db, room=room.row(room.touched_ms), members=members)
