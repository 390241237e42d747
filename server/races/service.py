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

With several nodes (:mod:`server.cluster`) a room is run by one node at a
time, its owner, which holds the room's lease: this service holds only the
rooms its node owns (:attr:`RoomService.rooms`). A request on a room owned
elsewhere is forwarded to its owner (:meth:`RoomService.serve_call` runs
it there); a room nobody owns is taken by the first node that needs it, or
by the periodic claim, from what is stored. Pushes go to this node's
connections and, through Redis, to every other node's.

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
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from server.cluster.calls import CallTimeout, Moved
from server.games.fields import checked_options
from server.games.live import LiveGame
from server.games.ply import ENDED
from server.net.connection import PlayerInfo
from server.races.presence import Presence
from server.races.race import RaceRunner
from server.races.state import COUNTDOWN, OVER, RACING, WAITING, Member, RoomState, new_code
from server.races.watchers import Watchers
from server.storage.models import Room
from server.storage.queries import rooms as store
from shared import protocol as p
from shared.errors import ProtocolError

if TYPE_CHECKING:
    from server.app import App
    from server.net.connection import Connection
    from server.storage.queries.rooms import LoadedMember

log = logging.getLogger(__name__)

#: a room nobody is connected to, not racing, is closed after this long without a change
IDLE_ROOM_MS = 24 * 3_600_000
#: how often (by the server's clock) idle rooms are looked for
SWEEP_MS = 60_000
#: seconds a request on a room owned elsewhere may wait for its owner (or a new one)
OWNER_WAIT_S = 8.0


