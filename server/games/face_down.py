"""A move from a pile with no face-up card is refused before the engine can name a hidden card.

The engine's refusal of such a move may name the pile's top card, which is
face down: this guard answers first, with a reason that names only the pile
(protocol.md: nothing the server sends reveals a face-down card).
"""

from __future__ import annotations

from shared import protocol as p
from shared.errors import ProtocolError
from shared.game import Game
from shared.notation import Action, Move


def hide_face_down(game: Game, action: Action) -> None:
    """Refuse moves from a pile without a face-up card before the engine names its top card."""
    if not isinstance(action, Move):
        return
    move = action
    index = game.rules.index.get(move.src)
    if index is None:
        return
    pos = game.position
    if len(pos.piles[index]) <= pos.down[index]:
        what = "is empty" if not pos.piles[index] else "has no face-up card"
        raise ProtocolError(p.ILLEGAL_MOVE, f"{str(move)!r} is not legal now: {move.src} {what}")
