"""Race rooms: members, host, countdown, one game per racer on one deal, standings, time limit.

A room's whole state lives in memory and is saved at every change
(:mod:`server.store.rooms`), so a restarted server reads it back: waiting
rooms keep their members, a countdown starts its race, a race goes on with
the same games and the same clock, and players who reconnect continue. The
races' games are ordinary games of :class:`server.live.GameService`; this
module hears of their actions through its listeners and pushes ``progress``,
watched boards and, when the race ends, ``race_over``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from server.live import ENDED, LiveGame
from server.room_state import (
    COUNTDOWN,
    OVER,
    RACING,
    TIMEOUT,
    WAITING,
    Member,
    RoomState,
    new_code,
)
from server.standings import ranked
from server.store import rooms as store
from shared import protocol as p
from shared import protocol_races as r
from shared.errors import InvalidOptions, ProtocolError

if TYPE_CHECKING:
    from server.app import App
    from server.session import Session

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
        #: race game id -> room code, to route game actions to their room
        self.by_game: dict[str, str] = {}
        self.races_started = 0
        self.seed_guards: list[SeedGuard] = []
        self._ticker: asyncio.Task[None] | None = None

    # -- life cycle --------------------------------------------------------------------

    async def start(self) -> None:
        async with self.app.sessions() as db:
            loaded = await store.load_all(db)
        for row, members in loaded:
            room = RoomState(
                code=row.code,
                variant=row.variant,
                options=dict(row.options),
                host=row.host_id,
                max_players=row.max_players,
                time_limit_s=row.time_limit_s,
                seed=row.seed,
                created_ms=row.created_ms,
                state=row.state,
                members=[Member(pid, name, joined, seq) for pid, name, joined, seq in members],
                race=row.race,
                race_seed=row.race_seed,
                race_start_ms=row.race_start_ms,
                racers={int(k): str(v) for k, v in row.racers.items()},
                touched_ms=row.updated_ms,
            )
            self.rooms[room.code] = room
            for game_id in room.racers.values():
                self.by_game[game_id] = room.code
            if room.state == COUNTDOWN:
                self._schedule(room)
        self.app.games.listeners.append(self.on_action)
        self._ticker = asyncio.create_task(self._tick(), name="races")
        log.info("%d rooms loaded", len(self.rooms))

    async def stop(self) -> None:
        tasks = [t for t in [self._ticker, *(x.countdown for x in self.rooms.values())] if t]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(ValueError):
            self.app.games.listeners.remove(self.on_action)

    # -- views and pushes -----------------------------------------------------------------

    def view(self, room: RoomState) -> dict[str, Any]:
        """RoomView of protocol.md; each player also carries their game in the current race."""
        online = self.app.players
        return {
            "code": room.code,
            "variant": room.variant,
            "options": self.app.games.variants.rules(room.variant, room.options).options,
            "host": room.host,
            "players": [
                {
                    "id": m.id,
                    "name": m.name,
                    "connected": m.id in online,
                    "game": room.racers.get(m.id),
                }
                for m in room.members
            ],
            "state": room.state,
            "max_players": room.max_players,
            "time_limit_s": room.time_limit_s,
            "race": room.race,
        }

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
            for session in list(self.app.players.get(pid, ())):
                session.send(message)

    def push_room(self, room: RoomState, *, skip: int | None = None) -> None:
        self.push(room, r.RoomMessage(fields={"room": self.view(room)}), skip=skip)

    def rooms_of(self, player_id: int) -> list[RoomState]:
        return [room for room in self.rooms.values() if room.member(player_id) is not None]

    def connection_changed(self, player_id: int) -> None:
        """A player connected or left: the rooms they are in show it."""
        for room in self.rooms_of(player_id):
            self.push_room(room)

    def session_closed(self, session: Session) -> None:
        for room in self.rooms.values():
            for sessions in room.watchers.values():
                sessions.discard(session)

    # -- requests ----------------------------------------------------------------------------

    def get(self, code: str) -> RoomState:
        room = self.rooms.get(code)
        if room is None:
            raise ProtocolError(p.NOT_FOUND, f"no room {code!r}")
        return room

    def _member_of(self, code: str, player_id: int) -> RoomState:
        room = self.get(code)
        if room.member(player_id) is None:
            raise ProtocolError(r.NOT_IN_ROOM, f"you are not in room {code!r}")
        return room

    def _check_room_count(self, player: int) -> None:
        if len(self.rooms_of(player)) >= r.MAX_ROOMS_PER_PLAYER:
            raise ProtocolError(
                r.TOO_MANY_ROOMS,
                f"you are in {r.MAX_ROOMS_PER_PLAYER} rooms already; leave one first",
            )

    async def create(self, player: int, name: str, message: r.CreateRoom) -> RoomState:
        self._check_room_count(player)
        try:
            options = self.app.games.variants.rules(message.variant, message.options).options
        except InvalidOptions as exc:
            field_name = "variant" if "variant" in str(exc) else "options"
            raise ProtocolError(p.INVALID_FIELD, f"field {field_name!r}: {exc}") from None
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
        await self._save(room)
        log.info("room %s created by player %d (%s)", code, player, room.variant)
        return room

    async def join(self, player: int, name: str, code: str) -> RoomState:
        room = self.get(code)
        if room.member(player) is not None:
            return room  # already in: a reconnecting player asks for the room again
        if room.state in (COUNTDOWN, RACING):
            raise ProtocolError(r.RACE_IN_PROGRESS, f"room {code!r} is racing; join after it")
        if len(room.members) >= room.max_players:
            raise ProtocolError(r.ROOM_FULL, f"room {code!r} has {room.max_players} players")
        self._check_room_count(player)
        seq = max((m.seq for m in room.members), default=-1) + 1
        room.members.append(Member(player, name, self.app.clock(), seq))
        await self._save(room)
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
        for sessions in room.watchers.values():
            sessions.difference_update(self.app.players.get(player, ()))
        if not room.members:
            await self._close(room)
            log.info("room %s closed: its last player left", code)
            return
        if room.host == player:
            room.host = room.members[0].id  # the next member in joining order
        await self._save(room)
        self.push_room(room)

    async def start_race(self, player: int, code: str, seed: int | None) -> None:
        room = self._member_of(code, player)
        if room.host != player:
            raise ProtocolError(r.NOT_HOST, f"only the host of room {code!r} starts its race")
        if room.state in (COUNTDOWN, RACING):
            raise ProtocolError(r.RACE_IN_PROGRESS, f"room {code!r} is already racing")
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
        await self._save(room)
        self.push_room(room, skip=player)
        self.push(room, r.RaceCountdown(fields={"code": code, "start_in_ms": countdown}))
        self._schedule(room)

    async def watch(self, session: Session, player: int, code: str, target: int) -> LiveGame:
        room = self._member_of(code, player)
        game_id = room.racers.get(target)
        if game_id is None or room.member(target) is None:
            raise ProtocolError(p.NOT_FOUND, f"player {target} has no game in room {code!r}")
        for sessions in room.watchers.values():
            sessions.discard(session)  # one board at a time per connection
        room.watchers.setdefault(target, set()).add(session)
        live = await self.app.games.get(game_id)
        await live.settled()
        return live

    # -- the race ---------------------------------------------------------------------------

    def _schedule(self, room: RoomState) -> None:
        delay = max(0, (room.race_start_ms or 0) - self.app.clock())
        delay = min(delay, self.app.config.race_countdown_ms)
        room.countdown = asyncio.create_task(self._count_down(room, delay), name=room.code)

    async def _count_down(self, room: RoomState, delay_ms: int) -> None:
        await asyncio.sleep(delay_ms / 1000)
        room.countdown = None
        try:
            await self._begin(room)
        except Exception:
            log.exception("room %s: the race could not start", room.code)
            room.state = WAITING
            await self._save(room)
            self.push_room(room)

    async def _begin(self, room: RoomState) -> None:
        if room.state != COUNTDOWN or not room.members or room.race_seed is None:
            return
        games = self.app.games
        seed = room.race_seed
        racers = list(room.members)
        # Started together: one group commit, one start time for everyone.
        started = await asyncio.gather(
            *(games.start(m.id, room.variant, seed, room.options) for m in racers)
        )
        for gid in room.racers.values():
            self.by_game.pop(gid, None)
        room.racers = {m.id: live.id for m, live in zip(racers, started, strict=True)}
        for live in started:
            self.by_game[live.id] = room.code
        room.state = RACING
        room.race_start_ms = started[0].started_ms
        self.races_started += 1
        await self._save(room)
        for m, live in zip(racers, started, strict=True):
            self.push(
                room,
                r.RaceStarted(fields={"code": room.code, "game": games.view(live)}),
                to=[m.id],
            )
        self.push_room(room)
        log.info(
            "room %s: race %d started, seed %d, %d racers", room.code, room.race, seed, len(racers)
        )

    async def on_action(self, live: LiveGame, action: str) -> None:
        """After every stored action of any game: a race's pushes and its end."""
        code = self.by_game.get(live.id)
        room = self.rooms.get(code) if code is not None else None
        if room is None or room.racers.get(live.owner) != live.id:
            return
        games = self.app.games
        watchers = room.watchers.get(live.owner)
        if watchers:
            push = p.GameMessage(
                game=games.view(live), extra={"code": room.code, "player": live.owner}
            )
            for session in list(watchers):
                session.send(push)
        if room.state != RACING:
            return
        progress = {
            "code": room.code,
            "player": live.owner,
            "ply": live.game.ply,
            "foundation": live.game.foundation_cards,
            "score": live.game.score,
            "state": live.state,
        }
        self.push(room, r.Progress(fields=progress), skip=live.owner)
        if live.state in ENDED:
            await self._check_over(room)

    async def _check_over(self, room: RoomState) -> None:
        racing = [await self.app.games.get(gid) for gid in room.racers.values()]
        if all(live.state in ENDED for live in racing):
            await self._finish(room, racing)

    async def _finish(self, room: RoomState, racing: list[LiveGame], timeout: bool = False) -> None:
        if room.state != RACING:
            return
        room.state = OVER  # first: the timeouts below come back through on_action
        if timeout:
            for live in racing:
                if live.state not in ENDED:
                    await self.app.games.end(live, TIMEOUT)
        now = self.app.clock()
        names = {m.id: m.name for m in room.members}
        entries = [
            {
                "player": live.owner,
                "name": names.get(live.owner, "?"),
                "state": live.state,
                "elapsed_ms": live.elapsed_ms(now),
                "moves": live.game.ply,
                "score": live.game.score,
            }
            for live in racing
        ]
        room.standings = ranked(entries)
        await self._save(room)
        self.push(room, r.RaceOver(fields={"code": room.code, "standings": room.standings}))
        self.push_room(room)
        log.info("room %s: race %d over", room.code, room.race)

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
                    await self._tick_room(room)
                except Exception:
                    log.exception("room %s: time check failed", room.code)

    async def _tick_room(self, room: RoomState) -> None:
        racing = [await self.app.games.get(gid) for gid in room.racers.values()]
        deadline = (room.race_start_ms or 0) + room.time_limit_s * 1000
        if self.app.clock() >= deadline:
            await self._finish(room, racing, timeout=True)
        elif all(live.state in ENDED for live in racing):
            await self._finish(room, racing)

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
        for gid in room.racers.values():
            self.by_game.pop(gid, None)
        async with self.app.sessions() as db, db.begin():
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

    async def _save(self, room: RoomState) -> None:
        async with room.lock:
            members = [(m.id, m.joined_ms, m.seq) for m in room.members]
            room.touched_ms = self.app.clock()
            async with self.app.sessions() as db, db.begin():
                await store.save(db, room=room.row(room.touched_ms), members=members)
