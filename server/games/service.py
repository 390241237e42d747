"""Every game action: the ply rule applied, time stamped, stored before it is acknowledged.

The engine decides every rule of the game; this service decides when an
action may reach it (:mod:`server.games.ply`, ownership, ``max_actions``),
stamps the time it received it (the time result review reads), settles the
game's state (a stuck search in a worker when the engine needs one) and
acknowledges an action only once the writer has committed it. Games live in
memory while in use (:class:`~server.games.cache.GameCache`) and are
rebuilt from their deal and actions when asked for after a restart. Every
kind of game (solo, daily, practice, race) is one of these; the features
that own the others hear of each action through :attr:`GameService.listeners`.

With several nodes on one database (``shared``) a player may act on a game
through two nodes at once, so a node's copy of a game may be behind the
database. The database is the arbiter: a moves row is unique by game and
ply, so of two actions at one ply only the first stored is kept. The other
node's write fails; it then drops its copy, reloads the game as stored and
judges the request again (:meth:`GameService._again`, the one retry path):
a retry of what was stored is acknowledged, anything else is refused with
:class:`~server.errors.StalePly` and the game as stored. A request whose ply
is ahead of the node's copy reloads it the same way before it is refused.

Refusals are raised as :mod:`server.errors` (whose fault, which code); the
Router turns them into ``error`` messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.errors import Forbidden, GameOver, Internal, NotFound, StalePly, TooManyActions
from server.games.cache import GameCache
from server.games.fields import deal
from server.games.hints import Hints
from server.games.live import Clock, LiveGame, new_game_id
from server.games.ply import ENDED, RESIGN, Stale, Verdict, is_retry, judge
from server.games.searches import StuckSearches
from server.storage.queries import games as store
from server.storage.queries.games import GameWrite, WriteConflict
from server.storage.writer import Writer
from shared import protocol as p
from shared.errors import InvalidOptions, InvalidRecord
from shared.game import PLAYING, RESIGNED, STUCK, WON
from shared.games import replay
from shared.notation import UNDO, Action, parse_action
from shared.variants import STANDARD, Variants

log = logging.getLogger(__name__)

#: called after every acknowledged action: (game, action) with action a move, undo or resign
ActionListener = Callable[[LiveGame, str], Awaitable[None] | None]
#: called before a game is dealt: (player, variant, seed or None for a keyed deal, options);
#: raises a :class:`~server.errors.Refused` to refuse
StartGuard = Callable[[int, str, int | None, dict[str, bool | int]], Awaitable[None]]
#: one try of an action on a copy of its game (``last``: no reload follows, so a stale
#: ply is refused); the game as acted on
Attempt = Callable[[LiveGame, bool], Awaitable[LiveGame]]


class _Behind(Exception):
    """This node's copy of a game is behind the database (another node acted on it):
    the signal of :meth:`GameService._again` to reload and try again."""


def is_ply_conflict(exc: BaseException) -> bool:
    """Whether a failed write lost to another node's action on the same game (the games row
    had moved on: the writer's compare-and-set, or the moves row of that ply was there)."""
    return isinstance(exc, WriteConflict | IntegrityError)


