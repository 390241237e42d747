"""Is a position stuck: can no sequence of legal moves put another card on the foundations?

rules.md asks never to say so falsely, and to say so at least when no legal
move exists and when a bounded exhaustive search finds no progress. The
search here is that bounded search, done by the solver: best-first towards
the cards the foundations want (so that progress, when it exists, is found in
a handful of positions), over canonical keys (so that swapping two free cells
or columns is not a new position), stopping at the first line that adds a
card. It says "stuck" only when it has seen every reachable position within
the budget. The budget counts positions, never time, so the answer is a pure
function of the position: the same on every machine, and replays are exact.
Freecell, the game random play gets stuck in most, is searched on the
solver's compact boards.

Answers are remembered per position (bounded); a remembered answer is the one
the search would give again, since the search is deterministic.
"""

from __future__ import annotations

from shared.position import Position
from shared.solver import engine_search, freecell_fast, freecell_search
from shared.variants.base import Rules
from shared.variants.freecell import FreecellRules

#: positions a stuck check may visit before answering "not proven stuck"
STUCK_SEARCH_BUDGET = 2000

#: answers remembered; the memo is emptied when it reaches this size
MEMO_SIZE = 20_000

_memo: dict[tuple[object, ...], bool] = {}


def no_progress_possible(
    rules: Rules, pos: Position, budget: int = STUCK_SEARCH_BUDGET
) -> bool:
    """True only when every position reachable from ``pos`` keeps the foundation count
    at or below today's (so the game is lost); False when progress exists or the
    budget ran out first."""
    if isinstance(rules, FreecellRules):
        board = freecell_fast.from_position(pos)
        memo_key: tuple[object, ...] = (rules.id, rules.autoplay, budget, board)
        known = _memo.get(memo_key)
        if known is None:
            found = freecell_search.progress_possible(board, rules.autoplay, budget)
            known = found is False
            _remember(memo_key, known)
        return known
    memo_key = (rules.id, tuple(sorted(rules.options.items())), budget, pos.key())
    known = _memo.get(memo_key)
    if known is None:
        found = engine_search.progress_possible(rules, pos, budget)
        known = found is False
        _remember(memo_key, known)
    return known


def _remember(memo_key: tuple[object, ...], answer: bool) -> None:
    if len(_memo) >= MEMO_SIZE:
        _memo.clear()
    _memo[memo_key] = answer
