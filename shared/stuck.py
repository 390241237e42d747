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
Freecell, the game random play gets stuck in most, has its own search on
canonical boards (:mod:`shared.solver.freecell_progress`).

"Stuck" holds exactly when no reachable position (up to the budget) can send
a card home and there are no more than the budget of them; so any legal line
that sends a card home proves "not stuck" as surely as the search, whatever
order found it. :func:`cheap_proof` looks for such lines without a search.

Answers are remembered per position (bounded); a remembered answer is the one
the search would give again, since the search is deterministic.

A search can take tens of milliseconds, too long for a server's event loop.
So the search can be asked for as data: a :class:`StuckQuestion` (what
:meth:`shared.game.Game.stuck_question` hands out when the state needs one)
is small, frozen and picklable, and :func:`answer` is a module-level pure
function that a worker process can run; the game then takes the verdict back
with :meth:`shared.game.Game.answer_stuck`.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.position import Position
from shared.solver import engine_search, freecell_progress
from shared.variants.base import OptionValue, Rules
from shared.variants.freecell import FreecellRules

#: what :func:`cheap_proof` returns: for Freecell a witness line, else True
Proof = freecell_progress.Witness | bool

#: positions a stuck check may visit before answering "not proven stuck"
STUCK_SEARCH_BUDGET = 2000

#: answers remembered; the memo is emptied when it reaches this size
MEMO_SIZE = 20_000


@dataclass(frozen=True, slots=True)
class StuckQuestion:
    """The bounded search one position still needs, as plain data.

    Everything :func:`answer` needs travels in it (variant, options, the
    position, the budget), so it pickles into a worker process and back, and
    two questions about the same position compare equal, which is how a game
    checks that an answer is about its current position. Piles are ``bytes``
    of card codes, bottom to top; ``down`` counts the face-down cards of each.
    """

    variant: str
    options: tuple[tuple[str, OptionValue], ...]
    piles: tuple[bytes, ...]
    down: tuple[int, ...]
    redeals_used: int
    budget: int = STUCK_SEARCH_BUDGET

    def position(self) -> Position:
        """A fresh mutable position equal to the one asked about."""
        return Position([list(p) for p in self.piles], list(self.down), self.redeals_used)


_memo: dict[StuckQuestion, bool] = {}


def question_for(rules: Rules, pos: Position, budget: int = STUCK_SEARCH_BUDGET) -> StuckQuestion:
    """The question "is ``pos`` stuck under ``rules``?" as data."""
    return StuckQuestion(
        rules.id,
        tuple(sorted(rules.options.items())),
        tuple(bytes(p) for p in pos.piles),
        tuple(pos.down),
        pos.redeals_used,
        budget,
    )


def remembered(question: StuckQuestion) -> bool | None:
    """The verdict this process already knows for ``question``, or None."""
    return _memo.get(question)


def remember(question: StuckQuestion, verdict: bool) -> None:
    """Keep ``verdict`` (True: stuck) as the answer to ``question``."""
    _remember(question, verdict)


def answer(question: StuckQuestion) -> bool:
    """True when no line from the question's position adds a foundation card (stuck).

    Module-level and pure, so that a ``ProcessPoolExecutor`` can run it: the
    answer depends on the question alone, the same in any process.
    """
    return solve(question)[0]


def solve(question: StuckQuestion) -> tuple[bool, Proof | None]:
    """:func:`answer`, with the proof of progress the search found when it found one
    (for :func:`cheap_proof` to try at the next position of the game)."""
    known = _memo.get(question)
    if known is not None:
        return known, None
    rules = _rules(question)
    proof: Proof | None = None
    if isinstance(rules, FreecellRules):
        found, witness = freecell_progress.search_piles(question.piles, question.budget)
        if found:
            proof = witness
    else:
        found = engine_search.progress_possible(rules, question.position(), question.budget)
    stuck = found is False
    _remember(question, stuck)
    return stuck, proof


def cheap_proof(rules: Rules, pos: Position, hint: Proof | None = None) -> Proof | None:
    """A proof, found without a search, that a card can still go home; None: not found.

    ``hint`` is a proof found at an earlier position of the same game: when
    Freecell's greedy dig finds nothing, it replays the hint's line (checking
    every move), which the player's moves since then may have left playable,
    as when the search found it. A proof is only ever a legal line of moves
    that puts a card home, so it can only agree with the search: a position
    with one is never stuck.
    """
    if isinstance(rules, FreecellRules):
        witness = freecell_progress.dig(pos)
        if witness is None and isinstance(hint, tuple) and hint:
            witness = freecell_progress.replay(pos, hint)
        return witness
    return True if rules.quick_progress(pos) else None


def no_progress_possible(rules: Rules, pos: Position, budget: int = STUCK_SEARCH_BUDGET) -> bool:
    """True only when every position reachable from ``pos`` keeps the foundation count
    at or below today's (so the game is lost); False when progress exists or the
    budget ran out first."""
    return answer(question_for(rules, pos, budget))


#: rules objects by (variant, options), so that answering many questions builds few
_rules_cache: dict[tuple[str, tuple[tuple[str, OptionValue], ...]], Rules] = {}


def _rules(question: StuckQuestion) -> Rules:
    cache_key = (question.variant, question.options)
    rules = _rules_cache.get(cache_key)
    if rules is None:
        # shared.games imports the game, which imports this module: look it up late.
        from shared.games import rules_for

        rules = _rules_cache[cache_key] = rules_for(question.variant, dict(question.options))
    return rules


def _remember(question: StuckQuestion, verdict: bool) -> None:
    if len(_memo) >= MEMO_SIZE:
        _memo.clear()
    _memo[question] = verdict
