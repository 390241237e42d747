"""Joining an arena and playing its deals: a player's next deal, berserk, leaving.

Between its start and its end every player who joined plays the same sequence
of keyed deals (:mod:`server.arenas.deals`), each in their own time, one
after another. A deal is dealt to a player once (``arena_games`` is unique by
arena, player and deal), whichever node they ask; a deal left ended but not
scored is scored before the next is dealt.

A deal's game and its ``arena_games`` row are stored in one transaction
(the game's own write, through the group commit), so a node that dies while
dealing leaves both or neither. Servers before that stored them one after
the other, and one that died between the two left a game of the deal that no
arena row names (an orphan), never told to its player. A node that first
deals to a player (it holds no deal of theirs: see server/arenas/seats.py)
looks for such a game first (:meth:`ArenaPlay._left_by_a_node`): one never
played (no action stored: its player cannot have seen it but through their
list of games, and lost nothing) is dropped and the same deal dealt again,
with a clock of its own, once; one played (the player found it in their
games and moved) is played on, as it stands, with its own clock. Either way
the player has one game of each deal, and no result they were acknowledged
is lost (tests/server/cluster/test_arena_deals.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.arenas import par
from server.arenas.catalogue import ArenaCatalogue
from server.arenas.deals import ArenaDeals
from server.arenas.seats import ArenaSeats, Seat
from server.arenas.settlement import ArenaSettlement
from server.arenas.standings import ArenaStandings
from server.arenas.state import ArenaState
from server.arenas.table import Line
from server.errors import ArenaNotRunning, Forbidden, GameOver, NotInArena, NotRatable
from server.games.fields import check_variant
from server.games.live import LiveGame
from server.storage.models import ArenaGame, ArenaPlayer
from server.storage.queries import arena_orphans as orphans
from server.storage.queries import arenas as store
from shared import protocol as p
from shared.states import ENDED, TIMEOUT

if TYPE_CHECKING:
    from server.games.service import GameService
    from server.games.store import GameStore
    from server.net.connection import PlayerInfo

log = logging.getLogger(__name__)


class ArenaPlay:
    """A player's requests on an arena: create a private one, join, leave, play, berserk."""

    def __init__(
        self,
        catalogue: ArenaCatalogue,
        deals: ArenaDeals,
        standings: ArenaStandings,
        seats: ArenaSeats,
        settlement: ArenaSettlement,
        games: GameService,
        store: GameStore,
        db_sessions: async_sessionmaker[AsyncSession],
        clock: Callable[[], int],
    ) -> None:
        self.catalogue = catalogue
        self.deals = deals
        self.standings = standings
        #: each player's latest deal as this node knows it (see server/arenas/seats.py)
        self.seats = seats
        self.settlement = settlement
        self.games = games
        self.store = store
        self.db_sessions = db_sessions
        self.clock = clock
        self._locks: dict[tuple[str, int], asyncio.Lock] = {}
        #: the next deals drawn ahead (cancelled at the stop)
        self.tasks: set[asyncio.Task[None]] = set()
        #: deals this node dealt (a metric)
        self.dealt = 0

    async def create_private(self, player: PlayerInfo, message: p.ArenaCreate) -> p.ArenaReply:
        """A player's private arena: its code is the link they share."""
        if player.bot:
            raise NotRatable("bots never play in arenas: arenas are ranked")
        check_variant(self.store.variants, message.variant)
        info = self.store.variants.get(message.variant)
        name = message.name or f"{player.name}'s {info.name} arena"
        arena = await self.catalogue.create(
            variant=message.variant,
            minutes=message.minutes,
            starts_ms=self.clock() + message.starts_in_s * 1000,
            name=name,
            host_id=player.id,
            private=True,
        )
        assert arena is not None
        return await self.join(player, arena.code, message.id)

    # -- joining and leaving ---------------------------------------------------------------

    async def join(self, player: PlayerInfo, code: str, re: int | None) -> p.ArenaReply:
        """Join (once; again changes nothing) and follow the standings; an arena over is shown
        with its final table and nothing is joined."""
        arena = await self.catalogue.arena(code)
        now = self.clock()
        if not arena.over(now):
            if player.bot:
                raise NotRatable("bots never play in arenas: arenas are ranked")
            await self._joined(arena, player)
            self.standings.follow(code, player.id)
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
            await self.standings.put(arena.code, Line(player.id, player.name))

    async def reply(self, arena: ArenaState, player: int, re: int | None) -> p.ArenaReply:
        table = await self.standings.table(arena.code)
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
            arena=await self.standings.info(arena, player, joined=joined),
            deals=await self.deals.views(arena),
            top=table.top(p.TOP),
            me=table.me(player),
            game=game,
            re=re,
        )

    async def leave(self, player: int, code: str) -> None:
        """Stop following the arena here; the points scored stay (a deal being played goes on
        until it ends or runs out of time)."""
        arena = await self.catalogue.arena(code)
        async with self.db_sessions() as db:
            if not await store.is_joined(db, code=arena.code, player_id=player):
                raise NotInArena(f"you have not joined arena {code}")
        self.standings.unfollow(code, player)

    # -- playing ---------------------------------------------------------------------------

    def _lock(self, code: str, player: int) -> asyncio.Lock:
        if len(self._locks) > 50_000:
            self._locks = {k: v for k, v in self._locks.items() if v.locked()}
        return self._locks.setdefault((code, player), asyncio.Lock())

    async def play(self, player: PlayerInfo, code: str, re: int | None) -> p.ArenaGame:
        """The player's deal: the one being played, else the next of the sequence."""
        arena = await self.catalogue.arena(code)
        if arena.state(self.clock()) != p.RUNNING:
            raise ArenaNotRunning(f"arena {code} is {arena.state(self.clock())}: no deal to play")
        async with self._lock(code, player.id):
            last, known = await self._latest(code, player.id)
            seq = 0
            if last is not None:
                seq = last.seq + 1
                if last.state is None:
                    live = await self.store.current(last.game_id)
                    if live.state not in ENDED and self.clock() < last.deadline_ms:
                        return await self._arena_game(arena, last, live, re)
                    if live.state not in ENDED:
                        live = await self.games.end(live, TIMEOUT)
                    await self.settlement.settle(live)
            if arena.state(self.clock()) != p.RUNNING:
                raise ArenaNotRunning(f"arena {code} is over: no more deals")
            return await self._deal_next(arena, player.id, seq, re, known=known)

    async def _latest(self, code: str, player: int) -> tuple[Seat | None, bool]:
        """The player's latest deal in the arena, and whether this node held it: as this node
        last dealt, scored or read it, else as stored (refused unless they joined). A seat
        behind the database is safe here (server/arenas/seats.py): its game is taken as
        stored, and a deal dealt from it loses to the one stored."""
        seat = self.seats.latest(code, player)
        if seat is not None:
            return seat, True  # dealt to them: they joined
        async with self.db_sessions() as db:
            if not await self._is_joined(db, code, player):
                raise NotInArena(f"join arena {code} first")
            last = await store.last_game(db, code=code, player_id=player)
        if last is None:
            return None, False
        seat = Seat.of(last)
        self.seats.note(seat)
        return seat, False

    async def _is_joined(self, db: AsyncSession, code: str, player: int) -> bool:
        """Whether the player joined: a line in the table this node holds says so without a
        query (only a player who joined has one); else the database."""
        table = self.standings.tables.get(code)
        if table is not None and player in table.lines:
            return True
        return await store.is_joined(db, code=code, player_id=player)

    async def _deal_next(
        self, arena: ArenaState, player: int, seq: int, re: int | None, *, known: bool
    ) -> p.ArenaGame:
        """Deal ``seq`` to the player: its game and its ``arena_games`` row stored in one
        transaction, so a node that dies while dealing leaves both or neither. ``known``: the
        player's previous deal is one this node holds (dealt, scored or read here), so no
        game left by a node that died between the two writes of an older server (see the
        module's docstring) is looked for: that look is a read per deal, made only when this
        node first deals to the player."""
        deal = await self.deals.deal(arena, seq)
        allowance = par.allowance_ms(deal.par_ms, berserk=False)

        def row_of(live: LiveGame) -> dict[str, Any]:
            deadline = par.deadline_ms(live.started_ms, allowance, arena.ends_ms)
            return store.dealt_row(game_id=live.id, code=arena.code, player_id=player, seq=seq,
                                   allowance_ms=allowance, deadline_ms=deadline)  # fmt: skip

        live = None if known else await self._left_by_a_node(arena, player, deal.key)
        try:
            if live is None:
                live = await self.games.start(
                    player,
                    arena.variant,
                    arena.options,
                    key=deal.key,
                    kind=p.ARENA,
                    reveal_ms=arena.ends_ms,
                    guarded=False,
                    rows=lambda live: [(store.ARENA_GAMES, row_of(live))],
                )
            else:  # a game left by a node, played on: named now
                async with self.db_sessions() as db, db.begin():
                    db.add(ArenaGame(**row_of(live)))
        except IntegrityError:
            # Another node dealt this player this deal first: theirs is the game (this one was
            # not stored; a game left by a node and played on stays as it was).
            async with self.db_sessions() as db:
                theirs = await store.last_game(db, code=arena.code, player_id=player)
            if theirs is None:
                raise
            seat = Seat.of(theirs)
            self.seats.note(seat)
            return await self._arena_game(arena, seat, await self.store.get(theirs.game_id), re)
        self.dealt += 1
        row = row_of(live)
        seat = Seat(live.id, arena.code, player, seq, False, allowance, row["deadline_ms"], None)
        self.seats.note(seat)
        if seq + 1 not in self.deals.deals.get(arena.code, {}):  # the first to come this far
            self._spawn(self._ahead(arena, seq + 1))
        return await self._arena_game(arena, seat, live, re)

    async def _left_by_a_node(self, arena: ArenaState, player: int, key: bytes) -> LiveGame | None:
        """A game of this deal that a node dealt the player and died before naming in
        ``arena_games``: played on if the player played in it, else dropped (None: deal
        it again)."""
        async with self.db_sessions() as db:
            found = await orphans.orphans(
                db, player_id=player, deal_key=key.hex(), since_ms=arena.starts_ms
            )
        for game_id, ply, state in found:
            if ply == 0 and state not in ENDED:
                await self._drop(game_id)
                log.info("arena %s: player %d's unplayed deal %s dealt again", arena.code,
                         player, game_id)  # fmt: skip
                continue
            log.info("arena %s: player %d's deal %s played on", arena.code, player, game_id)
            return await self.store.current(game_id)
        return None

    async def _drop(self, game_id: str) -> None:
        """A game dealt for an arena and never shown goes: from memory and the database."""
        self.store.forget(game_id)
        async with self.db_sessions() as db, db.begin():
            await orphans.drop_unplayed(db, game_id=game_id)

    async def _ahead(self, arena: ArenaState, seq: int) -> None:
        """The next deal drawn (and its commitment stored) before anyone reaches it."""
        with contextlib.suppress(Exception):
            await self.deals.deal(arena, seq)

    def _spawn(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _arena_game(
        self, arena: ArenaState, row: Seat, live: LiveGame, re: int | None
    ) -> p.ArenaGame:
        deal = await self.deals.deal(arena, row.seq)
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
        arena = await self.catalogue.arena(code)
        if arena.state(self.clock()) != p.RUNNING:
            raise ArenaNotRunning(f"arena {code} is {arena.state(self.clock())}")
        async with self._lock(code, player.id):
            async with self.db_sessions() as db:
                if not await self._is_joined(db, code, player.id):
                    raise NotInArena(f"join arena {code} first")
                last = await store.last_game(db, code=code, player_id=player.id)
            if last is None or last.state is not None:
                raise GameOver(f"no deal of arena {code} is being played: ask for one first")
            live = await self.store.current(last.game_id)
            if live.state in ENDED:
                raise GameOver(f"your deal of arena {code} has ended: ask for the next")
            if last.berserk:
                return await self._arena_game(arena, Seat.of(last), live, re)
            if live.game.ply > 0:
                raise Forbidden("berserk only before the first action of a deal")
            deal = await self.deals.deal(arena, last.seq)
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
            seat = Seat.of(row)
            self.seats.note(seat)
            return await self._arena_game(arena, seat, live, re)
