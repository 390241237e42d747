"""Which deal a day gets: candidate seeds only the server can derive, proven winnable in budget.

The deal of a day is the first of a list of candidate seeds, derived from
HMAC(secret, "date|variant|n"), that the solver proves winnable within a small
budget per candidate (:func:`candidate_budget`: positions per variant, so the
choice does not depend on the machine's load, and ``daily_budget_s`` as a cap
on a slow machine). :func:`prove` runs in a worker process. Days are UTC.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from shared import protocol as p
from shared.variants import Variants

if TYPE_CHECKING:
    from shared.solver import Budget
    from shared.variants.base import Rules

#: candidate seeds tried per day and variant before giving up (each within the budget)
CANDIDATES = 64
DAY_MS = 86_400_000


def utc_date(ms: int) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC).date().isoformat()


def day_end_ms(date: str) -> int:
    start = datetime.datetime.fromisoformat(date).replace(tzinfo=datetime.UTC)
    return int(start.timestamp() * 1000) + DAY_MS


def candidate_seeds(secret: bytes, date: str, variant: str, count: int = CANDIDATES) -> list[int]:
    """Seeds 1 .. 2**31-1 that only the holder of ``secret`` can compute for ``date``."""
    seeds = []
    for n in range(count):
        digest = hmac.new(secret, f"{date}|{variant}|{n}".encode(), hashlib.sha256).digest()
        seeds.append(int.from_bytes(digest[:8], "big") % p.MAX_SEED + 1)
    return seeds


def candidate_budget(variant: type[Rules], seconds: float, clock: Callable[[], float]) -> Budget:
    """What the solver may spend on one candidate seed of ``variant``: the positions it
    declares (``Rules.daily_positions``: the deals the solver proves winnable it almost
    always proves early, docs/solver.md "Daily selection", so a candidate it cannot prove
    soon is cheaper to drop for the next one than to search on; it also bounds the
    worker's memory), and ``seconds`` by ``clock`` at most (the bench uses this very
    budget)."""
    from shared.solver import Budget

    return Budget(positions=variant.daily_positions, seconds=seconds, clock=clock)


def prove(variant: type[Rules], seeds: list[int], seconds: float) -> tuple[int, int]:
    """In a worker process: the first seed proven winnable and the positions it took."""
    from shared.solver import find_winnable_seed

    parent = os.getppid()

    def clock() -> float:
        # The search reads this clock often: a worker whose server died (kill -9) stops here
        # instead of searching on for every candidate.
        if os.getppid() != parent:
            os._exit(0)
        return time.monotonic()

    budget = candidate_budget(variant, seconds, clock)
    seed, result = find_winnable_seed(variant.id, {}, seeds, budget, Variants((variant,)))
    return seed, result.positions
