"""What a hint reads of the player's view: positions that look like it, each with an
arrangement of its own of the unseen cards (:class:`Arrangements`), the moves worth
comparing there (:func:`distinct_moves`), and those that would lead back where the player
has been (:func:`allowed_moves`, compared by :func:`seen_key`). The players' hint
(shared/solver/hints.py) reads the view through these and nothing else."""

from __future__ import annotations

from collections.abc import Callable, Collection
from hashlib import sha256

from shared.player_view import UNSEEN, PlayerView, blind
from shared.position import Position
from shared.rng import Sha256Stream
from shared.solver.api import position_after
from shared.variants.base import InternalMove, Rules
from shared.variants.keys import Key, key_function

#: what every hint's sampling stream starts from, before the sampling seed and the view
STREAM_PREFIX = b"patience-club/hint/v1|"


def distinct_moves(rules: Rules, board: Position, moves: list[InternalMove]) -> list[InternalMove]:
    """``moves`` less those that lead where an earlier one leads, or back to ``board``
    itself (by canonical key: a foundation card moved to another empty foundation), unless
    every move does. Keys are read on one arrangement: a move that turns no card leads
    to the same key on all of them."""
    key = key_function(rules)
    here = key(board)
    seen = {here}
    kept = []
    for move in moves:
        after = key(position_after(rules, board, move))
        if after not in seen:
            seen.add(after)
            kept.append(move)
    return kept or moves[:1]


def allowed_moves(
    rules: Rules,
    view: PlayerView,
    board: Position,
    legal: list[InternalMove],
    avoid: Collection[PlayerView],
) -> list[InternalMove]:
    """``legal`` less the moves that visibly lead back to a view of ``avoid`` (compared by
    the canonical key of what the player sees: :func:`seen_key`), possibly none. A move
    that turns a card leads to a view no one can foresee, so it is kept; any arrangement
    shows where a move that turns none leads."""
    if not avoid:
        return legal
    key = key_function(rules)
    avoided = {_view_key(key, seen) for seen in avoid if seen.unseen == view.unseen}
    if not avoided:
        return legal
    kept = []
    for move in legal:
        after = position_after(rules, board, move)
        seen = PlayerView.seen(rules, after)
        if seen.unseen != view.unseen or key(blind(rules, after)) not in avoided:
            kept.append(move)
    return kept


def seen_key(rules: Rules, view: PlayerView) -> Key:
    """The canonical key (shared.variants.keys) of what ``view`` shows, each unseen card
    an :data:`~shared.player_view.UNSEEN`: two views with the same key look the same to
    their player up to piles no rule tells apart (with the same unseen cards)."""
    return _view_key(key_function(rules), view)


def _view_key(key: Callable[[Position], Key], view: PlayerView) -> Key:
    piles = [
        list(pile.remembered) if pile.remembered else [UNSEEN] * pile.down + list(pile.up)
        for pile in view.piles
    ]
    return key(Position(piles, [pile.down for pile in view.piles], view.redeals_used))


class Arrangements:
    """Positions that look like ``view``, each with an arrangement of its unseen cards in
    the face-down places: a Fisher-Yates shuffle on the SHA-256 stream of
    (``sampling_seed``, the view's digest), one after another."""

    __slots__ = ("_stream", "view")

    def __init__(self, view: PlayerView, sampling_seed: int) -> None:
        self.view = view
        seed = STREAM_PREFIX + str(sampling_seed).encode("ascii") + b"|" + view.digest()
        self._stream = Sha256Stream(sha256(seed).digest())

    def next(self) -> Position:
        cards = list(self.view.unseen)
        below = self._stream.below
        for i in range(len(cards) - 1, 0, -1):
            j = below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return self.view.fill(cards)


__all__ = ["STREAM_PREFIX", "Arrangements", "allowed_moves", "distinct_moves", "seen_key"]
