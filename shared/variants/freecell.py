"""Freecell: four free cells, eight columns, every card face up, Microsoft's deal numbers.

The supermove limit and the safe-autoplay rule are Aisleriot's (rules.md, Freecell).
"""

from __future__ import annotations

from typing import ClassVar

from shared.cards import NAME, RANK, RED, is_build_step
from shared.deals import microsoft_deal
from shared.position import Position
from shared.variants.base import DEAL, InternalMove, Rules

FREE_CELLS = ("r0", "r1", "r2", "r3")
CELL_INDICES = (0, 1, 2, 3)
FOUNDATION_INDICES = (4, 5, 6, 7)
COLUMN_INDICES = (8, 9, 10, 11, 12, 13, 14, 15)
ACES = (1, 17, 33, 49)

#: BUILD[lower * 64 + upper]: ``upper`` may lie on ``lower`` (other colour, one rank lower)
BUILD: bytes = bytes(
    1 if RANK[lo] and RANK[up] and RANK[up] + 1 == RANK[lo] and RED[up] != RED[lo] else 0
    for lo in range(64)
    for up in range(64)
)
#: ACCEPTS[card]: the cards that may be built on ``card``
ACCEPTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(up for up in range(64) if BUILD[lo * 64 + up]) for lo in range(64)
)
#: ONTO_FIRST[card], ONTO_SECOND[card]: the two cards ``card`` may be built on (-1: none)
ONTO_FIRST: tuple[int, ...] = tuple(
    next((lo for lo in range(64) if BUILD[lo * 64 + up]), -1) for up in range(64)
)
ONTO_SECOND: tuple[int, ...] = tuple(
    next((lo for lo in range(63, -1, -1) if BUILD[lo * 64 + up]), -1) for up in range(64)
)
#: BITS[mask]: how many bits ``mask`` (0..15) has set
BITS = tuple(bin(mask).count("1") for mask in range(16))
#: piles that moves come from, in the order legal() lists them
SOURCE_INDICES = CELL_INDICES + COLUMN_INDICES
#: MOVES[src][count][dst]: the move (src, count, dst), made once. legal() hands out these
#: very tuples rather than new ones on every call: no allocation (nor garbage for the
#: collector) per listed move, and the engine's lookups of a listed move (its name, its
#: inverse) find the identical object at once. No move carries more than 13 cards.
MOVES: tuple[tuple[tuple[InternalMove, ...], ...], ...] = tuple(
    tuple(tuple((src, count, dst) for dst in range(16)) for count in range(14))
    for src in range(16)
)
#: ONE_CARD[src][dst]: MOVES[src][1][dst], the single-card moves of ``src``
ONE_CARD: tuple[tuple[InternalMove, ...], ...] = tuple(MOVES[src][1] for src in range(16))
#: TO_EMPTY_CELLS[mask][src]: the moves of ``src``'s top card to the free cells that
#: ``mask`` marks empty (bit k: r``k``), in pile order; () when none is empty
TO_EMPTY_CELLS: tuple[tuple[tuple[InternalMove, ...], ...], ...] = tuple(
    tuple(tuple(ONE_CARD[src][c] for c in CELL_INDICES if mask >> c & 1) for src in range(16))
    if mask
    else ()
    for mask in range(16)
)
#: KIND[card]: a card's rank and colour as one number, rank * 2 + (1 if red); NEEDS[card]:
#: the kind of the two cards it may be built on. legal() indexes the columns by the kind
#: of their top cards, so one lookup finds where a card goes. Kind 0 is no card's: the
#: codes that are not cards have it (and need it), and the kings need 28 or 29, no kind.
KIND: tuple[int, ...] = tuple(RANK[c] * 2 + RED[c] if NAME[c] else 0 for c in range(64))
NEEDS: tuple[int, ...] = tuple(
    (RANK[c] + 1) * 2 + (not RED[c]) if NAME[c] else 0 for c in range(64)
)
#: the kinds there are (0 .. 29), the size of legal()'s per-kind tables
KINDS = 30
#: RUN_NEEDS[card][n]: bit k set when one of the top ``n`` cards of a build topped by
#: ``card`` may go onto a top of kind k. A build's cards are fixed in rank and colour by
#: its top card, so this needs no more than the top card: legal() passes over a build
#: that no column top takes any of with one test.
RUN_NEEDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        # the n-th card from the top: rank RANK[card] + n - 1, the top card's colour when
        # n is odd; it needs a card one rank higher of the other colour
        sum(
            1 << ((RANK[card] + n) * 2 + ((not RED[card]) if n % 2 else RED[card]))
            for n in range(1, count + 1)
        )
        if NAME[card] and RANK[card] + count <= 14
        else 0
        for count in range(14)
    )
    for card in range(64)
)

