"""Freecell's stuck search (shared.variants.freecell.search): its verdicts and what it remembers.

The search must give exactly the verdict of a plain exhaustive search with the
same canonical keys and the same budget (the engine's states and every seeded
playout depend on it); what it remembers of earlier searches (the moves out
of boards, the boards of the lines it found) changes its work, never a
verdict, and a line it returns must play move by move under the engine's
rules and end with a card that can go home.
"""

from __future__ import annotations

import random

import pytest

from shared.game import Game
from shared.position import Position
from shared.variants.freecell import FreecellProgress, FreecellRules
from shared.variants.freecell.witness import Witness
from tests.shared.positions import FREECELL_DEAD, as_move, playout_positions, random_walk
from tests.shared.variants.freecell.reference import plain_progress, reachable_count

AUTOPLAY = FreecellRules({"autoplay": True})
MANUAL = FreecellRules({"autoplay": False})


@pytest.mark.parametrize("rules", [AUTOPLAY, MANUAL], ids=["autoplay", "manual"])
@pytest.mark.parametrize("budget", [2000, 60, 5])
def test_verdict_is_the_plain_search_verdict(rules: FreecellRules, budget: int) -> None:
    positions = playout_positions(rules, range(1, 9), seed=budget)
    verdicts = {True: 0, False: 0, None: 0}
    search = FreecellProgress()
    for position in positions:
        reference = plain_progress(rules, position, budget)
        found = search.progress_possible(position, budget)
        # Which of "progress" and "too many positions" is met first depends on the
        # order of the search; "stuck" does not, and must agree exactly.
        assert (found is False) == (reference is False), rules.position_text(position)
        verdicts[found] += 1
    assert verdicts[False] >= 5 and verdicts[True] >= 20
    if budget == 5:
        assert verdicts[None] >= 5


def test_the_budget_counts_positions_exactly() -> None:
    position = MANUAL.position_from_text(FREECELL_DEAD)
    size = reachable_count(MANUAL, position)
    assert size > 10
    search = FreecellProgress()
    assert search.progress_possible(position, size) is False
    assert search.progress_possible(position, size - 1) is None
    fresh = FreecellProgress()  # remembered edges change the work, not the answer
    assert fresh.progress_possible(position, size - 1) is None
    assert fresh.progress_possible(position, size) is False


RULES = MANUAL


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
    search = FreecellProgress()
    met = 0
    for deal in range(1, 25):
        for position, moves in random_walk(RULES, RULES.deal(deal), rng, 120):
            if not RULES.can_progress_now(position, moves):
                found, witness = search.search_piles(position.piles, 2000)
                if found and len(witness) >= 2:
                    # one step along the line: the next board is remembered
                    after = position.copy()
                    RULES.apply(after, as_move(after, witness[0]))
                    again, rest = search.search_piles(after.piles, 2000)
                    assert again is True and rest == witness[1:]
                    assert plays_to_progress(after, rest)
                    met += 1
                    # and a search that remembers nothing agrees on the verdict
                    assert FreecellProgress().search_piles(after.piles, 2000)[0] is True
    assert met >= 10


def test_the_game_state_does_not_depend_on_how_it_was_reached() -> None:
    """States along a game (hints, shortcuts and remembered edges in play) are those of
    fresh games started at each position, which use none of them."""
    for rules in (AUTOPLAY, MANUAL):
        rng = random.Random(8)
        stuck_seen = 0
        for deal in range(1, 11):
            game = Game(rules, deal)
            while True:
                fresh = Game(rules, deal, position=game.position.copy())
                # a fresh game at the deal position knows what the deal game knows
                assert fresh.state == game.state, rules.position_text(game.position)
                moves = game.legal_moves()
                if not moves:
                    stuck_seen += game.state == "stuck"
                    break
                game.play(rng.choice(moves))
        assert stuck_seen >= 3
