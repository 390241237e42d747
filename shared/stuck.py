"""Is a position stuck: can no sequence of legal moves put another card on the foundations?

rules.md asks never to say so falsely, and to say so at least when no legal
move exists and when a bounded exhaustive search finds no progress. The
search here is that bounded search: it visits positions reachable without
adding a foundation card, stops at the first one that adds a card, and says
"stuck" only when it has visited them all within the budget. The budget
counts positions, never time, so the answer is the same on every machine and
replays are exact.
"""

from __future__ import annotations

from shared.position import Position
from shared.variants.base import Rules

#: positions a stuck check may visit before answering "not proven stuck"
STUCK_SEARCH_BUDGET = 2000


def no_progress_possible(
    rules: Rules, pos: Position, budget: int = STUCK_SEARCH_BUDGET
) -> bool:
    """True only when every position reachable from ``pos`` keeps the foundation count
    at or below today's (so the game is lost); False when progress exists or the
    budget ran out first."""
    target = rules.foundation_count(pos)
    seen = {pos.key()}
    stack = [pos]
    while stack:
        current = stack.pop()
        for move in rules.legal(current):
            child = current.copy()
            rules.apply(child, move)
            rules.after_move(child)
            if rules.foundation_count(child) > target:
                return False
            key = child.key()
            if key in seen:
                continue
            if len(seen) >= budget:
                return False
            seen.add(key)
            stack.append(child)
    return True
