"""Hand-built positions, the variant configurations, a Freecell witness step as the
engine's move, and positions of seeded random Freecell games: what several test
modules share."""

import random
from typing import Any

from shared.position import Position
from shared.variants.base import InternalMove
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
    out = []
    for deal in deals:
        position = rules.deal(deal)
        for _ in range(200):
            moves = rules.legal(position)
            if not moves:
                break
            if not rules.can_progress_now(position, moves):
                out.append(position)
            position = position.copy()
            rules.apply(position, rng.choice(moves))
            rules.after_move(position)
    return out
