"""Cards as small integers, for speed, with the notation's two-character names.

A card is ``suit * 16 + rank`` with suits C=0, D=1, H=2, S=3 and ranks A=1 .. K=13,
so ``rank = card & 15`` and ``suit = card >> 4``. The tables below let hot loops
look properties up instead of computing them. Gypsy's two copies of a card are
the same integer, as they are written alike.
"""

from __future__ import annotations

from typing import Final

from shared.errors import InvalidNotation

SUITS: Final = "CDHS"
RANKS: Final = "A23456789TJQK"

ACE: Final = 1
KING: Final = 13

#: rank of each card code (0 for codes that are not cards)
RANK: Final[tuple[int, ...]] = tuple(c & 15 for c in range(64))
#: suit of each card code
SUIT: Final[tuple[int, ...]] = tuple(c >> 4 for c in range(64))
#: True for diamonds and hearts
RED: Final[tuple[bool, ...]] = tuple((c >> 4) in (1, 2) for c in range(64))

_NAMES: dict[int, str] = {
    s * 16 + r: RANKS[r - 1] + SUITS[s] for s in range(4) for r in range(1, 14)
}
_CODES: dict[str, int] = {name: code for code, name in _NAMES.items()}

#: name of each card code, "" for codes that are not cards
NAME: Final[tuple[str, ...]] = tuple(_NAMES.get(c, "") for c in range(64))


#: ALTERNATE_BUILDS[card]: the two cards that may lie on ``card`` in an alternate-colour,
#: one-rank-down build (none on an ace)
ALTERNATE_BUILDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(s * 16 + (c & 15) - 1 for s in ((0, 3) if (c >> 4) in (1, 2) else (1, 2)))
    if 2 <= (c & 15) <= 13
    else ()
    for c in range(64)
)
#: OTHER_SUIT_BUILDS[card]: the three cards one rank lower in another suit than ``card``'s
OTHER_SUIT_BUILDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(s * 16 + (c & 15) - 1 for s in range(4) if s != c >> 4) if 2 <= (c & 15) <= 13 else ()
    for c in range(64)
)
#: no card lies on any card (a variant without a tableau)
NO_BUILDS: Final[tuple[tuple[int, ...], ...]] = ((),) * 64


def make_card(rank: int, suit: int) -> int:
    """The code of the card of ``rank`` (1..13) and ``suit`` (0..3)."""
    if not (1 <= rank <= 13 and 0 <= suit <= 3):
        raise InvalidNotation(f"no card has rank {rank!r} and suit {suit!r}")
    return suit * 16 + rank


def parse_card(text: object) -> int:
    """``"TH"`` -> the code of the ten of hearts."""
    code = _CODES.get(text) if isinstance(text, str) else None
    if code is None:
        raise InvalidNotation(
            f"{text!r} is not a card: expected a rank of {RANKS!r} then a suit of {SUITS!r}"
        )
    return code


def card_name(code: int) -> str:
    """The code of a card -> its two-character name."""
    return NAME[code]


def deck() -> list[int]:
    """One deck unshuffled, as docs/rules.md orders it: clubs A..K, diamonds, hearts, spades."""
    return [s * 16 + r for s in range(4) for r in range(1, 14)]


def is_build_step(lower: int, upper: int) -> bool:
    """``upper`` may lie on ``lower`` in an alternate-colour, one-rank-down build."""
    return RANK[upper] + 1 == RANK[lower] and RED[upper] != RED[lower]
