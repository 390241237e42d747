"""The hint a player may be given: from what the player sees, and nothing else.

:func:`hint` takes a :class:`~shared.player_view.PlayerView`, which has no
field for a face-down card. Where cards are face down it deals the unseen
cards into their places in arrangements of its own (``samples`` of them, and
more while the positions last: :func:`most_arrangements`; drawn on a SHA-256
stream seeded by ``sampling_seed`` and the view: never Python's ``random``,
never the game's own cards) and solves them as if
each were the board (the variant's own search, ``positions`` per search). A
move is legal whatever the face-down cards are (legality reads only face-up
cards and counts), so the answer is legal in the real game.

Moves that lead to the same canonical position count once, and a move back to
the position itself not at all (:func:`distinct_moves`); one move left is the
answer, with no search, and so is, in Osmosis (:data:`SAFE_FIRST`), a safe move
onto a foundation (one no winning line can regret, which only face-up cards decide).
The arrangements are solved from here in turn; once
one's search wins, each move is played in it and in the arrangements after it
and the result solved, while the budget's ``samples x positions`` positions
last, the better half of the moves going on after each round, and the move that
wins the most arrangements is the answer (:func:`_compare`: a vote on each
arrangement's first move alone favours what the search tries first, such as a
deal towards a card it knows is coming).
When no arrangement is won, each votes for the first move of where its search
was heading, else for the move the search's ranking likes best.
Either way a hint stops once the arrangements its budget still holds could not
change the answer (the vote, or a round's cut, is settled): the budget is the
most a hint searches, not what it must.
Ties go to the first of the tied moves in the order of ``legal``.
Freecell has no face-down card: its hint is the solver's on the exact board,
with the whole budget. The answer is a function of (view, sampling_seed,
budget) unless the budget has a clock: then the clock may stop the sampling
early (never before one arrangement is done).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from shared.player_view import PlayerView
from shared.position import Position
from shared.solver.api import best_move, position_after, solve_rules
from shared.solver.hint_views import Arrangements, allowed_moves, distinct_moves, seen_key
from shared.solver.result import Budget, Result
from shared.variants import STANDARD, Variants
from shared.variants.base import InternalMove, Rules


@dataclass(frozen=True)
class HintBudget:
    """``samples`` arrangements of the unseen cards, ``positions`` searched in each; with a
    ``clock``, no new arrangement is begun after ``seconds``."""

    samples: int = 8
    positions: int = 1_500
    seconds: float | None = None
    clock: Callable[[], float] | None = None

    def __post_init__(self) -> None:
        if self.samples < 1 or self.positions < 1:
            raise ValueError(f"a hint needs a sample and a position at least, not {self!r}")
        if self.seconds is not None and self.clock is None:
            raise ValueError("a time cap needs a clock: HintBudget(seconds=..., clock=...)")


#: arrangements a hint may take per ``samples`` of its budget, while its positions last: a
#: search that proves an arrangement lost (or wins it) in a few dozen positions, as most of
#: Osmosis' do, leaves the rest of the budget to more arrangements (Osmosis, 100 deals: 31
#: won with ``samples`` arrangements at most, 34-35 with 8 times as many)
MORE_ARRANGEMENTS = 8
#: the same, by the search a variant declares (``Rules.solver_search``), where that search
#: decides an arrangement (won or proven lost) in a few dozen positions, so that the
#: arrangements run out long before the positions do: Osmosis' hints searched about 1,400
#: of their 12,000 positions with 8 a sample (docs/solver.md, "Osmosis' hints: safe moves
#: at once, more arrangements")
MORE_ARRANGEMENTS_OF: Mapping[str, int] = MappingProxyType({"osmosis": 64})
#: the searches (``Rules.solver_search``) whose variants' hint is a safe foundation move
#: (the variant's ``safe_move``: one no winning line can regret) whenever one is legal,
#: with no search: Osmosis' search plays them alone, and its hints' comparisons spent
#: every arrangement finding one level with ``deal`` (four fifths of their CPU time)
SAFE_FIRST = frozenset({"osmosis"})
#: the comparison of moves gives each search ``positions`` / this: more arrangements vote,
#: each on a shorter search (a move that wins an arrangement mostly wins it early)
COMPARE_SPLIT = 4

#: the budget a hint gets unless told (docs/solver.md, "Hints": about 0.4 s of one core at
#: the median in Thumb and Pouch, Gypsy and Westhaven, Osmosis and Freecell far less)
DEFAULT_HINT_BUDGET = HintBudget()


def hint(
    view: PlayerView,
    rules: Rules | Variants = STANDARD,
    *,
    sampling_seed: int,
    budget: HintBudget = DEFAULT_HINT_BUDGET,
    avoid: Collection[PlayerView] = (),
) -> str | None:
    """The move to suggest to the player who sees ``view`` (canonical notation), or None
    when the game has ended or no move is legal. ``rules`` are the game's rules, or the
    registry to find them in by the view's variant and options.

    ``avoid``: views the player has already been in (the server passes those of every
    position of the game so far). A move that turns no card and would bring one of them
    back (up to piles no rule tells apart: a card moved from one foundation to a
    tableau and on to another empty foundation is back) is never suggested: when every
    legal move would, the answer is None. A player who follows the hints then never
    walks in a circle, which the searches, each starting afresh, would otherwise lead
    them into (a line that begins by undoing the move the last hint gave).
    """
    if view.state != "playing":
        return None
    rules = _rules_of(view, rules)
    samples = Arrangements(view, sampling_seed)
    position = samples.next()
    legal = rules.legal(position)
    if not legal:
        return None
    allowed = allowed_moves(rules, view, position, legal, avoid)
    if not allowed:
        return None  # every move leads back where the player has been
    if not view.unseen:
        # Nothing is hidden: the one arrangement is the board, and gets the whole budget.
        names = rules.move_names(allowed)
        whole = Budget(positions=budget.samples * budget.positions)
        return _follow(rules, samples, position, allowed, names, budget, 1, whole)
    if rules.solver_search in SAFE_FIRST and (safe := _safe(rules, position, allowed)) is not None:
        return rules.move_name(safe)
    moves = distinct_moves(rules, position, allowed)
    if len(moves) == 1:
        return rules.move_name(moves[0])
    return _sampled(rules, samples, position, moves, rules.move_names(moves), budget)[0]


def _safe(rules: Rules, position: Position, moves: list[InternalMove]) -> InternalMove | None:
    """The first of ``moves`` that goes to a foundation and that the variant's ``safe_move``
    says no winning line can regret, if any. Whether a move is safe reads only face-up
    cards (Osmosis: one card per deal, onto a started foundation), so any arrangement
    tells."""
    kinds = rules.pile_ids
    for move in moves:
        if move[0] >= 0 and kinds[move[2]][0] == "f" and rules.safe_move(position, move):
            return move
    return None


def _sampled(
    rules: Rules,
    samples: Arrangements,
    position: Position,
    moves: list[InternalMove],
    names: list[str],
    budget: HintBudget,
) -> tuple[str, int]:
    """The hint among ``moves`` (``names``) where cards are hidden, and the positions its
    searches took: the arrangements solved in turn (``position`` the first) until one is
    won, then the moves compared (:func:`_compare`); while none is, each votes for where
    its search was heading, until the budget is spent or the vote is settled."""
    liked: Counter[str] = Counter()
    listed = set(names)
    total = budget.samples * budget.positions
    spent = 0
    clock, cap = budget.clock, budget.seconds
    start = clock() if clock is not None else 0.0
    cheapest = budget.positions
    for done in range(most_arrangements(rules, budget)):
        if done:
            if spent >= total or (clock is not None and cap is not None and clock() - start >= cap):
                break
            if _settled(liked, -(-(total - spent) // cheapest)):
                break
            position = samples.next()
        result = solve_rules(
            rules, position, Budget(positions=min(budget.positions, total - spent))
        )
        spent += result.positions
        cheapest = max(1, min(cheapest, result.positions))
        if result.won and result.line and result.line[0] in listed:
            return _compare(rules, samples, position, moves, names, budget, result, spent)
        liked[_leaning(rules, position, moves, result, listed)] += 1
    return _most(liked, names), spent


def most_arrangements(rules: Rules, budget: HintBudget) -> int:
    """The arrangements a hint under ``rules`` may take at most with ``budget``, while its
    positions last: ``samples`` times its search's :data:`MORE_ARRANGEMENTS_OF`, else
    :data:`MORE_ARRANGEMENTS`."""
    return budget.samples * MORE_ARRANGEMENTS_OF.get(rules.solver_search, MORE_ARRANGEMENTS)


def _settled(liked: Counter[str], left: int) -> bool:
    """Whether the searches' leads have settled the vote: the leading move has more votes
    than any other by more than the ``left`` arrangements the budget still holds (at the
    cost of the cheapest search so far), so the arrangements after could not change it
    unless one is won. It stops a hint that wins no arrangement early (most of Gypsy's
    dearest hints: every one of 8 searches ran its 1,500 positions out)."""
    ranked = liked.most_common(2)
    if not ranked:
        return False
    second = ranked[1][1] if len(ranked) > 1 else 0
    return ranked[0][1] - second > left


def _follow(
    rules: Rules,
    samples: Arrangements,
    position: Position,
    moves: list[InternalMove],
    names: list[str],
    budget: HintBudget,
    count: int,
    per_sample: Budget,
    first: Result | None = None,
) -> str:
    """The vote of ``count`` arrangements, each solved from here: the first move of a
    winning line, else (no win yet) where its search was heading or its ranking."""
    listed = set(names)
    wins: Counter[str] = Counter()
    liked: Counter[str] = Counter()
    clock, cap = budget.clock, budget.seconds
    start = clock() if clock is not None else 0.0
    for done in range(count):
        if done:
            if clock is not None and cap is not None and clock() - start >= cap:
                break
            position = samples.next()
        result = (
            first if done == 0 and first is not None else solve_rules(rules, position, per_sample)
        )
        if result.won and result.line and result.line[0] in listed:
            wins[result.line[0]] += 1
        elif not wins:
            liked[_leaning(rules, position, moves, result, listed)] += 1
    return _most(wins or liked, names)


def _leaning(
    rules: Rules, position: Position, moves: list[InternalMove], result: Result, listed: set[str]
) -> str:
    """An arrangement's vote when its search has not won: the first move of where the search
    was heading when its budget ran out, else the move its ranking likes best."""
    lead = result.lead
    if lead and lead[0] in listed:
        return lead[0]
    return rules.move_name(best_move(rules, position, moves))


def _compare(
    rules: Rules,
    samples: Arrangements,
    position: Position,
    moves: list[InternalMove],
    names: list[str],
    budget: HintBudget,
    first: Result,
    spent: int,
) -> tuple[str, int]:
    """Each move played in each arrangement and the result solved, by halves: the move
    that wins the most arrangements among the moves left at the end.

    The moves start in the order of preference for equal wins (the first winning line's
    first move, then the order of ``names``). What is left of the budget's ``samples x
    positions`` positions (the searches before count) is shared between rounds, one for
    every halving it takes to leave one move (``ceil(log2 moves)``); in each round every
    move still in is played and solved in arrangement after arrangement (at least one, the
    first the won one) until the round's share is spent or its cut is settled
    (:func:`_cut_settled`), then the better half of them (most wins, then preference) goes
    on; the last round's settled cut is the answer, with the rest of the budget unspent
    (the positions searched are returned beside it). Every move still in has been tried on the same
    arrangements, so their wins compare; the best moves get the most arrangements instead
    of every move the same few (with a dozen moves, two or three arrangements before).
    Each search gets ``positions / COMPARE_SPLIT`` at most, and at most what is left: an
    arrangement the budget ends in the middle of does not vote (its moves would be compared
    on unequal terms), save the first. The bound keeps a hint's cost (its CPU) a function
    of the budget however many moves there are."""
    total = budget.samples * budget.positions
    most = most_arrangements(rules, budget)
    each = max(1, budget.positions // COMPARE_SPLIT)
    lead = first.line[0]
    alive = [lead, *(name for name in names if name != lead)]
    move_of = dict(zip(names, moves, strict=True))
    wins: Counter[str] = Counter()
    rounds = max(1, (len(alive) - 1).bit_length())
    clock, cap = budget.clock, budget.seconds
    start = clock() if clock is not None else 0.0
    done = 0
    while len(alive) > 1 and rounds:
        share = (total - spent) // rounds
        began = spent
        keep = (len(alive) + 1) // 2
        cheapest = share
        while done == 0 or spent - began < share:
            if done:
                if done >= most or spent >= total:
                    return _best(wins, alive), spent
                if clock is not None and cap is not None and clock() - start >= cap:
                    return _best(wins, alive), spent
                position = samples.next()
            before = spent
            these, spent, complete = _tried(
                rules, position, alive, move_of, each, total, spent, done
            )
            _vote(wins, these, complete, done == 0)
            done += 1
            if not complete:
                return _best(wins, alive), spent
            cheapest = max(1, min(cheapest, spent - before))
            left = min(
                most - done,
                -(-(share - (spent - began)) // cheapest),
            )
            if _cut_settled(wins, alive, keep, left):
                break
        rounds -= 1
        alive = sorted(alive, key=lambda name: -wins[name])[:keep]
    return _best(wins, alive), spent


def _cut_settled(wins: Counter[str], alive: list[str], keep: int, left: int) -> bool:
    """Whether the round's cut is settled: the ``keep`` moves of ``alive`` with the most
    wins have more than any other move by more than the ``left`` arrangements the round
    may still try (its share at the cost of its cheapest arrangement so far), so trying
    them could not change which go on. In the last round (``keep`` 1) that is the
    answer, and the rest of the budget is not spent; before it, the rounds after get
    what this one leaves."""
    ranked = sorted(alive, key=lambda name: -wins[name])
    if keep >= len(ranked):
        return True
    return wins[ranked[keep - 1]] - wins[ranked[keep]] > left


def _tried(
    rules: Rules,
    position: Position,
    alive: list[str],
    move_of: dict[str, InternalMove],
    each: int,
    total: int,
    spent: int,
    done: int,
) -> tuple[Counter[str], int, bool]:
    """The moves of ``alive`` played in one arrangement and solved: which won, the positions
    spent after, and whether every one was solved (the budget may end first). In the first
    arrangement the first move is the won line's own: won, with no search."""
    these: Counter[str] = Counter()
    for name in alive:
        if done == 0 and name == alive[0]:
            these[name] += 1
            continue
        left = min(each, total - spent)
        if left <= 0:
            return these, spent, False
        result = solve_rules(
            rules, position_after(rules, position, move_of[name]), Budget(positions=left)
        )
        spent += result.positions
        these[name] += result.won
    return these, spent, True


