"""The standings of each arena on this node: kept in memory, told across the cluster, pushed
coalesced, paged.

Each node keeps each arena's table (loaded from the database once, then told
of every score by the node that made it: ``ArenaLine`` news), and pushes what
changed to the players following the arena on this node at most once per
``arena_push_ms`` (1 s), however many play: ``arena_standings``, one frame
encoded once per push for all of them, when its top or count changed, and
``arena_place`` to those whose own entry changed (:mod:`server.arenas.pushes`).
At the arena's end its followers here get ``arena_over`` with the table as
stored.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.arenas.catalogue import ArenaCatalogue
from server.arenas.deals import ArenaDeals
from server.arenas.pushes import FanOut, Places
from server.arenas.state import ArenaState
from server.arenas.table import Line, Standings
from server.cluster.news import ArenaLine
from server.config import Config
from server.storage.queries import arenas as store
from shared import protocol as p

if TYPE_CHECKING:
    from server.cluster.node import Cluster
    from server.net.connection import Connection


class ArenaStandings:
    """Each arena's table on this node, its followers here, and the pushes they get."""

    def __init__(
        self,
        catalogue: ArenaCatalogue,
        deals: ArenaDeals,
        cluster: Cluster,
        players: Mapping[int, set[Connection]],
        db_sessions: async_sessionmaker[AsyncSession],
        config: Config,
        clock: Callable[[], int],
    ) -> None:
        self.catalogue = catalogue
        self.deals = deals
        self.cluster = cluster
        #: this node's welcomed connections by player (standings go to them)
        self.players = players
        self.db_sessions = db_sessions
        self.config = config
        self.clock = clock
        self.tables: dict[str, Standings] = {}
        #: players following each arena's standings on this node
        self.following: dict[str, set[int]] = {}
        self._pushed: dict[str, int] = {}
        #: the place each follower here was last sent, per arena
        self.places: dict[str, Places] = {}
        self._last_push: dict[str, float] = {}
        self._due: dict[str, asyncio.TimerHandle] = {}
        #: the push going out to each arena's followers: its writes, its start, the next chunk
        self._fanning: dict[str, tuple[FanOut, float, asyncio.Handle | None]] = {}
        # -- metrics --
        self.standings_pushes = 0
        self.standings_flushes = 0
        self.flush_seconds = 0.0
        #: the event loop thread's CPU in those pushes (what a loaded machine does not inflate)
        self.flush_cpu_seconds = 0.0
        self.flush_max_seconds = 0.0

    def stop(self) -> None:
        for handle in self._due.values():
            handle.cancel()
        self._due.clear()
        for code in list(self._fanning):
            self._stop_fan_out(code)

    def forget(self, code: str) -> None:
        self._stop_fan_out(code)
        for kept in (self.tables, self.following, self._pushed, self.places):
            kept.pop(code, None)

    def follow(self, code: str, player: int) -> None:
        """The player follows the arena's standings here (a join: its reply shows their place,
        and the next push sends it again if it changed)."""
        self.following.setdefault(code, set()).add(player)
        self.places.setdefault(code, Places()).forget(player)

    def unfollow(self, code: str, player: int) -> None:
        self.following.get(code, set()).discard(player)
        places = self.places.get(code)
        if places is not None:
            places.forget(player)

    # -- the table -------------------------------------------------------------------------

    async def table(self, code: str) -> Standings:
        """The arena's table on this node, loaded from the database the first time."""
        known = self.tables.get(code)
        if known is not None:
            return known
        async with self.db_sessions() as db:
            lines = await store.table(db, code=code)
        table = self.tables.get(code)
        if table is None:
            table = self.tables[code] = Standings()
            for pid, name, points, played, wins, fire in lines:
                table.set(Line(pid, name, points, played, wins, fire))
        return table

    async def put(self, code: str, line: Line) -> None:
        """A player's line changed here (they joined, or a deal of theirs was scored): the
        table takes it and every other node is told."""
        table = await self.table(code)
        if table.set(line):
            self._changed(code)
        self.cluster.tell(
            ArenaLine(code, line.player, line.name, line.points, line.played, line.wins, line.fire)
        )

    def line_told(self, told: ArenaLine) -> None:
        """Another node scored a deal (or a player joined there)."""
        table = self.tables.get(told.arena)
        if table is None:
            return  # loaded from the database when needed
        line = Line(told.player, told.name, told.points, told.played, told.wins, told.fire)
        if table.set(line):
            self._changed(told.arena)

    def forget_tables(self, _told: object) -> None:
        """Redis came back: what other nodes told meanwhile was lost; read the tables again."""
        self.tables.clear()

    async def info(self, arena: ArenaState, player: int, *, joined: bool) -> p.ArenaInfo:
        table = self.tables.get(arena.code)
        host = None
        async with self.db_sessions() as db:
            if table is None:
                count = (await store.counts(db, codes=[arena.code])).get(arena.code, 0)
            if arena.host_id is not None:
                host = (await store.names(db, ids=[arena.host_id])).get(arena.host_id)
        if table is not None:
            count = len(table.lines)
        return arena.info(self.clock(), count, joined, host)

    # -- pushes ----------------------------------------------------------------------------

    def _changed(self, code: str) -> None:
        """The table changed: push it once ``arena_push_ms`` has passed since the last push."""
        if code in self._due:
            return
        period = self.config.arena_push_ms / 1000
        wait = max(0.0, self._last_push.get(code, 0.0) + period - time.monotonic())
        loop = asyncio.get_running_loop()
        self._due[code] = loop.call_later(wait, self._push_standings, code)

    def _push_standings(self, code: str) -> None:
        self._due.pop(code, None)
        table = self.tables.get(code)
        arena = self.catalogue.arenas.get(code)
        if table is None or arena is None or arena.over(self.clock()):
            return
        if self._pushed.get(code) == table.version or code in self._fanning:
            return  # (a push still going out pushes again when it is done, if need be)
        cpu_started = time.thread_time()
        self._last_push[code] = time.monotonic()
        self._pushed[code] = table.version
        fan = FanOut(
            code,
            table,
            self.clock(),
            self.places.setdefault(code, Places()),
            self.following.get(code, ()),
            self.players,
        )
        self.flush_cpu_seconds += time.thread_time() - cpu_started
        self._fanning[code] = (fan, time.perf_counter(), None)
        self._fan_out(code)

    def _fan_out(self, code: str) -> None:
        """Write one chunk of the push going out; the next chunk comes at the loop's next
        turn, after what the others' sockets brought meanwhile (moves)."""
        fan, started, _ = self._fanning[code]
        cpu_started = time.thread_time()
        self.standings_pushes += fan.step(self.config.arena_push_chunk)
        self.flush_cpu_seconds += time.thread_time() - cpu_started
        if not fan.done:
            handle = asyncio.get_running_loop().call_soon(self._fan_out, code)
            self._fanning[code] = (fan, started, handle)
            return
        del self._fanning[code]
        spent = time.perf_counter() - started
        self.standings_flushes += 1
        self.flush_seconds += spent
        self.flush_max_seconds = max(self.flush_max_seconds, spent)
        table = self.tables.get(code)
        if table is not None and table.version != self._pushed.get(code):
            self._changed(code)

    def _stop_fan_out(self, code: str) -> None:
        """The arena ended or is forgotten: what its push had still to write is not."""
        _, _, handle = self._fanning.pop(code, (None, 0.0, None))
        if handle is not None:
            handle.cancel()

    async def over(self, arena: ArenaState) -> int:
        """The arena ended: its table is read as stored, and its followers here get
        ``arena_over``; the number of its players."""
        self.tables.pop(arena.code, None)
        self._stop_fan_out(arena.code)
        table = await self.table(arena.code)
        followers = self.following.pop(arena.code, set())
        deals = await self.deals.views(arena)
        info = arena.info(self.clock(), len(table.lines), True, None)
        top = table.top(p.TOP)
        for pid in followers:
            over = p.ArenaOver(arena=info, deals=deals, top=top, me=table.me(pid))
            data = p.encode(over)
            for connection in list(self.players.get(pid, ())):
                connection.send_encoded(data)
        return len(table.lines)

    # -- a page of the table ---------------------------------------------------------------

    async def table_page(self, player: int, message: p.ArenaTableRequest) -> p.ArenaTableReply:
        """A page of the table with each player's results (their games: replays once over)."""
        arena = await self.catalogue.arena(message.code)
        table = await self.table(arena.code)
        ranked = table.ranked(message.offset, message.limit)
        async with self.db_sessions() as db:
            results = await store.results(
                db, code=arena.code, players=[line.player for _, line in ranked]
            )
        entries = []
        for rank, line in ranked:
            shown = tuple(
                p.ArenaResult(
                    seq=r.seq,
                    game=r.game_id,
                    state=r.state or p.PLAYING_RESULT,
                    points=r.points,
                    berserk=r.berserk,
                    on_streak=r.on_streak,
                    time_ms=r.time_ms,
                )
                for r in results.get(line.player, [])
            )
            entries.append(
                p.ArenaEntry(
                    rank,
                    line.player,
                    line.name,
                    line.points,
                    line.played,
                    line.wins,
                    line.fire,
                    shown,
                )
            )
        return p.ArenaTableReply(
            arena=await self.info(arena, player, joined=player in table.lines),
            deals=await self.deals.views(arena),
            entries=tuple(entries),
            offset=message.offset,
            total=len(table.lines),
            re=message.id,
        )
