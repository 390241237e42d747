"""``hint``: the solver's move from what the player sees, searched in a thread, two at a time.

The hint takes the player's view of the game (shared.player_view: no field
for a face-down card), taken on the event loop, and is searched in a thread
so that the event loop answers others meanwhile; the budget's clock caps its
time. When it fails, the hint is a legal move to a foundation if there is one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace

from server.games.live import LiveGame
from shared.game import PLAYING
from shared.player_view import PlayerView
from shared.solver import DEFAULT_HINT_BUDGET, hint

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
        view = PlayerView.of(game)
        budget = replace(DEFAULT_HINT_BUDGET, seconds=self.budget_s, clock=time.monotonic)
        async with self._searching:
            try:
                # (sampling seed 0: the hint is a function of what the player sees)
                found = await asyncio.to_thread(
                    hint, view, game.rules, sampling_seed=0, budget=budget
                )
            except Exception:
                log.exception("game %s: the solver failed; falling back", live.id)
            else:
                return found
        legal = live.game.legal_moves()
        return next((m for m in legal if ">f" in m), None)
