"""Freecell's candidate moves for the solver: one move per class of moves with one result.

The portfolio's searches (:mod:`shared.solver.freecell_portfolio`) expand
these rather than every legal move: a move to a second empty cell or column,
or a whole column onto an empty one, gives a board with the key of a move
kept here, so nothing is lost; with autoplay off, a foundation move Horne's
rule makes safe is the only candidate.
"""

from __future__ import annotations

from shared.solver.freecell_fast import ACCEPTS, BUILD, CELLS, COLUMNS, FOUNDATIONS, Board
from shared.variants.base import InternalMove

#: the four aces' codes
ACES = (1, 17, 33, 49)

#: entries a per-column cache may hold before it is emptied (bounds memory)
CACHE_SIZE = 200_000


def run_of(col: bytes, runs: dict[bytes, int]) -> int:
    """Cards at the top of the (non-empty) column ``col`` forming one build, remembered in
    ``runs`` (column -> build length: one table per solve, emptied at CACHE_SIZE)."""
    run = runs.get(col)
    if run is None:
        n = len(col)
        run = 1
        while run < n and BUILD[col[-run - 1] * 64 + col[-run]]:
            run += 1
        if len(runs) >= CACHE_SIZE:
            runs.clear()
        runs[col] = run
    return run


def candidates(
    board: Board, forced_safe: bool, complete: bool = True, runs: dict[bytes, int] | None = None
) -> list[InternalMove]:
    """Legal moves, one per class of equivalent ones (a move to a second empty cell or
    column, or a whole column onto an empty one, gives a board with the key of a move
    kept here, so nothing is lost).

    Foundation moves first, then builds onto columns, then moves to the first
    empty column and the first empty cell; when ``forced_safe`` (no autoplay), a
    foundation move Horne's rule makes safe is returned alone. Not ``complete``:
    a card lying on the card it builds on is never put in a free cell (it rarely
    helps, and it is most of the branching; a search without it proves nothing).
    ``runs``: the build lengths the caller's search remembers (see :func:`run_of`).
    """
    if runs is None:
        runs = {}
    empty_cell = -1
    n_cells = 0
    for c in CELLS:
        if not board[c]:
            n_cells += 1
            if empty_cell < 0:
                empty_cell = c
    empty_col = -1
    n_empty = 0
    takers: dict[int, list[int]] = {}
    for t in COLUMNS:
        tp = board[t]
        if tp:
            for card in ACCEPTS[tp[-1]]:
                found = takers.get(card)
                if found is None:
                    takers[card] = [t]
                else:
                    found.append(t)
        else:
            n_empty += 1
            if empty_col < 0:
                empty_col = t
    limit = (n_cells + 1) << n_empty
    limit_to_empty = (n_cells + 1) << (n_empty - 1) if n_empty else 0
    homes: dict[int, int] = {}
    first_empty = -1
    high = [0, 0, 0, 0]
    for f in FOUNDATIONS:
        fp = board[f]
        if fp:
            top = fp[-1]
            homes[top + 1] = f
            high[top >> 4] = top & 15
        elif first_empty < 0:
            first_empty = f
    if first_empty >= 0:
        for ace in ACES:
            homes[ace] = first_empty
    home: list[InternalMove] = []
    builds: list[InternalMove] = []
    others: list[InternalMove] = []
    # The free cells and the columns in two loops, not one with tests of which it is:
    # this is most of the solver's time, and the tests cost a twentieth of it.
    for src in CELLS:
        pile = board[src]
        if not pile:
            continue
        card = pile[-1]
        f = homes.get(card, -1)
        if f >= 0:
            if forced_safe and _horne_safe(card, high):
                return [(src, 1, f)]
            home.append((src, 1, f))
        targets = takers.get(card)
        if targets:
            for t in targets:
                builds.append((src, 1, t))
        if empty_col >= 0:
            others.append((src, 1, empty_col))
    for src in COLUMNS:
        pile = board[src]
        if not pile:
            continue
        card = pile[-1]
        f = homes.get(card, -1)
        if f >= 0:
            if forced_safe and _horne_safe(card, high):
                return [(src, 1, f)]
            home.append((src, 1, f))
        run = run_of(pile, runs)
        if run == 1:
            targets = takers.get(card)
            if targets:
                for t in targets:
                    builds.append((src, 1, t))
        else:
            for n in range(1, min(run, limit) + 1):
                targets = takers.get(pile[-n])
                if targets:
                    for t in targets:
                        builds.append((src, n, t))
        if empty_col >= 0:
            top = min(run, limit_to_empty)
            if top == len(pile):
                top -= 1
            for n in range(top, 0, -1):
                others.append((src, n, empty_col))
        if empty_cell >= 0 and (complete or run == 1):
            others.append((src, 1, empty_cell))
    if home:
        home += builds
        home += others
        return home
    builds += others
    return builds


def _horne_safe(card: int, high: list[int]) -> bool:
    """No card still out can need ``card`` to build on: aces and twos, or both cards of
    the other colour one rank lower are home."""
    rank = card & 15
    if rank <= 2:
        return True
    if card >> 4 in (1, 2):
        return high[0] >= rank - 1 and high[3] >= rank - 1
    return high[1] >= rank - 1 and high[2] >= rank - 1
