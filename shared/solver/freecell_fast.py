"""Freecell in a compact form the solver can search quickly.

A board is a tuple of 16 ``bytes``, one per pile in the engine's pile order
(r0..r3, f0..f3, t0..t7), bottom to top, so that a move copies two short byte
strings instead of sixteen lists. Moves are the engine's internal moves and
:func:`autoplay` is the engine's ``after_move``, card for card: the tests play
random games on both and compare every position and every legal-move list. The
engine's rules stay the only rules; this is the same rules, cheaper.
"""

from __future__ import annotations

from shared.position import Position
from shared.variants.base import InternalMove
from shared.variants.freecell.tables import ACCEPTS, BUILD, MOVES, is_safe

Board = tuple[bytes, ...]

CELLS = (0, 1, 2, 3)
FOUNDATIONS = (4, 5, 6, 7)
COLUMNS = (8, 9, 10, 11, 12, 13, 14, 15)
AUTO_SOURCES = CELLS + COLUMNS


def move_of(src: int, count: int, dst: int) -> InternalMove:
    """The move (src, count, dst) as one tuple made at import (the engine's own), so that
    stored paths cost no new objects."""
    return MOVES[src][count][dst]


def from_position(pos: Position) -> Board:
    return tuple(bytes(p) for p in pos.piles)


def to_position(board: Board) -> Position:
    return Position([list(p) for p in board], [0] * len(board))


def run_length(col: bytes) -> int:
    """Cards at the top of ``col`` forming one build (0 for an empty column)."""
    n = len(col)
    if not n:
        return 0
    length = 1
    while length < n and BUILD[col[-length - 1] * 64 + col[-length]]:
        length += 1
    return length


def highest(board: Board) -> list[int]:
    """Top rank on the foundations per suit."""
    high = [0, 0, 0, 0]
    for f in FOUNDATIONS:
        pile = board[f]
        if pile:
            top = pile[-1]
            high[top >> 4] = top & 15
    return high


def play(board: Board, move: InternalMove, auto: bool, full: bool) -> Board:
    """``move`` then the engine's autoplay; ``full`` when the parent may not be settled.

    After a move that is not to a foundation, on a settled board only the card the
    move uncovered can have become playable (when it is the next card of its suit's
    foundation), which saves most autoplay scans.
    """
    src, count, dst = move
    piles = list(board)
    pile = board[src]
    piles[dst] = board[dst] + pile[-count:]
    rest = pile[:-count]
    piles[src] = rest
    child = tuple(piles)
    if not auto:
        return child
    if full or 3 < dst < 8:
        return autoplay(child)
    if rest:
        card = rest[-1]
        if card & 15 == 1 or _next_home(child, card):
            return autoplay(child)
    return child


def _next_home(board: Board, card: int) -> bool:
    """Is ``card`` (not an ace) the next card of its suit's foundation?"""
    below = _ONE_CARD[card - 1]
    return (
        board[4][-1:] == below
        or board[5][-1:] == below
        or board[6][-1:] == below
        or board[7][-1:] == below
    )


#: _ONE_CARD[card]: ``bytes((card,))``, made once
_ONE_CARD: tuple[bytes, ...] = tuple(bytes((c,)) for c in range(64))


def foundation_total(board: Board) -> int:
    return len(board[4]) + len(board[5]) + len(board[6]) + len(board[7])


def foundation_for(board: Board, card: int) -> int:
    """The first foundation, in pile order, that takes ``card``, or -1."""
    rank = card & 15
    for f in FOUNDATIONS:
        pile = board[f]
        if pile:
            top = pile[-1]
            if top + 1 == card and rank != 1:
                return f
        elif rank == 1:
            return f
    return -1


def autoplay(board: Board) -> Board:
    """The engine's safe autoplay (Freecell ``after_move``), same scan order, same result."""
    while True:
        high = highest(board)
        for src in AUTO_SOURCES:
            pile = board[src]
            if not pile:
                continue
            card = pile[-1]
            if (card & 15) != high[card >> 4] + 1 or not is_safe(card, high):
                continue
            f = foundation_for(board, card)
            if f < 0:
                continue
            piles = list(board)
            piles[f] = board[f] + pile[-1:]
            piles[src] = pile[:-1]
            board = tuple(piles)
            break
        else:
            return board


def apply(board: Board, move: InternalMove) -> Board:
    """Play a legal move (unchecked), without the automatic moves."""
    src, count, dst = move
    piles = list(board)
    pile = board[src]
    piles[dst] = board[dst] + pile[-count:]
    piles[src] = pile[:-count]
    return tuple(piles)


def legal(board: Board) -> list[InternalMove]:
    """Every legal move, as the engine's ``FreecellRules.legal`` lists them (same set)."""
    empty_cells = [c for c in CELLS if not board[c]]
    n_empty = sum(1 for t in COLUMNS if not board[t])
    limit = (len(empty_cells) + 1) << n_empty
    limit_to_empty = (len(empty_cells) + 1) << (n_empty - 1) if n_empty else 0
    moves: list[InternalMove] = []
    for src in CELLS + COLUMNS:
        pile = board[src]
        if not pile:
            continue
        card = pile[-1]
        for e in empty_cells:
            moves.append(move_of(src, 1, e))
        f = foundation_for(board, card)
        if f >= 0:
            moves.append(move_of(src, 1, f))
            if card & 15 == 1:
                moves.extend(move_of(src, 1, g) for g in FOUNDATIONS if g > f and not board[g])
        run = 1 if src < 4 else run_length(pile)
        rank = card & 15
        for t in COLUMNS:
            if t == src:
                continue
            tp = board[t]
            if tp:
                under = tp[-1]
                n = (under & 15) - rank
                if 1 <= n <= run and n <= limit and BUILD[under * 64 + pile[-n]]:
                    moves.append(move_of(src, n, t))
            else:
                for n in range(1, min(run, limit_to_empty if src >= 4 else 1) + 1):
                    moves.append(move_of(src, n, t))
    return moves


def key(board: Board) -> bytes:
    """Equal for boards that differ only by which free cell or column holds what.

    Foundations are left out: they hold exactly the cards missing elsewhere.
    """
    cells = bytes(sorted(board[0] + board[1] + board[2] + board[3]))
    return cells + b"\0" + b"\0".join(sorted(board[8:16]))


__all__ = [
    "ACCEPTS",
    "BUILD",
    "CELLS",
    "COLUMNS",
    "FOUNDATIONS",
    "Board",
    "apply",
    "autoplay",
    "foundation_for",
    "foundation_total",
    "from_position",
    "highest",
    "key",
    "legal",
    "move_of",
    "run_length",
    "to_position",
]
