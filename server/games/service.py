"""Every game action: the ply rule applied, time stamped, stored before it is acknowledged.

The engine decides every rule of the game; this service decides when an
action may reach it (:mod:`server.games.ply`, ownership, ``max_actions``),
stamps the time it received it (the time result review reads), settles the
game's state (a stuck search in a worker when the engine needs one) and
acknowledges an action only once the writer has committed it; it counts the
hints a game was given. Where games are found, rebuilt and reloaded is the
:class:`~server.games.store.GameStore`'s. Every kind of game (solo, daily,
practice, race) is one of these; the features that own the others hear of
each action through :attr:`GameService.listeners`.

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
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from sqlalchemy import Table
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.errors import GameOver, Internal, StalePly, TooManyActions
from server.games.fields import deal
from server.games.hint_shares import HintShares
from server.games.hints import Hints
from server.games.live import Clock, LiveGame, new_game_id
from server.games.ply import RESIGN, Stale, Verdict, is_retry, judge
from server.games.store import GameStore
from server.storage.queries import games as store
from server.storage.queries.games import GameWrite, WriteConflict
from server.storage.writer import Writer
from shared import protocol as p
from shared.notation import UNDO, Action
from shared.states import ENDED, RESIGNED, WON

log = logging.getLogger(__name__)

#: called after every acknowledged action: (game, action) with action a move, undo or resign
ActionListener = Callable[[LiveGame, str], Awaitable[None] | None]
#: called before a game is dealt: (player, variant, seed or None for a keyed deal, options);
#: raises a :class:`~server.errors.Refused` to refuse
StartGuard = Callable[[int, str, int | None, dict[str, bool | int]], Awaitable[None]]
#: called with each action's write before it goes to the writer: it may add to the write what
#: must be stored in the action's own transaction (an arena deal's result, with the action
#: that ended it)
WriteHook = Callable[[LiveGame, GameWrite], None]
#: the rows of other tables that name a game just dealt, as (table, row), stored with it
NamedRows = Callable[[LiveGame], list[tuple[Table, dict[str, Any]]]]
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
        store: GameStore,
        db_sessions: async_sessionmaker[AsyncSession],
        writer: Writer,
        clock: Clock,
        *,
        hint_budget: float = 1.0,
        hint_concurrency: int = 2,
        hint_shares: HintShares | None = None,
        max_actions: int = 5000,
    ) -> None:
        #: where the games are found (and reloaded when another node acted on them)
        self.store = store
        self.db_sessions = db_sessions
        self.writer = writer
        #: the variants the server plays
        self.variants = store.variants
        #: where stuck searches run (worker processes, or this process with 0 workers); the
        #: games made here share its prover
        self.searches = store.searches
        self.clock = clock
        #: actions a game may hold; past it only resign
        self.max_actions = max_actions
        self.hints = Hints(hint_budget, hint_concurrency, hint_shares)
        #: searches whose write is still to be handed to the writer (see _after)
        self._searching: set[asyncio.Future[None]] = set()
        self.listeners: list[ActionListener] = []
        self.write_hooks: list[WriteHook] = []
        self.start_guards: list[StartGuard] = []

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
        rows: NamedRows | None = None,
    ) -> LiveGame:
        """A new game, stored: on the numbered deal ``seed``, the keyed deal of ``key``, or,
        neither given, a fresh keyed deal whose key only this server knows.

        ``key_open``: the key shows from the start (the player chose it); ``kind``
        is what the game is for; ``reveal_ms`` when its key shows (a daily's deal:
        the end of its day); ``guarded=False`` skips the start guards (a game a
        feature deals itself: a daily attempt, a race); ``rows`` gives other tables' rows
        that name the game, stored in its transaction (an arena's deal row): a row that
        clashes with one stored fails the start with its :class:`IntegrityError`, and
        nothing is stored.
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
            ),
            rows,
        )

    async def _begin(self, live: LiveGame, rows: NamedRows | None = None) -> LiveGame:
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
        if rows is not None:
            write.rows.extend(rows(live))
        self.store.remember(live)
        try:
            await self._stored(live, self.writer.submit(write))
        except (_Behind, Internal) as exc:
            clash = exc.__cause__
            if isinstance(clash, IntegrityError):  # a row of ``rows`` was stored already
                raise clash from None
            raise
        return live

    def move(self, live: LiveGame, ply: int, action: Action) -> Awaitable[LiveGame]:
        """Play ``action`` (a move of docs/notation.md, or deal, auto, undo) at ``ply``."""
        return self._act(live, ply, action)

    def undo(self, live: LiveGame, ply: int) -> Awaitable[LiveGame]:
        return self._act(live, ply, UNDO)

    def resign(self, live: LiveGame, ply: int) -> Awaitable[LiveGame]:
        return self._act(live, ply, RESIGN)

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
        if not self.store.shared:
            # One node: its copy is what is stored, so the first try is the last (what
            # _again does then, without its coroutines).
            return await self._act_on(live, ply, action, received, last=True)

        async def attempt(live: LiveGame, last: bool) -> LiveGame:
            return await self._act_on(live, ply, action, received, last=last)

        return await self._again(live, attempt, tries=2, lost=ply)

    async def _again(
        self, live: LiveGame, attempt: Attempt, *, tries: int = 0, lost: int | None = None
    ) -> LiveGame:
        """The one retry path: ``attempt`` on this node's copy of the game; when the copy
        proves behind the database (another node acted on the game: a stale ply, or a
        write that lost), the game is reloaded as stored and the attempt made again, up
        to ``tries`` times in all (0: until it is not behind). The last try refuses a
        stale ply (:class:`StalePly`); a write that lost on it (ply ``lost`` stored again
        by another node meanwhile) is :class:`StalePly` too, with the game as stored."""
        tried = 0
        while True:
            tried += 1
            last = not self.store.shared or tried == tries
            try:
                return await attempt(live, last)
            except _Behind:
                live = await self.store.current(live.id)
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
            future = self.writer.submit(self._written(live, ply, action, now))
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
        await self.writer.submit(self._written(live, ply, action, now))

    def _written(self, live: LiveGame, ply: int | None, action: str, now: int) -> GameWrite:
        """The action's write, with what the write hooks add to it."""
        write = self._write(live, ply, action, now)
        for hook in self.write_hooks:
            hook(live, write)
        return write

    @staticmethod
    def _write(live: LiveGame, ply: int | None, action: str, now: int) -> GameWrite:
        """The rows an action changes, its state settled (and the end time, once it ends;
        a solo game that ended shows its key from then on)."""
        state = live.state
        if state in ENDED and live.ended_ms is None:
            live.ended_ms = now
        live.settle_clock(now)
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
            paused_ms=live.paused_ms,
            stopped_ms=live.stopped_ms,
            now_ms=now,
        )

    async def _stored(self, live: LiveGame, future: asyncio.Future[None]) -> None:
        """Wait for the action's write (``future``); views and the next action wait for it too."""
        live.pending = future
        try:
            await asyncio.shield(future)
        except Exception as exc:
            # Memory is ahead of the database now: forget the game so it reloads as stored.
            self.store.forget(live.id)
            if self.store.shared and is_ply_conflict(exc):
                log.info("game %s: another node stored ply %d first", live.id, live.game.ply - 1)
                raise _Behind from exc
            log.error("game %s: write failed: %s", live.id, exc)
            raise Internal("the server could not store this action") from exc
