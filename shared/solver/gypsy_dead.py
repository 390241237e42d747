"""A Gypsy end game (the stock empty) in which some card can never move: lost.

Gypsy's search spent most of a deal it did not decide in end games that were lost
(docs/solver.md, "Gypsy's undecided deals"), each one searched to its last position.
This test throws out many of them at their first position, for the price of a few
positions' worth of work.

It is a relaxation of the rules, worked out as a fixed point: the set of cards that
*might* ever move, grown from nothing by three rules, each a necessary condition of a
real move, so the set holds every card that moves in any line of play (the argument is
in docs/solver.md, "Dead end games"). A card of a column moves for the first time

- only when every card above it in its column has moved before, or moves with it in one
  build (face-down cards have no build above them: they turn up as the top card);
- onto a foundation only when a card of its suit one rank lower may be home (home from
  the start, or a card that may move whose own predecessor may be home; aces always);
- onto a column only when one of its parents (one rank higher, the other colour) may be
  the top card of a column (home from the start, a card that may move, or a card all of
  whose cover may move), or when a column may be empty (every card of it may move).

When the fixed point leaves a card of a column out, that card never moves, so it never
goes home: the position is lost. With cards in the stock the test says nothing (a
deal puts a card on every column, in an order play before it can change).
"""

from __future__ import annotations

from shared.cards import RED

#: per card code, the two cards (rank + 1, other colour) it may lie on in a build
_PARENTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(s * 16 + (c & 15) + 1 for s in ((0, 3) if (c >> 4) in (1, 2) else (1, 2)))
    if 1 <= (c & 15) <= 12
    else ()
    for c in range(64)
)


def never_moves(
    cols: tuple[tuple[int, ...], ...] | list[tuple[int, ...]],
    down: tuple[int, ...] | list[int],
    found: tuple[int, ...] | list[int],
) -> bool:
    """True when some card of a column can never move, by the relaxation above: the end
    game is lost. ``found`` holds each foundation's top card (0 when empty).

    "May be home" grows as the cards that may move do, at once: a card found to move
    whose predecessor may be home, and then the cards above it in its suit that may move,
    in a chain (the fixed point of the rule, reached without sweeping the columns again
    for it: that sweep was most of the test's cost, and the test most of an end game's
    search)."""
    home = [False] * 64
    top = [False] * 64
    moving = [False] * 64
    for f in found:
        if f:
            base = f & ~15
            for r in range(1, (f & 15) + 1):
                home[base + r] = True
                top[base + r] = True
    n_cols = len(cols)
    # cards of each column that may move: all above ``reach[t]`` (the top ones)
    reach = [len(col) for col in cols]
    empty = 0 in reach
    changed = True
    while changed:
        changed = False
        for t in range(n_cols):
            col = cols[t]
            e = reach[t]
            if e == 0:
                continue
            exposed = col[e - 1]
            if not top[exposed]:
                top[exposed] = True
                changed = True
            # the card bared, then each card under it that the build continues to
            low = e
            i = e - 1
            d = down[t]
            while True:
                card = col[i]
                rank = card & 15
                moves = empty or rank == 1 or home[card - 1]
                if not moves:
                    for p in _PARENTS[card]:
                        if top[p]:
                            moves = True
                            break
                if moves:
                    low = i
                if i <= d or i == 0:
                    break
                lower = col[i - 1]
                if lower & 15 != rank + 1 or RED[lower] == RED[card]:
                    break
                i -= 1
            if low < e:
                for j in range(low, e):
                    card = col[j]
                    top[card] = True
                    moving[card] = True
                    if not home[card] and (card & 15 == 1 or home[card - 1]):
                        _home_from(card, home, top, moving)
                reach[t] = low
                changed = True
                if low == 0:
                    empty = True
    return any(reach)


def _home_from(card: int, home: list[bool], top: list[bool], moving: list[bool]) -> None:
    """Mark ``card`` (one that may move, whose predecessor may be home) home, and after it
    each next card of its suit that may move: each one's predecessor is now home. (A king's
    next code is no card, and never moves.)"""
    while True:
        home[card] = True
        top[card] = True
        card += 1
        if not moving[card] or home[card]:
            return


__all__ = ["never_moves"]
