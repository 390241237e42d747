"""The compiled children() and score() (shared/variants/freecell/_children.c) against the
Python ones.

The stuck search must run exactly the same way whichever copy lists its
children: the same children (byte for byte) in the same order, and None for the
same boards; and whichever copy scores them, the same scores.
So they are compared item for item on the boards real searches expand, on
random boards with much room and long builds (where the move limit and the
empty columns matter), and through whole searches and games. Bad input must
be refused with an exception, never read past.

Where the compiled copy was not built (no C compiler), these tests skip: the
Python copy is then the only one, and the rest of the suite tests it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.games import new_game
from shared.position import Position
from shared.stuck import StuckProver
from shared.variants.freecell import BUILD, FreecellProgress, FreecellRules
from shared.variants.freecell.boards import (
    COMPILED_CHILDREN,
    COMPILED_SCORE,
    SEP_BYTES,
    BoardMoves,
    State,
    parts_of,
    score,
    state_of,
    wanted_cards_of,
    wanted_of,
)
from tests.shared.positions import playout_positions

compiled = COMPILED_CHILDREN
compiled_score = COMPILED_SCORE
#: the Python copy, the reference
python_children = BoardMoves(50_000).children
pytestmark = pytest.mark.skipif(compiled is None, reason="the compiled copy was not built here")

AUTOPLAY = FreecellRules({"autoplay": True})
MANUAL = FreecellRules({"autoplay": False})


def kind(state: State) -> str:
    """Whether a board has room (a free cell or an empty column) for more than
    single cards onto column tops."""
    parts = parts_of(state)
    return "no room" if len(parts[8]) == 4 and parts[0] else "room"


def searched_boards(per_start: int) -> Iterator[tuple[State, bytes, bytes]]:
    """Boards a search expands, with their wanted table and cards: breadth-first from
    positions of seeded random games."""
    for rules in (AUTOPLAY, MANUAL):
        for position in playout_positions(rules, range(1, 16), seed=7):
            wanted = wanted_of(position)
            cards = bytes(sorted(wanted_cards_of(position)))
            start = state_of(position)
            queue = [start]
            seen = {start}
            for state in queue:
                yield state, wanted, cards
                for child in python_children(state, wanted) or ():
                    if child not in seen and len(seen) < per_start:
                        seen.add(child)
                        queue.append(child)


def test_same_children_in_the_same_order_on_searched_boards() -> None:
    assert compiled is not None
    checked: Counter[str] = Counter()
    for state, wanted, _cards in searched_boards(per_start=40):
        expected = python_children(state, wanted)
        assert compiled(state, wanted) == expected, state
        checked["none" if expected is None else kind(state)] += 1
    assert checked["room"] >= 1000 and checked["no room"] >= 1000 and checked["none"] >= 30


def test_same_scores_on_searched_boards() -> None:
    assert compiled_score is not None
    scores = set()
    for state, _wanted, cards in searched_boards(per_start=40):
        expected = score(state, cards)
        assert compiled_score(state, cards) == expected, state
        scores.add(expected)
    assert len(scores) >= 5


@st.composite
def boards(draw: st.DrawFn) -> tuple[State, bytes, bytes]:
    """A canonical board with any foundations, free cells and empty columns, and
    columns that often end in long builds (so that builds of several cards move)."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    home = [rng.choice((0, 0, rng.randint(0, 13))) for _ in range(4)]
    left = [suit * 16 + rank for suit in range(4) for rank in range(home[suit] + 1, 14)]
    rng.shuffle(left)
    cells = [left.pop() for _ in range(min(len(left), rng.choice((0, 1, 2, 3, 4, 4))))]
    columns: list[list[int]] = [[] for _ in range(8)]
    empty = set(rng.sample(range(8), rng.choice((0, 0, 1, 2, 3, 5))))
    while left:
        col = columns[rng.choice([c for c in range(8) if c not in empty] or [0])]
        card = left.pop()
        col.append(card)
        if rng.random() < 0.6:  # go on with a build where a card fits
            for other in list(left):
                if BUILD[col[-1] * 64 + other]:
                    left.remove(other)
                    col.append(other)
    foundations = [[suit * 16 + rank for rank in range(1, home[suit] + 1)] for suit in range(4)]
    piles = [[c] for c in cells] + [[] for _ in range(4 - len(cells))] + foundations + columns
    position = Position(piles, [0] * 16)
    return state_of(position), wanted_of(position), bytes(sorted(wanted_cards_of(position)))


