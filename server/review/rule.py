"""The review rule as a pure function of the times the server received a game's actions.

A ranked result (a daily attempt, a race game) is held when it has at least
``min_actions`` actions (moves, deals, undos: every stored action; a resign
is none) and the median of the gaps between receiving consecutive actions,
the first measured from the game's start (a race's: ``race_started``), is
under ``median_ms``. Times are the server's own, stamped when each action
arrived, before it waited for anything: a client cannot set them, and a slow
server cannot make a person look fast.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rule:
    min_actions: int
    median_ms: int

    def held(self, received_ms: Sequence[int], start_ms: int) -> int | None:
        """The median gap in whole milliseconds when the result is held, else None."""
        if len(received_ms) < max(1, self.min_actions):
            return None
        gaps = [b - a for a, b in zip([start_ms, *received_ms], received_ms, strict=False)]
        median = statistics.median(gaps)
        return int(median) if median < self.median_ms else None
