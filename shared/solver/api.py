"""The solver as the engine uses it: solve a deal or a game, pick a winnable daily deal.

Each variant names the search that serves it (``Rules.solver_search``), and
:data:`SEARCHES` maps those names to the searches: Freecell is searched on
compact boards (:mod:`shared.solver.freecell_fast`), Gypsy, Osmosis and the
games whose stock feeds a waste by searches of their own, any other variant
on the engine's own positions (:mod:`shared.solver.engine_search`); either
way the line comes back as canonical actions the engine replays.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Mapping
from types import MappingProxyType
from typing import NamedTuple

from shared.game import WON as GAME_WON
from shared.game import Game
from shared.games import rules_for
from shared.position import Position
from shared.solver import (
    engine_search,
    freecell_search,
    gypsy_search,
    osmosis_search,
    waste_search,
)
from shared.solver.result import UNKNOWN, UNWINNABLE, WON, Budget, Limits, Result
from shared.variants import STANDARD, Variants
from shared.variants.base import InternalMove, Rules

#: what a search may spend when the caller says nothing
DEFAULT_BUDGET = Budget(positions=100_000)

#: a search on (rules, position, limits): (verdict, internal moves, positions seen)
LineSearch = Callable[[Rules, Position, Limits], tuple[str, list[InternalMove], int]]


class Search(NamedTuple):
    """What one search name stands for: how it solves, and how it ranks a hint's moves."""

    solve: Callable[[Rules, Position, Budget], Result]
    best_move: Callable[[Rules, Position, list[InternalMove]], InternalMove]


def _lines(search: LineSearch) -> Callable[[Rules, Position, Budget], Result]:
    """A search that finds internal moves as one that gives a :class:`Result` of names."""

    def solve(rules: Rules, pos: Position, budget: Budget) -> Result:
        limits = budget.limits()
        verdict, moves, seen = search(rules, pos, limits)
        line = tuple(rules.move_name(m) for m in moves)
        if verdict == UNKNOWN:  # (the moves are the search's lead)
            return Result(verdict, (), seen, limits.elapsed(), lead=line)
        return Result(verdict, line, seen, limits.elapsed())

    return solve


def _osmosis(rules: Rules, pos: Position, limits: Limits) -> tuple[str, list[InternalMove], int]:
    if osmosis_search.fits(pos):
        return osmosis_search.solve(rules, pos, limits)
    return engine_search.solve(rules, pos.copy(), limits)


def _waste(rules: Rules, pos: Position, limits: Limits) -> tuple[str, list[InternalMove], int]:
    if waste_search.fits(rules, pos):
        return waste_search.solve(rules, pos, limits)
    return engine_search.solve(rules, pos.copy(), limits)


def _generic(rules: Rules, pos: Position, limits: Limits) -> tuple[str, list[InternalMove], int]:
    return engine_search.solve(rules, pos.copy(), limits)


#: the searches by the names variants declare (``Rules.solver_search``)
SEARCHES: Mapping[str, Search] = MappingProxyType(
    {
        "freecell": Search(_lines(freecell_search.solve_rules), freecell_search.best_move),
        # The generic search wins no Gypsy deal; this one plays builds first, deals last.
        "gypsy": Search(gypsy_search.solve_gypsy, engine_search.best_move),
        "osmosis": Search(_lines(_osmosis), engine_search.best_move),
        "waste": Search(_lines(_waste), engine_search.best_move),
        "generic": Search(_lines(_generic), engine_search.best_move),
    }
)


def search_of(rules: Rules) -> Search:
    """The search ``rules`` names; ValueError for a name no search has."""
    search = SEARCHES.get(rules.solver_search)
    if search is None:
        raise ValueError(
            f"{rules.id} asks for the solver search {rules.solver_search!r}; "
            f"there are {', '.join(SEARCHES)}"
        )
    return search


def solve(
    variant: str,
    seed: int,
    options: Mapping[str, object] | None = None,
    budget: Budget | None = None,
    variants: Variants = STANDARD,
) -> Result:
    """Solve the deal ``seed`` of ``variant`` from its start."""
    rules = rules_for(variant, options, variants)
    return solve_rules(rules, rules.deal(seed), budget)


def solve_position(game: Game, budget: Budget | None = None) -> Result:
    """Solve ``game`` from where it stands now (face-down cards included: server side)."""
    if game.state == GAME_WON:
        return Result(WON, (), 0, 0.0 if budget and budget.clock else None)
    return solve_rules(game.rules, game.position, budget)


def solve_rules(rules: Rules, pos: Position, budget: Budget | None = None) -> Result:
    """Solve ``pos`` under ``rules``; ``pos`` is left as it was."""
    return search_of(rules).solve(rules, pos, budget or DEFAULT_BUDGET)


def hint_all_seeing(
    game: Game, budget: Budget | None = None, avoid: Collection[Hashable] = ()
) -> str | None:
    """The hint of a player who could see every card, face-down ones included: the
    benchmark's reference for the players' hint (:func:`shared.solver.hints.hint`, which
    sees only what the player sees), never something to show a player.

    The first move of a winning line when one is found within ``budget``, else the
    legal move whose result looks nearest a win, else None (game over or stuck).
    ``avoid``: keys (``Position.key()``) of positions the player has been in; a move
    back to one is not suggested unless every legal move is one (as the players' hint's
    ``avoid``)."""
    if game.state != "playing":
        return None
    rules = game.rules
    pos = game.position
    moves = rules.legal(pos)
    if avoid:
        moves = [m for m in moves if position_after(rules, pos, m).key() not in avoid] or moves
    result = solve_position(game, budget)
    names = rules.move_names(moves)
    if result.verdict == WON and result.line and result.line[0] in names:
        return result.line[0]
    if not moves:
        return None
    return rules.move_name(best_move(rules, pos, moves))


def position_after(rules: Rules, pos: Position, move: InternalMove) -> Position:
    """A copy of ``pos`` after the legal ``move`` and what follows it by itself."""
    after = pos.copy()
    rules.apply(after, move)
    rules.after_move(after)
    return after


def best_move(rules: Rules, pos: Position, moves: list[InternalMove]) -> InternalMove:
    """The move after which the variant's search score is lowest (first such in list order)."""
    return search_of(rules).best_move(rules, pos, moves)


def find_winnable_seed(
    variant: str,
    options: Mapping[str, object] | None,
    candidate_seeds: Iterable[int],
    budget: Budget | None = None,
    variants: Variants = STANDARD,
) -> tuple[int, Result]:
    """The first candidate seed the solver proves winnable within ``budget`` (per seed),
    with its result. Raises LookupError when the candidates run out first."""
    rules = rules_for(variant, options, variants)
    for seed in candidate_seeds:
        result = solve_rules(rules, rules.deal(seed), budget)
        if result.verdict == WON:
            return seed, result
    raise LookupError(f"no candidate seed of {variant!r} was proven winnable")


__all__ = [
    "DEFAULT_BUDGET",
    "SEARCHES",
    "UNKNOWN",
    "UNWINNABLE",
    "WON",
    "Search",
    "best_move",
    "find_winnable_seed",
    "hint_all_seeing",
    "position_after",
    "search_of",
    "solve",
    "solve_position",
    "solve_rules",
]
