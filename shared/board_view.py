"""What the engine shows of a game to its player: one typed, immutable value per look.

:meth:`shared.game.Game.board` builds a :class:`BoardView`; the server adds
what only it knows (the game's id, its deal as shown, hints and time:
:class:`shared.protocol.GameView`) and the protocol encodes the whole once,
into the map the wire carries (docs/protocol.md, "GameView"). Face-down cards
are counts: a :class:`PileView` has no field for a face-down card.

Both are named tuples rather than frozen dataclasses because the server makes
them on every reply: a frozen dataclass sets each field through
``object.__setattr__``, about ten times the cost of building a tuple (6,000
instructions for a pile's three fields, 500 for the tuple), and that showed
in the CPU per move (docs/operating.md, "Typed actions and views"). They are
as immutable, and typed field by field; ``PileView.count`` (the cards in the
pile) hides the tuple's ``count`` method, which nothing asks of a pile.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple


class PileView(NamedTuple):
    """One pile: how many cards lie face down, and the face-up cards bottom to top (made
    again only when the pile changes: two or so per move)."""

    id: str
    down: int
    up: tuple[str, ...]

    @property
    def count(self) -> int:  # type: ignore[override]  # (a pile is not searched as a tuple)
        """Cards in the pile, face down and face up."""
        return self.down + len(self.up)


class BoardView(NamedTuple):
    """A game as its player sees it, as the engine knows it: everything of the protocol's
    GameView but the game's id, its deal, hints and elapsed time (the server's)."""

    variant: str
    #: read-only (the engine hands out a view of its options, not a copy)
    options: Mapping[str, bool | int]
    #: actions played so far: moves, deals, auto and undos (``moves`` is the same count)
    ply: int
    moves: int
    undos: int
    score: int
    max_score: int
    #: ``playing``, ``won``, ``stuck``, ``resigned``, or a state the server set (``timeout``)
    state: str
    #: None only when unlimited
    redeals_left: int | None
    #: the piles the game has, in layout order
    piles: tuple[PileView, ...]
    #: every legal action now, canonical notation
    legal: tuple[str, ...]

    def pile(self, pile_id: str) -> PileView | None:
        return next((p for p in self.piles if p.id == pile_id), None)

    @property
    def foundation_cards(self) -> int:
        return sum(len(p.up) for p in self.piles if p.id.startswith("f"))
