"""Freecell's canonical boards (shared.variants.freecell.boards): the children of a board
are the canonical results of the engine's moves, in Python and compiled."""

from __future__ import annotations

import pytest

from shared.cards import parse_card
from shared.variants.freecell import FreecellRules
from shared.variants.freecell.boards import (
    COMPILED_CHILDREN,
    SEP_BYTES,
    BoardMoves,
    Children,
    parts_of,
    score,
    shows_wanted,
    state_of,
    wanted_cards_of,
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
                    parts = parts_of(state)
                    checked["room" if len(parts[8]) < 4 or not parts[0] else "no room"] += 1
    assert min(checked.values()) >= 30, checked


COLUMNS_IN_ORDER = ("3D", "4D", "5D", "6D", "7D", "9H 8S", "TS")


def test_a_board_is_its_columns_in_order_then_its_free_cells() -> None:
    text = "r0: KD\nr2: 2C\nt0: 9H 8S\nt1: TS\nt3: 3D\nt4: 4D\nt5: 5D\nt6: 6D\nt7: 7D"
    state = state_of(MANUAL.position_from_text(text))
    # empty columns first, then by bottom card (by card code), each bottom to top
    columns = [b""] + [bytes(map(parse_card, col.split())) for col in COLUMNS_IN_ORDER]
    cells = bytes(sorted(map(parse_card, ("KD", "2C"))))
    assert state == SEP_BYTES.join([*columns, cells])
    assert parts_of(state) == [*columns, cells]


def test_the_score_is_the_shallowest_wanted_card_and_the_room() -> None:
    """boards.score against its definition, on the columns of each board."""
    seen = set()
    for rules in (AUTOPLAY, MANUAL):
        for position in playout_positions(rules, range(1, 11), seed=3):
            state = state_of(position)
            wanted = wanted_of(position)
            if shows_wanted(state, wanted):
                continue
            *columns, cells = parts_of(state)
            depths = [
                len(col) - 1 - at for col in columns for at, card in enumerate(col) if wanted[card]
            ]
            empty = columns.count(b"")
            expected = min(depths, default=99) + len(cells) - 2 * empty
            assert score(state, bytes(wanted_cards_of(position))) == expected
            seen.add((bool(empty), len(cells), min(depths, default=99) == 99))
    assert len(seen) >= 6, seen
