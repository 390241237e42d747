"""Which node runs each room, and the requests sent to it there.

On a node alone every room is this node's and every request runs here. With
several nodes (:mod:`server.cluster`) one node at a time runs a room, its
owner, which holds the room's lease. :class:`Owners` answers where a room is
run (taking a room nobody owns, from what is stored), runs each request on a
room there (:meth:`Owners.run`: here, or forwarded to the owner's inbox,
whose node runs it through :meth:`Owners.serve`), takes over the rooms
nobody owns (:meth:`Owners.claim`), lets go of a room whose lease another
node holds (:meth:`Owners.lost`) and sends every room again after a loss of
Redis (:meth:`Owners.resync`). The rules of a room are the room service's.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.cluster import news
from server.cluster.calls import CallTimeout, Moved
from server.errors import Busy, Internal, NotFound, UnknownRoom
from server.games.live import LiveGame
from server.net.connection import PlayerInfo
from server.races.race import RaceRunner
from server.races.rooms import RoomTable
from server.races.service import RoomService
from server.races.state import OVER, RoomState
from server.storage.queries import rooms as store
from shared import protocol as p

if TYPE_CHECKING:
    from server.cluster.node import Cluster
    from server.net.connection import Connection

log = logging.getLogger(__name__)

#: seconds a request on a room owned elsewhere may wait for its owner (or a new one)
OWNER_WAIT_S = 8.0


class Owners:
    def __init__(
        self,
        service: RoomService,
        table: RoomTable,
        race: RaceRunner,
        cluster: Cluster,
        db_sessions: async_sessionmaker[AsyncSession],
    ) -> None:
        self.service = service
        self.table = table
        self.race = race
        self.cluster = cluster
        self.db_sessions = db_sessions
        #: rooms being taken over, so that each is loaded once
        self._taking: dict[str, asyncio.Future[RoomState | str | None]] = {}

    async def owner_of(self, code: str) -> RoomState | str | None:
        """The room if this node owns it (taking it when nobody does), else the owner's node
        id; None when there is no such room."""
        room = self.table.rooms.get(code)
        if room is not None or not self.cluster.enabled:
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
        cluster = self.cluster
        if not await cluster.leases.acquire(code):
            owner = await cluster.leases.owner(code)
            if owner != cluster.node_id:
                return owner or ""  # "": it expired just now, ask again
        async with self.db_sessions() as db, db.begin():
            # the fencing token of this lease, then the room as stored under it: a node that
            # held the room before and stalled can no longer save it (store.save)
            fence = await store.take(db, code=code)
            loaded = None if fence is None else await store.load(db, code=code)
        if loaded is None:
            await cluster.leases.release([code])
            return None
        if code in self.table.rooms:  # it came back meanwhile: it saves under the new token
            self.table.rooms[code].fence = max(self.table.rooms[code].fence, fence or 0)
            return self.table.rooms[code]
        room = self.service.adopt(*loaded)
        log.info("room %s taken over by node %s (%s)", code, cluster.node_id, room.state)
        self.table.push_room(room)
        return room

    async def claim_at_start(self) -> None:
        """With several nodes: take the rooms nobody owns (after a stop of every node, say);
        the members' rows keep who is connected to the other nodes meanwhile."""
        await self.claim(None)

    async def claim_due(self, due: news.ClaimDue) -> None:
        await self.claim(None if due.codes is None else list(due.codes))

    async def lease_lost(self, lost: news.LeaseLost) -> None:
        await self.lost(lost.code)

    async def resync_told(self, told: news.Resync | news.RedisBack) -> None:
        await self.resync(told.since_ms)

    async def claim(self, codes: list[str] | None) -> None:
        """Take the rooms of ``codes`` (None: every stored room) that nobody owns."""
        cluster = self.cluster
        if not cluster.enabled:
            return
        if codes is None:
            async with self.db_sessions() as db:
                codes = await store.codes(db)
        codes = [c for c in codes if c not in self.table.rooms]
        for code, owner in zip(codes, await cluster.leases.owners(codes), strict=True):
            if owner is None:
                try:
                    await self.owner_of(code)
                except Exception:
                    log.exception("room %s could not be taken over", code)

    async def lost(self, code: str) -> None:
        """Another node holds the room's lease now: this node stops running it."""
        room = self.table.rooms.pop(code, None)
        if room is None:
            return
        if room.countdown is not None:
            room.countdown.cancel()
        self.race.forget(room)
        log.warning("room %s: its lease is held by another node now; let go", code)

    async def resync(self, since_ms: int) -> None:
        """Send every owned room again (Redis was lost); ``race_over`` of the races that ended
        since ``since_ms``."""
        for room in list(self.table.rooms.values()):
            self.table.push_room(room)
            # (a room taken over knows only when it last changed, as stored)
            ended = room.over_ms if room.over_ms is not None else room.touched_ms
            if room.state == OVER and room.race and ended >= since_ms:
                standings = room.standings or await self.race.stored_standings(room)
                self.table.push(room, p.RaceOver(code=room.code, standings=standings))

    async def run(self, code: str, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run ``op`` on room ``code`` here if this node owns it, else on its owner's node."""
        args = {"code": code, **args}
        cluster = self.cluster
        if not cluster.enabled:
            return await self.serve(op, args)
        deadline = asyncio.get_running_loop().time() + OWNER_WAIT_S
        while True:
            try:
                owner = await self.owner_of(code)
            except (RedisError, OSError):
                raise Busy(
                    "rooms cannot be reached right now; try again in a few seconds"
                ) from None
            if owner is None:
                raise (UnknownRoom if op == "join" else NotFound)(f"no room {code!r}")
            if isinstance(owner, RoomState):
                return await self.serve(op, args)
            if owner:
                try:
                    return await cluster.calls.call(owner, op, args)
                except Moved:
                    pass
                except CallTimeout:
                    log.warning("room %s: node %s did not answer %s", code, owner, op)
            if asyncio.get_running_loop().time() >= deadline:
                raise Busy(f"the server of room {code!r} does not answer; try again shortly")
            await asyncio.sleep(0.2)

    async def serve(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run a request on a room this node owns (asked here, or forwarded by another node)."""
        code: str = args["code"]
        if code not in self.table.rooms and self.cluster.enabled:
            owner = await self.owner_of(code)
            if owner is None:
                raise (UnknownRoom if op == "join" else NotFound)(f"no room {code!r}")
            if not isinstance(owner, RoomState):
                raise Moved(owner or None)
        if op == "join":
            player = PlayerInfo(**args["player"])
            room = await self.service.join(player, code, args["role"])
            return {"room": self.table.view(room).to_map()}
        if op == "leave":
            await self.service.leave(args["player"], code)
            return {}
        if op == "start":
            await self.service.start_race(args["player"], code, args["seed"])
            return {}
        if op == "watch":
            return {"game": await self.service.watch_check(args["player"], code, args["target"])}
        if op in ("end_race", "close"):
            here = self.service.end_race_here if op == "end_race" else self.service.close_here
            ok, outcome = await here(code)
            return {"ok": ok, "outcome": outcome}
        if op == "forget_racers":
            await self.service.forget_racers_here(code, set(args["players"]))
            return {}
        raise Internal(f"no room operation {op!r}")

    # -- requests as the handlers make them, wherever the room is run -----------------------

    async def join(self, player: PlayerInfo, code: str, role: str) -> p.RoomView:
        fields = {"id": player.id, "name": player.name, "bot": player.bot}
        answer = await self.run(code, "join", {"player": fields, "role": role})
        return p.RoomView.from_map(answer["room"])

    async def leave(self, player: int, code: str) -> None:
        await self.run(code, "leave", {"player": player})

    async def start(self, player: int, code: str, seed: int | None) -> None:
        await self.run(code, "start", {"player": player, "seed": seed})

    async def watch(self, connection: Connection, player: int, code: str, target: int) -> LiveGame:
        """``connection`` follows ``target``'s board (if the owner allows it), on this node."""
        answer = await self.run(code, "watch", {"player": player, "target": target})
        self.table.watchers.watch(connection, code, target)
        live = await self.race.game(answer["game"])
        await live.settled()
        return live

    async def end_race(self, code: str) -> tuple[bool, str]:
        """End the room's race as its time limit would (``admin end-race``), on the node
        that runs the room; what was done."""
        return await self._operator(code, "end_race")

    async def close(self, code: str) -> tuple[bool, str]:
        """Close the room (``admin close-room``), on the node that runs it; what was done."""
        return await self._operator(code, "close")

    async def forget_racers(self, code: str, players: list[int]) -> None:
        """Drop ``players`` from the room's last race (bots removed), on the node running it."""
        await self.run(code, "forget_racers", {"players": players})

    async def _operator(self, code: str, op: str) -> tuple[bool, str]:
        try:
            answer = await self.run(code, op, {})
        except NotFound:
            return False, f"no room {code!r}"
        return bool(answer["ok"]), str(answer["outcome"])
