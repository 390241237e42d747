"""The compiled position key (shared/variants/_keys.c) against the Python one, and the key's
meaning: equal keys exactly for positions equal up to interchangeable piles.

The searches count positions by key, so the C key must give the very bytes the
Python one gives: they are compared on the positions of seeded random walks of
every variant, their blind positions and their search children, and on random
piles with counts past what one byte holds. Bad input must be refused with an
exception, never read past. Where the C key was not built (the pure build, no C
compiler), the comparisons skip; the key's meaning is checked in either build.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from shared.games import new_game
from shared.player_view import blind
from shared.position import Position
from shared.stuck.generic import children
from shared.variants import STANDARD
from shared.variants.keys import COMPILED_KEY, PositionKey, key_function
from tests.shared.positions import CONFIG_PARAMS, random_walk

needs_compiled = pytest.mark.skipif(COMPILED_KEY is None, reason="the C key was not built here")


def positions(variant: str, options: dict[str, bool], seeds: range) -> Iterator[Position]:
    """Positions of seeded random walks, their blind positions and their children."""
    rules = STANDARD.rules(variant, options)
    rng = random.Random(f"{variant}{options}")
    for seed in seeds:
        for pos, _ in random_walk(rules, rules.deal(seed), rng, 60):
            yield pos
            yield blind(rules, pos)
            for _, child in children(rules, pos):
                yield child


def old_key(rules: object, pos: Position) -> tuple[object, ...]:
    """The key as tuples (how it was written before it became bytes): the meaning."""
    pile_ids: tuple[str, ...] = rules.pile_ids  # type: ignore[attr-defined]
    kinds: tuple[str, ...] = rules.interchangeable  # type: ignore[attr-defined]
    groups = [[i for i, pid in enumerate(pile_ids) if pid[0] == kind] for kind in kinds]
    grouped = {i for group in groups for i in group}
    parts: list[object] = [pos.redeals_used]
    for i in range(len(pile_ids)):
        if i not in grouped:
            parts.append((pos.down[i], tuple(pos.piles[i])))
    for group in groups:
        parts.append(tuple(sorted((pos.down[i], tuple(pos.piles[i])) for i in group)))
    return tuple(parts)


@pytest.mark.parametrize(("variant", "options"), CONFIG_PARAMS)
def test_equal_keys_exactly_for_positions_that_play_the_same(
    variant: str, options: dict[str, bool]
) -> None:
    rules = STANDARD.rules(variant, options)
    key = key_function(rules)
    by_old: dict[tuple[object, ...], bytes] = {}
    by_new: dict[bytes, tuple[object, ...]] = {}
    for pos in positions(variant, options, range(1, 6)):
        old, new = old_key(rules, pos), key(pos)
        assert by_old.setdefault(old, new) == new
        assert by_new.setdefault(new, old) == old
    assert len(by_new) > 100


@needs_compiled
@pytest.mark.parametrize(("variant", "options"), CONFIG_PARAMS)
def test_the_c_key_is_the_python_key(variant: str, options: dict[str, bool]) -> None:
    rules = STANDARD.rules(variant, options)
    native, python = PositionKey(rules), PositionKey(rules, native=False)
    assert native.compiled is not None and python.compiled is None
    seen = 0
    for pos in positions(variant, options, range(1, 6)):
        for redeals in (pos.redeals_used, 190, 191, 70_000):
            pos.redeals_used = redeals
            assert native.of(pos) == python.of(pos)
            seen += 1
    assert seen > 1000


@needs_compiled
def test_the_c_key_on_long_piles_and_large_counts() -> None:
    rules = STANDARD.rules("westhaven")
    native, python = PositionKey(rules), PositionKey(rules, native=False)
    rng = random.Random(3)
    for _ in range(3000):
        piles = [
            [rng.randrange(64) for _ in range(rng.choice((0, 1, 2, 13, 300, 700)))]
            for _ in rules.pile_ids
        ]
        down = [rng.randrange(len(pile) + 1) for pile in piles]
        pos = Position(piles, down, rng.choice((0, 1, 190, 191, 2**32 - 1)))
        assert native.of(pos) == python.of(pos)


BAD: list[tuple[tuple[object, ...], type[Exception]]] = [
    (([[1]], [0], 0, [0]), TypeError),
    (((), [0], 0, [0], []), TypeError),
    (([[1]], [0], 0, [0], [(0,)]), TypeError),
    (([(1,)], [0], 0, [0], []), TypeError),
    (([["1"]], [0], 0, [0], []), TypeError),
    (([[1]], ["0"], 0, [0], []), TypeError),
    (([[1]], [0], 0, ["0"], []), TypeError),
    (([[256]], [0], 0, [0], []), ValueError),
    (([[-1]], [0], 0, [0], []), ValueError),
    (([[1]], [-1], 0, [0], []), ValueError),
    (([[1]], [0], -1, [0], []), ValueError),
    (([[1]], [0], 0, [0], [[0] * 65]), ValueError),
    (([[1]], [0], 0, [1], []), IndexError),
    (([[1]], [], 0, [0], []), IndexError),
    (([[1]], [0], 0, [-1], []), IndexError),
    (([[1]], [0], 2**32, [0], []), OverflowError),
    (([[1]], [2**70], 0, [0], []), OverflowError),
]


@needs_compiled
@pytest.mark.parametrize(("args", "error"), BAD)
def test_bad_input_is_refused(args: tuple[object, ...], error: type[Exception]) -> None:
    assert COMPILED_KEY is not None
    with pytest.raises(error):
        COMPILED_KEY(*args)  # type: ignore[arg-type]


def test_the_key_is_the_same_in_a_game_and_its_copy() -> None:
    game = new_game("gypsy", seed=4)
    key = key_function(game.rules)
    assert key(game.position) == key(game.position.copy()) == key.of(game.position)
