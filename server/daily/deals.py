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

if TYPE_CHECKING:
    from shared.solver import Budget

#: candidate seeds tried per day and variant before giving up (each within the budget)
CANDIDATES = 64
#: positions the solver may search per candidate, by variant. The deals it proves winnable it
#: almost always proves early (docs/solver.md, "Daily selection"): a candidate it cannot
#: prove soon is cheaper to drop for the next one than to search on. About half a second to
#: a second of one core each on the development machine; it also bounds the worker's memory.
POSITIONS: dict[str, int] = {
    "osmosis": 10_000,
    "thumb_and_pouch": 15_000,
    "gypsy": 20_000,
    "freecell": 20_000,
    "westhaven": 15_000,
}
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


def candidate_budget(variant: str, seconds: float, clock: Callable[[], float]) -> Budget:
    """What the solver may spend on one candidate seed of ``variant``: its positions, and
    ``seconds`` by ``clock`` at most (the bench uses this very budget)."""
    from shared.solver import Budget

    return Budget(positions=POSITIONS[variant], seconds=seconds, clock=clock)


def prove(variant: str, seeds: list[int], seconds: float) -> tuple[int, int]:
    """In a worker process: the first seed proven winnable and the positions it took."""
    from shared.solver import find_winnable_seed

    parent = os.getppid()

    def clock() -> float:
        # The search reads this clock often: a worker whose server died (kill -9) stops here
        # instead of searching on for every candidate.
        if os.getppid() != parent:
            os._exit(0)
        return time.monotonic()

    seed, result = find_winnable_seed(variant, {}, seeds, candidate_budget(variant, seconds, clock))
    return seed, result.positions
