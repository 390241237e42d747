"""Gypsy's dead end-game test checked against the plain search, position by position.

Small end games on Gypsy's rules narrowed to three columns (the stock empty, every card of
a suit up to a rank picked per foundation home, the rest shuffled into the columns, the
lower cards face down): the plain search (``plain_graph``: the engine's ``legal`` /
``apply`` / ``after_move``) builds each whole graph and works out which positions it wins.
Those graphs leave out the moves from a foundation (with them even nine cards out overflow
any cap), so a position won there is won in the game: every position that
``never_moves`` calls dead must be one the graph cannot win. A wrong test (a king on a
lower card of its suit called dead, though an empty column could take the king) is caught
by the same check, so the check can see an unsound rule.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

from shared.games import rules_for
from shared.position import Position
from shared.solver import UNWINNABLE, Budget, solve_rules
from shared.solver.gypsy_dead import never_moves
from shared.variants.gypsy import FOUNDATIONS, GypsyRules
from shared.variants.layout import GAP, Layout
from tests.shared.solver.test_gypsy_search import DEAD
from tests.shared.solver.test_pruning_graphs import Graph, plain_graph

COLUMNS = ("t0", "t1", "t2")


class NarrowGypsy(GypsyRules):
    """Gypsy's rules on three columns: the same moves, end games small enough for the plain
    search to see whole (foundation cards coming back included) and narrow enough to be
    lost (eight columns leave a place for nearly every card)."""

    pile_ids = ("s", *FOUNDATIONS, *COLUMNS)
    layout = Layout.of(("s", GAP, *FOUNDATIONS), COLUMNS, down=COLUMNS)


RULES = NarrowGypsy()
GYPSY = rules_for("gypsy")

Dead = Callable[[list[tuple[int, ...]], list[int], list[int]], bool]


def end_game(seed: int, lows: tuple[int, ...], down: int) -> Position:
    """An end game: foundation ``f`` holds its suit (``f // 2``) up to ``lows[f]``, the
    other cards, shuffled by ``seed``, go round the columns, each column's lowest
    ``down`` cards face down (never its top card). No stock."""
    piles: list[list[int]] = [[] for _ in RULES.pile_ids]
    pos_down = [0] * len(piles)
    out: list[int] = []
    for f, low in enumerate(lows):
        suit = f // 2
        piles[RULES.foundations[f]] = [suit * 16 + r for r in range(1, low + 1)]
        out += [suit * 16 + r for r in range(low + 1, 14)]
    random.Random(seed).shuffle(out)
    tab = RULES.tableau
    for k, card in enumerate(out):
        piles[tab[k % len(tab)]].append(card)
    for t in tab:
        pos_down[t] = max(0, min(down, len(piles[t]) - 1))
    return Position(piles, pos_down)


def dead_in(pos: Position, dead: Dead = never_moves) -> bool:
    tab = RULES.tableau
    cols = [tuple(pos.piles[t]) for t in tab]
    found = [pos.piles[f][-1] if pos.piles[f] else 0 for f in RULES.foundations]
    return dead(cols, [pos.down[t] for t in tab], found)


#: (seed, foundation tops, face-down cards per column): 19 to 20 cards out, in three columns
CASES = [
    (seed, lows, down)
    for seed in range(1, 17)
    for lows, down in (
        ((10, 11, 10, 12, 11, 11, 12, 10), 1),
        ((9, 11, 11, 12, 10, 12, 11, 11), 2),
        ((10, 10, 11, 11, 10, 11, 10, 11), 1),
    )
]


@functools.cache
def graph_of(seed: int, lows: tuple[int, ...], down: int) -> Graph | None:
    return plain_graph(RULES, end_game(seed, lows, down), cap=20_000, from_foundations=False)


def wrongly_dead(dead: Dead) -> tuple[int, int, int]:
    """Over the cases' graphs: positions called dead, lost positions, and positions called
    dead that the graph wins (each one a win the test would throw away)."""
    called = lost = wrong = 0
    for case in CASES:
        graph = graph_of(*case)
        if graph is None:
            continue
        lost += len(graph.positions) - len(graph.winnable)
        for key, pos in graph.positions.items():
            if dead_in(pos, dead):
                called += 1
                wrong += key in graph.winnable
    return called, lost, wrong


def test_every_position_called_dead_is_lost() -> None:
    called, lost, wrong = wrongly_dead(never_moves)
    assert wrong == 0
    # the check checks something: the graphs hold lost positions and the test finds some
    assert lost >= 500
    assert called >= 10


def king_on_its_suit(cols: list[tuple[int, ...]], down: list[int], found: list[int]) -> bool:
    """A wrong test: a king above a lower card of its own suit can still go to an empty
    column, so such a position is not always lost."""
    return any(
        c & 15 == 13 and any(b >> 4 == c >> 4 for b in col[:i])
        for col in cols
        for i, c in enumerate(col)
    )


def test_a_wrong_dead_test_is_caught() -> None:
    assert wrongly_dead(king_on_its_suit)[2] >= 1


def test_a_dead_start_is_proven_unwinnable_at_once() -> None:
    """A Gypsy end game dead at its first position is proven lost without a search."""
    result = solve_rules(GYPSY, DEAD, Budget(positions=10))
    assert result.verdict == UNWINNABLE
    assert result.positions == 1
