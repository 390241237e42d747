"""Which deal a day gets: candidate keys only the server can derive, proven winnable in budget.

The deal of a day is the keyed deal (docs/rules.md, "Keyed deals") of the first
of a list of candidate keys, HMAC-SHA256(secret, "date|variant|n") (32
bytes each), that the solver proves winnable within a small budget per
candidate (:func:`candidate_budget`: positions per variant, so the choice
does not depend on the machine's load, and ``daily_budget_s`` as a cap on a
slow machine). :func:`prove` runs in a worker process. Days are UTC.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from shared.variants import Variants

if TYPE_CHECKING:
    from shared.solver import Budget
    from shared.variants.base import Rules

#: candidate keys tried per day and variant before giving up (each within the budget)
CANDIDATES = 64
DAY_MS = 86_400_000


def utc_date(ms: int) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC).date().isoformat()


def day_end_ms(date: str) -> int:
    start = datetime.datetime.fromisoformat(date).replace(tzinfo=datetime.UTC)
    return int(start.timestamp() * 1000) + DAY_MS


def candidate_keys(secret: bytes, date: str, variant: str, count: int = CANDIDATES) -> list[bytes]:
    """Deal keys that only the holder of ``secret`` can compute for ``date``."""
    return [
        hmac.new(secret, f"{date}|{variant}|{n}".encode(), hashlib.sha256).digest()
        for n in range(count)
    ]


def candidate_budget(variant: type[Rules], seconds: float, clock: Callable[[], float]) -> Budget:
    """What the solver may spend on one candidate deal of ``variant``: the positions it
    declares (``Rules.daily_positions``: the deals the solver proves winnable it almost
    always proves early, docs/solver.md "Daily selection", so a candidate it cannot prove
    soon is cheaper to drop for the next one than to search on; it also bounds the
    worker's memory), and ``seconds`` by ``clock`` at most (the bench uses this very
    budget)."""
    from shared.solver import Budget

    return Budget(positions=variant.daily_positions, seconds=seconds, clock=clock)


def prove(
    variant: type[Rules], keys: list[bytes], seconds: float, min_positions: int = 0
) -> tuple[bytes, int]:
    """In a worker process: the first key whose deal is proven winnable in ``min_positions``
    positions or more, and the positions it took; LookupError when none is."""
    from shared.games import new_game
    from shared.solver import WON, solve_position

    parent = os.getppid()

    def clock() -> float:
        # The search reads this clock often: a worker whose server died (kill -9) stops here
        # instead of searching on for every candidate.
        if os.getppid() != parent:
            os._exit(0)
        return time.monotonic()

    variants = Variants((variant,))
    for key in keys:
        game = new_game(variant.id, key=key, variants=variants)
        result = solve_position(game, candidate_budget(variant, seconds, clock))
        if result.verdict == WON and result.positions >= min_positions:
            return key, result.positions
    raise LookupError(f"no candidate deal of {variant.id!r} was proven winnable")
