"""From "picked a pile, then another" to a move, using only the server's ``legal`` list.

The client decides nothing: it reads which moves the view lists as legal to
highlight destinations and to choose the group size when the player did not
give one. A move the list does not hold is still sent as the player asked, so
that the server says why it is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shared.errors import InvalidNotation
from shared.notation import Move


@dataclass
class Selection:
    """The source pile picked, and a group size when the player chose one."""

    src: str | None = None
    count: int | None = None

    def clear(self) -> None:
        self.src = None
        self.count = None


def parsed(legal: Sequence[str]) -> list[Move]:
    moves = []
    for text in legal:
        try:
            moves.append(Move.parse(text))
        except InvalidNotation:
            continue  # "deal" and anything not a pile-to-pile move
    return moves


def counts_from(legal: Sequence[str], src: str) -> list[int]:
    """Group sizes the legal list allows from ``src``, smallest first."""
    return sorted({m.count for m in parsed(legal) if m.src == src})


def destinations(legal: Sequence[str], src: str, count: int | None = None) -> set[str]:
    """Piles a legal move from ``src`` (of ``count`` cards, if given) goes to."""
    return {m.dst for m in parsed(legal) if m.src == src and (count is None or m.count == count)}


def choose_move(legal: Sequence[str], src: str, dst: str, count: int | None = None) -> Move:
    """The move to send for source ``src`` and destination ``dst``.

    Without a chosen count, the largest legal group wins: dragging a run onto
    a pile means moving all of it that may go.
    """
    if count is None:
        sizes = [m.count for m in parsed(legal) if m.src == src and m.dst == dst]
        count = max(sizes) if sizes else 1
    return Move(src, count, dst)


def step_count(
    legal: Sequence[str], src: str, current: int | None, step: int, up_cards: int
) -> int:
    """The next group size when the player presses + or -: legal sizes first, then any."""
    sizes = counts_from(legal, src) or list(range(1, max(up_cards, 1) + 1))
    if current is None:
        return sizes[-1] if step < 0 else sizes[0]
    if step > 0:
        larger = [s for s in sizes if s > current]
        return larger[0] if larger else current
    smaller = [s for s in sizes if s < current]
    return smaller[-1] if smaller else current