FOUNDATIONS = ("f0", "f1", "f2", "f3")
TABLEAU = tuple(f"t{i}" for i in range(8))


#: foundations' top cards (0: empty) -> HOMES[card]: the foundations that take it
_HOMES: dict[tuple[int, int, int, int], list[tuple[int, ...] | None]] = {}


def _homes(tops: tuple[int, int, int, int]) -> list[tuple[int, ...] | None]:
    """Card -> the foundations (pile indices) that take it (None: none), for these
    foundation tops (remembered: the foundations change only when a card goes home)."""
    homes: list[tuple[int, ...] | None] = [None] * 64
    open_foundations: list[int] = []
    for f, top in zip(FOUNDATION_INDICES, tops, strict=True):
        if top:
            if top & 15 < 13:
                homes[top + 1] = (f,)
        else:
            open_foundations.append(f)
    if open_foundations:
        ace_homes = tuple(open_foundations)
        for ace in ACES:
            homes[ace] = ace_homes
    if len(_HOMES) >= 4096:
        _HOMES.clear()
    _HOMES[tops] = homes
    return homes


def move_limit(empty_cells: int, empty_piles: int) -> int:
    """Cards one move may carry: (empty cells + 1) * 2 ** empty piles.

    ``empty_piles`` must already leave out the destination, and the source
    when the move empties it.
    """
    return (empty_cells + 1) << empty_piles


def build_length(pile: list[int]) -> int:
    """Cards at the top of ``pile`` that form one alternate-colour, one-down build."""
    length = 1
    size = len(pile)
    while length < size and is_build_step(pile[-length - 1], pile[-length]):
        length += 1
    return length


def is_safe(card: int, highest: list[int]) -> bool:
    """Aisleriot's safe-autoplay test, with ``highest`` the top rank on the foundations per suit."""
    rank = RANK[card]
    black = min(highest[0], highest[3])
    red = min(highest[1], highest[2])
    if RED[card]:
        return rank <= min(2 + black, 3 + red)
    return rank <= min(2 + red, 3 + black)