def _vote(wins: Counter[str], these: Counter[str], complete: bool, first: bool) -> None:
    """One arrangement's wins added to ``wins`` when it counts: every move still in was
    solved in it, or it is the first (the won one: its line's move needs no search). One
    the budget ended in the middle of does not vote: the moves solved before the end
    would get a win the others had no chance at."""
    if complete or first:
        wins.update(these)


def _best(wins: Counter[str], alive: list[str]) -> str:
    """The move of ``alive`` with the most wins, the first of equals (``alive`` is in the
    order of preference)."""
    top = max(wins[name] for name in alive)
    return next(name for name in alive if wins[name] == top)


def _most(votes: Counter[str], names: list[str]) -> str:
    """The listed move with the most votes; among equals the first in the order of
    ``names`` (a line's first move is always listed: the search plays legal moves)."""
    top = max(votes[name] for name in names)
    return next(name for name in names if votes[name] == top)


def _rules_of(view: PlayerView, rules: Rules | Variants) -> Rules:
    if isinstance(rules, Variants):
        return rules.rules(view.variant, view.option_map)
    if rules.id != view.variant or rules.options != view.option_map:
        raise ValueError(f"the rules of {rules.id} {rules.options} do not play {view.variant}")
    return rules


__all__ = ["DEFAULT_HINT_BUDGET", "Arrangements", "HintBudget", "hint", "seen_key"]
