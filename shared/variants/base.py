"""What every variant shares: pile layout, internal moves, the stock, foundations.

A variant is a subclass of :class:`Rules` that describes its layout as data
and implements a few hooks:

``deal(seed)``
    the starting :class:`Position`.
``legal(pos)``
    every legal move as internal tuples, fast: the engine calls it on every
    step and the solver millions of times.
``why_illegal(pos, move)``
    ``None`` when the move is legal, else the reason a person can read. This
    is the rules written plainly; tests check that it agrees with ``legal``
    on every candidate move of random positions.
``after_move(pos, after=None)``
    automatic moves that are part of the player's action (Freecell autoplay);
    returns how many it made.
``score(pos)``
    the score of a position (a function of the board alone).

Internal moves are tuples ``(src, count, dst)`` of pile indices into
``pile_ids``; :data:`DEAL` stands for the stock action.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from itertools import pairwise
from typing import ClassVar, Final

from shared.cards import NAME, RANK, SUIT, is_build_step, parse_card
from shared.errors import IllegalMove, InvalidNotation, InvalidOptions
from shared.notation import DEAL as DEAL_WORD
from shared.notation import Move
from shared.position import Position

InternalMove = tuple[int, int, int]

#: the stock action as an internal move
DEAL: Final[InternalMove] = (-1, 0, -1)

OptionValue = bool | int

#: per Rules class: move -> canonical name, and back (filled as moves are named)
_NAMES: dict[type, tuple[dict[InternalMove, str], dict[str, InternalMove]]] = {}


class Rules(ABC):
    """The rules of one variant, with its options fixed. Stateless: positions carry the state."""

    id: ClassVar[str]
    name: ClassVar[str]
    #: option name -> default value (the type of the default is the option's type)
    option_defaults: ClassVar[Mapping[str, OptionValue]] = {}
    max_score: ClassVar[int]
    #: pile ids in layout order: left to right, then top to bottom
    pile_ids: ClassVar[tuple[str, ...]]
    #: number of cards in play (52, or 104 for two decks)
    card_count: ClassVar[int] = 52

    #: True when no card is ever face down and there is no stock: a move's inverse,
    #: when legal, puts back exactly what the move changed (the engine's undo-free
    #: shortcut in the stuck check relies on it)
    plain_piles: ClassVar[bool] = False

    # stock and waste: cards turned per deal and redeals allowed (None: unlimited)
    deal_count: int = 1
    max_redeals: int | None = 0

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        self.options: dict[str, OptionValue] = self.check_options(options or {})
        ids = self.pile_ids
        self.index: dict[str, int] = {pid: i for i, pid in enumerate(ids)}
        self.tableau: tuple[int, ...] = tuple(i for i, p in enumerate(ids) if p[0] == "t")
        self.foundations: tuple[int, ...] = tuple(i for i, p in enumerate(ids) if p[0] == "f")
        self.reserves: tuple[int, ...] = tuple(i for i, p in enumerate(ids) if p[0] == "r")
        self.stock: int = self.index.get("s", -1)
        self.waste: int = self.index.get("w", -1)
        self.is_foundation: tuple[bool, ...] = tuple(p[0] == "f" for p in ids)
        # Names depend on the layout alone, so every rules object of a variant shares
        # them (a game makes its own rules object; its first moves are named already).
        names = _NAMES.get(type(self))
        if names is None:
            names = _NAMES[type(self)] = ({DEAL: DEAL_WORD}, {DEAL_WORD: DEAL})
        self._move_names: dict[InternalMove, str] = names[0]
        self._moves_by_name: dict[str, InternalMove] = names[1]
        self.configure()

    # -- options -------------------------------------------------------------

    @classmethod
    def check_options(cls, options: Mapping[str, object]) -> dict[str, OptionValue]:
        """Options merged over the defaults; unknown names and wrong types are refused."""
        if not isinstance(options, Mapping):
            raise InvalidOptions(f"options must be a map, not {options!r}")
        merged: dict[str, OptionValue] = dict(cls.option_defaults)
        for name, value in options.items():
            if name not in cls.option_defaults:
                known = ", ".join(sorted(cls.option_defaults)) or "none"
                raise InvalidOptions(f"{cls.id} has no option {name!r} (options: {known})")
            default = cls.option_defaults[name]
            if type(value) is not type(default):
                raise InvalidOptions(
                    f"option {name!r} of {cls.id} takes a {type(default).__name__}, not {value!r}"
                )
            merged[name] = value
        return merged

    def configure(self) -> None:
        """Hook: read ``self.options`` into attributes (deal_count, max_redeals...)."""
        return None

    # -- hooks a variant implements ------------------------------------------

    @abstractmethod
    def deal(self, seed: int) -> Position:
        """The position ``seed`` deals."""

    @abstractmethod
    def legal(self, pos: Position) -> list[InternalMove]:
        """Every legal move of ``pos``, canonical (see the module docstring)."""

    @abstractmethod
    def why_illegal(self, pos: Position, move: InternalMove) -> str | None:
        """None when ``move`` is legal in ``pos``, else why not, in words for a player."""

    def after_move(self, pos: Position, after: InternalMove | None = None) -> int:
        """Automatic moves that follow every action (none by default); how many were made.

        ``after``, when given, is the move just played on a position that was
        itself settled (nothing automatic was left to do): a variant may then
        look only at what that move changed.

        A pile it changes gets a new list (``piles[i] = ...``), never a change
        in place: a game's undo history shares the lists of the piles the last
        action left alone with the position (see :class:`shared.game.Game`).
        """
        return 0

    def score(self, pos: Position) -> int:
        """Cards on the foundations, the score of most variants."""
        piles = pos.piles
        return sum(len(piles[f]) for f in self.foundations)

    def foundation_accepts(self, pos: Position, card: int, f: int) -> bool:
        """The common rule: an empty foundation takes an ace, a started one its suit's next."""
        pile = pos.piles[f]
        if not pile:
            return RANK[card] == 1
        top = pile[-1]
        return SUIT[top] == SUIT[card] and RANK[top] + 1 == RANK[card]

    # -- shared mechanics ----------------------------------------------------

    def apply(self, pos: Position, move: InternalMove) -> None:
        """Play a legal move (unchecked), turning up an exposed face-down card.

        :meth:`move_cards` written out, as the engine plays one move per step.
        """
        src, count, dst = move
        if src < 0:
            self.use_stock(pos)
            return
        piles = pos.piles
        pile = piles[src]
        if count == 1:
            piles[dst].append(pile.pop())
        else:
            piles[dst].extend(pile[-count:])
            del pile[-count:]
        down = pos.down
        if down[src] and down[src] >= len(pile):
            down[src] = len(pile) - 1

    @staticmethod
    def move_cards(pos: Position, src: int, count: int, dst: int) -> None:
        pile = pos.piles[src]
        if count == 1:
            pos.piles[dst].append(pile.pop())
        else:
            pos.piles[dst].extend(pile[-count:])
            del pile[-count:]
        down = pos.down
        if down[src] and down[src] >= len(pile):
            down[src] = len(pile) - 1

    def redeals_left(self, pos: Position) -> int | None:
        if self.stock < 0:
            return 0
        if self.max_redeals is None:
            return None
        return self.max_redeals - pos.redeals_used

    def can_use_stock(self, pos: Position) -> bool:
        """A deal: cards remain in the stock, or the waste can be turned back over."""
        if self.stock < 0:
            return False
        if pos.piles[self.stock]:
            return True
        if self.waste < 0 or not pos.piles[self.waste]:
            return False
        return self.max_redeals is None or pos.redeals_used < self.max_redeals

    def use_stock(self, pos: Position) -> None:
        """Turn ``deal_count`` cards onto the waste, or the waste back into the stock."""
        stock = pos.piles[self.stock]
        waste = pos.piles[self.waste]
        if stock:
            for _ in range(min(self.deal_count, len(stock))):
                waste.append(stock.pop())
        else:
            # The card first turned will be turned first again: it goes on top.
            waste.reverse()
            stock.extend(waste)
            waste.clear()
            pos.redeals_used += 1
        pos.down[self.stock] = len(stock)

    def stock_reason(self, pos: Position) -> str | None:
        """Why ``deal`` is refused now, or None."""
        if self.stock < 0:
            return f"{self.name} has no stock"
        if self.can_use_stock(pos):
            return None
        if self.waste >= 0 and pos.piles[self.waste]:
            return "the stock is empty and no redeal is left"
        return "the stock and the waste are empty"

    def first_foundation(self, pos: Position, card: int, exclude: int = -1) -> int:
        """The first foundation in pile order that takes ``card``, or -1."""
        for f in self.foundations:
            if f != exclude and self.foundation_accepts(pos, card, f):
                return f
        return -1

    def auto_sources(self) -> Iterator[int]:
        """Piles scanned by ``auto``: reserves, waste, tableau."""
        yield from self.reserves
        if self.waste >= 0:
            yield self.waste
        yield from self.tableau

    def auto_moves(self, pos: Position, legal: list[InternalMove]) -> list[InternalMove]:
        """Play ``auto`` on ``pos`` (mutating it): every card it sends to a foundation."""
        played: list[InternalMove] = []
        sources = list(self.auto_sources())
        while True:
            legal_set = set(legal)
            for src in sources:
                pile = pos.piles[src]
                if not pile or len(pile) <= pos.down[src]:
                    continue
                for f in self.foundations:
                    move = (src, 1, f)
                    if move in legal_set:
                        break
                else:
                    continue
                self.apply(pos, move)
                played.append(move)
                break
            else:
                return played
            legal = self.legal(pos)

    def can_progress_now(self, pos: Position, legal: list[InternalMove]) -> bool:
        """A legal move puts a card that is not on a foundation onto one."""
        is_f = self.is_foundation
        return any(m[0] >= 0 and is_f[m[2]] and not is_f[m[0]] for m in legal)

    def quick_progress(self, pos: Position) -> bool:
        """Hook: a cheap proof that a card can still reach a foundation (False: don't know)."""
        return False

    def foundation_count(self, pos: Position) -> int:
        return sum(map(len, map(pos.piles.__getitem__, self.foundations)))

    def is_won(self, pos: Position) -> bool:
        return self.foundation_count(pos) == self.card_count

    # -- notation --------------------------------------------------------------

    def move_name(self, move: InternalMove) -> str:
        name = self._move_names.get(move)
        if name is None:
            src, count, dst = move
            name = str(Move(self.pile_ids[src], count, self.pile_ids[dst]))
            self._move_names[move] = name
            self._moves_by_name[name] = move
        return name

    def move_names(self, moves: list[InternalMove]) -> list[str]:
        """Canonical names of many moves; names are cached, as the same few recur all game."""
        try:
            return list(map(self._move_names.__getitem__, moves))
        except KeyError:
            return [self.move_name(m) for m in moves]

    def known_move(self, name: str) -> InternalMove | None:
        """The internal move of a canonical name this variant's rules have already written."""
        return self._moves_by_name.get(name)

    def pile(self, pile_id: str) -> int:
        index = self.index.get(pile_id)
        if index is None:
            raise IllegalMove(f"{self.name} has no pile {pile_id!r}")
        return index

    def internal(self, move: Move) -> InternalMove:
        """A parsed move with explicit piles as an internal move (``dst`` "f" is the caller's)."""
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

    # -- helpers for why_illegal ---------------------------------------------

    def basic_reason(self, pos: Position, move: InternalMove) -> str | None:
        """Reasons common to every variant: empty source, face-down cards, same pile."""
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
