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
never the game's own cards. The stuck proof fills them with :data:`UNSEEN`
instead (:func:`blind`): a code that is no card, so
that whatever it proves holds for every arrangement.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from hashlib import sha256
from typing import TYPE_CHECKING, Final

from shared.cards import deck
from shared.position import Position

if TYPE_CHECKING:
    from shared.game import Game
    from shared.variants.base import Rules

OptionValue = bool | int

#: the code that stands for an unseen card in a blind position: no card has it (rank 0), no
#: foundation takes it and nothing builds on it or it on anything
UNSEEN: Final = 0


def remembered_pile(rules: Rules, pos: Position) -> int:
    """The pile whose face-down cards the player has all seen (the stock, once turned over
    from the waste; see the module docstring), or -1."""
    return rules.stock if pos.redeals_used > 0 else -1


def blind(rules: Rules, pos: Position) -> Position:
    """``pos`` with every card its player has not seen replaced by :data:`UNSEEN` (``pos``
    itself when the player has seen them all): what a proof may look at, when it must hold
    whatever the face-down cards are. Equal views give equal blind positions."""
    known = remembered_pile(rules, pos)
    down = pos.down
    for i, d in enumerate(down):
        if d and i != known:
            break
    else:
        return pos
    # The piles with nothing unseen are pos's own lists, shared: a position's lists are
    # never changed in place once made (what changes a pile gives it a new list, see
    # shared.stuck.generic.moved and shared.game.Game), as pos itself is returned above.
    # (A pile all face down, a stock, is one list made, not three.)
    piles = [
        pile
        if i == known or not down[i]
        else [UNSEEN] * down[i]
        if down[i] == len(pile)
        else [UNSEEN] * down[i] + pile[down[i] :]
        for i, pile in enumerate(pos.piles)
    ]
    return Position(piles, down[:], pos.redeals_used)


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
        piles = []
        known: Counter[int] = Counter()
        stock = remembered_pile(rules, pos)
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
