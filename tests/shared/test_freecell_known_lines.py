"""Freecell's progress search remembers the boards of the lines it found.

A board on a line that reaches a card its foundation wants still reaches it,
so a later search that meets such a board may stop there; the line it then
returns must still be a legal line from its own start, and the verdicts must
be those of a search that remembers nothing.
"""

from __future__ import annotations

import random

from shared.position import Position
from shared.solver import freecell_progress
from shared.solver.freecell_progress import Witness
from shared.variants.freecell import FreecellRules
from tests.shared.positions import as_move

RULES = FreecellRules({"autoplay": False})


def plays_to_progress(pos: Position, witness: Witness) -> bool:
    """Every step is a listed move, and at the end a card can go home."""
    pos = pos.copy()
    for step in witness:
        move = as_move(pos, step)
        if move not in RULES.legal(pos):
            return False
        RULES.apply(pos, move)
    return RULES.can_progress_now(pos, RULES.legal(pos))


def test_a_search_that_meets_a_remembered_line_returns_a_legal_line() -> None:
    rng = random.Random(11)
    met = 0
    for deal in range(1, 25):
        position = RULES.deal(deal)
        for _ in range(120):
            moves = RULES.legal(position)
            if not moves:
                break
            if not RULES.can_progress_now(position, moves):
                found, witness = freecell_progress.search(position, 2000)
                if found and len(witness) >= 2:
                    # one step along the line: the next board is remembered
                    after = position.copy()
                    RULES.apply(after, as_move(after, witness[0]))
                    again, rest = freecell_progress.search(after, 2000)
                    assert again is True and rest == witness[1:]
                    assert plays_to_progress(after, rest)
                    met += 1
                    # and a search that remembers nothing agrees on the verdict
                    freecell_progress._PROGRESS.clear()
                    assert freecell_progress.search(after, 2000)[0] is True
            position = position.copy()
            RULES.apply(position, rng.choice(moves))
    assert met >= 10