class GameService:
    """Every solo game action, with the ply rule, storage and timing."""

    def __init__(
        self,
        db_sessions: async_sessionmaker[AsyncSession],
        writer: Writer,
        clock: Clock,
        *,
        cache_size: int = 10_000,
        hint_budget: float = 1.0,
        hint_concurrency: int = 2,
        max_actions: int = 5000,
        searches: StuckSearches | None = None,
        variants: Variants = STANDARD,
    ) -> None:
        self.db_sessions = db_sessions
        self.writer = writer
        #: the variants the server plays
        self.variants = variants
        #: where stuck searches run (worker processes, or this process with 0 workers); the
        #: games made here share its prover
        self.searches = searches if searches is not None else StuckSearches(0, variants)
        self.clock = clock
        #: actions a game may hold; past it only resign
        self.max_actions = max_actions
        self.hints = Hints(hint_budget, hint_concurrency)
        self._games = GameCache(self._load, cache_size)
        #: searches whose write is still to be handed to the writer (see _after)
        self._searching: set[asyncio.Future[None]] = set()
        self.listeners: list[ActionListener] = []
        self.start_guards: list[StartGuard] = []
        #: other nodes act on this database's games too: copies in memory may be behind
        self.shared = False

    # -- finding games -----------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        """The game, from memory or rebuilt from the database; ``not_found`` otherwise."""
        found = await self._games.get(game_id)
        if found is None:
            raise NotFound(f"no game {game_id!r}")
        return found

    async def owned(self, player_id: int, game_id: str) -> LiveGame:
        live = await self.get(game_id)
        if live.owner != player_id:
            raise Forbidden(f"game {game_id!r} belongs to another player")
        return live

    async def _load(self, game_id: str) -> LiveGame | None:
        async with self.db_sessions() as db:
            loaded = await store.load(db, game_id=game_id)
        if loaded is None:
            return None
        row, actions = loaded
        record = store.replay_record(row, actions, resigned=row.state == RESIGNED)
        try:
            # Replaying may run stuck searches: in a thread, not on the event loop.
            game = await asyncio.to_thread(
                replay, record, variants=self.variants, prover=self.searches.prover
            )
        except (InvalidRecord, InvalidOptions) as exc:
            log.error("game %s does not replay: %s", game_id, exc)
            raise Internal(f"game {game_id!r} cannot be rebuilt") from exc
        await self.searches.settle(game)
        forced = row.state if row.state not in (PLAYING, WON, STUCK, RESIGNED) else None
        return LiveGame(
            id=row.id,
            owner=row.player_id,
            game=game,
            started_ms=row.started_ms,
            kind=row.kind,
            key_open=row.key_open,
            reveal_ms=row.reveal_ms,
            ended_ms=row.ended_ms,
            forced_state=forced,
            hints=row.hints,
            last=parse_action(game.actions[-1]) if game.actions else None,
        )

    def forget(self, game_id: str) -> None:
        self._games.forget(game_id)

    async def current(self, game_id: str) -> LiveGame:
        """The game as it stands: on a shared database, reloaded when the stored row shows
        that another node has acted on it since this node's copy."""
        live = await self.get(game_id)
        if not self.shared:
            return live
        with contextlib.suppress(Exception):
            await live.settled()
        async with self.db_sessions() as db:
            stored = await store.ply_and_state(db, game_id=game_id)
        if stored is not None and stored != (live.game.ply, live.state):
            return await self.fresh(game_id)
        return live

    async def fresh(self, game_id: str) -> LiveGame:
        """The game reloaded from the database, this node's copy dropped first."""
        cached = self._games.peek(game_id)
        if cached is not None:
            with contextlib.suppress(Exception):
                await cached.settled()  # what this node has in hand is stored first
            self._games.forget(game_id)
        return await self.get(game_id)

    # -- acting ------------------------------------------------------------------

    async def start(
        self,
        player_id: int,
        variant: str,
        options: Mapping[str, bool | int],
        *,
        seed: int | None = None,
        key: bytes | None = None,
        key_open: bool = False,
        kind: str = p.SOLO,
        reveal_ms: int | None = None,
        guarded: bool = True,
    ) -> LiveGame:
        """A new game, stored: on the numbered deal ``seed``, the keyed deal of ``key``, or,
        neither given, a fresh keyed deal whose key only this server knows.

        ``key_open``: the key shows from the start (the player chose it); ``kind``
        is what the game is for; ``reveal_ms`` when its key shows (a daily's deal:
        the end of its day); ``guarded=False`` skips the start guards (a game a
        feature deals itself: a daily attempt, a race).
        """
        if seed is None and key is None:
            key = secrets.token_bytes(32)
        game = deal(self.variants, variant, options, self.searches.prover, seed=seed, key=key)
        for guard in self.start_guards if guarded else ():
            await guard(player_id, variant, seed, game.options)
        return await self._begin(
            LiveGame(
                id=new_game_id(),
                owner=player_id,
                game=game,
                started_ms=0,
                kind=kind,
                key_open=key_open,
                reveal_ms=reveal_ms,
            )
        )

    async def _begin(self, live: LiveGame) -> LiveGame:
        """Settle a dealt game's state, store it, and keep it in memory."""
        game = live.game
        await self.searches.settle(game)  # the deal's state, before it is stored
        live.started_ms = now = self.clock()
        write = store.new_game_write(
            game_id=live.id,
            player_id=live.owner,
            variant=game.variant,
            options=game.options,
            deal=game.deal,
            kind=live.kind,
            key_open=live.key_open,
            reveal_ms=live.reveal_ms,
            state=game.state,
            score=game.score,
            now_ms=now,
        )
        self._games.remember(live)
        await self._stored(live, self.writer.submit(write))
        return live

    async def move(self, live: LiveGame, ply: int, action: Action) -> LiveGame:
        """Play ``action`` (a move of notation.md, ``deal``, ``auto`` or ``undo``) at ``ply``."""
        return await self._act(live, ply, action)

    async def undo(self, live: LiveGame, ply: int) -> LiveGame:
        return await self._act(live, ply, UNDO)

    async def resign(self, live: LiveGame, ply: int) -> LiveGame:
        return await self._act(live, ply, RESIGN)

    async def end(self, live: LiveGame, state: str) -> LiveGame:
        """End a game with a state the engine does not know, such as ``timeout``; the game
        as ended (reloaded, when another node had acted on it meanwhile)."""

        async def attempt(live: LiveGame, _: bool) -> LiveGame:
            await self._turn(live)
            if live.state in ENDED:
                return live  # it ended meanwhile (the action it waited for won, say)
            live.forced_state = state
            await self._after(live, None, state, self.clock())
            return live

        return await self._again(live, attempt)

    async def resign_now(self, live: LiveGame) -> LiveGame:
        """Resign the game at whatever ply it stands (a racer who left, or gone too long)."""
        received = self.clock()

        async def attempt(live: LiveGame, _: bool) -> LiveGame:
            if live.state in ENDED:
                return live
            # at its ply when its turn comes: another node's move meanwhile is reloaded
            return await self._act_on(live, None, RESIGN, received, last=False)

        return await self._again(live, attempt)

    async def reveal(self, lives: list[LiveGame]) -> None:
        """Show the keys of these games' keyed deals from now on (a race that is over)."""
        opened = [live for live in lives if live.keyed is not None and not live.key_open]
        for live in opened:
            live.key_open = True
        if opened:
            async with self.db_sessions() as db, db.begin():
                await store.open_keys(db, game_ids=[live.id for live in opened])

    def hint(self, live: LiveGame, asker: object) -> Awaitable[str | None]:
        """A move worth playing for ``asker`` (a connection), being computed; counted in the
        game's ``hints`` once found, None once the game has ended. Refused at once with
        ``hints_off`` or ``busy`` (:mod:`server.games.hints`)."""
        return self._counted(live, self.hints.ask(live, asker))

    async def _counted(self, live: LiveGame, asked: Awaitable[str | None]) -> str | None:
        found = await asked
        if found is not None:
            live.hints += 1
            async with self.db_sessions() as db, db.begin():
                await store.count_hints(db, game_id=live.id, hints=live.hints)
        return found

    def view(self, live: LiveGame) -> p.GameView:
        """The game as its player sees it now."""
        return live.view(self.clock())

    async def drain(self) -> None:
        """Wait for the searches in progress to hand their writes to the writer (shutdown)."""
        while self._searching:
            await asyncio.gather(*self._searching, return_exceptions=True)

    # -- helpers -------------------------------------------------------------------

    async def _act(self, live: LiveGame, ply: int, action: Action) -> LiveGame:
        """The ply rule (:mod:`server.games.ply`) applied, then the action taken and stored;
        the game it was taken on (reloaded, when another node had acted on it)."""
        received = self.clock()  # before any wait: the time review reads

        async def attempt(live: LiveGame, last: bool) -> LiveGame:
            return await self._act_on(live, ply, action, received, last=last)

        return await self._again(live, attempt, tries=2, lost=ply)

    async def _again(
        self, live: LiveGame, attempt: Attempt, *, tries: int = 0, lost: int | None = None
    ) -> LiveGame:
        """The one retry path: ``attempt`` on this node's copy; when the copy proves behind
        the database (a stale ply, a write that lost), reload the game and try again, up
        to ``tries`` times (0: until not behind). On the last try a stale ply, or ply
        ``lost`` stored by another node meanwhile, is :class:`StalePly`."""
        tried = 0
        while True:
            tried += 1
            last = not self.shared or tried == tries
            try:
                return await attempt(live, last)
            except _Behind:
                live = await self.current(live.id)
                if last:
                    message = f"ply {lost} was played from another connection"
                    raise StalePly(message, self.view(live)) from None

    async def _act_on(
        self, live: LiveGame, ply: int | None, action: Action, received: int, *, last: bool
    ) -> LiveGame:
        """One try (see :meth:`_again`); ``ply`` None: at the game's ply when its turn comes
        (a resign the server makes)."""
        if ply is not None and is_retry(action, ply, live.at()):
            await live.settled()  # acknowledge what is already played, once it is stored
            return live
        await self._turn(live)
        verdict = judge(action, live.game.ply if ply is None else ply, live.at())
        if isinstance(verdict, Stale):
            if not last:
                raise _Behind
            raise StalePly(verdict.message, self.view(live))
        if isinstance(verdict, GameOver):
            raise verdict
        if verdict is Verdict.RETRY:
            return live
        if action != RESIGN and live.game.ply >= self.max_actions:
            raise TooManyActions(
                f"game {live.id!r} holds {self.max_actions} actions, as many as a game may: "
                "only resign is accepted"
            )
        text = live.take(action)
        await self._after(live, None if action == RESIGN else ply, text, received)
        return live

    @staticmethod
    async def _turn(live: LiveGame) -> None:
        """Wait until the game's last action is settled and stored: one action at a time.

        From here to the next ``pending`` nothing awaits, so no other request
        can slip in between; the loop covers a waiter that another one beat.
        """
        while live.pending is not None and not live.pending.done():
            await live.settled()

    async def _after(self, live: LiveGame, ply: int | None, action: str, now: int) -> None:
        """Settle the game's state, store what the action changed, then tell the listeners.

        ``now`` is when the action was received. Most actions need no stuck
        search: their write goes to the writer at once. The others run the
        search in a worker first, inside a task of their own, so that the
        write follows the verdict even if this request is cancelled: memory
        never runs ahead of the database.
        """
        question = live.game.stuck_question() if live.forced_state is None else None
        if question is None:
            future = self.writer.submit(self._write(live, ply, action, now))
        else:
            future = asyncio.ensure_future(self._search_then_write(live, ply, action, now))
            self._searching.add(future)
            future.add_done_callback(self._searching.discard)
        await self._stored(live, future)
        for listener in self.listeners:
            result = listener(live, action)
            if result is not None:
                await result

    async def _search_then_write(
        self, live: LiveGame, ply: int | None, action: str, now: int
    ) -> None:
        await self.searches.settle(live.game)
        await self.writer.submit(self._write(live, ply, action, now))

    @staticmethod
    def _write(live: LiveGame, ply: int | None, action: str, now: int) -> GameWrite:
        """The rows an action changes, its state settled (and the end time, once it ends;
        a solo game that ended shows its key from then on)."""
        state = live.state
        if state in ENDED and live.ended_ms is None:
            live.ended_ms = now
        if live.kind == p.SOLO and state in (WON, RESIGNED):
            live.key_open = True
        return store.action_write(
            game_id=live.id,
            ply=ply,
            action=action,
            state=state,
            score=live.game.score,
            game_ply=live.game.ply,
            undos=live.undos,
            key_open=live.key_open,
            ended_ms=live.ended_ms,
            now_ms=now,
        )

    async def _stored(self, live: LiveGame, future: asyncio.Future[None]) -> None:
        """Wait for the action's write (``future``); views and the next action wait for it too."""
        live.pending = future
        try:
            await asyncio.shield(future)
        except Exception as exc:
            # Memory is ahead of the database now: forget the game so it reloads as stored.
            self.forget(live.id)
            if self.shared and is_ply_conflict(exc):
                log.info("game %s: another node stored ply %d first", live.id, live.game.ply - 1)
                raise _Behind from exc
            log.error("game %s: write failed: %s", live.id, exc)
            raise Internal("the server could not store this action") from exc
