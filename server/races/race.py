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
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from server.games.live import LiveGame
from server.games.ply import ENDED, TIMEOUT
from server.races.standings import ranked
from server.races.state import COUNTDOWN, OVER, RACING, WAITING, Member, RoomState
from shared import protocol as p

if TYPE_CHECKING:
    from server.app import App
    from server.races.service import RoomService

log = logging.getLogger(__name__)


class RaceRunner:
    """Runs the races of the rooms of ``rooms``; knows which game belongs to which room."""

    def __init__(self, app: App, rooms: RoomService) -> None:
        self.app = app
        self.rooms = rooms
        #: race game id -> room code, to route game actions to their room
        self.by_game: dict[str, str] = {}
        #: races started since the server started (a metric)
        self.started = 0

    def track(self, room: RoomState) -> None:
        """Route the actions of the room's current race games to it."""
        for game_id in room.racers.values():
            self.by_game[game_id] = room.code

    def forget(self, room: RoomState) -> None:
        for game_id in room.racers.values():
            self.by_game.pop(game_id, None)

    def connected_racers(self, room: RoomState) -> list[Member]:
        return [m for m in room.members if m.racer and m.id in self.app.players]

    async def done_racing(self, room: RoomState, player: int) -> bool:
        """Whether ``player`` has no game still open in the room's current race."""
        game_id = room.racers.get(player)
        if room.state != RACING or game_id is None:
            return True
        return (await self.app.games.get(game_id)).state in ENDED

    def schedule(self, room: RoomState) -> None:
        """Start the room's race when its countdown ends (``race_start_ms``)."""
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
            await self._call_off(room)

    async def _call_off(self, room: RoomState) -> None:
        """The race did not start: the room waits again, as before its ``start_race``."""
        room.state = WAITING
        room.race -= 1
        room.race_seed = room.race_key = None
        await self.rooms.save(room)
        self.rooms.push_room(room)

    async def _begin(self, room: RoomState) -> None:
        if room.state != COUNTDOWN:
            return
        racers = self.connected_racers(room)
        if not racers:
            log.info("room %s: race %d called off, no racer connected", room.code, room.race)
            await self._call_off(room)
            return
        games = self.app.games
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
        room.state = RACING
        room.race_start_ms = started[0].started_ms
        self.started += 1
        for pid in room.racers:  # racers watch others only once their own game has ended
            for connection in self.app.players.get(pid, ()):
                for watching in room.watchers.values():
                    watching.discard(connection)
        await self.rooms.save(room)
        for m, live in zip(racers, started, strict=True):
            self.rooms.push(
                room,
                p.RaceStarted(code=room.code, game=p.GameView.of(games.view(live))),
                to=[m.id],
            )
        others = [m.id for m in room.members if m.id not in room.racers]
        self.rooms.push(room, p.RaceStarted(code=room.code), to=others)
        self.rooms.push_room(room)
        log.info(
            "room %s: race %d started on %s, %d racers",
            room.code,
            room.race,
            "a keyed deal" if key is not None else f"seed {room.race_seed}",
            len(racers),
        )

    async def on_action(self, live: LiveGame, action: str) -> None:
        """After every stored action of any game: a race's pushes and its end."""
        code = self.by_game.get(live.id)
        room = self.rooms.rooms.get(code) if code is not None else None
        if room is None or room.racers.get(live.owner) != live.id:
            return
        games = self.app.games
        watchers = room.watchers.get(live.owner)
        if watchers:
            view = p.GameView.of(games.view(live))
            push = p.GameReply(game=view, code=room.code, player=live.owner)
            for connection in list(watchers):
                connection.send(push)
        if room.state != RACING:
            return
        progress = p.Progress(
            code=room.code,
            player=live.owner,
            ply=live.game.ply,
            foundation=live.game.foundation_cards,
            score=live.game.score,
            state=live.state,
        )
        self.rooms.push(room, progress, skip=live.owner)
        if live.state in ENDED:
            await self._check_over(room)

    async def _racing(self, room: RoomState) -> list[LiveGame]:
        return [await self.app.games.get(gid) for gid in room.racers.values()]

    async def _check_over(self, room: RoomState) -> None:
        racing = await self._racing(room)
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
        await self.app.games.reveal(racing)
        now = self.app.clock()
        names = {m.id: m.name for m in room.members}
        what = f"race {room.code}"
        entries = []
        for live in racing:
            held = await self.app.review.check(live, what, since_ms=room.race_start_ms)
            entry = {
                "player": live.owner,
                "name": names.get(live.owner, "?"),
                "state": live.state,
                "elapsed_ms": live.elapsed_ms(now),
                "moves": live.game.ply,
                "score": live.game.score,
                "undos": live.undos,
            }
            entries.append(entry | ({"review": p.PENDING} if held else {}))
        room.standings = tuple(p.Standing(**entry) for entry in ranked(entries))
        await self.rooms.save(room)
        self.rooms.push(room, p.RaceOver(code=room.code, standings=room.standings))
        self.rooms.push_room(room)
        log.info("room %s: race %d over", room.code, room.race)

    async def end_now(self, room: RoomState) -> None:
        """End the race at once, as its time limit would (an operator's ``end-race``)."""
        await self._finish(room, await self._racing(room), timeout=True)

    async def check_time(self, room: RoomState) -> None:
        """End a race past its time limit, or one whose end a crash interrupted."""
        racing = await self._racing(room)
        deadline = (room.race_start_ms or 0) + room.time_limit_s * 1000
        if self.app.clock() >= deadline:
            await self._finish(room, racing, timeout=True)
        elif all(live.state in ENDED for live in racing):
            await self._finish(room, racing)
