"""``hint``: the solver's move within a time budget, searched in a thread, two at a time at most.

The solver works on its own copy of the position (a hint needs no history),
in a thread so that the event loop answers others meanwhile. When it finds
nothing in time, or fails, the hint is a legal move to a foundation if there
is one.
"""

from __future__ import annotations

import asyncio
import logging
import time

from server.games.live import LiveGame
from shared.game import PLAYING, Game
from shared.solver import Budget, hint

log = logging.getLogger(__name__)

#: hints searched at once; more wait their turn (each holds a thread and the GIL's share)
AT_ONCE = 2


class Hints:
    def __init__(self, budget_s: float) -> None:
        #: seconds of solver per hint
        self.budget_s = budget_s
        self._searching = asyncio.Semaphore(AT_ONCE)

    async def hint(self, live: LiveGame) -> str | None:
        """The solver's hint within the budget, else a foundation move; None once ended."""
        if live.state != PLAYING:
            return None
        game = live.game
        copy = Game(game.rules, game.deal, position=game.position.copy(), prover=game.prover)
        budget = Budget(positions=None, seconds=self.budget_s, clock=time.monotonic)
        async with self._searching:
            try:
                found = await asyncio.to_thread(hint, copy, budget)
            except Exception:
                log.exception("game %s: the solver failed; falling back", live.id)
            else:
                return found
        legal = live.game.legal_moves()
        return next((m for m in legal if ">f" in m), None)
