"""What a player sees of a game, and nothing more: the input of a fair hint.

A :class:`PlayerView` holds the face-up cards of every pile, how many cards
lie face down in each (the stock included), the redeals used, the state, the
variant and its options, and the multiset of the cards not yet seen. It has
no field for a card the player has not seen, nor for the order of the unseen
cards, so a function that takes only a view cannot learn them, whatever is
changed later around it. Two games that look the same to the player give
equal views (equal, hashable, and with equal :meth:`PlayerView.digest`).

One kind of face-down card is not unseen: a stock turned over from the waste
(a redeal). The stock can be turned over only once it is empty, so after the
first redeal every card in it has lain face up on the waste, and the order is
the waste's, as the player saw it: the view keeps that stock as
``remembered``, in its order. (Where redeals are not counted, Osmosis with
three cards a deal, a position does not tell whether the stock was turned,
and its stock stays unseen: the view never claims to know more than the
player.)

A hint fills the face-down places of unseen cards with an arrangement of its
own choosing (:meth:`PlayerView.fill`) and searches that position: a guess,
never the game's own cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from hashlib import sha256
from typing import TYPE_CHECKING

from shared.cards import deck
from shared.position import Position

if TYPE_CHECKING:
    from shared.game import Game
    from shared.variants.base import Rules

OptionValue = bool | int


@dataclass(frozen=True, slots=True)
class SeenPile:
    """One pile as the player sees it: its id, how many cards lie face down (a count,
    never which, unless the player has seen them all: ``remembered``, a stock turned over,
    bottom to top), and its face-up cards, bottom to top, as card codes."""

    id: str
    down: int
    up: tuple[int, ...]
    remembered: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A game as its player sees it (see the module docstring).

    ``unseen`` is the multiset of the cards the player has not seen, sorted by card
    code: it says which cards are somewhere face down, never where.
    """

    variant: str
    options: tuple[tuple[str, OptionValue], ...]
    state: str
    piles: tuple[SeenPile, ...]
    redeals_used: int
    unseen: tuple[int, ...]

    @classmethod
    def of(cls, game: Game) -> PlayerView:
        """What ``game``'s player sees now."""
        return cls.seen(game.rules, game.position, game.state)

    @classmethod
    def seen(cls, rules: Rules, pos: Position, state: str = "playing") -> PlayerView:
        """What a player sees of ``pos`` under ``rules`` in ``state``."""
        turned = pos.redeals_used > 0  # (see the module docstring)
        piles = []
        known: Counter[int] = Counter()
        stock = rules.stock if turned else -1
        layout = zip(rules.pile_ids, pos.piles, pos.down, strict=True)
        for i, (pid, pile, down) in enumerate(layout):
            remembered = tuple(pile) if i == stock else ()
            piles.append(SeenPile(pid, down, tuple(pile[down:]), remembered))
            known.update(pile[down:])
            known.update(remembered)
        unseen = Counter(deck() * rules.decks) - known
        return cls(
            variant=rules.id,
            options=tuple(sorted(rules.options.items())),
            state=state,
            piles=tuple(piles),
            redeals_used=pos.redeals_used,
            unseen=tuple(sorted(unseen.elements())),
        )

    @property
    def option_map(self) -> dict[str, OptionValue]:
        return dict(self.options)

    @property
    def face_down(self) -> int:
        """How many cards lie face down in all (those remembered included)."""
        return sum(pile.down for pile in self.piles)

    def fill(self, cards: Sequence[int]) -> Position:
        """The position with ``cards`` in the places of the unseen cards, pile by pile in
        view order, each pile bottom to top: one arrangement of :attr:`unseen` (``cards``
        must be one, in some order), a guess at the board and never the game's own."""
        if sorted(cards) != list(self.unseen):
            raise ValueError("a view is filled with an arrangement of its unseen cards")
        piles: list[list[int]] = []
        at = 0
        for pile in self.piles:
            if pile.remembered:
                piles.append([*pile.remembered, *pile.up])
                continue
            piles.append([*cards[at : at + pile.down], *pile.up])
            at += pile.down
        return Position(piles, [pile.down for pile in self.piles], self.redeals_used)

    def digest(self) -> bytes:
        """SHA-256 of the view written out in full: equal views, equal digests (a seed of
        the view's own for whatever must draw the same numbers for the same view)."""
        text = "|".join(
            [
                self.variant,
                ",".join(f"{name}={value!r}" for name, value in self.options),
                self.state,
                str(self.redeals_used),
                *(
                    f"{p.id}:{p.down}:{'.'.join(map(str, p.remembered))}:{'.'.join(map(str, p.up))}"
                    for p in self.piles
                ),
            ]
        )
        return sha256(text.encode("utf-8")).digest()
