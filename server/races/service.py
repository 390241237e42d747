"""Race rooms: members, host, watchers, the requests on them, and what members are told.

A room's whole state lives in memory and is saved at every change
(:mod:`server.storage.queries.rooms`), so a restarted server reads it back:
waiting rooms keep their members, a countdown starts its race, a race goes
on with the same games and the same clock, and players who reconnect
continue. The race itself (countdown, games, progress, end) is the
:class:`~server.races.race.RaceRunner`'s; who is connected, and what a ban
does to a room, is :class:`~server.races.presence.Presence`'s. Race games
are ordinary games of the :class:`~server.games.service.GameService`. Rooms
nobody is connected to are closed after a day without a change.

Members are racers or spectators. Racers join while the room waits or is
over; spectators at any time, never race, and may watch any racer; a racer
may watch others only once their own game of the current race has ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Iterable
from typing import TYPE_CHECKING

from server.games.fields import checked_options
from server.games.live import LiveGame
from server.games.ply import ENDED
from server.races.presence import Presence
from server.races.race import RaceRunner
from server.races.state import COUNTDOWN, OVER, RACING, WAITING, Member, RoomState, new_code
from server.storage.queries import rooms as store
from shared import protocol as p
from shared.errors import ProtocolError

if TYPE_CHECKING:
    from server.app import App
    from server.net.connection import Connection, PlayerInfo

log = logging.getLogger(__name__)

#: a room nobody is connected to, not racing, is closed after this long without a change
IDLE_ROOM_MS = 24 * 3_600_000
#: how often (by the server's clock) idle rooms are looked for
SWEEP_MS = 60_000


class RoomService:
    def __init__(self, app: App) -> None:
        self.app = app
        self.rooms: dict[str, RoomState] = {}
        self.race = RaceRunner(app, self)
        self.presence = Presence(app, self)
        self._ticker: asyncio.Task[None] | None = None

    # -- life cycle --------------------------------------------------------------------

    async def start(self) -> None:
        async with self.app.db_sessions() as db, db.begin():
            loaded = await store.load_all(db)
            await store.nobody_connected(db)  # nobody is, yet
        for row, members in loaded:
            room = RoomState.from_row(row, [Member(*member) for member in members])
            self.rooms[room.code] = room
            self.race.track(room)
            if room.state == COUNTDOWN:
                self.race.schedule(room)
        self.presence.start()
        self._ticker = asyncio.create_task(self._tick(), name="races")
        log.info("%d rooms loaded", len(self.rooms))

    async def stop(self) -> None:
        tasks = [t for t in [self._ticker, *(x.countdown for x in self.rooms.values())] if t]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.presence.stop()

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

    # -- requests ----------------------------------------------------------------------------

    def get(self, code: str) -> RoomState:
        room = self.rooms.get(code)
        if room is None:
            raise ProtocolError(p.NOT_FOUND, f"no room {code!r}")
        return room

    def _member_of(self, code: str, player_id: int) -> tuple[RoomState, Member]:
        room = self.get(code)
        member = room.member(player_id)
        if member is None:
            raise ProtocolError(p.NOT_IN_ROOM, f"you are not in room {code!r}")
        return room, member

    def _check_room_count(self, player: int) -> None:
        if len(self.rooms_of(player)) >= p.MAX_ROOMS_PER_PLAYER:
            raise ProtocolError(
                p.TOO_MANY_ROOMS,
                f"you are in {p.MAX_ROOMS_PER_PLAYER} rooms already; leave one first",
            )

    async def create(self, player: PlayerInfo, message: p.CreateRoom) -> RoomState:
        self._check_room_count(player.id)
        options = checked_options(self.app.games.variants, message.variant, message.options)
        code = new_code()
        while code in self.rooms:
            code = new_code()
        now = self.app.clock()
        limit = message.time_limit_s or self.app.config.race_time_limit_s
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
            members=[Member(player.id, player.name, now, 0, p.RACER, player.bot)],
        )
        self.rooms[code] = room
        await self.save(room)
        log.info("room %s created by player %d (%s)", code, player.id, room.variant)
        return room

    async def join(self, player: PlayerInfo, code: str, role: str) -> RoomState:
        room = self.rooms.get(code)
        if room is None:
            # Counted as the client's mistake: room codes cannot be tried by the thousand.
            raise ProtocolError(p.NOT_FOUND, f"no room {code!r}", fault=True)
        if room.member(player.id) is not None:
            return room  # already in: the room in every state, the member's role unchanged
        if role == p.SPECTATOR:
            if room.count(p.SPECTATOR) >= p.MAX_SPECTATORS:
                raise ProtocolError(p.ROOM_FULL, f"room {code!r} has {p.MAX_SPECTATORS} spectators")
        else:
            if room.state in (COUNTDOWN, RACING):
                raise ProtocolError(
                    p.RACE_IN_PROGRESS,
                    f"room {code!r} is racing; join after the race, or as a spectator now",
                )
            if room.count(p.RACER) >= room.max_players:
                raise ProtocolError(p.ROOM_FULL, f"room {code!r} has {room.max_players} racers")
        self._check_room_count(player.id)
        seq = max((m.seq for m in room.members), default=-1) + 1
        room.members.append(Member(player.id, player.name, self.app.clock(), seq, role, player.bot))
        await self.save(room)
        self.push_room(room, skip=player.id)
        return room

    async def leave(self, player: int, code: str) -> None:
        room, _ = self._member_of(code, player)
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
        room, _ = self._member_of(code, player)
        if room.host != player:
            raise ProtocolError(p.NOT_HOST, f"only the host of room {code!r} starts its race")
        if room.state in (COUNTDOWN, RACING):
            raise ProtocolError(
                p.RACE_IN_PROGRESS, f"room {code!r} is already racing: wait for race_over"
            )
        if not self.race.connected_racers(room):
            raise ProtocolError(
                p.NO_RACERS,
                f"nobody in room {code!r} is connected to race (spectators do not race)",
            )
        if seed is None and room.race == 0:
            seed = room.seed  # the first race deals the seed the room was created with
        countdown = self.app.config.race_countdown_ms
        room.state = COUNTDOWN
        room.race += 1
        room.race_seed = seed
        room.race_key = None if seed is not None else secrets.token_hex(32)
        room.race_start_ms = self.app.clock() + countdown
        room.standings = None
        await self.save(room)
        self.push_room(room, skip=player)
        self.push(room, p.RaceCountdown(code=code, start_in_ms=countdown))
        self.race.schedule(room)

    async def watch(self, connection: Connection, player: int, code: str, target: int) -> LiveGame:
        room, me = self._member_of(code, player)
        game_id = room.racers.get(target)
        if game_id is None or room.member(target) is None:
            raise ProtocolError(p.NOT_FOUND, f"player {target} has no game in room {code!r}")
        if me.racer and target != player and not await self.race.done_racing(room, player):
            raise ProtocolError(
                p.RACE_IN_PROGRESS,
                "you may watch the others once your own game of this race has ended",
            )
        for watching in room.watchers.values():
            watching.discard(connection)  # one board at a time per connection
        room.watchers.setdefault(target, set()).add(connection)
        live = await self.app.games.get(game_id)
        await live.settled()
        return live

    # -- guards the game service asks -----------------------------------------------------

    async def race_lock(
        self, player: int, variant: str, seed: int | None, _options: dict[str, bool | int]
    ) -> None:
        """``race_locked``: a racer does not play their race's numbered deal on the side."""
        if seed is None:
            return
        for room in self.rooms_of(player):
            if (room.variant, room.race_seed) != (variant, seed):
                continue
            if room.state == COUNTDOWN:
                racing = any(m.id == player and m.racer for m in room.members)
            else:
                racing = room.state == RACING and not await self.race.done_racing(room, player)
            if racing:
                raise ProtocolError(
                    p.RACE_LOCKED,
                    f"you are racing on {variant} deal {seed} in room {room.code}: "
                    "play it once your race game has ended",
                )

    def hint_lock(self, live: LiveGame) -> None:
        """``hints_off``: a race game's hints are the room's to allow."""
        if live.kind != p.RACE:
            return
        code = self.race.by_game.get(live.id)
        room = self.rooms.get(code) if code is not None else None
        if room is None or not room.hints:
            raise ProtocolError(p.HINTS_OFF, "hints are off in this race")

    # -- time ---------------------------------------------------------------------------------

    async def _tick(self) -> None:
        """Ends races past their time limit (and races whose end a crash interrupted), resigns
        racers gone too long, and closes idle rooms."""
        every = self.app.config.race_tick_ms / 1000
        swept = self.app.clock()
        while True:
            await asyncio.sleep(every)
            if self.app.clock() - swept >= SWEEP_MS:
                swept = self.app.clock()
                try:
                    await self._close_idle()
                    self.presence.forget_gone()
                except Exception:
                    log.exception("closing idle rooms failed")
            for room in list(self.rooms.values()):
                if room.state != RACING:
                    continue
                try:
                    await self.presence.resign_gone(room)
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

    async def save(self, room: RoomState) -> None:
        """Store the room's whole state, one save at a time."""
        async with room.lock:
            online = self.app.players
            members = [(m.id, m.joined_ms, m.seq, m.role, m.id in online) for m in room.members]
            room.touched_ms = self.app.clock()
            async with self.app.db_sessions() as db, db.begin():
                await store.save(db, room=room.row(room.touched_ms), members=members)
            # A player who came or went while this was stored: their rows are written again.
            self.presence.recheck((pid, connected) for pid, _, _, _, connected in members)

    # -- the operators' requests (patience-club admin) ------------------------------------

    async def end_race_now(self, code: str) -> tuple[bool, str]:
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

    async def close_now(self, code: str) -> tuple[bool, str]:
        """Close the room (``admin close-room``): a race running ends first, as its time limit
        would; every member is told (an ``error`` push, ``not_in_room``) and removed."""
        room = self.rooms.get(code)
        if room is None:
            return False, f"no room {code!r}"
        ended = ""
        if room.state == RACING:
            await self.race.end_now(room)
            ended = f" (its race {room.race} ended first)"
        members = len(room.members)
        told = p.Error(
            code=p.NOT_IN_ROOM, message=f"room {code} was closed by the server's operator"
        )
        self.push(room, told)
        await self._close(room)
        log.info("room %s closed by the operator", code)
        told_whom = f"its {members} members" if members != 1 else "its member"
        return True, f"room {code} closed{ended}: {told_whom} told and removed"
