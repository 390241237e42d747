"""What the engine shows of a game to its player: one typed, frozen value per look.

:meth:`shared.game.Game.board` builds a :class:`BoardView`; the server adds
what only it knows (the game's id, its deal as shown, hints and time:
:class:`shared.protocol.GameView`) and the protocol encodes the whole once,
into the map the wire carries (docs/protocol.md, "GameView"). Face-down cards
are counts: a :class:`PileView` has no field for a face-down card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PileView:
    """One pile: how many cards lie face down, and the face-up cards bottom to top."""

    id: str
    down: int
    up: tuple[str, ...]

    @property
    def count(self) -> int:
        return self.down + len(self.up)


@dataclass(frozen=True, slots=True)
class BoardView:
    """A game as its player sees it, as the engine knows it: everything of the protocol's
    GameView but the game's id, its deal, hints and elapsed time (the server's)."""

    variant: str
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
