"""The stuck check's search for Freecell: can some line of moves put another card home?

The question, in the terms of rules.md's "stuck": from a position P, let R(P) be the
positions reachable from P by moves that put no card on a foundation, each
counted once up to which free cell or which column holds what (the solver's
canonical key). P is stuck exactly when no position of R(P) has a card its
foundation wants on a column top or in a free cell, and R(P) holds at most
``budget`` positions; otherwise it is not proven stuck. Only a "stuck"
verdict needs R(P) seen whole, so the order of the search is free, and any
legal line that reaches a wanted card proves "not stuck" as well as the
search would.

Why it is cheaper:

* A position is kept in canonical form, the eight columns sorted followed by
  the free cells' cards sorted (:data:`State`), so the key is the state itself
  and no key is computed apart.
* The foundations never change inside R(P) (a card going home ends the
  search), so they are left out; which cards are wanted is one table per
  search. Autoplay only ever sends a wanted card home, so it cannot happen
  inside R(P) either: the search is the same with and without it.
* A move shows at most one new card (the one it uncovers), so "does this
  child show a wanted card" is one table lookup.
* Listing a state's children, a third of the time, has a compiled copy
  (:data:`compiled_children`), used where the install could build it.
* The moves out of a state are a function of the state alone (its cards fix
  the foundations and so the wanted cards), so they are remembered across
  searches (:data:`_EDGES`): consecutive positions of a game share most of
  their reachable positions, and a later search walks the remembered edges.

It also holds the cheap proofs the engine tries before searching: the greedy
:func:`dig`, and :func:`replay` of the line (a :data:`Witness`) that proved an
earlier position. Both play only moves checked against the rules, so a line
they return is a proof of progress, whatever the search would have seen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from shared.position import Position
from shared.variants.freecell import ACCEPTS, BUILD, ONTO_FIRST, ONTO_SECOND

#: the eight columns (bytes of card codes, bottom to top) in sorted order, then the
#: free cells' cards sorted; empty columns sort first
State = tuple[bytes, ...]

COLUMNS = range(8, 16)
CELLS = range(4)
FOUNDATIONS = range(4, 8)

#: where a witness move goes (see :data:`Witness`): a free cell, an empty column
CELL = 64
EMPTY = 0

#: A line of moves that ends by uncovering a card its foundation wants, written so
#: that it means the same whichever free cell or column holds what: each move is
#: (the bottom card of the cards moved, the card they go onto), with :data:`CELL`
#: or :data:`EMPTY` for the card when they go to a free cell or an empty column.
Witness = tuple[tuple[int, int], ...]

#: edges remembered (about 1 kB each); emptied when it reaches this size
EDGES_SIZE = 20_000

#: state -> the states one move away (no card going home), or None when some move
#: shows a card its foundation wants
_EDGES: dict[State, tuple[State, ...] | None] = {}
_UNKNOWN: tuple[State, ...] = ((b"unknown",),)


#: state -> a line from it that uncovers a wanted card: the positions of every line
#: a search found (a later search that meets one of them is done); emptied at this size
_PROGRESS: dict[State, Witness] = {}
PROGRESS_SIZE = 20_000


Piles = Sequence[Sequence[int]]


def state_of(pos: Position) -> State:
    """The canonical state of a Freecell position (its foundations left out)."""
    return _state(pos.piles)


def _state(piles: Piles) -> State:
    cols = sorted(map(bytes, piles[8:16]))
    cols.append(bytes(sorted([*piles[0], *piles[1], *piles[2], *piles[3]])))
    return tuple(cols)


def wanted_of(pos: Position) -> bytes:
    """WANTED[card]: 1 when ``card`` is the next its foundation takes."""
    return _table(_wanted_cards(pos.piles))


def wanted_cards_of(pos: Position) -> list[int]:
    """The cards the foundations take next (at most one per suit)."""
    return _wanted_cards(pos.piles)


def _wanted_cards(piles: Piles) -> list[int]:
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


def _table(cards: list[int]) -> bytes:
    table = bytearray(64)
    for card in cards:
        table[card] = 1
    return bytes(table)


def shows_wanted(state: State, wanted: bytes) -> bool:
    """A wanted card lies in a free cell or on a column top: it can go home now."""
    for card in state[8]:
        if wanted[card]:
            return True
    return any(col and wanted[col[-1]] for col in state[:8])


#: for each count n of a column's top cards that could move together (its top
#: build): (n, the column without them, those cards, the two cards the lowest of
#: them may be built onto)
Runs = tuple[tuple[int, bytes, bytes, int, int], ...]

#: What the search needs of one column: the two cards its top card may be built
#: onto, the column without its top card, that card (as bytes), and its Runs when
#: more than the top card could move together (None: only the top card moves).
Column = tuple[int, int, bytes, bytes, Runs | None]

#: column -> its Column, remembered (a column recurs in many states); emptied at this size
_COLUMNS: dict[bytes, Column] = {}
COLUMNS_SIZE = 50_000


def column_of(col: bytes) -> Column:
    """The :data:`Column` of a non-empty column."""
    found = _COLUMNS.get(col)
    if found is None:
        top = col[-1]
        more = _runs(col) if len(col) > 1 and BUILD[col[-2] * 64 + top] else None
        found = (ONTO_FIRST[top], ONTO_SECOND[top], col[:-1], col[-1:], more)
        if len(_COLUMNS) >= COLUMNS_SIZE:
            _COLUMNS.clear()
        _COLUMNS[col] = found
    return found


def _runs(col: bytes) -> Runs:
    n = len(col)
    length = 1
    while length < n and BUILD[col[-length - 1] * 64 + col[-length]]:
        length += 1
    return tuple(
        (k, col[:-k], col[-k:], ONTO_FIRST[col[-k]], ONTO_SECOND[col[-k]])
        for k in range(1, length + 1)
    )


def runs_of(col: bytes) -> Runs:
    """For each count n of the column's top cards that could move together: (n, the
    column without them, those cards, the two cards the lowest of them may go onto)."""
    more = column_of(col)[4]
    return _runs(col) if more is None else more


class _CellsWith(dict[bytes, list[bytes | None]]):
    """Free cells' cards (sorted) -> for each card, the same with the card, sorted (the
    canonical form); filled as cards are met."""

    def __missing__(self, cells: bytes) -> list[bytes | None]:
        if len(self) >= COLUMNS_SIZE:
            self.clear()
        found: list[bytes | None] = [None] * 64
        self[cells] = found
        return found


_CELLS_WITH = _CellsWith()
_NO_CELLS: list[bytes | None] = []


def python_children(state: State, wanted: bytes) -> tuple[State, ...] | None:
    """The states one move from ``state``, one per canonical key; None when a move
    uncovers a wanted card (``state`` itself must show none).

    This is the reference; the search calls :data:`children`, which is the
    compiled copy of it where that was built (see there).

    Moves that keep the key (a card from one free cell to another, a whole
    column to an empty one) are left out, and moves to "an empty free cell" or
    "an empty column" are made once, since which one does not change the key.
    Columns sort by their bottom card (cards are all different), so only a move
    that empties a column or fills an empty one needs the order made again.

    The stuck search spends most of its time here, mostly on positions whose
    free cells are full and whose columns have one card to move, so that case
    is the straight path: per column one remembered tuple and two lookups.
    """
    cells = state[8]
    free = 4 - len(cells)
    n_empty = 0
    while n_empty < 8 and not state[n_empty]:
        n_empty += 1
    limit = (free + 1) << n_empty
    cols = list(state)
    # top card -> its column (a list: indexing it is cheaper than a dict's get; the
    # -1 of "no card" finds the unused card code 63)
    where: list[int | None] = [None] * 64
    if n_empty:
        for j in range(n_empty, 8):
            where[cols[j][-1]] = j
    else:  # (unrolled: the common case, and a loop costs more than the stores)
        c0, c1, c2, c3, c4, c5, c6, c7, _ = state
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
            add(tuple(new))
        if b is not None:
            new = cols[:]
            new[b] += one
            new[8] = rest_cells
            add(tuple(new))
        if n_empty:
            new = cols[:8]
            new[0] = one
            new.sort()
            new.append(rest_cells)
            add(tuple(new))
    columns_get = _COLUMNS.get
    # card -> the free cells' cards with it, sorted (the canonical form), made once each
    with_card = _CELLS_WITH[cells] if free else _NO_CELLS
    to_empty = (free + 1) << (n_empty - 1) if n_empty else 0
    for i in range(n_empty, 8):
        col = cols[i]
        first, second, below, top, more = columns_get(col) or column_of(col)
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
                    add(tuple(new))
                if b is not None:
                    new = cols[:]
                    new[i] = below
                    new[b] += top
                    add(tuple(new))
            else:
                for onto in (a, b):
                    if onto is not None:
                        new = cols[:8]
                        new[i] = below
                        new[onto] += top
                        new.sort()
                        new.append(cells)
                        add(tuple(new))
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
                            add(tuple(new))
                else:
                    for onto in (a, b):
                        if onto is not None:
                            new = cols[:8]
                            new[i] = rest
                            new[onto] += moved
                            new.sort()
                            new.append(cells)
                            add(tuple(new))
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
                add(tuple(new))
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
                add(tuple(new))
            else:
                new = cols[:8]
                new[i] = below
                new.sort()
                new.append(into)
                add(tuple(new))
    return tuple(out)


#: what :data:`children` is
Children = Callable[[State, bytes], tuple[State, ...] | None]

#: :func:`python_children` compiled (shared/solver/_freecell_children.c), or None
#: where it was not built: an optional part of the install, made where a C compiler
#: is at hand. It lists the same children in the same order (the tests compare the
#: two), so every search runs the same way with either; it is about six times
#: faster, and listing children is about a third of a random Freecell game's time.
compiled_children: Children | None = None
try:
    from shared.solver import _freecell_children
except ImportError:  # not built here: the Python copy does the same
    pass
else:
    _freecell_children.setup(BUILD)
    compiled_children = _freecell_children.children

#: the children() the search uses: the compiled one where it was built
children: Children = compiled_children or python_children


def use_compiled_children(enabled: bool) -> bool:
    """Make the search list children with the compiled copy (where it was built) or
    with :func:`python_children`; returns whether the compiled one is now in use.

    Both give the same answers, so this changes only the speed: for measuring
    the two (``python -m bench.engine --pure-python``) and for testing the
    search on either.
    """
    global children
    children = compiled_children if enabled and compiled_children is not None else python_children
    return children is not python_children


def search(pos: Position, budget: int) -> tuple[bool | None, Witness]:
    """:func:`search_piles` on a position."""
    return search_piles(pos.piles, budget)


def search_piles(piles: Piles, budget: int) -> tuple[bool | None, Witness]:
    """The search: (True, a witness) when some line puts a card home, (False, ()) when
    none can (R(P) seen whole within ``budget`` positions), (None, ()) when R(P) holds
    more than ``budget`` positions and none of those seen showed a wanted card.

    Best-first: towards the shallowest wanted card and towards room (empty free
    cells, empty columns counting double), newest first among equals so that
    it digs on rather than widens. When progress exists it is usually a few
    positions away; when it does not, positions with room have the most moves,
    which also counts R(P) up to the budget soonest.

    The queue is a list of buckets, one per score, each a stack: the scores
    are small integers, so finding the best is a few steps up from the last
    best, and a stack is newest first among equals at no cost.
    """
    start = _state(piles)
    wanted_cards = _wanted_cards(piles)
    wanted = _table(wanted_cards)
    if shows_wanted(start, wanted):
        return True, ()
    known_line = _PROGRESS.get
    known = known_line(start)
    if known is not None:
        return True, known
    depth_of = _depths(bytes(sorted(wanted_cards))).__getitem__
    edges = _EDGES
    parents: dict[State, State | None] = {start: None}
    # buckets[SCORE_OFFSET + score]: the positions waiting with that score, newest last
    # (and a last one that is never empty: its None means that none is left)
    buckets: list[list[State | None]] = [[] for _ in range(SCORES)]
    buckets.append([None])
    best = SCORE_OFFSET  # no bucket below this one holds a position
    buckets[best].append(start)
    counter = 0  # positions seen but the start
    budget -= 1
    while True:
        while not buckets[best]:
            best += 1
        state = buckets[best].pop()
        if state is None:
            return False, ()
        nexts = edges.get(state, _UNKNOWN)
        if nexts is _UNKNOWN:
            nexts = children(state, wanted)
            if len(edges) >= EDGES_SIZE:
                edges.clear()
            edges[state] = nexts
        if nexts is None:
            return True, _witness(parents, state, (uncovering_move(state, wanted),))
        for child in nexts:
            if child not in parents:
                known = known_line(child)
                if known is not None:
                    parents[child] = state
                    return True, _witness(parents, child, known)
                if counter >= budget:
                    return None, ()
                parents[child] = state
                counter += 1
                # Lower is better: the shallowest wanted card, less the room. (The
                # cells never hold a wanted card: it would have ended the search.)
                # len(cells) - 4 is minus the empty free cells; empty columns (b"")
                # sort first and count double.
                score = SCORE_OFFSET + min(map(depth_of, child[:8])) + len(child[8])
                if not child[0]:
                    score -= 2 * child[:8].count(b"")
                buckets[score].append(child)
                if score < best:
                    best = score


#: scores run from -16 (every free cell and column empty, no wanted card shallower than
#: a top) to 99 + 4 (no wanted card in a column, every free cell full)
SCORE_OFFSET = 16
SCORES = SCORE_OFFSET + 104


class _Depths(dict[bytes, int]):
    """Column -> how many cards lie on its shallowest wanted card (99: none); filled
    as columns are met. One per set of wanted cards (:func:`_depths`), shared by the
    searches that want them, as consecutive positions of a game mostly do."""

    def __init__(self, wanted_cards: bytes) -> None:
        super().__init__()
        #: byte -> 1 for a wanted card, else 0 (for bytes.translate)
        marks = bytearray(256)
        for card in wanted_cards:
            marks[card] = 1
        self.marks = bytes(marks)

    def __missing__(self, col: bytes) -> int:
        # cards are all different: the last wanted card in the column is the shallowest
        at = col.translate(self.marks).rfind(1)
        best = len(col) - 1 - at if at >= 0 else 99
        if len(self) >= DEPTHS_SIZE:
            self.clear()
        self[col] = best
        return best


#: columns remembered per set of wanted cards; sets remembered at most
DEPTHS_SIZE = 50_000
DEPTHS_SETS = 16
_DEPTHS: dict[bytes, _Depths] = {}


def _depths(wanted_cards: bytes) -> _Depths:
    """The shared :class:`_Depths` of these wanted cards."""
    found = _DEPTHS.get(wanted_cards)
    if found is None:
        if len(_DEPTHS) >= DEPTHS_SETS:
            _DEPTHS.clear()
        found = _DEPTHS[wanted_cards] = _Depths(wanted_cards)
    return found


def progress_possible(pos: Position, budget: int) -> bool | None:
    """True when some line puts a card home, False when none can, None when ``budget``
    positions were not enough to tell (see :func:`search`)."""
    return search(pos, budget)[0]


def _witness(parents: dict[State, State | None], end: State, rest: Witness) -> Witness:
    """The line from the search's start to ``end``, then ``rest`` (a line from ``end``
    that uncovers a wanted card). Every position on it leads to progress, so each is
    remembered with the rest of the line from it (:data:`_PROGRESS`)."""
    path = [end]
    moves = []
    parent = parents[end]
    while parent is not None:
        moves.append(move_between(parent, path[-1]))
        path.append(parent)
        parent = parents[parent]
    path.reverse()
    moves.reverse()
    line = (*moves, *rest)
    progress = _PROGRESS
    if len(progress) + len(path) > PROGRESS_SIZE:
        progress.clear()
    for k, state in enumerate(path):
        progress[state] = line[k:]
    return line


def uncovering_move(state: State, wanted: bytes) -> tuple[int, int]:
    """A legal move of ``state`` that uncovers a wanted card (:func:`children` said one exists)."""
    cells = state[8]
    free = 4 - len(cells)
    n_empty = 0
    while n_empty < 8 and not state[n_empty]:
        n_empty += 1
    limit = (free + 1) << n_empty
    to_empty = (free + 1) << (n_empty - 1) if n_empty else 0
    tops = {state[j][-1] for j in range(n_empty, 8)}
    for i in range(n_empty, 8):
        col = state[i]
        for n, rest, moved, _first, _second in runs_of(col):
            if not rest or not wanted[rest[-1]]:
                continue
            card = moved[0]
            for top in tops:
                if n <= limit and BUILD[top * 64 + card]:
                    return (card, top)
            if n <= to_empty:
                return (card, EMPTY)
            if n == 1 and free:
                return (card, CELL)
    raise ValueError("no move uncovers a wanted card")


def move_between(parent: State, child: State) -> tuple[int, int]:
    """The witness move that turns ``parent`` into ``child`` (one move apart).

    Cards are all different, so a non-empty column is its own name: the
    columns that changed are the set differences, and the cards that moved
    keep the source's top card on top.
    """
    before, after = parent[8], child[8]
    if len(after) > len(before):
        return (next(c for c in after if c not in before), CELL)
    gone = set(parent[:8])
    gone.difference_update(child[:8])
    came = set(child[:8])
    came.difference_update(parent[:8])
    came.discard(b"")
    if len(after) < len(before):
        card = next(c for c in before if c not in after)
        for col in came:
            if col[-1] == card:
                return (card, col[-2] if len(col) > 1 else EMPTY)
    for src in gone:
        if not src:
            continue
        for col in came:
            if col[-1] == src[-1]:
                n = 1
                while n < len(col) and n < len(src) and col[-n - 1] == src[-n - 1]:
                    n += 1
                return (src[-n], col[-n - 1] if len(col) > n else EMPTY)
    raise ValueError("the states are not one move apart")


# -- cheap proofs on the engine's own position ---------------------------------


def replay(pos: Position, witness: Witness) -> Witness | None:
    """Play ``witness`` on ``pos`` until it uncovers a wanted card, checking every move
    against the rules; the line actually played, or None.

    The witness may come from an earlier position of the game (the player has
    moved since): each move is looked up by its cards, not by pile, so it
    still applies wherever the moves in between left those cards alone; and
    when the place it went to is gone, the same cards go to another place
    that takes them (a column top, an empty column, a free cell), if any.
    """
    piles = pos.piles
    wanted = wanted_of(pos)
    cols = [piles[t][:] for t in COLUMNS]
    cells = [p[0] for p in piles[:4] if p]
    line = []
    for card, dest in witness:
        free = 4 - len(cells)
        n_empty = 0
        for col in cols:
            if not col:
                n_empty += 1
        if card in cells:
            src = None
            count = 1
        else:
            for src in cols:
                if card in src:
                    break
            else:
                return None
            at = src.index(card)
            count = len(src) - at
            for k in range(at, len(src) - 1):
                if not BUILD[src[k] * 64 + src[k + 1]]:
                    return None
        limit = (free + 1) << n_empty
        target = None
        if dest != CELL and dest != EMPTY and count <= limit:
            for col in cols:
                if col and col[-1] == dest and col is not src:
                    target = col
                    break
        if target is None and not (dest == CELL and count == 1 and free and src is not None):
            # the place is gone (or never was): another that takes the same cards
            for col in cols:
                if col and col is not src and BUILD[col[-1] * 64 + card] and count <= limit:
                    target = col
                    dest = col[-1]
                    break
            else:
                if n_empty and count <= limit >> 1:
                    for col in cols:
                        if not col:
                            target = col
                            dest = EMPTY
                            break
                elif count == 1 and free and src is not None:
                    dest = CELL
                else:
                    return None
        line.append((card, dest))
        if target is None:
            cells.append(card)
            src.pop()  # type: ignore[union-attr]
        elif src is None:
            cells.remove(card)
            target.append(card)
        else:
            target.extend(src[-count:])
            del src[-count:]
        if src and wanted[src[-1]]:
            return tuple(line)
    return None


def dig(pos: Position) -> Witness | None:
    """A witness found greedily: the cards covering a wanted card are taken off, top
    first, each (or a build of several, within the move limit) onto a column top
    that takes it, else into a free cell, else into an empty column; when none
    is left, room is made first (:func:`_make_room`). Every step is a legal move
    (the columns, free cells and empty columns are followed as they change), so
    a line found is a proof; None only means this greedy line failed."""
    piles = pos.piles
    cols = piles[8:16]
    targets = []
    for card in wanted_cards_of(pos):
        for t, col in enumerate(cols):
            if card in col:
                depth = len(col) - 1 - col.index(card)
                if depth:
                    targets.append((depth, t))
                break
    if not targets:
        return None
    targets.sort()
    cells0 = [p[0] for p in piles[:4] if p]
    for depth, t in targets:
        pile = cols[t]
        if depth == 1:
            # The greedy line's first step, without building the room: the last other
            # column whose top takes the card, else a free cell.
            card = pile[-1]
            for u in range(7, -1, -1):
                col = cols[u]
                if col and u != t and BUILD[col[-1] * 64 + card]:
                    return ((card, col[-1]),)
            if len(cells0) < 4:
                return ((card, CELL),)
        room = _Room(cols, t, cells0)
        takers = room.takers
        cells = room.cells
        line = room.line
        bottom = len(pile) - depth  # the wanted card's index
        i = len(pile) - 1  # the top card still covering it
        while i >= bottom:
            card = pile[i]
            # the longest build of covering cards from the top that a column takes whole
            run = 1
            while i - run >= bottom and BUILD[pile[i - run] * 64 + pile[i - run + 1]]:
                run += 1
            n = min(run, (5 - len(cells)) << room.empty)
            while n > 1 and takers[pile[i - n + 1]] is None:
                n -= 1
            base = pile[i - n + 1]
            onto = takers[base]
            if onto is not None:
                line.append((base, room.stacks[onto][-1]))
                room.put(onto, pile[i - n + 1 : i + 1])
                i -= n
                continue
            if len(cells) < 4 or room.make_room():
                if len(cells) < 4:
                    line.append((card, CELL))
                    cells.append(card)
                else:
                    line.append((card, EMPTY))
                    room.fill(card)
            else:
                break
            i -= 1
        else:
            return tuple(line)
    return None


class _Room:
    """The columns (but the one being dug), free cells and empty columns as a greedy
    line changes them, with the moves it makes to find room."""

    def __init__(self, cols: Sequence[list[int]], dug: int, cells: list[int]) -> None:
        #: the columns but the dug one; the position's own lists until changed (see _own)
        self.stacks: dict[int, list[int]] = {u: col for u, col in enumerate(cols) if col}
        del self.stacks[dug]
        self.owned: set[int] = set()
        self.dug = dug
        self.empty = 7 - len(self.stacks)
        self.cells = cells[:]
        self.line: list[tuple[int, int]] = []
        #: card -> a column whose top takes it (the last such column), None: none
        self.takers: list[int | None] = [None] * 64
        for u, stack in self.stacks.items():
            for up in ACCEPTS[stack[-1]]:
                self.takers[up] = u

    def _own(self, u: int) -> list[int]:
        """Column ``u``, copied the first time the line changes it."""
        if u in self.owned:
            return self.stacks[u]
        self.owned.add(u)
        stack = self.stacks[u] = self.stacks[u][:]
        return stack

    def put(self, u: int, cards: Sequence[int]) -> None:
        """``cards`` land on column ``u``."""
        stack = self._own(u)
        self._untake(u, stack[-1])
        stack.extend(cards)
        for up in ACCEPTS[stack[-1]]:
            self.takers[up] = u

    def take(self, u: int, n: int) -> list[int]:
        """The top ``n`` cards leave column ``u``."""
        stack = self._own(u)
        self._untake(u, stack[-1])
        cards = stack[-n:]
        del stack[-n:]
        if stack:
            for up in ACCEPTS[stack[-1]]:
                self.takers[up] = u
        else:
            del self.stacks[u]
            self.empty += 1
        return cards

    def fill(self, card: int) -> None:
        """``card`` goes to an empty column (numbered from 16 up here)."""
        self.empty -= 1
        u = 16 + len(self.line)
        self.stacks[u] = [card]
        self.owned.add(u)
        for up in ACCEPTS[card]:
            self.takers[up] = u

    def _untake(self, u: int, top: int) -> None:
        for up in ACCEPTS[top]:
            if self.takers[up] == u:
                self.takers[up] = None

    def make_room(self) -> bool:
        """With every free cell full: empty a free cell, or a column, by building
        onto column tops (one move, or two when the first uncovers the place
        for a free cell's card). True when a free cell or a column is free.
        (Every free cell being full, only single cards move.)"""
        if self.empty:
            return True
        takers, stacks, line = self.takers, self.stacks, self.line
        for k, card in enumerate(self.cells):
            onto = takers[card]
            if onto is not None:
                line.append((card, stacks[onto][-1]))
                self.put(onto, (card,))
                del self.cells[k]
                return True
        for u, stack in list(stacks.items()):
            top = stack[-1]
            onto = takers[top]
            if onto is None or onto == u:
                continue
            if len(stack) == 1:
                # its only card goes: an empty column
                line.append((top, stacks[onto][-1]))
                self.put(onto, self.take(u, 1))
                return True
            under = stack[-2]
            for k, card in enumerate(self.cells):
                if BUILD[under * 64 + card]:
                    line.append((top, stacks[onto][-1]))
                    self.put(onto, self.take(u, 1))
                    line.append((card, under))
                    self.put(u, (card,))
                    del self.cells[k]
                    return True
        return False
