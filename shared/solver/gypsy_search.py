"""Gypsy's own search: the generic best-first search never finishes a Gypsy deal.

That search deals the whole stock early and then wanders among eighty loose
cards. This one works on a compact board and, in a first pass, tries only the
moves that usually help: every foundation move is played alone as soon as it
exists, a card leaves a column only to turn a face-down card, to empty the
column, to join its whole build to a parent, to bare a card a foundation wants,
or (whole builds only) to go to the first empty column; ``deal`` comes after
all of those. The first pass is a portfolio (``best_first.portfolio``) of
best-first searches on four scores taking turns: dealt cards count as breaks
in the columns, so play before a deal is preferred over dealing, and one of
them counts the cards left in the stock as well, so that it does deal
(alone, the others can spend a whole budget rearranging the first layout);
one scores nothing, a depth-first search in move order. Among equal scores
the child of the best-ranked move is tried first.
It leaves moves out, so it proves nothing: only when every search of it runs
out does a second, depth-first pass over every legal move (less
foundation-to-foundation moves, which only swap two foundations' equal
contents) get the budget that is left, and only that pass may say
``unwinnable``.

The board: columns as tuples, each foundation as its top card (0 when empty: a
started foundation holds its suit from the ace up) and the stock as a count of
cards left in the dealt order. Foundations are interchangeable, so the key sorts
them; columns keep their places while the stock lasts (it deals to t0..t7 in
order) and are sorted too once it is empty. The two copies of a card are one int.
"""

from __future__ import annotations

from shared.cards import RANK, RED
from shared.position import Position
from shared.solver import best_first
from shared.solver.gypsy_dead import never_moves
from shared.solver.result import UNKNOWN, UNWINNABLE, WON, Budget, Limits, Result
from shared.solver.result import collector_paused as _collector_paused
from shared.variants.base import DEAL, InternalMove, Rules

CLOCK_EVERY = 256

#: per card code, the two cards (rank + 1, other colour) it may lie on in a build
_PARENTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(s * 16 + (c & 15) + 1 for s in ((0, 3) if (c >> 4) in (1, 2) else (1, 2)))
    if 1 <= (c & 15) <= 12
    else ()
    for c in range(64)
)

#: compact move: (kind, src, count, dst). Kinds: tableau to tableau, tableau to a
#: foundation, foundation to tableau, deal. Piles are column / foundation numbers 0..7.
_TT, _TF, _FT, _DEAL = 0, 1, 2, 3
Compact = tuple[int, int, int, int]
#: (columns, face-down counts, foundation tops, cards left in the stock)
State = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], int]
Key = tuple[object, ...]


