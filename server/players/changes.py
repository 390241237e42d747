"""What an operator changes acts at once on the running server, whoever stored it.

``patience-club admin`` works on the database, often from another process
while the server runs. So the server reads, every second, the players whose
row changed (``updated_ms``, which ban, unban, rename and a new token bump)
and the reviews decided since it last looked, and acts:

- a banned player's connections are closed with 1008 and their rooms treat
  them as having left (a racer is resigned, a host hands on); their results
  leave the leaderboards (which never list a banned player), unban brings
  them back;
- a new token closes the connections that said hello with the old one;
- a new name shows in the player's connections and rooms;
- a decided review (cleared, confirmed) changes who is listed: the cached
  ranks are dropped, to be read again, and the decided games are told
  (``reviews_decided``: an arena's standings take the line the decision
  scored).

The same poll takes the operators' requests (``admin end-race``,
``close-room``, ``remove-bots``; :mod:`server.storage.queries.requests`):
each is taken once, carried out, and answered with its outcome, which the
command that stored it prints.

Each read takes the rows changed from a little before the last one seen
(:data:`WINDOW_MS`), so that a row stored by a machine whose clock is
slightly behind is not missed; a change is acted on once (its player and
``updated_ms``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.storage.models import OperatorRequest, Player
from server.storage.queries import players as store
from server.storage.queries import requests, reviews

if TYPE_CHECKING:
    from server.net.connection import Connection
    from server.players.bots import BotRemoval
    from server.races.owners import Owners
    from server.races.presence import Presence
    from server.races.service import RoomService

log = logging.getLogger(__name__)

#: how often the database is read for changes
POLL_S = 1.0
#: rows changed this long before the last one seen are read again (acted on once)
WINDOW_MS = 10_000
CLOSE_POLICY = 1008
#: an operator's request nobody took for this long is dropped, not carried out (its command
#: gave up long ago)
STALE_REQUEST_MS = 60_000


class OperatorChanges:
    def __init__(
        self,
        db_sessions: async_sessionmaker[AsyncSession],
        players: Mapping[int, set[Connection]],
        rooms: RoomService,
        presence: Presence,
        owners: Owners,
        bots: BotRemoval,
        ranks_changed: Callable[[], None],
        reviews_decided: Callable[[list[str]], Awaitable[None]] | None = None,
    ) -> None:
        self.db_sessions = db_sessions
        #: this node's welcomed connections by player id
        self.players = players
        self.rooms = rooms
        self.presence = presence
        self.owners = owners
        self.bots = bots
        #: the daily ranks are read again (a ban, an unban, a decided review change them)
        self.ranks_changed = ranks_changed
        #: the games of reviews decided since the last poll (their arena lines read again)
        self.reviews_decided = reviews_decided
        #: player id -> the ``updated_ms`` already acted on (rows within the window only)
        self._seen: dict[int, int] = {}
        self._reviews_seen: set[int] = set()
        #: the banned players, to tell a ban or an unban from other changes
        self._banned: set[int] = set()
        self._mark = 0
        self._reviews_mark = 0
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        async with self.db_sessions() as db:
            self._mark = await store.last_change(db)
            self._banned = set(await store.banned_ids(db))
        self._reviews_mark = self._mark
        self._task = asyncio.create_task(self._poll_forever(), name="operator-changes")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _poll_forever(self) -> None:
        while True:
            await asyncio.sleep(POLL_S)
            try:
                await self.poll()
            except Exception:
                log.exception("reading the operators' changes failed")

    async def poll(self) -> None:
        """Act on every change stored since the last poll."""
        async with self.db_sessions() as db:
            changed = await store.changed_since(db, since_ms=self._mark - WINDOW_MS)
            decided = await reviews.decided_since(db, since_ms=self._reviews_mark - WINDOW_MS)
        for row in changed:
            if self._seen.get(row.id) == row.updated_ms:
                continue
            self._seen[row.id] = row.updated_ms
            self._mark = max(self._mark, row.updated_ms)
            await self._apply(row)
        self._seen = {k: v for k, v in self._seen.items() if v >= self._mark - WINDOW_MS}
        fresh = [r for r in decided if r["id"] not in self._reviews_seen]
        if fresh:
            self._reviews_seen.update(r["id"] for r in fresh)
            self._reviews_mark = max(self._reviews_mark, *(r["decided_ms"] for r in fresh))
            self.ranks_changed()
            if self.reviews_decided is not None:
                await self.reviews_decided([str(r["game_id"]) for r in fresh])
        await self._take_requests()

    async def _take_requests(self) -> None:
        """Carry out the operators' requests nobody has taken, each once."""
        async with self.db_sessions() as db:
            waiting = await requests.waiting(db)
        for request in waiting:
            async with self.db_sessions() as db, db.begin():
                taken = await requests.take(
                    db, request_id=request.id, by=requests.SERVER, now_ms=store.now_ms()
                )
            if not taken:
                continue
            try:
                if store.now_ms() - request.requested_ms > STALE_REQUEST_MS:
                    ok, outcome = False, "not taken within a minute of being asked: dropped"
                else:
                    ok, outcome = await self._carry_out(request)
            except Exception:
                log.exception("operator request %d (%s) failed", request.id, request.action)
                ok, outcome = False, "the server failed to do it: see its log"
            log.info("operator request %d (%s): %s", request.id, request.action, outcome)
            async with self.db_sessions() as db, db.begin():
                await requests.finish(
                    db, request_id=request.id, ok=ok, outcome=outcome, now_ms=store.now_ms()
                )

    async def _carry_out(self, request: OperatorRequest) -> tuple[bool, str]:
        if request.action == requests.END_RACE:
            return await self.owners.end_race(request.target or "")
        if request.action == requests.CLOSE_ROOM:
            return await self.owners.close(request.target or "")
        if request.action == requests.REMOVE_BOTS:
            ids = None if not request.target else [int(x) for x in request.target.split(",")]
            removal = await self.bots.remove(ids)
            return True, "\n".join(["removed:", *removal.lines()])
        return False, f"this server does not know the request {request.action!r}"

    async def _apply(self, row: Player) -> None:
        connections = list(self.players.get(row.id, ()))
        if row.banned != (row.id in self._banned):
            (self._banned.add if row.banned else self._banned.discard)(row.id)
            self.ranks_changed()  # a ban or an unban changes who is listed
        if row.banned:
            for connection in connections:
                log.warning("%r closed: player %d is banned", connection, row.id)
                connection.revoke(CLOSE_POLICY, "you are banned from this server")
            await self.rooms.banned(row.id)
            return
        for connection in connections:
            if connection.token_hash != row.token_hash:
                log.warning("%r closed: player %d has a new token", connection, row.id)
                connection.revoke(CLOSE_POLICY, "your token was replaced")
            elif connection.player is not None and connection.player.name != row.name:
                connection.player = replace(connection.player, name=row.name)
        self.presence.renamed(row.id, row.name)
