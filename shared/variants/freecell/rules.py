"""Freecell: four free cells, eight columns, every card face up, Microsoft's deal numbers.

The supermove limit and the safe-autoplay rule are Aisleriot's (docs/rules.md, Freecell).
The tables the move generator looks its answers up in are in :mod:`.tables`;
the stuck proof is Freecell's own search on canonical boards (:mod:`.search`).
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, cast

from shared.build import mypyc_attr
from shared.cards import ALTERNATE_BUILDS, NAME, is_build_step
from shared.deals import microsoft_deal
from shared.position import Position
from shared.variants.base import DEAL, InternalMove, Rules
from shared.variants.freecell.search import FreecellProgress
from shared.variants.freecell.tables import (
    BITS,
    BUILD,
    COLUMN_INDICES,
    FOUNDATION_INDICES,
    FOUNDATIONS,
    FREE_CELLS,
    HOME_AT,
    HOMES_FOR_ACES,
    KIND,
    KINDS,
    MOVES,
    NEEDS,
    ONE_CARD,
    RUN_NEEDS,
    SOURCE_INDICES,
    TABLEAU,
    TO_EMPTY_CELLS,
    is_safe,
    move_limit,
)
from shared.variants.freecell.witness import dig
from shared.variants.layout import GAP, Layout

#: foundation states whose homes a game remembers (a game sees a few dozen)
HOMES_REMEMBERED: Final = 4096

#: MOVES, ONE_CARD and TO_EMPTY_CELLS typed as objects: what legal() lists (see
#: shared.variants.piles.MOVE_OBJECTS)
_MOVES: Final[tuple[tuple[tuple[object, ...], ...], ...]] = MOVES
_ONE_CARD: Final[tuple[tuple[object, ...], ...]] = ONE_CARD
_TO_EMPTY_CELLS: Final[tuple[tuple[tuple[object, ...], ...], ...]] = TO_EMPTY_CELLS


def homes_of(tops: tuple[int, int, int, int]) -> list[tuple[int, ...] | None]:
    """Card -> the foundations that take it (None: none), for these tops of f0..f3 (0:
    empty): aces to the empty ones, each started one's next card to it (a king's: none)."""
    t4, t5, t6, t7 = tops
    homes = list(HOMES_FOR_ACES[(not t4) | (not t5) << 1 | (not t6) << 2 | (not t7) << 3])
    if t4:
        homes[t4 + 1] = HOME_AT[4]
    if t5:
        homes[t5 + 1] = HOME_AT[5]
    if t6:
        homes[t6 + 1] = HOME_AT[6]
    if t7:
        homes[t7 + 1] = HOME_AT[7]
    return homes


def top_build(pile: list[int], limit: int) -> int:
    """Cards at the top of ``pile`` (whose two top cards are a build) that one move may
    carry: its top build, at most ``limit`` cards."""
    size = len(pile)
    most = limit if limit < size else size
    run = 2
    while run < most and BUILD[pile[-run - 1] * 64 + pile[-run]]:
        run += 1
    return run


def group_targets(
    pile: list[int], run: int, onto_first: list[int | None], onto_second: list[int | None]
) -> list[tuple[int, int]]:
    """(column, count) for each column top that takes the lowest of ``pile``'s top ``count``
    cards, for counts 1 .. ``run``: where the groups of the top build may go. (legal()
    reaches this only for a build some column top takes a card of.)"""
    found: list[tuple[int, int]] = []
    for n in range(1, run + 1):
        kind = NEEDS[pile[-n]]
        a = onto_first[kind]
        if a is not None:
            found.append((a, n))
            b = onto_second[kind]
            if b is not None:
                found.append((b, n))
    return found


@mypyc_attr(allow_interpreted_subclasses=True)  # (tests narrow a variant in Python)
class FreecellRules(Rules):
    id = "freecell"
    name = "Freecell"
    option_defaults: ClassVar = {"autoplay": True}
    max_score = 52
    pile_ids = FREE_CELLS + FOUNDATIONS + TABLEAU
    layout = Layout.of((*FREE_CELLS, GAP, *FOUNDATIONS), TABLEAU, down=TABLEAU)
    #: its reserves are the free cells that name the game
    pile_words: ClassVar = {"r": "free cell"}
    #: nearly every deal is won: a race on it is decided by the play
    race_default = True
    solver_search = "freecell"
    stuck_search = FreecellProgress
    #: which free cell or column holds what changes no move; any ace starts any foundation
    interchangeable = ("r", "t", "f")
    daily_positions = 20_000
    builds_on = ALTERNATE_BUILDS
    plain_piles = True

    def configure(self) -> None:
        self.autoplay = bool(self.options["autoplay"])

    def numbered_order(self, seed: int) -> list[int]:
        """Microsoft FreeCell's game ``seed`` (docs/rules.md, Deals)."""
        return microsoft_deal(seed)

    def lay_out(self, order: list[int]) -> Position:
        piles: list[list[int]] = [[] for _ in self.pile_ids]
        for k, card in enumerate(order):
            piles[self.tableau[k % 8]].append(card)
        # Autoplay follows moves (docs/rules.md), not the deal: the deal is Microsoft's as is.
        return Position(piles, [0] * len(piles))

    # -- legal moves (fast) ----------------------------------------------------

    def legal(self, pos: Position) -> list[InternalMove]:
        return self.legal_and_progress(pos)[0]

    def legal_and_progress(
        self, pos: Position, memo: dict[Any, Any] | None = None
    ) -> tuple[list[InternalMove], bool]:
        """The legal moves, and whether one sends a card home, seen on the way (a top
        card has a home): the engine asks both on every step.

        Lookups instead of loops, as the engine calls this on every step. Moves
        come source by source in pile order (cells, then columns); per source, to
        the empty free cells, the foundations, then the columns in pile order, and
        per column by count: the canonical order, which seeded playouts and
        recorded tests rely on. ``memo`` (see Rules.legal_and_progress) keeps the
        foundations' homes by their top cards: they change only when a card goes home.
        """
        piles = pos.piles
        # The columns by the kind of their top card (see KIND): the first in pile order
        # with a top of that kind, and the second when two tops are of one kind (no more
        # can be: a kind is two cards); the kinds on top as bits; the empty columns.
        onto_first: list[int | None] = [None] * KINDS
        onto_second: list[int | None] = [None] * KINDS
        top_kinds = 0
        empties: list[int] = []
        for t in COLUMN_INDICES:
            tp = piles[t]
            if tp:
                kind = KIND[tp[-1]]
                top_kinds |= 1 << kind
                if onto_first[kind] is None:
                    onto_first[kind] = t
                else:
                    onto_second[kind] = t
            else:
                empties.append(t)
        # card -> the foundations that take it, remembered by the foundations' top cards
        f4, f5, f6, f7 = piles[4], piles[5], piles[6], piles[7]
        tops = (f4[-1] if f4 else 0, f5[-1] if f5 else 0, f6[-1] if f6 else 0, f7[-1] if f7 else 0)
        homes = memo.get(tops) if memo is not None else None
        if homes is None:
            homes = homes_of(tops)
            if memo is not None:
                if len(memo) >= HOMES_REMEMBERED:
                    memo.clear()
                memo[tops] = homes
        needs = NEEDS
        # The listed moves are the prebuilt tuples of MOVES, as objects (no tuple made
        # per move: see shared.variants.piles.MOVE_OBJECTS).
        moves: list[object] = []
        cell_mask = (not piles[0]) | (not piles[1]) << 1 | (not piles[2]) << 2 | (not piles[3]) << 3
        if not cell_mask and not empties:
            # Nearly half the calls: every free cell and column holds cards, so every
            # source has a top card and only single cards move (the limit is one), to
            # a foundation or onto a column.
            homeward = False
            for s in SOURCE_INDICES:
                card = piles[s][-1]
                home = homes[card]
                if home is not None:
                    homeward = True
                    one = _ONE_CARD[s]
                    for f in home:
                        moves.append(one[f])
                kind = needs[card]
                a = onto_first[kind]
                if a is not None:
                    one = _ONE_CARD[s]
                    moves.append(one[a])
                    b = onto_second[kind]
                    if b is not None:
                        moves.append(one[b])
            return cast("list[InternalMove]", moves), homeward
        to_cells = _TO_EMPTY_CELLS[cell_mask]
        # The source is never among the empty piles (it holds the cards that move),
        # so only the destination changes the count. Here the limit is two or more.
        limit = (BITS[cell_mask] + 1) << len(empties)
        if empties:
            homeward = self._legal_with_empty_columns(
                piles, moves, homes, onto_first, onto_second, empties, to_cells, limit
            )
            return cast("list[InternalMove]", moves), homeward
        # Most of the other calls: a free cell is empty, no column is.
        build = BUILD
        homeward = False
        for s in SOURCE_INDICES:
            pile = piles[s]
            if not pile:
                continue
            card = pile[-1]
            moves.extend(to_cells[s])
            one = _ONE_CARD[s]
            home = homes[card]
            if home is not None:
                homeward = True
                for f in home:
                    moves.append(one[f])
            if len(pile) > 1 and build[pile[-2] * 64 + card]:  # (a cell holds one card)
                # A build of two or more cards: groups move too, as many cards as the
                # limit allows, when a column top takes one of the build's cards.
                run = top_build(pile, limit)
                if RUN_NEEDS[card][run] & top_kinds:
                    found = group_targets(pile, run, onto_first, onto_second)
                    found.sort()  # by column, then count: a column top takes one count at most
                    by_count = _MOVES[s]
                    for t, n in found:
                        moves.append(by_count[n][t])
                continue
            kind = needs[card]
            a = onto_first[kind]
            if a is not None:
                moves.append(one[a])
                b = onto_second[kind]
                if b is not None:
                    moves.append(one[b])
        return cast("list[InternalMove]", moves), homeward

    @staticmethod
    def _legal_with_empty_columns(
        piles: list[list[int]],
        moves: list[object],
        homes: list[tuple[int, ...] | None],
        onto_first: list[int | None],
        onto_second: list[int | None],
        empties: list[int],
        to_cells: tuple[tuple[object, ...], ...],
        limit: int,
    ) -> bool:
        """legal() when a column is empty (a few calls in a hundred): any card or group,
        within the limit, may also go into each empty column. Returns whether a card
        can go to a foundation."""
        limit_to_empty = limit >> 1  # the empty destination does not count
        build = BUILD
        homeward = False
        for s in SOURCE_INDICES:
            pile = piles[s]
            if not pile:
                continue
            card = pile[-1]
            if to_cells:
                moves.extend(to_cells[s])
            one = _ONE_CARD[s]
            home = homes[card]
            if home is not None:
                homeward = True
                for f in home:
                    moves.append(one[f])
            if len(pile) > 1 and build[pile[-2] * 64 + card]:  # (a cell holds one card)
                # A build of two or more cards: groups move too, as many as the limit allows.
                run = top_build(pile, limit)
                found = group_targets(pile, run, onto_first, onto_second)
                top = run if run < limit_to_empty else limit_to_empty
                for t in empties:
                    for n in range(1, top + 1):
                        found.append((t, n))
                found.sort()  # by column, then count: a column top takes one count at most
                by_count = _MOVES[s]
                for t, n in found:
                    moves.append(by_count[n][t])
                continue
            targets = empties[:]
            kind = NEEDS[card]
            a = onto_first[kind]
            if a is not None:
                targets.append(a)
                b = onto_second[kind]
                if b is not None:
                    targets.append(b)
                targets.sort()
            for t in targets:
                moves.append(one[t])
        return homeward

    # -- the rules, plainly ----------------------------------------------------

    def why_illegal(self, pos: Position, move: InternalMove) -> str | None:
        if move == DEAL:
            return "Freecell has no stock"
        src, count, dst = move
        ids = self.pile_ids
        reason = self.basic_reason(pos, move)
        if reason:
            return reason
        if self.is_foundation[src]:
            return "cards on the foundations are out of play in Freecell"
        pile = pos.piles[src]
        cards = pile[-count:]
        reason = self.build_reason(cards)
        if reason:
            return reason
        if self.is_foundation[dst]:
            return self.to_foundation_reason(pos, cards, dst)
        if dst in self.reserves:
            if count > 1:
                return "a free cell holds one card"
            if pos.piles[dst]:
                return f"free cell {ids[dst]} is not empty"
            return None
        target = pos.piles[dst]
        if target and not is_build_step(target[-1], cards[0]):
            return (
                f"{NAME[cards[0]]} cannot go on {NAME[target[-1]]}: "
                "needs the other colour, one rank lower"
            )
        empty_cells = sum(1 for c in self.reserves if not pos.piles[c])
        empty_piles = sum(1 for t in self.tableau if not pos.piles[t] and t != dst and t != src)
        limit = move_limit(empty_cells, empty_piles)
        if count > limit:
            return (
                f"{count} cards cannot move at once: with {empty_cells} empty free cells and "
                f"{empty_piles} other empty columns the limit is {limit}"
            )
        return None

    # -- automatic play ----------------------------------------------------------

    def after_move(self, pos: Position, after: InternalMove | None = None) -> int:
        if not self.autoplay:
            return 0
        piles = pos.piles
        if after is not None and not 3 < after[2] < 8:
            # The position was settled and the move sent nothing home, so the rank
            # each foundation wants is unchanged and only the card the move
            # uncovered is new on top; nothing else can have become playable.
            uncovered = piles[after[0]]
            if not uncovered:
                return 0
            card = uncovered[-1]
            suit = card >> 4
            need = 1  # the rank its foundation takes next
            for f in FOUNDATION_INDICES:
                home = piles[f]
                if home and home[0] >> 4 == suit:
                    need = len(home) + 1
                    break
            if card & 15 != need:
                return 0
        made = 0
        while True:
            highest = [0, 0, 0, 0]
            for f in FOUNDATION_INDICES:
                fp = piles[f]
                if fp:
                    highest[fp[0] >> 4] = len(fp)
            for src in SOURCE_INDICES:
                pile = piles[src]
                if not pile:
                    continue
                card = pile[-1]
                if card & 15 != highest[card >> 4] + 1 or not is_safe(card, highest):
                    continue
                f = self.first_foundation(pos, card)
                if f >= 0:
                    # new lists, not changes in place (see Rules.after_move)
                    piles[f] = [*piles[f], card]
                    piles[src] = pile[:-1]
                    made += 1
                    break
            else:
                return made

    def can_progress_now(self, pos: Position, legal: list[InternalMove]) -> bool:
        # Foundations are piles 4..7 and never a source in Freecell. (A plain loop:
        # any() over a generator costs more.)
        for move in legal:  # noqa: SIM110
            if 3 < move[2] < 8:
                return True
        return False

    def is_won(self, pos: Position) -> bool:
        piles = pos.piles
        return len(piles[4]) + len(piles[5]) + len(piles[6]) + len(piles[7]) == 52

    def quick_progress(self, pos: Position) -> bool:
        """A card its foundation wants can be dug out by moves that are surely legal.

        This is :func:`.witness.dig`, the proof the stuck check tries first:
        the cards above a wanted card go onto column tops, into free cells or
        into empty columns, room being made by building a free cell's card
        away when it must. Every step is a legal move and none touches the
        foundations, so the wanted card stays wanted and then goes up: a proof
        that the position is not stuck.
        """
        return dig(pos) is not None
