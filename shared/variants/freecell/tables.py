"""Freecell's tables, made once at import: who builds on whom, the moves, the foundations.

Freecell's move generator (:mod:`.rules`), its stuck search (:mod:`.search`)
and the solver's compact boards (shared.solver.freecell_fast) look their
answers up here instead of computing them: the tables are the rules, written
once. Pile indices: r0..r3 are 0..3, f0..f3 4..7, t0..t7 8..15.
"""

from __future__ import annotations

from typing import Final

from shared.cards import NAME, RANK, RED, is_build_step
from shared.variants.base import InternalMove
from shared.variants.piles import MOVES as ALL_MOVES

FREE_CELLS = ("r0", "r1", "r2", "r3")
CELL_INDICES: Final = (0, 1, 2, 3)
FOUNDATION_INDICES: Final = (4, 5, 6, 7)
COLUMN_INDICES: Final = (8, 9, 10, 11, 12, 13, 14, 15)
ACES: Final = (1, 17, 33, 49)

#: BUILD[lower * 64 + upper]: ``upper`` may lie on ``lower`` (other colour, one rank lower)
BUILD: Final[bytes] = bytes(
    1 if RANK[lo] and RANK[up] and RANK[up] + 1 == RANK[lo] and RED[up] != RED[lo] else 0
    for lo in range(64)
    for up in range(64)
)
#: ACCEPTS[card]: the cards that may be built on ``card``
ACCEPTS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(up for up in range(64) if BUILD[lo * 64 + up]) for lo in range(64)
)
#: ONTO_FIRST[card], ONTO_SECOND[card]: the two cards ``card`` may be built on (-1: none)
ONTO_FIRST: Final[tuple[int, ...]] = tuple(
    next((lo for lo in range(64) if BUILD[lo * 64 + up]), -1) for up in range(64)
)
ONTO_SECOND: Final[tuple[int, ...]] = tuple(
    next((lo for lo in range(63, -1, -1) if BUILD[lo * 64 + up]), -1) for up in range(64)
)
#: BITS[mask]: how many bits ``mask`` (0..15) has set
BITS: Final = tuple(bin(mask).count("1") for mask in range(16))
#: piles that moves come from, in the order legal() lists them
SOURCE_INDICES: Final = CELL_INDICES + COLUMN_INDICES
#: MOVES[src][count][dst]: the move (src, count, dst), made once. legal() hands out these
#: very tuples rather than new ones on every call: no allocation (nor garbage for the
#: collector) per listed move, and the engine's lookups of a listed move (its name, its
#: inverse) find the identical object at once. No move carries more than 13 cards. (The
#: tuples of shared.variants.piles.MOVES, which the table of names is keyed by.)
MOVES: Final[tuple[tuple[tuple[InternalMove, ...], ...], ...]] = tuple(
    tuple(ALL_MOVES[src][count][:16] for count in range(14)) for src in range(16)
)
#: ONE_CARD[src][dst]: MOVES[src][1][dst], the single-card moves of ``src``
ONE_CARD: Final[tuple[tuple[InternalMove, ...], ...]] = tuple(MOVES[src][1] for src in range(16))
#: TO_EMPTY_CELLS[mask][src]: the moves of ``src``'s top card to the free cells that
#: ``mask`` marks empty (bit k: r``k``), in pile order; () when none is empty
TO_EMPTY_CELLS: Final[tuple[tuple[tuple[InternalMove, ...], ...], ...]] = tuple(
    tuple(tuple(ONE_CARD[src][c] for c in CELL_INDICES if mask >> c & 1) for src in range(16))
    if mask
    else ()
    for mask in range(16)
)
#: KIND[card]: a card's rank and colour as one number, rank * 2 + (1 if red); NEEDS[card]:
#: the kind of the two cards it may be built on. legal() indexes the columns by the kind
#: of their top cards, so one lookup finds where a card goes. Kind 0 is no card's: the
#: codes that are not cards have it (and need it), and the kings need 28 or 29, no kind.
KIND: Final[tuple[int, ...]] = tuple(RANK[c] * 2 + RED[c] if NAME[c] else 0 for c in range(64))
NEEDS: Final[tuple[int, ...]] = tuple(
    (RANK[c] + 1) * 2 + (not RED[c]) if NAME[c] else 0 for c in range(64)
)
#: the kinds there are (0 .. 29), the size of legal()'s per-kind tables
KINDS: Final = 30
#: RUN_NEEDS[card][n]: bit k set when one of the top ``n`` cards of a build topped by
#: ``card`` may go onto a top of kind k. A build's cards are fixed in rank and colour by
#: its top card, so this needs no more than the top card: legal() passes over a build
#: that no column top takes any of with one test.
RUN_NEEDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        # the n-th card from the top: rank RANK[card] + n - 1, the top card's colour when
        # n is odd; it needs a card one rank higher of the other colour
        sum(
            1 << ((RANK[card] + n) * 2 + ((not RED[card]) if n % 2 else RED[card]))
            for n in range(1, count + 1)
        )
        if NAME[card] and RANK[card] + count <= 14
        else 0
        for count in range(14)
    )
    for card in range(64)
)

FOUNDATIONS = ("f0", "f1", "f2", "f3")
TABLEAU = tuple(f"t{i}" for i in range(8))

#: HOMES_FOR_ACES[mask]: card code -> the foundations that take it, when the foundations
#: that ``mask`` marks (bit k: f``k``) are empty and no other takes a card: the aces go to
#: those. legal() starts from this and adds the one card each started foundation takes.
HOMES_FOR_ACES: Final[tuple[tuple[tuple[int, ...] | None, ...], ...]] = tuple(
    tuple(
        tuple(f for k, f in enumerate(FOUNDATION_INDICES) if mask >> k & 1)
        if card in ACES and mask
        else None
        for card in range(64)
    )
    for mask in range(16)
)
#: HOME_AT[f]: the foundations a card may go to when it is foundation ``f``'s next card
HOME_AT: Final[tuple[tuple[int, ...], ...]] = tuple((f,) for f in range(8))


def move_limit(empty_cells: int, empty_piles: int) -> int:
    """Cards one move may carry: (empty cells + 1) * 2 ** empty piles.

    ``empty_piles`` must already leave out the destination, and the source
    when the move empties it.
    """
    return (empty_cells + 1) << empty_piles


def build_length(pile: list[int]) -> int:
    """Cards at the top of ``pile`` that form one alternate-colour, one-down build."""
    length = 1
    size = len(pile)
    while length < size and is_build_step(pile[-length - 1], pile[-length]):
        length += 1
    return length


def is_safe(card: int, highest: list[int]) -> bool:
    """Aisleriot's safe-autoplay test, with ``highest`` the top rank on the foundations per suit."""
    rank = RANK[card]
    black = min(highest[0], highest[3])
    red = min(highest[1], highest[2])
    if RED[card]:
        return rank <= min(2 + black, 3 + red)
    return rank <= min(2 + red, 3 + black)