@settings(max_examples=400, deadline=None)
@given(boards())
def test_same_children_in_the_same_order_on_random_boards(
    board: tuple[State, bytes, bytes],
) -> None:
    assert compiled is not None and compiled_score is not None
    state, wanted, cards = board
    assert compiled(state, wanted) == python_children(state, wanted)
    assert compiled_score(state, cards) == score(state, cards)


def test_a_search_and_a_game_run_the_same_way_with_either() -> None:
    def runs(native: bool) -> list[object]:
        # (a prover of their own: nothing earlier searches remembered answers instead)
        prover = StuckProver(native=native)
        search = prover.search_for(AUTOPLAY)
        assert isinstance(search, FreecellProgress) and search.compiled == native
        out: list[object] = []
        for deal in (1, 617, 11982, 30000):
            for options in ({"autoplay": True}, {"autoplay": False}):
                game = new_game("freecell", seed=deal, options=options, prover=prover)
                rng = random.Random(deal)
                while legal := game.legal_moves():
                    game.play(rng.choice(legal))
                out.append((game.record(), game.state))
                game.undo()
                out.append(search.search_piles(game.position.piles, 5000))
        return out

    assert runs(native=True) == runs(native=False)


SEP8 = SEP_BYTES * 8


@pytest.mark.parametrize(
    ("state", "wanted", "error"),
    [
        ("not bytes", bytes(64), TypeError),
        ((b"",) * 9, bytes(64), TypeError),  # (the nine parts as a tuple: not a board)
        (bytearray(SEP8), bytes(64), TypeError),
        (SEP8, bytes(10), TypeError),
        (SEP8, "wanted", TypeError),
        (SEP_BYTES * 7, bytes(64), ValueError),  # seven columns
        (SEP_BYTES * 9, bytes(64), ValueError),  # nine
        (SEP_BYTES * 7 + bytes([63]) + SEP_BYTES, bytes(64), ValueError),
        (SEP_BYTES * 7 + bytes([254]) + SEP_BYTES, bytes(64), ValueError),
        (SEP8 + bytes([1, 2, 3, 4, 5]), bytes(64), ValueError),
        (SEP_BYTES * 7 + bytes([1] * 65) + SEP_BYTES, bytes(64), ValueError),
        (bytes([1]) + SEP_BYTES * 2 + (bytes([2]) + SEP_BYTES) * 6, bytes(64), ValueError),
    ],
)
def test_bad_boards_are_refused(state: object, wanted: object, error: type[Exception]) -> None:
    assert compiled is not None
    with pytest.raises(error):
        compiled(state, wanted)  # type: ignore[arg-type]


@pytest.mark.parametrize("args", [("board", b""), (SEP8, None), (SEP8,)])
def test_score_takes_two_bytes_objects(args: tuple[object, ...]) -> None:
    assert compiled_score is not None
    with pytest.raises(TypeError):
        compiled_score(*args)  # type: ignore[arg-type]


def test_only_freecells_build_table_is_taken() -> None:
    from shared.variants.freecell import _children as _freecell_children

    try:
        with pytest.raises(TypeError):
            _freecell_children.setup(BUILD[:100])
        with pytest.raises(ValueError):
            _freecell_children.setup(bytes([1]) * 4096)
        with pytest.raises(RuntimeError):  # refused tables leave it unset, not half set
            _freecell_children.children(SEP8, bytes(64))
    finally:
        _freecell_children.setup(BUILD)
    # the ace in the free cell goes to an empty column (once: which one is the same board)
    assert _freecell_children.children(SEP8 + bytes([1]), bytes(64)) == (
        SEP_BYTES * 7 + bytes([1]) + SEP_BYTES,
    )
