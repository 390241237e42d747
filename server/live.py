"""Games in play: the engine's Game plus its id, owner and server time, and the ply rule.

The engine decides every rule; this module decides when an action may reach
it (the ply rule, ownership, ended games), stamps time, and acknowledges an
action only once the writer has committed it. Games live in memory while in
use and are rebuilt from seed + moves when asked for after a restart.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import itertools
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.searches import StuckSearches
from server.store import games as store
from server.store.games import GameWrite
from server.writer import Writer
from shared import protocol as p
from shared.errors import IllegalMove, InvalidNotation, InvalidOptions, InvalidRecord, ProtocolError
from shared.game import PLAYING, RESIGNED, STUCK, WON, Game
from shared.games import new_game, replay
from shared.notation import AUTO, DEAL, UNDO, Move
from shared.variants import STANDARD, Variants

log = logging.getLogger(__name__)

Clock = Callable[[], int]
"""Milliseconds since the Unix epoch; injected so that tests control time."""

#: states after which a game takes no action at all
ENDED = frozenset({WON, RESIGNED, "timeout"})

#: called after every acknowledged action: (game, action) with action a move, undo or resign
ActionListener = Callable[["LiveGame", str], Awaitable[None] | None]
#: called before a game is dealt: (player, variant, seed, options); raises ProtocolError to refuse
StartGuard = Callable[[int, str, int, dict[str, bool | int]], Awaitable[None]]


def new_game_id() -> str:
    """Eight URL-safe characters: 48 random bits, short enough to read, hard to guess."""
    return secrets.token_urlsafe(6)


@dataclass(eq=False)
class LiveGame:
    id: str
    owner: int
    game: Game
    started_ms: int
    ended_ms: int | None = None
    #: a state the engine does not know (``timeout``), set by the server
    forced_state: str | None = None
    #: the last action's stuck search and write; views and the next action wait for it, so
    #: that views show only stored plies and a game's actions are taken one at a time
    pending: asyncio.Future[None] | None = None
    #: free for extensions (a race code, a daily date...)
    tags: dict[str, Any] = field(default_factory=dict)

    @property
    def state(self) -> str:
        return self.forced_state or self.game.state

    def elapsed_ms(self, now_ms: int) -> int:
        end = self.ended_ms if self.ended_ms is not None else now_ms
        return max(0, end - self.started_ms)

    def view(self, now_ms: int, *, reveal: bool = False) -> dict[str, Any]:
        """The GameView of protocol.md."""
        view = self.game.view(reveal=reveal)
        view["id"] = self.id
        view["elapsed_ms"] = self.elapsed_ms(now_ms)
        if self.forced_state is not None:
            view["state"] = self.forced_state
            view["legal"] = []
        return view

    async def settled(self) -> None:
        """Wait until every action taken so far is stored."""
        pending = self.pending
        if pending is not None and not pending.done():
            await asyncio.shield(pending)


def same_action(sent: str, recorded: str) -> bool:
    """Whether ``sent`` is the action the engine recorded as ``recorded`` (``w>f`` vs ``w>f2``)."""
    if sent == recorded:
        return True
    try:
        a, b = Move.parse(sent), Move.parse(recorded)
    except InvalidNotation:
        return False
    return a.dst == "f" and a.src == b.src and a.count == 1 and b.dst.startswith("f")


def _solver_hint(seconds: float) -> Callable[[Game], str | None] | None:
    """``shared.solver.hint`` with a time budget, once the solver exists; else None."""
    if importlib.util.find_spec("shared.solver") is None:
        return None
    solver: Any = importlib.import_module("shared.solver")
    if not hasattr(solver, "hint") or not hasattr(solver, "Budget"):
        return None
    budget = solver.Budget(positions=None, seconds=seconds, clock=time.monotonic)

    def hint(game: Game) -> str | None:
        found: str | None = solver.hint(game, budget)
        return found

    return hint


class GameService:
    """Every solo game action, with the ply rule, storage and timing."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        writer: Writer,
        clock: Clock,
        *,
        cache_size: int = 10_000,
        hint_budget: float = 1.0,
        searches: StuckSearches | None = None,
        variants: Variants = STANDARD,
    ) -> None:
        self.sessions = sessions
        self.writer = writer
        #: the variants the server plays
        self.variants = variants
        #: where stuck searches run (worker processes, or this process with 0 workers); the
        #: games made here share its prover
        self.searches = searches if searches is not None else StuckSearches(0, variants)
        self.clock = clock
        self.cache_size = cache_size
        self.hint_budget = hint_budget
        self._games: OrderedDict[str, LiveGame] = OrderedDict()
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        self._hints = asyncio.Semaphore(2)
        #: searches whose write is still to be handed to the writer (see _after)
        self._searching: set[asyncio.Future[None]] = set()
        self.listeners: list[ActionListener] = []
        self.start_guards: list[StartGuard] = []

    # -- finding games -----------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        """The game, from memory or rebuilt from the database; ``not_found`` otherwise."""
        live = self._games.get(game_id)
        if live is not None:
            self._games.move_to_end(game_id)
            return live
        loading = self._loading.get(game_id)
        if loading is None:
            loading = asyncio.get_running_loop().create_future()
            self._loading[game_id] = loading
            try:
                found = await self._load(game_id)
            except BaseException as exc:
                loading.set_exception(exc)
                loading.exception()  # retrieved here, raised to the waiters
                raise
            finally:
                del self._loading[game_id]
            loading.set_result(found)
            if found is not None:
                self._remember(found)
        else:
            found = await asyncio.shield(loading)
        if found is None:
            raise ProtocolError(p.NOT_FOUND, f"no game {game_id!r}")
        return found

    async def owned(self, player_id: int, game_id: str) -> LiveGame:
        live = await self.get(game_id)
        if live.owner != player_id:
            raise ProtocolError(p.FORBIDDEN, f"game {game_id!r} belongs to another player")
        return live

    async def _load(self, game_id: str) -> LiveGame | None:
        async with self.sessions() as session:
            loaded = await store.load(session, game_id=game_id)
        if loaded is None:
            return None
        row, actions = loaded
        record = {
            "variant": row.variant,
            "options": row.options,
            "seed": row.seed,
            "actions": actions,
            "resigned": row.state == RESIGNED,
        }
        try:
            # Replaying may run stuck searches: in a thread, not on the event loop.
            game = await asyncio.to_thread(
                replay, record, variants=self.variants, prover=self.searches.prover
            )
        except (InvalidRecord, InvalidOptions) as exc:
            log.error("game %s does not replay: %s", game_id, exc)
            raise ProtocolError(p.INTERNAL, f"game {game_id!r} cannot be rebuilt") from exc
        await self.searches.settle(game)
        forced = row.state if row.state not in (PLAYING, WON, STUCK, RESIGNED) else None
        return LiveGame(
            id=row.id,
            owner=row.player_id,
            game=game,
            started_ms=row.started_ms,
            ended_ms=row.ended_ms,
            forced_state=forced,
        )

    def _remember(self, live: LiveGame) -> None:
        self._games[live.id] = live
        # Forget the least recently used games that have nothing waiting to be stored.
        excess = len(self._games) - self.cache_size
        if excess > 0:
            idle = [
                gid
                for gid, old in itertools.islice(self._games.items(), excess)
                if old.pending is None or old.pending.done()
            ]
            for gid in idle:
                del self._games[gid]

    def forget(self, game_id: str) -> None:
        self._games.pop(game_id, None)

    # -- acting ------------------------------------------------------------------

    async def start(
        self, player_id: int, variant: str, seed: int | None, options: dict[str, bool | int]
    ) -> LiveGame:
        if seed is None:
            seed = secrets.randbelow(p.MAX_SEED) + 1
        try:
            game = new_game(
                variant,
                seed=seed,
                options=options,
                variants=self.variants,
                prover=self.searches.prover,
            )
        except InvalidOptions as exc:
            field_name = "variant" if "variant" in str(exc) else "options"
            raise ProtocolError(p.INVALID_FIELD, f"field {field_name!r}: {exc}") from None
        for guard in self.start_guards:
            await guard(player_id, variant, seed, game.options)
        await self.searches.settle(game)  # the deal's state, before it is stored
        now = self.clock()
        live = LiveGame(id=new_game_id(), owner=player_id, game=game, started_ms=now)
        row = {
            "id": live.id,
            "player_id": player_id,
            "variant": game.variant,
            "options": game.options,
            "seed": seed,
            "state": game.state,
            "score": game.score,
            "ply": 0,
            "started_ms": now,
            "ended_ms": None,
            "updated_ms": now,
        }
        self._remember(live)
        await self._stored(live, self.writer.submit(GameWrite(new_game=row)))
        return live

    async def move(self, live: LiveGame, ply: int, action: str) -> LiveGame:
        if action == UNDO:
            return await self.undo(live, ply)
        game = live.game
        if ply == game.ply - 1 and game.actions and same_action(action, game.actions[-1]):
            await live.settled()  # a retry: acknowledge what is already played
            return live
        await self._turn(live)
        await self._check_ply(live, ply)
        state = live.state
        if state in ENDED:
            raise ProtocolError(p.GAME_OVER, f"game {live.id!r} is over ({state})")
        if state == STUCK:
            raise ProtocolError(
                p.GAME_OVER, f"game {live.id!r} is stuck: only undo and resign are accepted"
            )
        self._hide_face_down(live, action)
        try:
            recorded = game.play(action)
        except (IllegalMove, InvalidNotation) as exc:
            raise ProtocolError(p.ILLEGAL_MOVE, str(exc)) from None
        await self._after(live, ply, recorded)
        return live

    async def undo(self, live: LiveGame, ply: int) -> LiveGame:
        game = live.game
        if ply == game.ply - 1 and game.actions and game.actions[-1] == UNDO:
            await live.settled()
            return live
        await self._turn(live)
        await self._check_ply(live, ply)
        if live.state in ENDED:
            raise ProtocolError(p.GAME_OVER, f"game {live.id!r} is over ({live.state})")
        try:
            game.undo()
        except IllegalMove as exc:
            raise ProtocolError(p.ILLEGAL_MOVE, str(exc)) from None
        await self._after(live, ply, UNDO)
        return live

    async def resign(self, live: LiveGame, ply: int) -> LiveGame:
        await self._turn(live)
        await self._check_ply(live, ply)
        if live.state == RESIGNED:
            await live.settled()  # a retry of the resign that ended it
            return live
        if live.state in ENDED:
            raise ProtocolError(p.GAME_OVER, f"game {live.id!r} is over ({live.state})")
        live.game.resign()
        await self._after(live, None, "resign")
        return live

    async def end(self, live: LiveGame, state: str) -> None:
        """End a game with a state the engine does not know, such as ``timeout``."""
        live.forced_state = state
        await self._after(live, None, state)

    async def hint(self, live: LiveGame) -> str | None:
        """The solver's hint within the budget, else a foundation move; None once ended."""
        if live.state != PLAYING:
            return None
        solve = _solver_hint(self.hint_budget)
        if solve is not None:
            # The solver works in a thread on its own copy of the position (no history needed).
            game = live.game
            copy = Game(game.rules, game.seed, position=game.position.copy(), prover=game.prover)
            async with self._hints:
                try:
                    hint = await asyncio.to_thread(solve, copy)
                except Exception:
                    log.exception("game %s: the solver failed; falling back", live.id)
                else:
                    return hint
        legal = live.game.legal_moves()
        return next((m for m in legal if ">f" in m), None)

    def view(self, live: LiveGame, *, reveal: bool = False) -> dict[str, Any]:
        return live.view(self.clock(), reveal=reveal)

    async def drain(self) -> None:
        """Wait for the searches in progress to hand their writes to the writer (shutdown)."""
        while self._searching:
            await asyncio.gather(*self._searching, return_exceptions=True)

    # -- helpers -------------------------------------------------------------------

    @staticmethod
    async def _turn(live: LiveGame) -> None:
        """Wait until the game's last action is settled and stored: one action at a time.

        From here to the next ``pending`` nothing awaits, so no other request
        can slip in between; the loop covers a waiter that another one beat.
        """
        while live.pending is not None and not live.pending.done():
            await live.settled()

    async def _check_ply(self, live: LiveGame, ply: int) -> None:
        if ply != live.game.ply:
            await live.settled()
            raise ProtocolError(
                p.STALE_PLY,
                f"ply {ply} is not the game's current ply {live.game.ply}; "
                "field 'game' holds the game as it is",
            )

    def _hide_face_down(self, live: LiveGame, action: str) -> None:
        """Refuse moves from a pile without a face-up card before the engine names its top card."""
        if action in (DEAL, AUTO):
            return
        try:
            move = p.parse_move(action)
        except InvalidNotation as exc:
            raise ProtocolError(p.ILLEGAL_MOVE, str(exc)) from None
        rules = live.game.rules
        index = rules.index.get(move.src)
        if index is None:
            return
        pos = live.game.position
        if len(pos.piles[index]) <= pos.down[index]:
            what = "is empty" if not pos.piles[index] else "has no face-up card"
            raise ProtocolError(p.ILLEGAL_MOVE, f"{action!r} is not legal now: {move.src} {what}")

    async def _after(self, live: LiveGame, ply: int | None, action: str) -> None:
        """Settle the game's state, store what the action changed, then tell the listeners.

        Most actions need no stuck search: their write goes to the writer at
        once. The others run the search in a worker first, inside a task of
        their own, so that the write follows the verdict even if this request
        is cancelled: memory never runs ahead of the database.
        """
        now = self.clock()
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

    def _write(self, live: LiveGame, ply: int | None, action: str, now: int) -> GameWrite:
        """The rows an action changes, its state settled."""
        game = live.game
        state = live.state
        if state in ENDED and live.ended_ms is None:
            live.ended_ms = now
        return GameWrite(
            moves=(
                [{"game_id": live.id, "ply": ply, "action": action, "played_ms": now}]
                if ply is not None
                else []
            ),
            update={
                "id": live.id,
                "state": state,
                "score": game.score,
                "ply": game.ply,
                "ended_ms": live.ended_ms,
                "updated_ms": now,
            },
        )

    async def _stored(self, live: LiveGame, future: asyncio.Future[None]) -> None:
        """Wait for the action's write (``future``); views and the next action wait for it too."""
        live.pending = future
        try:
            await asyncio.shield(future)
        except Exception as exc:
            # Memory is ahead of the database now: forget the game so it reloads as stored.
            self.forget(live.id)
            log.error("game %s: write failed: %s", live.id, exc)
            raise ProtocolError(p.INTERNAL, "the server could not store this action") from exc
