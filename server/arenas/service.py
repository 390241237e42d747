"""Arenas: timed tournaments on one variant, played on every node, scored once, kept.

An arena is a row of ``arenas`` (created by an operator's command, by the
schedule of the settings, or by a player: a private arena whose code is its
link). Between its start and its end every player who joined plays the same
sequence of keyed deals, each in their own time, one after another: the
deals are drawn from the pool of won deals (server/deals/pool.py) the first
time a player reaches them, stored with their commitment (shown from then
on, before anyone plays them) and their par time (:mod:`server.arenas.par`),
and their keys stay secret until the arena is over (every arena game shows
its key from the arena's end: ``reveal_ms``).

Every node runs arenas the same way, with the database as the arbiter: a
deal is dealt to a player once (``arena_games`` is unique by arena, player
and deal), a finished deal is scored once (:meth:`ArenaService.settle`, under
the player's row lock; its points with :mod:`server.arenas.scoring`), and the
result is stored before the action that ended the game is acknowledged (the
service is a game listener). A result a node could not score (it died) is
scored by the next node that looks: the player's next ``arena_play``, or the
sweep of deals past their deadline that every node runs each second, which
also ends the deals out of time and, at the arena's end, every deal still
played. So no node owns an arena, and killing one loses no acknowledged result.

Standings: each node keeps each arena's table in memory (loaded from the
database once, then told of every score by the node that made it:
``ArenaLine`` news), and pushes ``arena_standings`` to the players following
the arena on this node at most once per ``arena_push_ms``, however many
play: the common part of the frame is encoded once per push, each player's
own entry appended to it (:mod:`server.arenas.pushes`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.arenas import par
from server.arenas.pushes import StandingsFrame
from server.arenas.schedule import Entry, due, parse
from server.arenas.scoring import DealPlayed, on_fire, score_deals
from server.arenas.table import Line, Standings
from server.cluster.news import ArenaLine, GamesForgotten
from server.config import Config
from server.deals.pool import options_text
from server.errors import (
    ArenaNotRunning,
    Forbidden,
    GameOver,
    HintsOff,
    NotFound,
    NotInArena,
    NotRatable,
)
from server.games.fields import check_variant, checked_options
from server.games.live import LiveGame
from server.storage.engine import create_sync_engine
from server.storage.models import Arena, ArenaDeal, ArenaGame, ArenaPlayer
from server.storage.queries import arenas as store
from server.storage.queries import pool as pooled
from shared import protocol as p
from shared.deals import commitment
from shared.states import ENDED, TIMEOUT, WON

if TYPE_CHECKING:
    from server.cluster.node import Cluster
    from server.deals.pool import DealPool
    from server.games.service import GameService
    from server.games.store import GameStore
    from server.net.connection import Connection, PlayerInfo
    from server.review.service import ReviewService

log = logging.getLogger(__name__)

#: arenas stay listed (and in memory) this long after their end
KEEP_MS = 86_400_000
#: a deal past its deadline is ended by whichever node holds it at once, by any other node
#: after this grace (its own node may be gone)
ORPHAN_MS = 5_000
#: tries of a score that lost a race for the database to another writer
TRIES = 4


@dataclass(slots=True)
class ArenaState:
    """An arena as this node knows it (its row)."""

    code: str
    name: str
    variant: str
    options: dict[str, bool | int]
    starts_ms: int
    ends_ms: int
    host_id: int | None
    private: bool
    cancelled_ms: int | None

    @classmethod
    def of(cls, row: Arena) -> ArenaState:
        return cls(
            row.code,
            row.name,
            row.variant,
            json.loads(row.options),
            row.starts_ms,
            row.ends_ms,
            row.host_id,
            row.private,
            row.cancelled_ms,
        )

    def state(self, now_ms: int) -> str:
        if self.cancelled_ms is not None:
            return p.CANCELLED
        if now_ms < self.starts_ms:
            return p.UPCOMING
        if now_ms < self.ends_ms:
            return p.RUNNING
        return p.FINISHED

    def over(self, now_ms: int) -> bool:
        return self.state(now_ms) in (p.FINISHED, p.CANCELLED)


@dataclass(frozen=True, slots=True)
class DealRow:
    seq: int
    key: bytes
    commitment: str
    par_ms: int


def new_code() -> str:
    return "".join(secrets.choice(p.CODE_ALPHABET) for _ in range(p.CODE_LENGTH))


class ArenaService:
    """Every arena this server knows: creation, joins, deals, scores, standings, the end."""

    def __init__(
        self,
        games: GameService,
        store: GameStore,
        pool: DealPool,
        review: ReviewService,
        cluster: Cluster,
        players: Mapping[int, set[Connection]],
        db_sessions: async_sessionmaker[AsyncSession],
        config: Config,
        clock: Callable[[], int],
    ) -> None:
        self.games = games
        self.store = store
        self.pool = pool
        self.review = review
        self.cluster = cluster
        #: this node's welcomed connections by player (standings go to them)
        self.players = players
        self.db_sessions = db_sessions
        self.config = config
        self.clock = clock
        self.schedule: tuple[Entry, ...] = parse(config.arena_schedule, store.variants.ids)
        self.arenas: dict[str, ArenaState] = {}
        self.tables: dict[str, Standings] = {}
        #: players following each arena's standings on this node
        self.following: dict[str, set[int]] = {}
        self.deals: dict[str, dict[int, DealRow]] = {}
        self._drawing: dict[tuple[str, int], asyncio.Future[DealRow]] = {}
        self._locks: dict[tuple[str, int], asyncio.Lock] = {}
        #: arenas whose end this node has pushed
        self.finished: set[str] = set()
        self._pushed: dict[str, int] = {}
        self._last_push: dict[str, float] = {}
        self._due: dict[str, asyncio.TimerHandle] = {}
        self._seen_ms = 0
        #: scores are written in a thread on a synchronous connection (see _record)
        self._sync_engine: Engine | None = None
        self._ticking: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        # -- metrics --
        self.created = 0
        self.dealt = 0
        self.scored = 0
        self.standings_pushes = 0
        self.standings_flushes = 0
        self.flush_seconds = 0.0
        #: the event loop thread's CPU in those pushes (what a loaded machine does not inflate)
        self.flush_cpu_seconds = 0.0
        self.flush_max_seconds = 0.0

    # -- life cycle ------------------------------------------------------------------------

    async def start(self) -> None:
        await self._poll()
        self._ticking = asyncio.create_task(self._tick_forever(), name="arenas")

    async def stop(self) -> None:
        tasks = [t for t in (self._ticking, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for handle in self._due.values():
            handle.cancel()
        self._due.clear()
        if self._sync_engine is not None:
            self._sync_engine.dispose()
            self._sync_engine = None

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(self.config.arena_tick_ms / 1000)
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("arenas: tick failed")

    async def tick(self) -> None:
        """Read the arenas changed since the last tick, create the scheduled ones due, end the
        deals out of time, and end the arenas whose time is up."""
        await self._poll()
        await self._create_scheduled()
        await self._sweep()
        now = self.clock()
        for arena in list(self.arenas.values()):
            if arena.over(now) and arena.code not in self.finished:
                await self._finish(arena)
            elif arena.ends_ms + KEEP_MS < now:
                self._forget(arena.code)

    async def _poll(self) -> None:
        now = self.clock()
        since = self._seen_ms - 10_000
        async with self.db_sessions() as db:
            rows = await store.changed(db, since_ms=since, ends_after_ms=now - KEEP_MS)
        for row in rows:
            self.arenas[row.code] = ArenaState.of(row)
            self._seen_ms = max(self._seen_ms, row.updated_ms)

    def _forget(self, code: str) -> None:
        for kept in (self.arenas, self.tables, self.following, self.deals, self._pushed):
            kept.pop(code, None)
        self.finished.discard(code)

    # -- creating --------------------------------------------------------------------------

    async def create(
        self,
        *,
        variant: str,
        minutes: int,
        starts_ms: int,
        name: str,
        host_id: int | None,
        private: bool,
        code: str | None = None,
        schedule: str | None = None,
    ) -> ArenaState | None:
        """Store a new arena; None when ``code`` (a scheduled occurrence's) is stored already."""
        check_variant(self.store.variants, variant)
        options = checked_options(self.store.variants, variant, {})
        now = self.clock()
        for _ in range(5):
            row = Arena(
                code=code or new_code(),
                name=name,
                variant=variant,
                options=options_text(options),
                starts_ms=starts_ms,
                ends_ms=starts_ms + minutes * 60_000,
                host_id=host_id,
                private=private,
                schedule=schedule,
                cancelled_ms=None,
                created_ms=now,
                updated_ms=now,
            )
            try:
                async with self.db_sessions() as db, db.begin():
                    db.add(row)
            except IntegrityError:
                if code is not None:
                    return None
                continue  # a random code taken: another
            arena = self.arenas[row.code] = ArenaState.of(row)
            self.created += 1
            log.info(
                "arena %s created: %s, %s, %d minutes%s",
                row.code,
                name,
                variant,
                minutes,
                " (private)" if private else "",
            )
            return arena
        raise NotFound("no free arena code was found; try again")  # pragma: no cover

    async def _create_scheduled(self) -> None:
        ahead = self.config.arena_ahead_h * 3_600_000
        for entry, starts in due(self.schedule, self.clock(), ahead):
            code = entry.code(starts)
            if code in self.arenas:
                continue
            await self.create(
                variant=entry.variant,
                minutes=entry.minutes,
                starts_ms=starts,
                name=entry.name,
                host_id=None,
                private=False,
                code=code,
                schedule=entry.text,
            )
            if code not in self.arenas:  # another node made it: read it
                async with self.db_sessions() as db:
                    row = await store.arena(db, code=code)
                if row is not None:
                    self.arenas[code] = ArenaState.of(row)

    async def create_private(self, player: PlayerInfo, message: p.ArenaCreate) -> p.ArenaReply:
        """A player's private arena: its code is the link they share."""
        if player.bot:
            raise NotRatable("bots never play in arenas: arenas are ranked")
        check_variant(self.store.variants, message.variant)
        info = self.store.variants.get(message.variant)
        name = message.name or f"{player.name}'s {info.name} arena"
        arena = await self.create(
            variant=message.variant,
            minutes=message.minutes,
            starts_ms=self.clock() + message.starts_in_s * 1000,
            name=name,
            host_id=player.id,
            private=True,
        )
        assert arena is not None
        return await self.join(player, arena.code, message.id)

    # -- finding ---------------------------------------------------------------------------

    async def arena(self, code: str) -> ArenaState:
        """The arena of ``code``, from memory or as stored; ``not_found`` otherwise."""
        known = self.arenas.get(code)
        if known is not None:
            return known
        async with self.db_sessions() as db:
            row = await store.arena(db, code=code)
        if row is None:
            raise NotFound(f"no arena {code!r}")
        arena = self.arenas[code] = ArenaState.of(row)
        return arena

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
        return self._info(arena, count, joined, host)

    def _info(self, arena: ArenaState, count: int, joined: bool, host: str | None) -> p.ArenaInfo:
        return p.ArenaInfo(
            code=arena.code,
            name=arena.name,
            variant=arena.variant,
            starts_ms=arena.starts_ms,
            ends_ms=arena.ends_ms,
            state=arena.state(self.clock()),
            private=arena.private,
            players=count,
            joined=joined,
            host=host,
        )

    async def listed(self, player: int, message: p.ArenasRequest) -> p.ArenasReply:
        """Every public arena not over for a day, and the private ones the player is in."""
        now = self.clock()
        shown = [a for a in self.arenas.values() if a.ends_ms + KEEP_MS > now]
        codes = [a.code for a in shown]
        async with self.db_sessions() as db:
            joined = await store.joined_by(db, player_id=player, codes=codes)
            counts = await store.counts(db, codes=codes)
            hosts = await store.names(db, ids=[a.host_id for a in shown if a.host_id])
        visible = [a for a in shown if not a.private or a.host_id == player or a.code in joined]
        visible.sort(key=lambda a: (a.over(now), a.starts_ms, a.code))
        return p.ArenasReply(
            arenas=tuple(
                self._info(
                    a,
                    counts.get(a.code, 0),
                    a.code in joined,
                    None if a.host_id is None else hosts.get(a.host_id),
                )
                for a in visible
            ),
            re=message.id,
        )

    async def deal_views(self, arena: ArenaState) -> tuple[p.ArenaDeal, ...]:
        """The arena's deals drawn so far: their commitments, and their keys once it is over."""
        async with self.db_sessions() as db:
            rows = await store.deals(db, code=arena.code)
        reveal = arena.over(self.clock())
        return tuple(
            p.ArenaDeal(row.seq, row.commitment, row.par_ms, row.deal_key if reveal else None)
            for row in rows
        )

    # -- joining and leaving ---------------------------------------------------------------

    async def join(self, player: PlayerInfo, code: str, re: int | None) -> p.ArenaReply:
        """Join (once; again changes nothing) and follow the standings; an arena over is shown
        with its final table and nothing is joined."""
        arena = await self.arena(code)
        now = self.clock()
        if not arena.over(now):
            if player.bot:
                raise NotRatable("bots never play in arenas: arenas are ranked")
            await self._joined(arena, player)
            self.following.setdefault(code, set()).add(player.id)
        return await self.reply(arena, player.id, re)

    async def _joined(self, arena: ArenaState, player: PlayerInfo) -> None:
        with contextlib.suppress(IntegrityError):
            async with self.db_sessions() as db, db.begin():
                if await store.is_joined(db, code=arena.code, player_id=player.id):
                    return
                db.add(
                    ArenaPlayer(
                        arena=arena.code,
                        player_id=player.id,
                        joined_ms=self.clock(),
                        points=0,
                        played=0,
                        wins=0,
                        fire=False,
                    )
                )
            log.info("arena %s: %s joined", arena.code, player.name)
            line = Line(player.id, player.name)
            table = await self.table(arena.code)
            if table.set(line):
                self._changed(arena.code)
            self.cluster.tell(_news(arena.code, line))

    async def reply(self, arena: ArenaState, player: int, re: int | None) -> p.ArenaReply:
        table = await self.table(arena.code)
        joined = player in table.lines
        if not joined:
            async with self.db_sessions() as db:
                joined = await store.is_joined(db, code=arena.code, player_id=player)
        game = None
        if joined:
            async with self.db_sessions() as db:
                last = await store.last_game(db, code=arena.code, player_id=player)
            game = last.game_id if last is not None and last.state is None else None
        return p.ArenaReply(
            arena=await self.info(arena, player, joined=joined),
            deals=await self.deal_views(arena),
            top=table.top(p.TOP),
            me=table.me(player),
            game=game,
            re=re,
        )

    async def leave(self, player: int, code: str) -> None:
        """Stop following the arena here; the points scored stay (a deal being played goes on
        until it ends or runs out of time)."""
        arena = await self.arena(code)
        async with self.db_sessions() as db:
            if not await store.is_joined(db, code=arena.code, player_id=player):
                raise NotInArena(f"you have not joined arena {code}")
        self.following.get(code, set()).discard(player)

    # -- playing ---------------------------------------------------------------------------

    def _lock(self, code: str, player: int) -> asyncio.Lock:
        if len(self._locks) > 50_000:
            self._locks = {k: v for k, v in self._locks.items() if v.locked()}
        return self._locks.setdefault((code, player), asyncio.Lock())

    async def play(self, player: PlayerInfo, code: str, re: int | None) -> p.ArenaGame:
        """The player's deal: the one being played, else the next of the sequence."""
        arena = await self.arena(code)
        if arena.state(self.clock()) != p.RUNNING:
            raise ArenaNotRunning(f"arena {code} is {arena.state(self.clock())}: no deal to play")
        async with self._lock(code, player.id):
            async with self.db_sessions() as db:
                if not await store.is_joined(db, code=code, player_id=player.id):
                    raise NotInArena(f"join arena {code} first")
                last = await store.last_game(db, code=code, player_id=player.id)
            seq = 0
            if last is not None:
                seq = last.seq + 1
                if last.state is None:
                    live = await self.store.current(last.game_id)
                    if live.state not in ENDED and self.clock() < last.deadline_ms:
                        return await self._arena_game(arena, last, live, re)
                    if live.state not in ENDED:
                        live = await self.games.end(live, TIMEOUT)
                    await self.settle(live)
            if arena.state(self.clock()) != p.RUNNING:
                raise ArenaNotRunning(f"arena {code} is over: no more deals")
            return await self._deal_next(arena, player.id, seq, re)

    async def _deal_next(
        self, arena: ArenaState, player: int, seq: int, re: int | None
    ) -> p.ArenaGame:
        deal = await self.deal(arena, seq)
        live = await self.games.start(
            player,
            arena.variant,
            arena.options,
            key=deal.key,
            kind=p.ARENA,
            reveal_ms=arena.ends_ms,
            guarded=False,
        )
        allowance = par.allowance_ms(deal.par_ms, berserk=False)
        row = ArenaGame(
            game_id=live.id,
            arena=arena.code,
            player_id=player,
            seq=seq,
            berserk=False,
            allowance_ms=allowance,
            deadline_ms=par.deadline_ms(live.started_ms, allowance, arena.ends_ms),
            state=None,
            time_ms=0,
            points=0,
            on_streak=False,
            held=False,
        )
        try:
            async with self.db_sessions() as db, db.begin():
                db.add(row)
        except IntegrityError:
            # Another node dealt this player this deal first: theirs is the game; this one
            # was never shown to anyone and goes.
            self.store.forget(live.id)
            async with self.db_sessions() as db:
                theirs = await store.last_game(db, code=arena.code, player_id=player)
            if theirs is None:
                raise
            return await self._arena_game(arena, theirs, await self.store.get(theirs.game_id), re)
        self.dealt += 1
        self._spawn(self._ahead(arena, seq + 1))
        return await self._arena_game(arena, row, live, re)

    async def _ahead(self, arena: ArenaState, seq: int) -> None:
        """The next deal drawn (and its commitment stored) before anyone reaches it."""
        with contextlib.suppress(Exception):
            await self.deal(arena, seq)

    def _spawn(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _arena_game(
        self, arena: ArenaState, row: ArenaGame, live: LiveGame, re: int | None
    ) -> p.ArenaGame:
        deal = await self.deal(arena, row.seq)
        return p.ArenaGame(
            code=arena.code,
            seq=row.seq,
            game=self.games.view(live),
            par_ms=deal.par_ms,
            allowance_ms=row.allowance_ms,
            berserk=row.berserk,
            re=re,
        )

    async def berserk(self, player: PlayerInfo, code: str, re: int | None) -> p.ArenaGame:
        """Berserk on the deal being played, before its first action: half the allowance."""
        arena = await self.arena(code)
        if arena.state(self.clock()) != p.RUNNING:
            raise ArenaNotRunning(f"arena {code} is {arena.state(self.clock())}")
        async with self._lock(code, player.id):
            async with self.db_sessions() as db:
                if not await store.is_joined(db, code=code, player_id=player.id):
                    raise NotInArena(f"join arena {code} first")
                last = await store.last_game(db, code=code, player_id=player.id)
            if last is None or last.state is not None:
                raise GameOver(f"no deal of arena {code} is being played: ask for one first")
            live = await self.store.current(last.game_id)
            if live.state in ENDED:
                raise GameOver(f"your deal of arena {code} has ended: ask for the next")
            if last.berserk:
                return await self._arena_game(arena, last, live, re)
            if live.game.ply > 0:
                raise Forbidden("berserk only before the first action of a deal")
            deal = await self.deal(arena, last.seq)
            allowance = par.allowance_ms(deal.par_ms, berserk=True)
            async with self.db_sessions() as db, db.begin():
                row = await store.game(db, game_id=last.game_id)
                assert row is not None
                row.berserk = True
                row.allowance_ms = allowance
                row.deadline_ms = par.deadline_ms(live.started_ms, allowance, arena.ends_ms)
            async with self.db_sessions() as db:
                row = await store.game(db, game_id=last.game_id)
            assert row is not None
            return await self._arena_game(arena, row, live, re)

    def hint_lock(self, live: LiveGame) -> None:
        """``hints_off`` in an arena's deal (a hint guard)."""
        if live.kind == p.ARENA:
            raise HintsOff("hints are off in an arena")

    # -- deals -----------------------------------------------------------------------------

    async def deal(self, arena: ArenaState, seq: int) -> DealRow:
        """Deal ``seq`` of the arena's sequence: stored, or drawn now (once, on every node)."""
        cache = self.deals.setdefault(arena.code, {})
        known = cache.get(seq)
        if known is not None:
            return known
        key = (arena.code, seq)
        drawing = self._drawing.get(key)
        if drawing is None:
            drawing = asyncio.ensure_future(self._fetch(arena, seq))
            self._drawing[key] = drawing
            drawing.add_done_callback(lambda _: self._drawing.pop(key, None))
            drawing.add_done_callback(lambda f: f.cancelled() or f.exception())
        found = await asyncio.shield(drawing)
        cache[seq] = found
        return found

    async def _fetch(self, arena: ArenaState, seq: int) -> DealRow:
        async with self.db_sessions() as db:
            row = await store.deal(db, code=arena.code, seq=seq)
        if row is None:
            key, line = await self._draw(arena)
            row = ArenaDeal(
                arena=arena.code,
                seq=seq,
                deal_key=key.hex(),
                commitment=commitment(arena.variant, key),
                par_ms=par.par_ms(line),
                line=-1 if line is None else line,
            )
            try:
                async with self.db_sessions() as db, db.begin():
                    db.add(row)
            except IntegrityError:  # another node drew it first: theirs is the deal
                async with self.db_sessions() as db:
                    row = await store.deal(db, code=arena.code, seq=seq)
                assert row is not None
        return DealRow(row.seq, bytes.fromhex(row.deal_key), row.commitment, row.par_ms)

    async def _draw(self, arena: ArenaState) -> tuple[bytes, int | None]:
        """A won deal from the pool with the moves of its solver's line, or (the pool empty) one
        solved now, whose line is not known."""
        difficulty = self.config.arena_difficulty
        async with self.db_sessions() as db:
            rows = await pooled.take_many(
                db,
                variant=arena.variant,
                options=options_text(arena.options),
                difficulty=difficulty,
                count=1,
            )
        if rows:
            key, _positions, line = rows[0]
            return bytes.fromhex(key), line
        return await self.pool.draw(arena.variant, arena.options, difficulty), None

    # -- scoring ---------------------------------------------------------------------------

    async def on_action(self, live: LiveGame, _action: str) -> None:
        """A game listener: an arena deal that ended is scored before its action is
        acknowledged (a failure is logged; the sweep or the next deal scores it)."""
        if live.kind != p.ARENA or live.state not in ENDED:
            return
        try:
            await self.settle(live)
        except Exception:
            log.exception("arena game %s: not scored now (it will be)", live.id)

    async def settle(self, live: LiveGame) -> None:
        """Score an ended arena deal once, with its player's totals, in one transaction."""
        async with self.db_sessions() as db:
            row = await store.game(db, game_id=live.id)
        if row is None or row.state is not None:
            return
        arena = await self.arena(row.arena)
        deal = await self.deal(arena, row.seq)
        ended = live.ended_ms if live.ended_ms is not None else self.clock()
        time_ms = live.elapsed_ms(ended)
        in_time = time_ms <= row.allowance_ms and ended <= arena.ends_ms
        won = live.state == WON and in_time
        held = won and await self.review.check(live, f"arena {arena.code} deal {row.seq + 1}")
        state = TIMEOUT if live.state == WON and not in_time else live.state
        this = DealPlayed(won=won and not held, time_ms=time_ms, par_ms=deal.par_ms,
                          berserk=row.berserk)  # fmt: skip
        totals: store.Totals | None = None
        for attempt in range(TRIES):
            try:
                totals = await self._record(row, this, state, held)
                break
            except DBAPIError:
                if attempt == TRIES - 1:
                    raise
                await asyncio.sleep(0.05 * (attempt + 1))
        if totals is None:
            return
        self.scored += 1
        table = await self.table(arena.code)
        old = table.lines.get(row.player_id)
        name = old.name if old is not None else await self._name(row.player_id)
        line = Line(row.player_id, name, totals.points, totals.played, totals.wins, totals.fire)
        if table.set(line):
            self._changed(arena.code)
        self.cluster.tell(_news(arena.code, line))

    async def _record(
        self, row: ArenaGame, this: DealPlayed, state: str, held: bool
    ) -> store.Totals | None:
        """Write the deal's result and the player's totals in one transaction, in a thread on a
        synchronous connection (see :func:`~server.storage.queries.arenas.record_sync`)."""

        def score(rows: Sequence[Any]) -> tuple[store.Result, store.Totals] | None:
            mine = next((r for r in rows if r.game_id == row.game_id), None)
            if mine is None or mine.state is not None:
                return None  # scored meanwhile by another node
            before = [r for r in rows if r.state is not None and r.seq < row.seq]
            later = [r for r in rows if r.state is not None and r.seq > row.seq]
            played = [_played(r) for r in before]
            scored = score_deals([*played, this])[-1]
            result = store.Result(state, this.time_ms, scored.points, scored.on_streak, held)
            everything = [*played, this, *(_played(r) for r in later)]
            totals = store.Totals(
                points=sum(r.points for r in before) + scored.points + sum(r.points for r in later),
                played=len(everything),
                wins=sum(1 for d in everything if d.won),
                fire=on_fire(everything),
            )
            return result, totals

        def work() -> store.Totals | None:
            with self._sync().begin() as conn:
                return store.record_sync(
                    conn, game_id=row.game_id, code=row.arena, player_id=row.player_id, score=score
                )

        return await asyncio.to_thread(work)

    def _sync(self) -> Engine:
        if self._sync_engine is None:
            self._sync_engine = create_sync_engine(self.config.db)
        return self._sync_engine

    async def _name(self, player: int) -> str:
        async with self.db_sessions() as db:
            return (await store.names(db, ids=[player])).get(player, "?")

    async def _sweep(self) -> None:
        """End the deals out of time: this node's at once, any other's after ``ORPHAN_MS``."""
        now = self.clock()
        async with self.db_sessions() as db:
            late = await store.overdue(db, now_ms=now)
        for game_id, _code in late:
            live = self.store.in_memory(game_id)
            if live is None:
                async with self.db_sessions() as db:
                    row = await store.game(db, game_id=game_id)
                if row is None or row.deadline_ms > now - ORPHAN_MS:
                    continue
            try:
                live = await self.store.current(game_id)
                if live.state not in ENDED:
                    live = await self.games.end(live, TIMEOUT)  # scored by on_action
                await self.settle(live)
            except Exception:
                log.exception("arena game %s: could not be ended", game_id)

    # -- the end ---------------------------------------------------------------------------

    async def _finish(self, arena: ArenaState) -> None:
        """The arena's time is up (or it was cancelled): every deal still played ends and is
        scored, the table is read as stored, and its followers here get ``arena_over``."""
        async with self.db_sessions() as db:
            still = await store.open_games(db, code=arena.code)
        for game_id in still:
            try:
                live = await self.store.current(game_id)
                if live.state not in ENDED:
                    live = await self.games.end(live, TIMEOUT)
                await self.settle(live)
            except Exception:
                log.exception("arena %s: game %s could not be ended", arena.code, game_id)
                return  # tried again at the next tick
        if arena.cancelled_ms is not None and arena.cancelled_ms < arena.ends_ms:
            await self._reveal(arena)
        self.finished.add(arena.code)
        self.tables.pop(arena.code, None)
        table = await self.table(arena.code)
        followers = self.following.pop(arena.code, set())
        deals = await self.deal_views(arena)
        info = self._info(arena, len(table.lines), True, None)
        top = table.top(p.TOP)
        for pid in followers:
            over = p.ArenaOver(arena=info, deals=deals, top=top, me=table.me(pid))
            data = p.encode(over)
            for connection in list(self.players.get(pid, ())):
                connection.send_encoded(data)
        log.info("arena %s %s: %d players", arena.code, arena.state(self.clock()), len(table.lines))

    async def _reveal(self, arena: ArenaState) -> None:
        """A cancelled arena's games show their keys now, not at the end it would have had."""
        async with self.db_sessions() as db:
            ids = await store.game_ids(db, code=arena.code)
        lives = [await self.store.current(game_id) for game_id in ids]
        await self.games.reveal(lives)
        if ids:  # other nodes' copies show the keys too
            self.cluster.tell(GamesForgotten(tuple(ids)))

    async def cancel(self, code: str) -> None:
        """Cancel an arena (the operators'): it ends now, what was scored stays."""
        arena = await self.arena(code)
        now = self.clock()
        async with self.db_sessions() as db, db.begin():
            row = await store.arena(db, code=code)
            assert row is not None
            row.cancelled_ms = now
            row.updated_ms = now
        arena.cancelled_ms = now

    # -- standings -------------------------------------------------------------------------

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
        arena = self.arenas.get(code)
        if table is None or arena is None or arena.over(self.clock()):
            return
        if self._pushed.get(code) == table.version:
            return
        started = time.perf_counter()
        cpu_started = time.thread_time()
        self._last_push[code] = time.monotonic()
        self._pushed[code] = table.version
        frame = StandingsFrame(code, table.version, len(table.lines), table.top(p.TOP))
        sent = 0
        for pid in self.following.get(code, ()):
            connections = self.players.get(pid)
            if not connections:
                continue
            data = frame.for_player(table.me(pid))
            for connection in list(connections):
                connection.send_encoded(data)
                sent += 1
        spent = time.perf_counter() - started
        self.flush_cpu_seconds += time.thread_time() - cpu_started
        self.standings_pushes += sent
        self.standings_flushes += 1
        self.flush_seconds += spent
        self.flush_max_seconds = max(self.flush_max_seconds, spent)

    async def table_page(self, player: int, message: p.ArenaTableRequest) -> p.ArenaTableReply:
        """A page of the table with each player's results (their games: replays once over)."""
        arena = await self.arena(message.code)
        table = await self.table(arena.code)
        ranked = table.ranked()[message.offset : message.offset + message.limit]
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
            deals=await self.deal_views(arena),
            entries=tuple(entries),
            offset=message.offset,
            total=len(table.lines),
            re=message.id,
        )


def _played(row: Any) -> DealPlayed:
    """A finished deal as the scoring reads it (its stored points are what counted)."""
    won = row.state == WON and not row.held
    return DealPlayed(won=won, time_ms=row.time_ms, par_ms=row.time_ms, berserk=row.berserk)


def _news(code: str, line: Line) -> ArenaLine:
    return ArenaLine(code, line.player, line.name, line.points, line.played, line.wins, line.fire)
