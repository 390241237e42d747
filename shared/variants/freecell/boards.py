"""Freecell's canonical boards, as its stuck search sees them, and the moves between them.

A board (:data:`State`) is the eight columns, sorted, then the free cells' cards,
sorted: positions that differ only by which free cell or column holds what are
one board, and the board is its own key. The foundations are left out: inside
the region a stuck search explores no card goes home (that ends the search),
so they never change, and which cards they want is one table per search.

A board is one ``bytes``: each column's card codes, bottom to top, ended by
:data:`SEP`, then the free cells' cards. One object per board, not a tuple of
nine: CPython keeps a bytes object's hash, so the search's dicts of boards
(seen, edges, lines found) hash each board once and compare two with one
``memcmp``, where a tuple was hashed again item by item at every lookup; and a
bytes object is no work for the garbage collector.

:meth:`BoardMoves.children` lists a board's children, a third of a random
game's time; :data:`COMPILED_CHILDREN` is the same function compiled
(``_children.c``), built where the install had a C compiler, and
:data:`COMPILED_SCORE` the same of :func:`score`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from shared.position import Position
from shared.variants.freecell.tables import BUILD, ONTO_FIRST, ONTO_SECOND

#: the eight columns (card codes, bottom to top) in sorted order, each ended by SEP,
#: then the free cells' cards sorted; empty columns sort first
State = bytes

#: the byte that ends a column in a board (no card has this code: cards are below 64)
SEP = 255
SEP_BYTES = bytes([SEP])

COLUMNS = range(8, 16)
CELLS = range(4)
FOUNDATIONS = range(4, 8)

Piles = Sequence[Sequence[int]]

#: a board's children (None: a move uncovers a wanted card), as both copies list them
Children = Callable[[State, bytes], tuple[State, ...] | None]
#: a board's score in the search (see :func:`score`), as both copies count it
Score = Callable[[State, bytes], int]


def state_of(pos: Position) -> State:
    """The canonical state of a Freecell position (its foundations left out)."""
    return state_of_piles(pos.piles)


def state_of_piles(piles: Piles) -> State:
    cols = sorted(map(bytes, piles[8:16]))
    cols.append(bytes(sorted([*piles[0], *piles[1], *piles[2], *piles[3]])))
    return SEP_BYTES.join(cols)


def parts_of(state: State) -> list[bytes]:
    """The board's nine parts: its eight columns in canonical order, then its free cells."""
    return state.split(SEP_BYTES)


def wanted_of(pos: Position) -> bytes:
    """WANTED[card]: 1 when ``card`` is the next its foundation takes."""
    return wanted_table(wanted_cards_of_piles(pos.piles))


def wanted_cards_of(pos: Position) -> list[int]:
    """The cards the foundations take next (at most one per suit)."""
    return wanted_cards_of_piles(pos.piles)


def wanted_cards_of_piles(piles: Piles) -> list[int]:
    out = []
    started = 0
    for f in FOUNDATIONS:
        pile = piles[f]
        if pile:
            top = pile[-1]
            started |= 1 << (top >> 4)
            if top & 15 < 13:
                out.append(top + 1)
    for suit in range(4):
        if not started >> suit & 1:
            out.append(suit * 16 + 1)
    return out


def wanted_table(cards: list[int]) -> bytes:
    table = bytearray(64)
    for card in cards:
        table[card] = 1
    return bytes(table)


def shows_wanted(state: State, wanted: bytes) -> bool:
    """A wanted card lies in a free cell or on a column top: it can go home now."""
    parts = parts_of(state)
    for card in parts[8]:
        if wanted[card]:
            return True
    return any(col and wanted[col[-1]] for col in parts[:8])


def score(state: State, cards: bytes) -> int:
    """The search's score of a board (lower is better), ``cards`` the wanted cards: how
    many cards lie on the shallowest wanted card in a column (99: none does), plus the
    full free cells, less twice the empty columns. (A wanted card in a free cell counts
    for nothing: the search never scores such a board, which shows a wanted card.)

    This is the reference; a search uses the compiled copy (:data:`COMPILED_SCORE`)
    where that was built and allowed."""
    shallowest = 99
    for card in cards:
        at = state.find(card)
        if at >= 0:
            end = state.find(SEP, at)
            if end >= 0 and end - at - 1 < shallowest:
                shallowest = end - at - 1
    out = shallowest + len(state) - 1 - state.rfind(SEP)
    if state[0] == SEP:  # empty columns sort first
        empty = 1
        while empty < 8 and state[empty] == SEP:
            empty += 1
        out -= 2 * empty
    return out