class _Board:
    """The mutable compact board with its moves, undo and key."""

    __slots__ = ("cols", "down", "found", "left", "stock")

    def __init__(self, rules: Rules, pos: Position) -> None:
        self.cols: list[tuple[int, ...]] = [tuple(pos.piles[t]) for t in rules.tableau]
        self.down: list[int] = [pos.down[t] for t in rules.tableau]
        self.found: list[int] = []
        for f in rules.foundations:
            pile = pos.piles[f]
            if any(card != pile[0] + i for i, card in enumerate(pile)) or (
                pile and RANK[pile[0]] != 1
            ):
                raise ValueError("a Gypsy foundation holds one suit from the ace up")
            self.found.append(pile[-1] if pile else 0)
        # dealt from the end, as the engine does
        self.stock: tuple[int, ...] = tuple(pos.piles[rules.stock])
        self.left = len(self.stock)

    def key(self) -> Key:
        if self.left:
            return (*self.cols, *self.down, *sorted(self.found), self.left)
        # With the stock gone, nothing tells the columns apart either.
        return (*sorted(zip(self.cols, self.down, strict=True)), *sorted(self.found))

    def won(self) -> bool:
        return sum(RANK[c] for c in self.found if c) == 104

    def home(self, card: int) -> int:
        """Copies of ``card`` on the foundations."""
        suit = card & ~15
        rank = card & 15
        return sum(1 for top in self.found if top and top & ~15 == suit and top & 15 >= rank)

    def safe(self, card: int) -> bool:
        """No line can need ``card`` out of its foundation (docs/solver.md, "Why a safe
        move loses nothing"): both copies of the other colour's cards one rank lower are
        home and, since Gypsy's foundation cards come back into play (one of those could
        come back onto ``card`` and take a card of ``card``'s colour two ranks lower),
        both copies of those are home too, unless they are aces (an ace can always go
        home instead)."""
        rank = card & 15
        if rank <= 2:
            return True
        below = (0, 3) if RED[card] else (1, 2)
        if not all(self.home(s * 16 + rank - 1) >= 2 for s in below):
            return False
        same = (1, 2) if RED[card] else (0, 3)
        return rank == 3 or all(self.home(s * 16 + rank - 2) >= 2 for s in same)

    def foundation_for(self, card: int) -> int:
        """The first foundation, in pile order, that takes ``card``; -1 when none."""
        want = 0 if card & 15 == 1 else card - 1
        found = self.found
        for f in range(8):
            if found[f] == want:
                return f
        return -1

    def moves(self, complete: bool) -> list[Compact]:
        """The moves worth trying, best first, or one foundation move alone: any in the
        first pass, a safe one (as ``GypsyRules.safe_move`` says) in the ``complete``
        pass.

        Productive moves come before ``deal``; in the complete pass the rest (a card
        shifted between equal parents, parts of builds or whole columns into empty
        columns, foundation cards back to the columns) come after it.
        """
        cols = self.cols
        down = self.down
        found = self.found
        tops: dict[int, list[int]] = {}
        empty: list[int] = []
        for t in range(8):
            col = cols[t]
            if col:
                tops.setdefault(col[-1], []).append(t)
            else:
                empty.append(t)
        wanted = {c + 1 for c in found if c and c & 15 < 13}
        ace_room = 0 in found
        scored: list[tuple[int, int, Compact]] = []
        late: list[Compact] = []
        order = 0
        runs = [0] * 8
        for s in range(8):
            col = cols[s]
            up = len(col) - down[s]
            if up <= 0:
                continue
            run = 1
            while run < up:
                lower = col[-run - 1]
                upper = col[-run]
                if lower & 15 != (upper & 15) + 1 or RED[lower] == RED[upper]:
                    break
                run += 1
            runs[s] = run
        for s in range(8):
            col = cols[s]
            n_col = len(col)
            up = n_col - down[s]
            if up <= 0:
                continue
            top = col[-1]
            if top in wanted or (ace_room and top & 15 == 1):
                f = self.foundation_for(top)
                if not complete or self.safe(top):
                    return [(_TF, s, 1, f)]
                scored.append((9, order, (_TF, s, 1, f)))
                order += 1
            run = runs[s]
            for n in range(1, run + 1):
                card = col[-n]
                rest = n_col - n
                flips = rest > 0 and rest == down[s]
                if flips:
                    value = 8
                elif rest == 0:
                    value = 7
                elif n == run:
                    value = 6
                elif col[-n - 1] in wanted:
                    value = 5
                elif complete:
                    value = 0
                else:
                    continue
                for p in _PARENTS[card]:
                    for t in tops.get(p, ()):
                        if t == s:
                            continue
                        move = (_TT, s, n, t)
                        if value:
                            scored.append((value, order, move))
                        else:
                            late.append(move)
                        order += 1
                if not empty or rest == 0:
                    if rest == 0 and complete:
                        late.extend((_TT, s, n, t) for t in empty)
                    continue
                if n == run:
                    targets = empty if complete else empty[:1]
                    for t in targets:
                        scored.append((4 if flips else 2, order, (_TT, s, n, t)))
                        order += 1
                elif complete:
                    late.extend((_TT, s, n, t) for t in empty)
        if complete:
            for f in range(8):
                card = found[f]
                if not card:
                    continue
                for p in _PARENTS[card]:
                    for t in tops.get(p, ()):
                        late.append((_FT, f, 1, t))
                late.extend((_FT, f, 1, t) for t in empty)
        scored.sort(key=lambda item: (-item[0], item[1]))
        result = [item[2] for item in scored]
        if self.left:
            result.append((_DEAL, 0, 0, 0))
        result.extend(late)
        return result

    def state(self) -> State:
        return (tuple(self.cols), tuple(self.down), tuple(self.found), self.left)

    def restore(self, state: State) -> None:
        self.cols[:] = state[0]
        self.down[:] = state[1]
        self.found[:] = state[2]
        self.left = state[3]

    def play(self, move: Compact) -> None:
        kind, src, count, dst = move
        cols = self.cols
        if kind == _TT:
            col = cols[src]
            cols[dst] = cols[dst] + col[-count:]
            rest = col[:-count]
            cols[src] = rest
            if self.down[src] >= len(rest) > 0:
                self.down[src] = len(rest) - 1
        elif kind == _TF:
            col = cols[src]
            self.found[dst] = col[-1]
            rest = col[:-1]
            cols[src] = rest
            if self.down[src] >= len(rest) > 0:
                self.down[src] = len(rest) - 1
        elif kind == _FT:
            card = self.found[src]
            cols[dst] = cols[dst] + (card,)
            self.found[src] = 0 if card & 15 == 1 else card - 1
        else:
            stock = self.stock
            for t in range(8):
                if not self.left:
                    break
                self.left -= 1
                cols[t] = cols[t] + (stock[self.left],)


