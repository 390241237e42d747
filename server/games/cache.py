"""The games in memory: the most recently used, by id, each loaded once however many ask for it."""

from __future__ import annotations

import asyncio
import itertools
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from server.games.live import LiveGame

#: rebuilds a game from the database (None: there is no such game)
Loader = Callable[[str], Awaitable[LiveGame | None]]


class GameCache:
    """Up to ``size`` games; past it, the least recently used with nothing left to store go.

    A game with a write still pending stays in memory even past ``size``:
    forgetting it would let a reload from the database run behind memory.
    """

    def __init__(self, load: Loader, size: int) -> None:
        self._load = load
        self.size = size
        self._games: OrderedDict[str, LiveGame] = OrderedDict()
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}

    async def get(self, game_id: str) -> LiveGame | None:
        """The game from memory, else loaded (one load, whoever else asks meanwhile)."""
        live = self._games.get(game_id)
        if live is not None:
            self._games.move_to_end(game_id)
            return live
        loading = self._loading.get(game_id)
        if loading is not None:
            return await asyncio.shield(loading)
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
            self.remember(found)
        return found

    def used(self, game_id: str) -> LiveGame | None:
        """The game if it is in memory, marked as used now (nothing loaded, nothing awaited:
        :meth:`get` without its coroutine, for the games in play)."""
        live = self._games.get(game_id)
        if live is not None:
            self._games.move_to_end(game_id)
        return live

    def peek(self, game_id: str) -> LiveGame | None:
        """The game if it is in memory (nothing loaded)."""
        return self._games.get(game_id)

    def remember(self, live: LiveGame) -> None:
        self._games[live.id] = live
        # Forget the least recently used games that have nothing waiting to be stored.
        excess = len(self._games) - self.size
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
