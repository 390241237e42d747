"""What every variant shares: its declarations, options, the stock, foundations, the hooks.

A variant is one module defining a subclass of :class:`Rules`. It declares, as
class attributes, everything the rest of the code needs to know about it (its
id and name, decks, layout for clients, which solver search serves it, its
stuck proof, which piles are interchangeable, its daily solver budget) and
implements a few hooks:

``lay_out(order)``
    the starting :class:`Position` of a deal order (the cards, first dealt
    first), whichever kind of deal produced it; ``numbered_order(seed)``
    gives a seed's order (Aisleriot's shuffle unless the variant says
    otherwise, as Freecell does with Microsoft's), and :meth:`Rules.deal`
    puts the two together.
``legal(pos)``
    every legal move as internal tuples, fast: the engine calls it on every
    step and the solver millions of times.
``why_illegal(pos, move)``
    ``None`` when the move is legal, else the reason a person can read, which
    never names a face-down card (:mod:`shared.variants.reasons`). This is
    the rules written plainly; tests check that it agrees with ``legal`` on
    every candidate move of random positions.
``after_move(pos, after=None)``
    automatic moves that are part of the player's action (Freecell autoplay);
    returns how many it made.
``score(pos)``
    the score of a position (a function of the board alone).
``quick_progress(pos)`` and ``safe_move(pos, move)``
    a cheap proof that a card can still go home (the stuck check's first
    try), and the foundation moves no winning line can regret (the solver
    plays them alone).

Internal moves are tuples ``(src, count, dst)`` of pile indices into
``pile_ids``; :data:`DEAL` stands for the stock action.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, cast

from shared.build import mypyc_attr
from shared.cards import NO_BUILDS, RANK, SUIT
from shared.deals import Deal, KeyedDeal, aisleriot_deal, keyed_order
from shared.errors import InvalidNotation, InvalidOptions, InvalidVariant
from shared.notation import parse_pile
from shared.position import Position
from shared.variants.layout import PILE_WORDS, Layout, pile_display_names
from shared.variants.piles import DEAL, InternalMove, move_tables
from shared.variants.reasons import Reasons

__all__ = [
    "DEAL",
    "InternalMove",
    "OptionValue",
    "ProgressSearch",
    "ProgressSearchFactory",
    "Proof",
    "Rules",
]

OptionValue = bool | int

#: what proved that a position can still make progress: a line of moves in the variant's
#: own form (Freecell's witness), or True; the stuck check tries it again on later positions
Proof = tuple[tuple[int, int], ...] | bool


class ProgressSearch(Protocol):
    """A variant's stuck proof, as :class:`shared.stuck.StuckProver` runs it.

    A prover makes one per search class, so whatever it remembers lives as
    long as the prover does. Both methods answer only about progress: a
    proof is a legal line of moves that puts a card home, never a guess.
    """

    def cheap_proof(self, rules: Rules, pos: Position, hint: Proof | None) -> Proof | None:
        """A proof found without a search (``hint``: the last one found in this game)."""
        ...

    def search(self, rules: Rules, pos: Position, budget: int) -> tuple[bool | None, Proof | None]:
        """(True, a proof) when some line puts a card home, (False, None) when none can
        within ``budget`` positions seen whole, (None, None) when the budget ran out."""
        ...


class ProgressSearchFactory(Protocol):
    """A :class:`ProgressSearch` class: ``boards`` bounds what it remembers, ``native``
    lets it use compiled helpers where they were built."""

    def __call__(self, *, boards: int, native: bool) -> ProgressSearch: ...


@mypyc_attr(allow_interpreted_subclasses=True)  # variants may be written in Python
class Rules(Reasons, ABC):
    """The rules of one variant, with its options fixed. Stateless: positions carry the state."""

    id: ClassVar[str]
    name: ClassVar[str]
    #: decks shuffled together; ``card_count`` is 52 per deck
    decks: ClassVar[int] = 1
    card_count: ClassVar[int] = 52
    #: option name -> default value (the type of the default is the option's type)
    option_defaults: ClassVar[Mapping[str, OptionValue]] = MappingProxyType({})
    max_score: ClassVar[int]
    #: pile ids in the order of the view's piles
    pile_ids: ClassVar[tuple[str, ...]]
    #: how clients draw the board (sent in VariantInfo)
    layout: ClassVar[Layout]
    #: what this variant calls a kind of pile where it differs from
    #: :data:`~shared.variants.layout.PILE_WORDS` (Freecell: ``{"r": "free cell"}``); the
    #: piles' display names are made from it (VariantInfo's ``pile_names``)
    pile_words: ClassVar[Mapping[str, str]] = MappingProxyType({})
    #: the variant a client offers first when a player makes a race room (VariantInfo's
    #: ``race_default``): one whose deals are nearly all won, so the play decides a race
    race_default: ClassVar[bool] = False
    #: the solver's search for this variant, by name (shared.solver.api: "freecell",
    #: "gypsy", "osmosis", "waste" or "generic")
    solver_search: ClassVar[str] = "generic"
    #: the stuck proof: None for the generic search on engine positions
    #: (shared.stuck.generic); a variant with a search of its own names its class
    stuck_search: ClassVar[ProgressSearchFactory | None] = None
    #: kinds of pile ("t", "f", "r") whose piles no rule tells apart, so that positions
    #: that differ only by which of them holds what play alike (canonical keys)
    interchangeable: ClassVar[tuple[str, ...]] = ()
    #: positions the solver may search per candidate seed when choosing a daily deal
    daily_positions: ClassVar[int] = 20_000

    # Facts of the tableau that searches read (shared.solver.waste_search):
    #: BUILDS_ON[card]: the cards that may be put on ``card`` in a tableau column
    builds_on: ClassVar[tuple[tuple[int, ...], ...]] = NO_BUILDS
    #: what a column gives up: "build" (a build from its top), "any" (any face-up card
    #: with those above it), "top_or_all" (its top card or its whole face-up part),
    #: "top" (its top card)
    pick_up: ClassVar[str] = "build"
    #: a foundation's top card may come back into play
    foundation_cards_in_play: ClassVar[bool] = False

    #: True when no card is ever face down and there is no stock: a move's inverse,
    #: when legal, puts back exactly what the move changed (the engine's undo-free
    #: shortcut in the stuck check relies on it)
    plain_piles: ClassVar[bool] = False

    # stock and waste: cards turned per deal and redeals allowed (None: unlimited)
    deal_count: int = 1
    max_redeals: int | None = 0

    #: the moves a game of this layout can list, named (see shared.variants.piles)
    _move_names: ClassVar[dict[InternalMove, str]]
    _moves_by_name: ClassVar[dict[str, InternalMove]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Freeze a variant's declarations, check them and make its tables, once, as its
        class is made: a pile id the notation cannot name, a layout that misses a pile or a
        pile kind named twice raises :class:`InvalidVariant` here, not at the protocol's
        edge in the middle of a game."""
        super().__init_subclass__(**kwargs)
        if "option_defaults" in vars(cls):
            cls.option_defaults = MappingProxyType(dict(cls.option_defaults))
        if "pile_words" in vars(cls):
            cls.pile_words = MappingProxyType(dict(cls.pile_words))
        if "pile_ids" not in vars(cls):
            return  # no layout of its own (a base for other variants): nothing to make
        cls._check_piles()
        cls.card_count = 52 * cls.decks
        cls.layout.check(cls.pile_ids)
        cls._move_names, cls._moves_by_name = move_tables(cls.pile_ids)

    @classmethod
    def _check_piles(cls) -> None:
        """Every pile id is one the notation names (docs/notation.md: ``s``, ``w``, ``f0``-``f7``,
        ``t0``-``t9``, ``r0``-``r3``), once; ``pile_words`` names only kinds of pile."""
        where = f"variant {getattr(cls, 'id', cls.__name__)!r}"
        for pid in cls.pile_ids:
            try:
                parse_pile(pid)
            except InvalidNotation as exc:
                raise InvalidVariant(f"{where} declares the pile {pid!r}: {exc}") from None
        twice = sorted({pid for pid in cls.pile_ids if cls.pile_ids.count(pid) > 1})
        if twice:
            raise InvalidVariant(f"{where} declares the piles {twice} more than once")
        # (typed as given, not as declared: the compiled build would refuse a wrong type
        # with a TypeError, before the check can say what is wrong)
        words: list[tuple[object, object]] = list(cls.pile_words.items())
        for kind, word in words:
            if kind not in PILE_WORDS or not isinstance(word, str) or not word.strip():
                raise InvalidVariant(
                    f"{where}: pile_words maps a kind of pile ({', '.join(PILE_WORDS)}) to "
                    f"a word, not {kind!r} to {word!r}"
                )

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
        #: the piles a deal may change: the stock and the waste where there is a waste
        #: (:meth:`use_stock`), else every pile (Gypsy deals onto the columns). The engine
        #: copies only these before a deal; a variant whose deal changes others says so
        #: in :meth:`configure`.
        self.deal_piles: tuple[int, ...] = (
            (self.stock, self.waste) if self.waste >= 0 else tuple(range(len(ids)))
        )
        #: plain_piles, and the tables of move names, read on the engine's every step: as
        #: attributes of the object, which the compiled build reads as fields, where a
        #: class attribute is a lookup by name
        self.plain: bool = self.plain_piles
        self._names_of: dict[Any, str] = self._move_names
        self._move_of: dict[str, InternalMove] = self._moves_by_name
        self.configure()

    @classmethod
    def info(cls) -> dict[str, Any]:
        """The variant's VariantInfo (docs/protocol.md), as the server sends it in ``welcome``."""
        return {
            "id": cls.id,
            "name": cls.name,
            "options": dict(cls.option_defaults),
            "max_score": cls.max_score,
            "layout": cls.layout.info(),
            "pile_names": cls.pile_names(),
        } | ({"race_default": True} if cls.race_default else {})

    @classmethod
    def pile_names(cls) -> dict[str, str]:
        """Each pile's display name (``r0`` -> ``free cell 1`` in Freecell), in pile order."""
        return pile_display_names(cls.pile_ids, cls.pile_words)

    # -- options -------------------------------------------------------------

    @classmethod
    def check_options(cls, options: Mapping[str, object]) -> dict[str, OptionValue]:
        """Options merged over the defaults; unknown names and wrong types are refused."""
        if not isinstance(options, Mapping):
            raise InvalidOptions(f"options must be a map, not {options!r}")
        # (values stay the objects given: typed OptionValue, a bool could come back an int
        # from the compiled build, which keeps ints unboxed)
        merged: dict[str, object] = dict(cls.option_defaults)
        for name, value in options.items():
            if name not in cls.option_defaults:
                known = ", ".join(sorted(cls.option_defaults)) or "none"
                raise InvalidOptions(f"{cls.id} has no option {name!r} (options: {known})")
            default = cls.option_defaults[name]
            if type(value) is not type(default):
                raise InvalidOptions(
                    f"option {name!r} of {cls.id} takes a {type(default).__name__}, not {value!r}"
                )
            merged[name] = options[name]
        return cast("dict[str, OptionValue]", merged)

    def configure(self) -> None:
        """Hook: read ``self.options`` into attributes (deal_count, max_redeals...)."""
        return None

    # -- hooks a variant implements ------------------------------------------

    def deal(self, deal: Deal | int) -> Position:
        """The position ``deal`` (or seed ``deal``) starts from: its order, laid out."""
        if isinstance(deal, KeyedDeal):
            return self.lay_out(keyed_order(deal.key, self.decks))
        return self.lay_out(self.numbered_order(deal if isinstance(deal, int) else deal.seed))

    def numbered_order(self, seed: int) -> list[int]:
        """Seed ``seed``'s deal order: Aisleriot's shuffle of its decks (docs/rules.md)."""
        return aisleriot_deal(seed, self.decks)

    @abstractmethod
    def lay_out(self, order: list[int]) -> Position:
        """The position that deals ``order`` (``card_count`` cards, the first dealt first)."""

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
        return self.foundation_count(pos)

    def foundation_accepts(self, pos: Position, card: int, f: int) -> bool:
        """The common rule: an empty foundation takes an ace, a started one its suit's next."""
        pile = pos.piles[f]
        if not pile:
            return RANK[card] == 1
        top = pile[-1]
        return SUIT[top] == SUIT[card] and RANK[top] + 1 == RANK[card]

    def quick_progress(self, pos: Position) -> bool:
        """Hook: a cheap proof that a card can still reach a foundation (False: don't know)."""
        return False

    def safe_move(self, pos: Position, move: InternalMove) -> bool:
        """Hook: ``move``, a legal move to a foundation, is one no winning line can regret,
        so the solver may play it alone (False, the default: none is)."""
        return False

    # -- shared mechanics ----------------------------------------------------

    def apply(self, pos: Position, move: InternalMove) -> None:
        """Play a legal move (unchecked), turning up an exposed face-down card."""
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
        for src, _, dst in legal:  # noqa: SIM110 (a loop the compiled build runs as C)
            if src >= 0 and is_f[dst] and not is_f[src]:
                return True
        return False

    def legal_and_progress(
        self, pos: Position, memo: dict[Any, Any] | None = None
    ) -> tuple[list[InternalMove], bool]:
        """``legal(pos)`` and whether one of those moves sends a card home
        (:meth:`can_progress_now`): the engine asks both on every step, and a
        variant whose move generator sees the answer on the way gives it here.

        ``memo`` is a dict the caller owns (a game, for its lifetime) in which
        the variant may remember what it derives from a part of the position that
        changes seldom (Freecell: which foundation takes which card); None: nothing
        is remembered."""
        legal = self.legal(pos)
        return legal, self.can_progress_now(pos, legal)

    def foundation_count(self, pos: Position) -> int:
        # A loop of typed ints, not sum(map(...)): the compiled build runs it as plain C
        # (the engine asks it on every step and the stuck proofs on every guess).
        piles = pos.piles
        count = 0
        for f in self.foundations:
            count += len(piles[f])
        return count

    def is_won(self, pos: Position) -> bool:
        return self.foundation_count(pos) == self.card_count
