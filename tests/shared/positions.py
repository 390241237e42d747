"""Hand-built positions, the variant configurations, a Freecell witness step as the
engine's move, seeded random walks, and a plain reference search: what several test
modules share."""

import random
from collections.abc import Iterator
from typing import Any

import pytest

from shared.position import Position
from shared.variants.base import InternalMove, Rules
from shared.variants.freecell import FreecellRules
from shared.variants.freecell.witness import CELL, EMPTY

#: every variant with each value of its options (test_properties checks that none is missing)
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("osmosis", {"deal_three": False}),
    ("osmosis", {"deal_three": True}),
    ("thumb_and_pouch", {}),
    ("gypsy", {}),
    ("freecell", {"autoplay": True}),
    ("freecell", {"autoplay": False}),
    ("westhaven", {}),
]
#: CONFIGS as pytest parameters (variant, options), named after both
CONFIG_PARAMS = [pytest.param(v, o, id=f"{v}{o}") for v, o in CONFIGS]

# Freecell, reached in random play (seed 29): no line adds a foundation card (the plain
# reference search of test_stuck.py confirms it is dead).
FREECELL_DEAD = """
r0: JS
r2: 2H
r3: 5H
f0: AS
f1: AD
t0: 8D KC TS TH 2C TC
t1: 8S 9D 7D 2S 5S 9S 5C 4D
t2: 3S 3H KS 2D 9H 8C 7H
t3: JH 6H JC 3C 7C 9C 8H 7S
t4: KD QC
t5: 4H QD QH AH 6C 5D 4C 3D
t6: AC JD 6D 6S KH QS
t7: 4S TD
"""


# Osmosis: KH needs a king on f1 before it, KD lies under KH, the stock and waste are empty.
OSMOSIS_DEAD = """
f0: 7C 8C 9C TC JC QC KC AC 2C 3C 4C 5C 6C
f1: 7D 8D 9D TD JD QD AD 2D 3D 4D 5D 6D
f2: 7H 8H 9H TH JH QH AH 2H 3H 4H 5H 6H
f3: 7S 8S 9S TS JS QS KS AS 2S 3S 4S 5S 6S
r0: ?KD KH
"""


def random_walk(
    rules: Rules, position: Position, rng: random.Random, steps: int
) -> Iterator[tuple[Position, list[InternalMove]]]:
    """The positions of a seeded random walk from ``position`` with the legal moves of
    each, up to ``steps`` of them or a position with none."""
    for _ in range(steps):
        moves = rules.legal(position)
        if not moves:
            return
        yield position, moves
        position = position.copy()
        rules.apply(position, rng.choice(moves))
        rules.after_move(position)


def reference_progress(rules: Rules, start: Position, budget: int = 5_000) -> bool | None:
    """Plain exhaustive search on the engine, exact keys, no shortcuts: True when some
    line raises the foundation count, False when none can, None when out of budget."""
    target = rules.foundation_count(start)
    seen = {start.key()}
    stack = [start]
    while stack:
        current = stack.pop()
        for move in rules.legal(current):
            child = current.copy()
            rules.apply(child, move)
            rules.after_move(child)
            if rules.foundation_count(child) > target:
                return True
            key = child.key()
            if key not in seen:
                if len(seen) >= budget:
                    return None
                seen.add(key)
                stack.append(child)
    return False


def as_move(pos: Position, step: tuple[int, int]) -> InternalMove:
    """A Freecell witness step (see ``shared.variants.freecell.witness.Witness``) as the
    engine's move on ``pos``: the first free cell or empty column when it goes to one."""
    card, dest = step
    piles = pos.piles
    src = next(i for i in (*range(4), *range(8, 16)) if card in piles[i])
    count = len(piles[src]) - piles[src].index(card)
    if dest == CELL:
        dst = next(i for i in range(4) if not piles[i])
    elif dest == EMPTY:
        dst = next(i for i in range(8, 16) if not piles[i])
    else:
        dst = next(i for i in range(8, 16) if piles[i] and piles[i][-1] == dest)
    return (src, count, dst)


def playout_positions(rules: FreecellRules, deals: range, seed: int) -> list[Position]:
    """Positions of seeded random games with no foundation move at hand (where the
    engine asks for a proof or a search), stuck ones included."""
    rng = random.Random(seed)
    return [
        position
        for deal in deals
        for position, moves in random_walk(rules, rules.deal(deal), rng, 200)
        if not rules.can_progress_now(position, moves)
    ]
