"""The solver as the engine uses it: solve a deal or a game, hint, pick a winnable daily deal.

Freecell is searched on compact boards (:mod:`shared.solver.freecell_fast`),
every other variant on the engine's own positions; either way the line comes
back as canonical actions the engine replays.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from shared.position import Position
from shared.solver import (
    engine_search,
    freecell_fast,
    freecell_search,
    gypsy_search,
    osmosis_search,
    waste_search,
)
from shared.solver.result import UNKNOWN, UNWINNABLE, WON, Budget, Result
from shared.variants.base import InternalMove, Rules
from shared.variants.freecell import FreecellRules
from shared.variants.gypsy import GypsyRules
from shared.variants.osmosis import OsmosisRules

if TYPE_CHECKING:
    from shared.game import Game

#: what a search may spend when the caller says nothing
DEFAULT_BUDGET = Budget(positions=100_000)


def solve(
    variant: str,
    seed: int,
    options: Mapping[str, object] | None = None,
    budget: Budget | None = None,
) -> Result:
    """Solve the deal ``seed`` of ``variant`` from its start."""
    from shared.games import rules_for

    rules = rules_for(variant, options)
    return solve_rules(rules, rules.deal(seed), budget)


def solve_position(game: Game, budget: Budget | None = None) -> Result:
    """Solve ``game`` from where it stands now (face-down cards included: server side)."""
    if game.state == "won":
        return Result(WON, (), 0, 0.0 if budget and budget.clock else None)
    return solve_rules(game.rules, game.position, budget)


def solve_rules(rules: Rules, pos: Position, budget: Budget | None = None) -> Result:
    """Solve ``pos`` under ``rules``; ``pos`` is left as it was."""
    if isinstance(rules, GypsyRules):
        # The generic search wins no Gypsy deal; this one plays builds first, deals last.
        return gypsy_search.solve_gypsy(rules, pos, budget or DEFAULT_BUDGET)
    limits = (budget or DEFAULT_BUDGET).limits()
    moves: list[InternalMove]
    if isinstance(rules, FreecellRules):
        board = freecell_fast.from_position(pos)
        verdict, moves, seen = freecell_search.solve(board, rules.autoplay, limits)
    elif isinstance(rules, OsmosisRules) and osmosis_search.fits(pos):
        verdict, moves, seen = osmosis_search.solve(rules, pos, limits)
    elif rules.id in waste_search.VARIANTS and waste_search.fits(rules, pos):
        verdict, moves, seen = waste_search.solve(rules, pos, limits)
    else:
        verdict, moves, seen = engine_search.solve(rules, pos.copy(), limits)
    line = tuple(rules.move_name(m) for m in moves)
    return Result(verdict, line, seen, limits.elapsed())


def hint(game: Game, budget: Budget | None = None) -> str | None:
    """The first move of a winning line when one is found within ``budget``, else the
    legal move whose result looks nearest a win, else None (game over or stuck)."""
    if game.state != "playing":
        return None
    result = solve_position(game, budget)
    if result.verdict == WON and result.line:
        return result.line[0]
    rules = game.rules
    pos = game.position
    moves = rules.legal(pos)
    if not moves:
        return None
    return rules.move_name(best_move(rules, pos, moves))


def best_move(rules: Rules, pos: Position, moves: list[InternalMove]) -> InternalMove:
    """The move after which the variant's search score is lowest (first such in list order)."""
    best: tuple[int, int] | None = None
    chosen = moves[0]
    if isinstance(rules, FreecellRules):
        board = freecell_fast.from_position(pos)
        for i, move in enumerate(moves):
            after = freecell_fast.play(board, move, rules.autoplay, True)
            rank = (freecell_search.solve_score(after), i)
            if best is None or rank < best:
                best, chosen = rank, move
        return chosen
    score = engine_search.make_score(rules)
    for i, move in enumerate(moves):
        child = pos.copy()
        rules.apply(child, move)
        rules.after_move(child)
        rank = (score(child), i)
        if best is None or rank < best:
            best, chosen = rank, move
    return chosen


def find_winnable_seed(
    variant: str,
    options: Mapping[str, object] | None,
    candidate_seeds: Iterable[int],
    budget: Budget | None = None,
) -> tuple[int, Result]:
    """The first candidate seed the solver proves winnable within ``budget`` (per seed),
    with its result. Raises LookupError when the candidates run out first."""
    from shared.games import rules_for

    rules = rules_for(variant, options)
    for seed in candidate_seeds:
        result = solve_rules(rules, rules.deal(seed), budget)
        if result.verdict == WON:
            return seed, result
    raise LookupError(f"no candidate seed of {variant!r} was proven winnable")


__all__ = [
    "DEFAULT_BUDGET",
    "UNKNOWN",
    "UNWINNABLE",
    "WON",
    "best_move",
    "find_winnable_seed",
    "hint",
    "solve",
    "solve_position",
    "solve_rules",
]
