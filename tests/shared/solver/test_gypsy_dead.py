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

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.cards import RED
from shared.games import rules_for
from shared.position import Position
from shared.solver import UNWINNABLE, Budget, solve_rules
from shared.solver.gypsy_dead import _PARENTS, never_moves
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


def plainly_never_moves(cols: list[tuple[int, ...]], down: list[int], found: list[int]) -> bool:
    """The relaxation of ``gypsy_dead`` written as plainly as it reads: sweep every column
    and every card until nothing changes. Slow, and obviously the fixed point."""
    home = [False] * 64
    for f in found:
        for r in range(1, (f & 15) + 1):
            home[(f & ~15) + r] = True
    top = list(home)
    reach = [len(col) for col in cols]
    changed = True
    while changed:
        changed = False
        empty = 0 in reach
        for t, col in enumerate(cols):
            if reach[t] and not top[col[reach[t] - 1]]:
                top[col[reach[t] - 1]] = True
                changed = True
            # the lowest card that may move with all above it, the build continuing
            low = reach[t]
            for i in range(reach[t] - 1, -1, -1):
                card = col[i]
                if i < reach[t] - 1 and (
                    i < down[t]
                    or col[i] & 15 != (col[i + 1] & 15) + 1
                    or RED[col[i]] == RED[col[i + 1]]
                ):
                    break
                if empty or card & 15 == 1 or home[card - 1] or any(top[p] for p in _PARENTS[card]):
                    low = i
            for card in col[low:]:
                if not top[card] or (not home[card] and (card & 15 == 1 or home[card - 1])):
                    top[card] = True
                    home[card] = home[card] or card & 15 == 1 or home[card - 1]
                    changed = True
            if low < reach[t]:
                reach[t] = low
                changed = True
    return any(reach)


@st.composite
def end_games(draw: st.DrawFn) -> tuple[list[tuple[int, ...]], list[int], list[int]]:
    """Any Gypsy end game: foundation tops, the rest of both decks dealt round 1 to 8
    columns in any order, some cards of each column face down (never its top one)."""
    lows = draw(st.lists(st.integers(0, 13), min_size=8, max_size=8))
    found = [(f // 2) * 16 + low if low else 0 for f, low in enumerate(lows)]
    out = [(f // 2) * 16 + r for f, low in enumerate(lows) for r in range(low + 1, 14)]
    out = draw(st.permutations(out))
    n = draw(st.integers(1, 8))
    cols = [tuple(out[i::n]) for i in range(n)]
    down = [draw(st.integers(0, max(0, len(col) - 1))) for col in cols]
    return cols, down, found


@settings(max_examples=400, deadline=None)
@given(end_games())
def test_the_dead_test_is_the_plain_fixed_point(
    game: tuple[list[tuple[int, ...]], list[int], list[int]],
) -> None:
    """``never_moves`` grows "may be home" in chains instead of sweeping for it: the same
    verdict as the plain sweep on any end game."""
    assert never_moves(*game) == plainly_never_moves(*game)


def test_the_plain_fixed_point_sees_both_verdicts() -> None:
    """The comparison above compares something: over the graphs' positions the plain
    sweep calls some dead and most not, as ``never_moves`` does."""
    verdicts = [
        dead_in(pos, plainly_never_moves)
        for case in CASES[:12]
        if (graph := graph_of(*case)) is not None
        for pos in graph.positions.values()
    ]
    assert any(verdicts) and not all(verdicts)
