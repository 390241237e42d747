"""Freecell's canonical boards (shared.variants.freecell.boards): the children of a board
are the canonical results of the engine's moves, in Python and compiled."""

from __future__ import annotations

import pytest

from shared.variants.freecell import FreecellRules
from shared.variants.freecell.boards import (
    COMPILED_CHILDREN,
    BoardMoves,
    Children,
    shows_wanted,
    state_of,
    wanted_of,
)
from tests.shared.positions import playout_positions

AUTOPLAY = FreecellRules({"autoplay": True})
MANUAL = FreecellRules({"autoplay": False})


CHILDREN = [
    pytest.param(BoardMoves(50_000).children, id="python"),
    pytest.param(
        COMPILED_CHILDREN,
        id="compiled",
        marks=pytest.mark.skipif(COMPILED_CHILDREN is None, reason="not built here"),
    ),
]


@pytest.mark.parametrize("children", CHILDREN)
def test_children_are_the_engine_moves_canonical_results(
    children: Children,
) -> None:
    """One child per canonical key that one engine move reaches (moves that keep the key
    left out), and None exactly when some move uncovers a card its foundation wants."""
    checked = {"children": 0, "uncovers": 0, "room": 0, "no room": 0}
    for seed in (1, 2):
        for rules in (AUTOPLAY, MANUAL):
            for position in playout_positions(rules, range(1, 11), seed):
                state = state_of(position)
                wanted = wanted_of(position)
                if shows_wanted(state, wanted):
                    continue
                expected = set()
                uncovers = False
                for move in MANUAL.legal(position):
                    child = position.copy()
                    MANUAL.apply(child, move)
                    child_state = state_of(child)
                    uncovers |= shows_wanted(child_state, wanted)
                    if child_state != state:
                        expected.add(child_state)
                found = children(state, wanted)
                if uncovers:
                    assert found is None, MANUAL.position_text(position)
                    checked["uncovers"] += 1
                else:
                    assert found is not None, MANUAL.position_text(position)
                    assert len(found) == len(set(found)), MANUAL.position_text(position)
                    assert set(found) == expected, MANUAL.position_text(position)
                    checked["children"] += 1
                    # free cells or empty columns: builds of several cards may move;
                    # none: only single cards onto column tops
                    checked["room" if len(state[8]) < 4 or not state[0] else "no room"] += 1
    assert min(checked.values()) >= 30, checked