class RoomService:
    def __init__(self, app: App) -> None:
        self.app = app
        #: the rooms this node owns (all of them, on a node alone)
        self.rooms: dict[str, RoomState] = {}
        self.race = RaceRunner(app, self)
        self.presence = Presence(app, self)
        self.watchers = Watchers()
        self._ticker: asyncio.Task[None] | None = None
        #: rooms being taken over, so that each is loaded once
        self._taking: dict[str, asyncio.Future[RoomState | str | None]] = {}
        self._checks: set[asyncio.Task[None]] = set()

    # -- life cycle --------------------------------------------------------------------

    async def start(self) -> None:
        self.presence.start()
        if self.app.cluster.enabled:
            await self.claim(None)  # the rooms nobody owns (after a stop of every node, say)
        else:
            async with self.app.db_sessions() as db:
                loaded = await store.load_all(db)
            for row, members in loaded:
                self._adopt(row, members)
        self._ticker = asyncio.create_task(self._tick(), name="races")
        log.info("%d rooms loaded", len(self.rooms))

    def _adopt(self, row: Room, members: list[LoadedMember]) -> RoomState:
        """Run a room as stored: its countdown goes on, a race whose end was missed ends."""
        room = RoomState.from_row(row, [Member(*member) for member in members])
        self.rooms[room.code] = room
        self.race.track(room)
        if self.app.cluster.enabled:
            # Members of a node that died count as gone from now, not from this node's start.
            now = self.app.clock()
            for member in room.members:
                if member.id not in self.app.cluster.online:
                    self.presence.gone.setdefault(member.id, now)
        if room.state == COUNTDOWN:
            self.race.schedule(room)
        elif room.state == RACING and self.app.cluster.enabled:
            task = asyncio.create_task(self.race.check_over(room), name=f"check-{room.code}")
            self._checks.add(task)
            task.add_done_callback(self._checks.discard)
        return room

    async def stop(self) -> None:
        countdowns = [x.countdown for x in self.rooms.values()]
        tasks = [t for t in [self._ticker, *self._checks, *countdowns] if t]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -- views and pushes -----------------------------------------------------------------

    def view(self, room: RoomState) -> p.RoomView:
        """RoomView of protocol.md, with who is connected now (to any node)."""
        return room.view(self.app.cluster.online)

    def push(
        self,
        room: RoomState,
        message: p.Reply,
        *,
        to: Iterable[int] | None = None,
        skip: int | None = None,
    ) -> None:
        targets = [m.id for m in room.members] if to is None else list(to)
        data = p.encode(message)
        for pid in targets:
            if pid == skip:
                continue
            for connection in list(self.app.players.get(pid, ())):
                connection.send_encoded(data)
        self.app.cluster.fan_out(data, to=targets, skip=skip)

    def push_board(self, code: str, player: int, message: p.Reply) -> None:
        """A racer's board to whoever watches it, on this node and the others."""
        data = p.encode(message)
        for connection in list(self.watchers.of(code, player)):
            connection.send_encoded(data)
        self.app.cluster.fan_out(data, board=(code, player))

    def drop_watches(
        self, code: str, players: list[int] | None = None, targets: list[int] | None = None
    ) -> None:
        """Watches ended in room ``code``, on every node (see :meth:`Watchers.drop`)."""
        self.watchers.drop(code, players, targets)
        self.app.cluster.tell("unwatch", code=code, players=players, targets=targets)

    def push_room(self, room: RoomState, *, skip: int | None = None) -> None:
        self.push(room, p.RoomReply(room=self.view(room)), skip=skip)

    def rooms_of(self, player_id: int) -> list[RoomState]:
        """The rooms of this node that ``player_id`` is a member of."""
        return [room for room in self.rooms.values() if room.member(player_id) is not None]

    async def all_rooms_of(self, player_id: int) -> list[RoomState]:
        """Every room ``player_id`` is a member of, on whichever node (as stored, elsewhere)."""
        if not self.app.cluster.enabled:
            return self.rooms_of(player_id)
        async with self.app.db_sessions() as db:
            loaded = await store.of_player(db, player_id=player_id)
        return [
            self.rooms.get(row.code)
            or RoomState.from_row(row, [Member(*member) for member in members])
            for row, members in loaded
        ]

    # -- which node runs a room -------------------------------------------------------------

    async def _owner_of(self, code: str) -> RoomState | str | None:
        """The room if this node owns it (taking it when nobody does), else the owner's node
        id; None when there is no such room."""
        room = self.rooms.get(code)
        if room is not None or not self.app.cluster.enabled:
            return room
        taking = self._taking.get(code)
        if taking is not None:
            return await asyncio.shield(taking)
        future: asyncio.Future[RoomState | str | None] = asyncio.get_running_loop().create_future()
        self._taking[code] = future
        try:
            found = await self._take(code)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()
            raise
        finally:
            del self._taking[code]
        future.set_result(found)
        return found

    async def _take(self, code: str) -> RoomState | str | None:
        cluster = self.app.cluster
        if not await cluster.leases.acquire(code):
            owner = await cluster.leases.owner(code)
            if owner != cluster.node_id:
                return owner or ""  # "": it expired just now, ask again
        async with self.app.db_sessions() as db:
            loaded = await store.load(db, code=code)
        if loaded is None:
            await cluster.leases.release([code])
            return None
        if code in self.rooms:  # it came back meanwhile
            return self.rooms[code]
        room = self._adopt(*loaded)
        log.info("room %s taken over by node %s (%s)", code, cluster.node_id, room.state)
        self.push_room(room)
        return room

    async def claim(self, codes: list[str] | None) -> None:
        """Take the rooms of ``codes`` (None: every stored room) that nobody owns."""
        cluster = self.app.cluster
        if not cluster.enabled:
            return
        if codes is None:
            async with self.app.db_sessions() as db:
                codes = await store.codes(db)
        codes = [c for c in codes if c not in self.rooms]
        for code, owner in zip(codes, await cluster.leases.owners(codes), strict=True):
            if owner is None:
                try:
                    await self._owner_of(code)
                except Exception:
                    log.exception("room %s could not be taken over", code)

    async def lost(self, code: str) -> None:
        """Another node holds the room's lease now: this node stops running it."""
        room = self.rooms.pop(code, None)
        if room is None:
            return
        if room.countdown is not None:
            room.countdown.cancel()
        self.race.forget(room)
        log.warning("room %s: its lease is held by another node now; let go", code)

    async def resync(self, since_ms: int) -> None:
        """Send every owned room again (Redis was lost); ``race_over`` of the races that ended
        since ``since_ms``."""
        for room in list(self.rooms.values()):
            self.push_room(room)
            # (a room taken over knows only when it last changed, as stored)
            ended = room.over_ms if room.over_ms is not None else room.touched_ms
            if room.state == OVER and room.race and ended >= since_ms:
                standings = room.standings or await self.race.stored_standings(room)
                self.push(room, p.RaceOver(code=room.code, standings=standings))

    async def _on_owner(self, code: str, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run ``op`` on room ``code`` here if this node owns it, else on its owner's node."""
        args = {"code": code, **args}
        cluster = self.app.cluster
        if not cluster.enabled:
            return await self.serve_call(op, args)
        deadline = asyncio.get_running_loop().time() + OWNER_WAIT_S
        while True:
            try:
                owner = await self._owner_of(code)
            except (RedisError, OSError):
                raise ProtocolError(
                    p.BUSY, "rooms cannot be reached right now; try again in a few seconds"
                ) from None
            if owner is None:
                raise ProtocolError(p.NOT_FOUND, f"no room {code!r}", fault=op == "join")
            if isinstance(owner, RoomState):
                return await self.serve_call(op, args)
            if owner:
                try:
                    return await cluster.calls.call(owner, op, args)
                except Moved:
                    pass
                except CallTimeout:
                    log.warning("room %s: node %s did not answer %s", code, owner, op)
            if asyncio.get_running_loop().time() >= deadline:
                raise ProtocolError(
                    p.BUSY, f"the server of room {code!r} does not answer; try again shortly"
                )
            await asyncio.sleep(0.2)

    async def serve_call(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run a request on a room this node owns (asked here, or forwarded by another node)."""
        code: str = args["code"]
        if code not in self.rooms and self.app.cluster.enabled:
            owner = await self._owner_of(code)
            if owner is None:
                raise ProtocolError(p.NOT_FOUND, f"no room {code!r}", fault=op == "join")
            if not isinstance(owner, RoomState):
                raise Moved(owner or None)
        if op == "join":
            player = PlayerInfo(**args["player"])
            room = await self.join(player, code, args["role"])
            return {"room": self.view(room).to_map()}
        if op == "leave":
            await self.leave(args["player"], code)
            return {}
        if op == "start":
            await self.start_race(args["player"], code, args["seed"])
            return {}
        if op == "watch":
            return {"game": await self.watch_check(args["player"], code, args["target"])}
        raise ProtocolError(p.INTERNAL, f"no room operation {op!r}")

    # -- requests as the handlers make them, wherever the room is run ---------------------------

    async def joined(self, player: PlayerInfo, code: str, role: str) -> p.RoomView:
        fields = {"id": player.id, "name": player.name, "bot": player.bot}
        answer = await self._on_owner(code, "join", {"player": fields, "role": role})
        return p.RoomView.from_map(answer["room"])

    async def left(self, player: int, code: str) -> None:
        await self._on_owner(code, "leave", {"player": player})

    async def started(self, player: int, code: str, seed: int | None) -> None:
        await self._on_owner(code, "start", {"player": player, "seed": seed})

    async def watched(
        self, connection: Connection, player: int, code: str, target: int
    ) -> LiveGame:
        """``connection`` follows ``target``'s board (if the owner allows it), on this node."""
        answer = await self._on_owner(code, "watch", {"player": player, "target": target})
        self.watchers.watch(connection, code, target)
        live = await self.race.game(answer["game"])
        await live.settled()
        return live

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

    async def _check_room_count(self, player: int) -> None:
        if len(await self.all_rooms_of(player)) >= p.MAX_ROOMS_PER_PLAYER:
            raise ProtocolError(
                p.TOO_MANY_ROOMS,
                f"you are in {p.MAX_ROOMS_PER_PLAYER} rooms already; leave one first",
            )

    async def create(self, player: PlayerInfo, message: p.CreateRoom) -> RoomState:
        await self._check_room_count(player.id)
        options = checked_options(self.app.games.variants, message.variant, message.options)
        code = await self._new_code()
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

    async def _new_code(self) -> str:
        """A code no room has; with several nodes, its lease taken here first."""
        cluster = self.app.cluster
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
                raise ProtocolError(
                    p.BUSY, "rooms cannot be created right now; try again in a few seconds"
                ) from None
            async with self.app.db_sessions() as db:
                if await store.load(db, code=code) is None:
                    return code
            await cluster.leases.release([code])

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
        await self._check_room_count(player.id)
        seq = max((m.seq for m in room.members), default=-1) + 1
        room.members.append(Member(player.id, player.name, self.app.clock(), seq, role, player.bot))
        await self.save(room)
        self.push_room(room, skip=player.id)
        return room

    async def leave(self, player: int, code: str) -> None:
        room, _ = self._member_of(code, player)
        game_id = room.racers.get(player)
        if room.state == RACING and game_id is not None:
            live = await self.race.game(game_id)
            if live.state not in ENDED:
                await self.app.games.resign_now(live)  # leaving a race gives it up
        room.members = [m for m in room.members if m.id != player]
        # nobody watches the leaver, and the leaver watches nothing here
        self.drop_watches(code, players=[player], targets=[player])
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

    async def watch_check(self, player: int, code: str, target: int) -> str:
        """The game ``player`` may watch of ``target`` (the watch rule), on the room's owner."""
        room, me = self._member_of(code, player)
        game_id = room.racers.get(target)
        if game_id is None or room.member(target) is None:
            raise ProtocolError(p.NOT_FOUND, f"player {target} has no game in room {code!r}")
        if me.racer and target != player and not await self.race.done_racing(room, player):
            raise ProtocolError(
                p.RACE_IN_PROGRESS,
                "you may watch the others once your own game of this race has ended",
            )
        return game_id

    # -- guards the game service asks -----------------------------------------------------

    async def race_lock(
        self, player: int, variant: str, seed: int | None, _options: dict[str, bool | int]
    ) -> None:
        """``race_locked``: a racer does not play their race's numbered deal on the side."""
        if seed is None:
            return
        for room in await self.all_rooms_of(player):
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
        hints = room.hints if room is not None else self.race.hinted.get(live.id, False)
        if not hints:
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
        online = self.app.cluster.online
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
        self.watchers.drop_room(room.code)
        async with self.app.db_sessions() as db, db.begin():
            await store.remove(db, code=room.code)
        if self.app.cluster.enabled:
            await self.app.cluster.leases.release([room.code])

    async def save(self, room: RoomState) -> None:
        """Store the room's whole state, one save at a time."""
        async with room.lock:
            members = [(m.id, m.joined_ms, m.seq, m.role) for m in room.members]
            room.touched_ms = self.app.clock()
            async with self.app.db_sessions() as db, db.begin():
                await store.save(db, room=room.row(room.touched_ms), members=members)
