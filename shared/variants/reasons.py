"""The reasons a refusal gives, in words for a player, shared by every variant's ``why_illegal``.

A refusal is shown to the player as it is, so it may say only what the
player can see: the source's face-down cards are counted, never named, and
a card is named only once it is known to be face up (every check here that
names a card comes after :meth:`Reasons.basic_reason`, which refuses a
move that would carry a face-down card).
"""

from __future__ import annotations

from itertools import pairwise

from shared.build import mypyc_attr
from shared.cards import NAME, is_build_step
from shared.position import Position
from shared.variants.piles import InternalMove, PileNotation


@mypyc_attr(allow_interpreted_subclasses=True)
class Reasons(PileNotation):
    """The reasons half of :class:`shared.variants.base.Rules` (one line of bases, not
    mixins, so that the compiled build can make them native classes)."""

    def foundation_accepts(self, pos: Position, card: int, f: int) -> bool:
        raise NotImplementedError  # Rules says it

    def basic_reason(self, pos: Position, move: InternalMove) -> str | None:
        """Reasons common to every variant: same pile, empty source, face-down cards."""
        src, count, dst = move
        ids = self.pile_ids
        if src == dst:
            return f"{ids[src]} cannot move onto itself"
        pile = pos.piles[src]
        if not pile:
            return f"{ids[src]} is empty"
        up = len(pile) - pos.down[src]
        if count > up:
            if count > len(pile):
                return f"{ids[src]} has only {len(pile)} cards"
            return f"{ids[src]} has only {up} face-up cards"
        return None

    @staticmethod
    def build_reason(cards: list[int]) -> str | None:
        """Why ``cards`` (bottom to top) are not an alternate-colour, one-rank-down build."""
        for lower, upper in pairwise(cards):
            if not is_build_step(lower, upper):
                return (
                    f"{NAME[upper]} on {NAME[lower]} is not a build: "
                    "colours must alternate and ranks go down by one"
                )
        return None

    def to_foundation_reason(self, pos: Position, cards: list[int], f: int) -> str | None:
        """Why ``cards`` may not go onto foundation ``f`` under the common rule, or None."""
        if len(cards) > 1:
            return "one card at a time goes to a foundation"
        return self.foundation_reason(pos, cards[0], f)

    def foundation_reason(self, pos: Position, card: int, f: int) -> str | None:
        """Why the common foundation rule refuses ``card`` on foundation ``f``, or None."""
        if self.foundation_accepts(pos, card, f):
            return None
        pile = pos.piles[f]
        fid = self.pile_ids[f]
        if not pile:
            return f"{NAME[card]} cannot start {fid}: an empty foundation takes only an ace"
        return (
            f"{NAME[card]} cannot go on {NAME[pile[-1]]} in {fid}: "
            "needs the same suit, one rank higher"
        )
