"""Freecell's proofs of progress: witness lines, the greedy dig, and replaying a witness.

A :data:`Witness` is a line of moves that ends by uncovering a card its
foundation wants, written so that it means the same whichever free cell or
column holds what. The stuck check tries the cheap proofs here before any
search (:meth:`.search.FreecellProgress.cheap_proof`): :func:`dig`, a greedy
line, then :func:`replay` of the line that proved an earlier position. Both
play only moves checked against the rules, so a line they return is a proof
of progress, whatever a search would have seen.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.position import Position
from shared.variants.freecell.boards import (
    COLUMNS,
    State,
    column_runs,
    parts_of,
    wanted_cards_of,
    wanted_of,
)
from shared.variants.freecell.tables import ACCEPTS, BUILD

#: where a witness move goes (see :data:`Witness`): a free cell, an empty column
CELL = 64
EMPTY = 0

#: A line of moves that ends by uncovering a card its foundation wants: each move is
#: (the bottom card of the cards moved, the card they go onto), with :data:`CELL` or
#: :data:`EMPTY` for the card when they go to a free cell or an empty column.
Witness = tuple[tuple[int, int], ...]


def uncovering_move(board: State, wanted: bytes) -> tuple[int, int]:
    """A legal move of ``board`` that uncovers a wanted card (its children said one exists)."""
    state = parts_of(board)
    free = 4 - len(state[8])
    n_empty = next((i for i, col in enumerate(state[:8]) if col), 8)  # they sort first
    limit = (free + 1) << n_empty
    to_empty = (free + 1) << (n_empty - 1) if n_empty else 0
    tops = {state[j][-1] for j in range(n_empty, 8)}
    for i in range(n_empty, 8):
        col = state[i]
        for n, rest, moved, _first, _second in column_runs(col):
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


def move_between(parent_board: State, child_board: State) -> tuple[int, int]:
    """The witness move that turns ``parent_board`` into ``child_board`` (one move apart).

    Cards are all different, so a non-empty column is its own name: the
    columns that changed are the set differences, and the cards that moved
    keep the source's top card on top.
    """
    parent = parts_of(parent_board)
    child = parts_of(child_board)
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