#: for each count n of a column's top cards that could move together (its top
#: build): (n, the column without them, those cards, the two cards the lowest of
#: them may be built onto)
Runs = tuple[tuple[int, bytes, bytes, int, int], ...]

#: What the search needs of one column: the two cards its top card may be built
#: onto, the column without its top card, that card (as bytes), and its Runs when
#: more than the top card could move together (None: only the top card moves).
Column = tuple[int, int, bytes, bytes, Runs | None]


def column_runs(col: bytes) -> Runs:
    """For each count n of the column's top cards that could move together: (n, the
    column without them, those cards, the two cards the lowest of them may go onto)."""
    n = len(col)
    length = 1
    while length < n and BUILD[col[-length - 1] * 64 + col[-length]]:
        length += 1
    return tuple(
        (k, col[:-k], col[-k:], ONTO_FIRST[col[-k]], ONTO_SECOND[col[-k]])
        for k in range(1, length + 1)
    )


class CellsWith(dict[bytes, list[bytes | None]]):
    """Free cells' cards (sorted) -> for each card, the same with the card, sorted (the
    canonical form); filled as cards are met, emptied at ``size`` entries."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __missing__(self, cells: bytes) -> list[bytes | None]:
        if len(self) >= self.size:
            self.clear()
        found: list[bytes | None] = [None] * 64
        self[cells] = found
        return found


class BoardMoves:
    """:meth:`children` in Python, with what it remembers of the columns and free cells
    it has met (each bounded by ``size`` entries): one per search, for its lifetime."""

    def __init__(self, size: int) -> None:
        self.size = size
        #: column -> its :data:`Column`
        self.columns: dict[bytes, Column] = {}
        self.cells_with = CellsWith(size)
        self._no_cells: list[bytes | None] = []

    def column_of(self, col: bytes) -> Column:
        """The :data:`Column` of a non-empty column."""
        found = self.columns.get(col)
        if found is None:
            top = col[-1]
            more = column_runs(col) if len(col) > 1 and BUILD[col[-2] * 64 + top] else None
            found = (ONTO_FIRST[top], ONTO_SECOND[top], col[:-1], col[-1:], more)
            if len(self.columns) >= self.size:
                self.columns.clear()
            self.columns[col] = found
        return found

    def children(self, state: State, wanted: bytes) -> tuple[State, ...] | None:
        """The boards one move from ``state``, one per canonical key; None when a move
        uncovers a wanted card (``state`` itself must show none).

        This is the reference; a search uses the compiled copy of it
        (:data:`COMPILED_CHILDREN`) where that was built and allowed.

        Moves that keep the key (a card from one free cell to another, a whole
        column to an empty one) are left out, and moves to "an empty free cell" or
        "an empty column" are made once, since which one does not change the key.
        Columns sort by their bottom card (cards are all different), so only a move
        that empties a column or fills an empty one needs the order made again.

        The stuck search spends most of its time here, mostly on positions whose
        free cells are full and whose columns have one card to move, so that case
        is the straight path: per column one remembered tuple and two lookups.
        (The board's parts are a list, each child's made from a copy and joined.)
        """
        cols = state.split(SEP_BYTES)
        cells = cols[8]
        free = 4 - len(cells)
        n_empty = 0
        while n_empty < 8 and not cols[n_empty]:
            n_empty += 1
        limit = (free + 1) << n_empty
        join = SEP_BYTES.join
        # top card -> its column (a list: indexing it is cheaper than a dict's get; the
        # -1 of "no card" finds the unused card code 63)
        where: list[int | None] = [None] * 64
        if n_empty:
            for j in range(n_empty, 8):
                where[cols[j][-1]] = j
        else:  # (unrolled: the common case, and a loop costs more than the stores)
            c0, c1, c2, c3, c4, c5, c6, c7, _ = cols
            where[c0[-1]] = 0
            where[c1[-1]] = 1
            where[c2[-1]] = 2
            where[c3[-1]] = 3
            where[c4[-1]] = 4
            where[c5[-1]] = 5
            where[c6[-1]] = 6
            where[c7[-1]] = 7
        out: list[State] = []
        add = out.append
        for k, card in enumerate(cells):
            a = where[ONTO_FIRST[card]]
            b = where[ONTO_SECOND[card]]
            if a is None and b is None and not n_empty:
                continue
            one = cells[k : k + 1]
            rest_cells = cells[:k] + cells[k + 1 :]
            if a is not None:
                new = cols[:]
                new[a] += one
                new[8] = rest_cells
                add(join(new))
            if b is not None:
                new = cols[:]
                new[b] += one
                new[8] = rest_cells
                add(join(new))
            if n_empty:
                new = cols[:8]
                new[0] = one
                new.sort()
                new.append(rest_cells)
                add(join(new))
        columns_get = self.columns.get
        # card -> the free cells' cards with it, sorted (the canonical form), made once each
        with_card = self.cells_with[cells] if free else self._no_cells
        to_empty = (free + 1) << (n_empty - 1) if n_empty else 0
        for i in range(n_empty, 8):
            col = cols[i]
            first, second, below, top, more = columns_get(col) or self.column_of(col)
            a = where[first]
            b = where[second]
            if a is not None or b is not None:
                if below:
                    if wanted[below[-1]]:
                        return None
                    # neither column empties: the order (by bottom card) holds
                    if a is not None:
                        new = cols[:]
                        new[i] = below
                        new[a] += top
                        add(join(new))
                    if b is not None:
                        new = cols[:]
                        new[i] = below
                        new[b] += top
                        add(join(new))
                else:
                    for onto in (a, b):
                        if onto is not None:
                            new = cols[:8]
                            new[i] = below
                            new[onto] += top
                            new.sort()
                            new.append(cells)
                            add(join(new))
            if limit == 1:  # every free cell full and no empty column: nothing more moves
                continue
            if more is not None:
                # builds of two cards or more, within the move limit
                for _n, rest, moved, first, second in more[1:limit]:
                    a = where[first]
                    b = where[second]
                    if a is None and b is None:
                        continue
                    if rest:
                        if wanted[rest[-1]]:
                            return None
                        for onto in (a, b):
                            if onto is not None:
                                new = cols[:]
                                new[i] = rest
                                new[onto] += moved
                                add(join(new))
                    else:
                        for onto in (a, b):
                            if onto is not None:
                                new = cols[:8]
                                new[i] = rest
                                new[onto] += moved
                                new.sort()
                                new.append(cells)
                                add(join(new))
            if to_empty:
                runs = more if more is not None else ((1, below, top, first, second),)
                # at most the limit to an empty column, and never the whole column
                n = len(runs) if len(runs) < to_empty else to_empty
                if n == len(col):
                    n -= 1
                for _n, rest, moved, _first, _second in runs[:n]:
                    if wanted[rest[-1]]:
                        return None
                    new = cols[:8]
                    new[i] = rest
                    new[0] = moved
                    new.sort()
                    new.append(cells)
                    add(join(new))
            if free:
                # the top card into a free cell
                card = col[-1]
                into = with_card[card]
                if into is None:
                    into = with_card[card] = bytes(sorted(cells + top))
                if below:
                    if wanted[below[-1]]:
                        return None
                    new = cols[:]
                    new[i] = below
                    new[8] = into
                    add(join(new))
                else:
                    new = cols[:8]
                    new[i] = below
                    new.sort()
                    new.append(into)
                    add(join(new))
        return tuple(out)


#: :meth:`BoardMoves.children` compiled (``_children.c``), or None where it was not built:
#: an optional part of the install, made where a C compiler is at hand. It lists the same
#: children in the same order (the tests compare the two), so every search runs the same
#: way with either; it is about six times faster.
COMPILED_CHILDREN: Children | None = None
#: :func:`score` compiled (``_children.c``, the same scores), or None where not built
COMPILED_SCORE: Score | None = None
try:
    from shared.variants.freecell import _children
except ImportError:  # not built here: the Python copy does the same
    pass
else:
    _children.setup(BUILD)
    COMPILED_CHILDREN = _children.children
    COMPILED_SCORE = _children.score
