"""How a variant's piles and moves are written: pile ids, move names, positions as text.

Internal moves are tuples ``(src, count, dst)`` of pile indices into the
variant's ``pile_ids``; :data:`DEAL` stands for the stock action. The engine
names the legal moves after every action, so the names of the moves a game
can list are made once per variant, when its class is made
(:func:`move_tables`), and only a move no game ever lists (a group onto a
foundation, more than 13 cards) is named on the spot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final

from shared.build import mypyc_attr
from shared.cards import NAME, parse_card
from shared.errors import IllegalMove, InvalidNotation
from shared.notation import DEAL as DEAL_WORD
from shared.notation import Move, move_text
from shared.position import Position

InternalMove = tuple[int, int, int]

#: the stock action as an internal move
DEAL: Final[InternalMove] = (-1, 0, -1)

#: the most cards one move can carry in these games: a build from king to ace
LONGEST_BUILD: Final = 13
#: the most piles a layout can have: those the notation names (s, w, f0-f7, t0-t9, r0-r3)
MOST_PILES: Final = 24

#: MOVES[src][count][dst]: the move (src, count, dst), made once. The variants' legal()
#: hand out these very tuples rather than new ones on every call (no allocation, nor
#: garbage for the collector, per listed move), and the table of names is keyed by them,
#: so that looking a listed move's name up finds the identical object at once.
MOVES: Final[tuple[tuple[tuple[InternalMove, ...], ...], ...]] = tuple(
    tuple(tuple((src, count, dst) for dst in range(MOST_PILES)) for count in range(14))
    for src in range(MOST_PILES)
)
#: MOVES typed as objects, and DEAL: what legal() puts in its list. The compiled build
#: holds a ``tuple[int, int, int]`` taken out of a container as three C ints and makes a
#: new tuple of them to put it in a list or look it up in a dict; an object is handed on
#: as it is. (legal() fills a ``list[Any]``, which it returns as ``list[InternalMove]``
#: with no conversion in either build.)
MOVE_OBJECTS: Final[tuple[tuple[tuple[object, ...], ...], ...]] = MOVES
DEAL_OBJECT: Final[object] = DEAL


def move_tables(
    pile_ids: Sequence[str],
) -> tuple[dict[InternalMove, str], dict[str, InternalMove]]:
    """Every move a game of this layout can list, with its canonical name, both ways:
    one card between any two piles, groups of 2 .. 13 between tableau piles, and deal.

    Plain dicts, not read-only views, because the engine looks names up on its every
    step and a dict's own lookups are the fastest there are; nothing changes them after
    the variant's class is made (tests/shared/test_no_module_state.py checks)."""
    names: dict[InternalMove, str] = {DEAL: DEAL_WORD}
    tableau = [i for i, pid in enumerate(pile_ids) if pid[0] == "t"]
    for src, src_id in enumerate(pile_ids):
        for dst, dst_id in enumerate(pile_ids):
            if src != dst:
                names[MOVES[src][1][dst]] = move_text(src_id, 1, dst_id)
    for src in tableau:
        for dst in tableau:
            if src != dst:
                for count in range(2, LONGEST_BUILD + 1):
                    names[MOVES[src][count][dst]] = move_text(pile_ids[src], count, pile_ids[dst])
    by_name = {name: move for move, name in names.items()}
    return names, by_name


@mypyc_attr(allow_interpreted_subclasses=True)
class PileNotation:
    """The notation half of :class:`shared.variants.base.Rules`: names and pile ids."""

    name: ClassVar[str]
    pile_ids: ClassVar[tuple[str, ...]]
    _move_names: ClassVar[dict[InternalMove, str]]
    _moves_by_name: ClassVar[dict[str, InternalMove]]
    index: dict[str, int]
    stock: int
    #: _move_names and _moves_by_name, as the rules object's own (see Rules.__init__); the
    #: names keyed by objects: the listed moves are the very keys (see MOVE_OBJECTS)
    _names_of: dict[Any, str]
    _move_of: dict[str, InternalMove]

    def move_name(self, move: InternalMove) -> str:
        name = self._names_of.get(move)
        if name is None:
            src, count, dst = move
            name = move_text(self.pile_ids[src], count, self.pile_ids[dst])
        return name

    def move_names(self, moves: list[InternalMove]) -> list[str]:
        """Canonical names of many moves (the engine's every step: one lookup each)."""
        # (as objects: see MOVE_OBJECTS; the listed moves are the very keys of the table)
        names = self._names_of
        listed: list[Any] = moves
        try:
            return [names[m] for m in listed]
        except KeyError:
            return [self.move_name(m) for m in moves]

    def known_move(self, name: str) -> InternalMove | None:
        """The internal move of a canonical name from this variant's table, or None."""
        return self._move_of.get(name)

    def pile(self, pile_id: str) -> int:
        index = self.index.get(pile_id)
        if index is None:
            raise IllegalMove(f"{self.name} has no pile {pile_id!r}")
        return index

    def internal(self, move: Move) -> InternalMove:
        """A parsed move with explicit piles as an internal move (``dst`` "f" is the caller's)."""
        if not isinstance(move.count, int) or isinstance(move.count, bool) or move.count < 1:
            raise InvalidNotation(f"{str(move)!r} is not a move: it carries no card")
        return (self.pile(move.src), move.count, self.pile(move.dst))

    def cards_text(self, cards: list[int]) -> str:
        return " ".join(NAME[c] for c in cards)

    def position_text(self, pos: Position) -> str:
        """A few-line dump of a position: ``t0: ?JD ?KD 2S`` per non-empty pile,
        ``?`` marking face-down cards, plus ``redeals_used: N`` when non-zero."""
        lines = []
        for pid, pile, down in zip(self.pile_ids, pos.piles, pos.down, strict=True):
            if pile:
                words = ["?" + NAME[c] for c in pile[:down]] + [NAME[c] for c in pile[down:]]
                lines.append(f"{pid}: {' '.join(words)}")
        if pos.redeals_used:
            lines.append(f"redeals_used: {pos.redeals_used}")
        return "\n".join(lines)

    def position_from_text(self, text: str) -> Position:
        """The inverse of :meth:`position_text`; for hand-built positions in tests and tools.

        Face-down cards must lie below face-up ones; the stock is always all
        face down, whether or not its cards carry ``?``.
        """
        piles: list[list[int]] = [[] for _ in self.pile_ids]
        down = [0] * len(self.pile_ids)
        redeals = 0
        for raw in text.strip().splitlines():
            line = raw.strip()
            if not line:
                continue
            head, sep, rest = line.partition(":")
            if not sep:
                raise InvalidNotation(f"{line!r} is not 'PILE: CARDS'")
            head = head.strip()
            if head == "redeals_used":
                redeals = int(rest)
                continue
            index = self.index.get(head)
            if index is None:
                raise InvalidNotation(f"{self.name} has no pile {head!r}")
            for word in rest.split():
                hidden = word.startswith("?")
                card = parse_card(word[1:] if hidden else word)
                if hidden:
                    if len(piles[index]) != down[index]:
                        raise InvalidNotation(f"{line!r}: a face-down card above a face-up one")
                    down[index] += 1
                piles[index].append(card)
        if self.stock >= 0:
            down[self.stock] = len(piles[self.stock])
        return Position(piles, down, redeals)