class FreecellRules(Rules):
    id = "freecell"
    name = "Freecell"
    option_defaults: ClassVar = {"autoplay": True}
    max_score = 52
    pile_ids = FREE_CELLS + FOUNDATIONS + TABLEAU
    plain_piles = True

    def configure(self) -> None:
        self.autoplay = bool(self.options["autoplay"])
        #: the list the last legal() call returned, and whether it sends a card home
        #: (see can_progress_now): a fact of that position, noted while legal() had it.
        #: One attribute holding both, written and read in one step each: a Rules object
        #: is shared by every game of its variant, and the server plays games in threads
        #: too (replays, hints), so a list and an answer written apart could mismatch.
        self._listed: tuple[list[InternalMove], bool] | None = None

    def deal(self, seed: int) -> Position:
        piles: list[list[int]] = [[] for _ in self.pile_ids]
        for k, card in enumerate(microsoft_deal(seed)):
            piles[self.tableau[k % 8]].append(card)
        # Autoplay follows moves (rules.md), not the deal: the deal is Microsoft's layout as is.
        return Position(piles, [0] * len(piles))

    # -- legal moves (fast) ----------------------------------------------------

    def legal(self, pos: Position) -> list[InternalMove]:
        # Lookups instead of loops, as the engine calls this on every step. Moves come
        # source by source in pile order (cells, then columns); per source, to the
        # empty free cells, the foundations, then the columns in pile order, and per
        # column by count: the canonical order, which seeded playouts and recorded
        # tests rely on.
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
        homes = _HOMES.get(tops)
        if homes is None:
            homes = _homes(tops)
        needs = NEEDS
        moves: list[InternalMove] = []
        append = moves.append
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
                    one = ONE_CARD[s]
                    for f in home:
                        append(one[f])
                kind = needs[card]
                a = onto_first[kind]
                if a is not None:
                    one = ONE_CARD[s]
                    append(one[a])
                    b = onto_second[kind]
                    if b is not None:
                        append(one[b])
            self._listed = (moves, homeward)
            return moves
        to_cells = TO_EMPTY_CELLS[cell_mask]
        # The source is never among the empty piles (it holds the cards that move),
        # so only the destination changes the count. Here the limit is two or more.
        limit = (BITS[cell_mask] + 1) << len(empties)
        if empties:
            homeward = self._legal_with_empty_columns(
                piles, moves, homes, onto_first, onto_second, empties, to_cells, limit
            )
            self._listed = (moves, homeward)
            return moves
        # Most of the other calls: a free cell is empty, no column is.
        build = BUILD
        extend = moves.extend
        homeward = False
        for s in SOURCE_INDICES:
            pile = piles[s]
            if not pile:
                continue
            card = pile[-1]
            extend(to_cells[s])
            one = ONE_CARD[s]
            home = homes[card]
            if home is not None:
                homeward = True
                for f in home:
                    append(one[f])
            size = len(pile)
            if size > 1 and build[pile[-2] * 64 + card]:  # (a cell holds one card)
                # A build of two or more cards: groups move too, as many cards as the
                # limit allows, when a column top takes one of the build's cards.
                most = limit if limit < size else size
                run = 2
                while run < most and build[pile[-run - 1] * 64 + pile[-run]]:
                    run += 1
                if RUN_NEEDS[card][run] & top_kinds:
                    self._groups_onto_columns(moves, s, pile, run, onto_first, onto_second)
                continue
            kind = needs[card]
            a = onto_first[kind]
            if a is not None:
                append(one[a])
                b = onto_second[kind]
                if b is not None:
                    append(one[b])
        self._listed = (moves, homeward)
        return moves

    @staticmethod
    def _groups_onto_columns(
        moves: list[InternalMove],
        s: int,
        pile: list[int],
        run: int,
        onto_first: list[int | None],
        onto_second: list[int | None],
    ) -> None:
        """Append the moves of 1 .. ``run`` top cards of ``pile`` (source ``s``) onto the
        column tops, in canonical order: by column, then by count. (Rarely called: legal()
        first checks with RUN_NEEDS that some column top takes one of these cards.)"""
        # Each column top takes at most one of the build's cards (they differ in rank),
        # so sorting the (column, count) pairs by column puts them in order.
        found: list[tuple[int, int]] = []
        for n in range(1, run + 1):
            kind = NEEDS[pile[-n]]
            a = onto_first[kind]
            if a is not None:
                found.append((a, n))
                b = onto_second[kind]
                if b is not None:
                    found.append((b, n))
        found.sort()
        by_count = MOVES[s]
        for t, n in found:
            moves.append(by_count[n][t])

    @staticmethod
    def _legal_with_empty_columns(
        piles: list[list[int]],
        moves: list[InternalMove],
        homes: list[tuple[int, ...] | None],
        onto_first: list[int | None],
        onto_second: list[int | None],
        empties: list[int],
        to_cells: tuple[tuple[InternalMove, ...], ...],
        limit: int,
    ) -> bool:
        """legal() when a column is empty (a few calls in a hundred): any card or group,
        within the limit, may also go into each empty column. Returns whether a card
        can go to a foundation."""
        limit_to_empty = limit >> 1  # the empty destination does not count
        build = BUILD
        append = moves.append
        homeward = False
        for s in SOURCE_INDICES:
            pile = piles[s]
            if not pile:
                continue
            card = pile[-1]
            if to_cells:
                moves.extend(to_cells[s])
            one = ONE_CARD[s]
            home = homes[card]
            if home is not None:
                homeward = True
                for f in home:
                    append(one[f])
            size = len(pile)
            if size > 1 and build[pile[-2] * 64 + card]:  # (a cell holds one card)
                # A build of two or more cards: groups move too, as many as the limit allows.
                most = limit if limit < size else size
                run = 2
                while run < most and build[pile[-run - 1] * 64 + pile[-run]]:
                    run += 1
                found: list[tuple[int, int]] = []
                for n in range(1, run + 1):
                    kind = NEEDS[pile[-n]]
                    a = onto_first[kind]
                    if a is not None:
                        found.append((a, n))
                        b = onto_second[kind]
                        if b is not None:
                            found.append((b, n))
                top = run if run < limit_to_empty else limit_to_empty
                for t in empties:
                    for n in range(1, top + 1):
                        found.append((t, n))
                found.sort()  # by column, then count: a column top takes one count at most
                by_count = MOVES[s]
                for t, n in found:
                    append(by_count[n][t])
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
                append(one[t])
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
        empty_piles = sum(
            1 for t in self.tableau if not pos.piles[t] and t != dst and t != src
        )
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
        """As the base class says. When ``legal`` is the very list the last legal()
        call returned (the engine's every step), legal() noted the answer on the way:
        a top card had a home. (The list is kept while noted, so no other list can be
        that object; a caller must not have changed it, as for every use of legal().)"""
        listed = self._listed
        if listed is not None and legal is listed[0]:
            return listed[1]
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

        This is :func:`shared.solver.freecell_progress.dig`, the proof the
        engine's stuck check tries first: the cards above a wanted card go onto
        column tops, into free cells or into empty columns, room being made by
        building a free cell's card away when it must. Every step is a legal
        move and none touches the foundations, so the wanted card stays wanted
        and then goes up: a proof that the position is not stuck.
        """
        # Imported here: the progress module builds on this one's tables.
        from shared.solver.freecell_progress import dig

        return dig(pos) is not None