def _engine_move(rules: Rules, move: Compact) -> InternalMove:
    kind, src, count, dst = move
    tab = rules.tableau
    fnd = rules.foundations
    if kind == _TT:
        return (tab[src], count, tab[dst])
    if kind == _TF:
        return (tab[src], 1, fnd[dst])
    if kind == _FT:
        return (fnd[src], 1, tab[dst])
    return DEAL


def _state_key(state: State) -> Key:
    """:meth:`_Board.key` of ``state`` (without restoring a board)."""
    cols, down, found, left = state
    if left:
        return (*cols, *down, *sorted(found), left)
    return (*sorted(zip(cols, down, strict=True)), *sorted(found))


def _state_won(state: State) -> bool:
    return sum(c & 15 for c in state[2] if c) == 104


def _breaks(col: tuple[int, ...], d: int) -> int:
    breaks = 0
    for i in range(d + 1, len(col)):
        lower = col[i - 1]
        upper = col[i]
        if lower & 15 != (upper & 15) + 1 or RED[lower] == RED[upper]:
            breaks += 1
    return breaks


def _score_builds(state: State) -> int:
    """:meth:`_Board.score`: cards out, face-down cards, breaks, cards on face-down ones."""
    cols, down, found, _ = state
    out = 104 - sum(c & 15 for c in found)
    breaks = 0
    cover = 0
    for col, d in zip(cols, down, strict=True):
        if d:
            cover += len(col) - d
        breaks += _breaks(col, d)
    return out + 3 * sum(down) + breaks + 2 * cover


def _score_blocked(state: State) -> int:
    """Cards out (heavily), face-down cards, and each card lying above a lower card of
    its suit in a column: it has to move before that card can go home."""
    cols, down, found, _ = state
    out = 104 - sum(c & 15 for c in found)
    blocked = 0
    for col in cols:
        lows = [99, 99, 99, 99]
        for card in col:
            suit = card >> 4
            rank = card & 15
            if rank > lows[suit]:
                blocked += 1
            elif rank < lows[suit]:
                lows[suit] = rank
    return 3 * out + 3 * sum(down) + 2 * blocked


def _score_none(state: State) -> int:
    """0: with every position scored alike the best-first loop (newest first) is a depth-first
    search in move order, which dives to a win where a score's plateaus hold it back (deal
    100385, undecided at 10 s of CPU with the three scores alone, is won by this search
    alone in 3,153 positions)."""
    return 0


def _score_dealing(state: State) -> int:
    """:func:`_score_builds` with 2 per card left in the stock: dealing counts as progress.
    Without it the search never deals on some deals (each deal adds breaks and covered
    cards) and spends its whole budget rearranging the first layout (deals 24, 30, 35, 37:
    100,000 positions, not one deal made)."""
    return _score_builds(state) + 2 * state[3]


#: the scores of the first pass's searches, which take turns (``best_first.portfolio``);
#: the first one's lead is the hint's
SCORES = (_score_dealing, _score_none, _score_builds, _score_blocked)


