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
#: TO_EMPTY_CELLS[mask][src]: the moves of ``src``'s top card to the free cells that
#: ``mask`` marks empty (bit k: r``k``), in pile order; () when none is empty
TO_EMPTY_CELLS: tuple[tuple[tuple[InternalMove, ...], ...], ...] = tuple(
    tuple(tuple((src, 1, c) for c in CELL_INDICES if mask >> c & 1) for src in range(16))
    if mask
    else ()
    for mask in range(16)
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
        # empty free cells, the foundations, then the columns in pile order: the
        # canonical order, which seeded playouts and recorded tests rely on.
        piles = pos.piles
        cell_mask = (not piles[0]) | (not piles[1]) << 1 | (not piles[2]) << 2 | (not piles[3]) << 3
        to_cells = TO_EMPTY_CELLS[cell_mask]
        n_cells = BITS[cell_mask]
        # column top -> its column (a list: indexing it is cheaper than a dict's get;
        # the -1 of "no card" in ONTO_* finds the unused card code 63); the empty columns
        where: list[int | None] = [None] * 64
        empties: list[int] = []
        for t in COLUMN_INDICES:
            tp = piles[t]
            if tp:
                where[tp[-1]] = t
            else:
                empties.append(t)
        n_empty = len(empties)
        # The source is never among the empty piles (it holds the cards that move),
        # so only the destination changes the count.
        limit = (n_cells + 1) << n_empty
        limit_to_empty = (n_cells + 1) << (n_empty - 1) if n_empty else 0
        grouped = limit > 1 or limit_to_empty > 1
        # card -> the foundations that take it, remembered by the foundations' top cards
        f4, f5, f6, f7 = piles[4], piles[5], piles[6], piles[7]
        tops = (f4[-1] if f4 else 0, f5[-1] if f5 else 0, f6[-1] if f6 else 0, f7[-1] if f7 else 0)
        homes = _HOMES.get(tops)
        if homes is None:
            homes = _homes(tops)
        first, second, build = ONTO_FIRST, ONTO_SECOND, BUILD
        moves: list[InternalMove] = []
        append = moves.append
        extend = moves.extend
        for s in SOURCE_INDICES:
            pile = piles[s]
            if not pile:
                continue
            card = pile[-1]
            if to_cells:
                extend(to_cells[s])
            home = homes[card]
            if home is not None:
                for f in home:
                    append((s, 1, f))
            if grouped and len(pile) > 1 and build[pile[-2] * 64 + card]:  # (a cell holds one)
                # a build of two or more cards: groups move too
                size = len(pile)
                run = 2
                while run < size and build[pile[-run - 1] * 64 + pile[-run]]:
                    run += 1
                pairs: list[tuple[int, int]] = []
                for n in range(1, (run if run < limit else limit) + 1):
                    under = pile[-n]
                    onto = where[first[under]]
                    if onto is not None:
                        pairs.append((onto, n))
                    onto = where[second[under]]
                    if onto is not None:
                        pairs.append((onto, n))
                if empties:
                    top = run if run < limit_to_empty else limit_to_empty
                    for t in empties:
                        for n in range(1, top + 1):
                            pairs.append((t, n))
                pairs.sort()
                for t, n in pairs:
                    append((s, n, t))
                continue
            a = where[first[card]]
            b = where[second[card]]
            if not empties:
                if a is not None:
                    if b is None:
                        append((s, 1, a))
                    elif a < b:
                        append((s, 1, a))
                        append((s, 1, b))
                    else:
                        append((s, 1, b))
                        append((s, 1, a))
                elif b is not None:
                    append((s, 1, b))
                continue
            if a is None:
                if b is None:
                    for t in empties:
                        append((s, 1, t))
                    continue
                targets = sorted([*empties, b])
            elif b is None:
                targets = sorted([*empties, a])
            else:
                targets = sorted([*empties, a, b])
            for t in targets:
                append((s, 1, t))
        return moves

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
                    piles[f].append(pile.pop())
                    made += 1
                    break
            else:
                return made

    def can_progress_now(self, pos: Position, legal: list[InternalMove]) -> bool:
        # Foundations are piles 4..7 and never a source in Freecell. (A plain loop:
        # any() over a generator costs more on the engine's every step.)
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