def _first_pass(rules: Rules, board: _Board, limits: Limits) -> tuple[str, list[InternalMove], int]:
    """The first pass: best-first searches over the pruned moves, one per score in
    :data:`SCORES`, taking turns. (WON, the line), (UNWINNABLE, []) when every search ran
    out of the pruned space (no proof), or (UNKNOWN, the first search's lead)."""

    def children(state: State) -> list[tuple[State, tuple[InternalMove, ...]]]:
        # Worst move first: the best-first loop takes the newest of equal scores, so the
        # child of the move :meth:`_Board.moves` ranks best is the one tried first among
        # equals. (In the order of the list, the worst one was: ``deal`` before a flip.
        # Deal 100003, undecided at 480,000 positions that way, is won in 14,496.)
        out: list[tuple[State, tuple[InternalMove, ...]]] = []
        for move in reversed(_moves_from(board, state, False)):
            board.play(move)
            out.append((board.state(), (_engine_move(rules, move),)))
            board.restore(state)
        return out

    return best_first.portfolio(
        board.state(), [], children, _state_key, _state_won, SCORES, limits, complete=False
    )


def _moves_from(board: _Board, state: State, complete: bool) -> list[Compact]:
    board.restore(state)
    return board.moves(complete)


def _depth_first(board: _Board, limits: Limits, seen: set[Key]) -> tuple[str, list[Compact]]:
    """The complete pass: depth first over every legal move (less foundation-to-foundation
    moves, which only swap equal foundations). (UNWINNABLE, []) means exhausted."""
    seen.add(board.key())
    line: list[Compact] = []
    states: list[State] = []
    start_dead = not board.left and never_moves(board.cols, board.down, board.found)
    stack: list[list[Compact]] = [[] if start_dead else board.moves(True)[::-1]]
    counter = 0
    while stack:
        todo = stack[-1]
        if not todo:
            stack.pop()
            if line:
                line.pop()
                board.restore(states.pop())
            continue
        move = todo.pop()
        before = board.state()
        board.play(move)
        key = board.key()
        if key in seen:
            board.restore(before)
            continue
        line.append(move)
        if board.won():
            return WON, line
        if len(seen) >= limits.positions:
            return UNKNOWN, []
        seen.add(key)
        counter += 1
        if not counter % CLOCK_EVERY and limits.out_of_time():
            return UNKNOWN, []
        states.append(before)
        # a dead end game is kept as seen and never expanded: still a proof when all is seen
        dead = not board.left and never_moves(board.cols, board.down, board.found)
        stack.append([] if dead else board.moves(True)[::-1])
    return UNWINNABLE, []


def solve_gypsy(rules: Rules, pos: Position, budget: Budget) -> Result:
    """Solve the Gypsy position ``pos`` (left as it was) within ``budget``, with Python's
    cyclic collector paused (``collector_paused``: it took about 30% of the CPU)."""
    with _collector_paused():
        return _solve(rules, pos, budget)


def _solve(rules: Rules, pos: Position, budget: Budget) -> Result:
    limits = budget.limits()
    board = _Board(rules, pos)
    if board.won():
        return Result(WON, (), 1, limits.elapsed())
    if not board.left and never_moves(board.cols, board.down, board.found):
        # an end game in which some card never moves (``gypsy_dead``): lost, no search
        return Result(UNWINNABLE, (), 1, limits.elapsed())
    verdict, moves, searched = _first_pass(rules, board, limits)
    if verdict == UNWINNABLE:
        # The first pass proves nothing; the complete pass gets what budget is left.
        limits.positions = max(limits.positions - searched, 1)
        seen: set[Key] = set()
        verdict, line = _depth_first(_Board(rules, pos), limits, seen)
        searched += len(seen)
        moves = [_engine_move(rules, m) for m in line]
    names = tuple(rules.move_name(m) for m in moves)
    if verdict == UNKNOWN:
        return Result(verdict, (), searched, limits.elapsed(), lead=names)
    return Result(verdict, names, searched, limits.elapsed())


__all__ = ["solve_gypsy"]
