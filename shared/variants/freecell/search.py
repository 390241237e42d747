"""Freecell's stuck proof: can some line of moves put another card home?

The question, in the terms of docs/rules.md's "stuck": from a position P, let R(P) be the
positions reachable from P by moves that put no card on a foundation, each
counted once up to which free cell or which column holds what (the board of
:mod:`.boards`). P is stuck exactly when no position of R(P) has a card its
foundation wants on a column top or in a free cell, and R(P) holds at most
``budget`` positions; otherwise it is not proven stuck. Only a "stuck"
verdict needs R(P) seen whole, so the order of the search is free, and any
legal line that reaches a wanted card proves "not stuck" as well as the
search would.

Why it is cheaper than the generic search (shared.stuck.generic):

* A position is kept as its canonical board, one ``bytes`` (:mod:`.boards`), so
  the key is the board itself, no key is computed apart, and CPython keeps its
  hash: the dicts of boards hash each board once.
* The foundations never change inside R(P) (a card going home ends the
  search), so they are left out; which cards are wanted is one table per
  search. Autoplay only ever sends a wanted card home, so it cannot happen
  inside R(P) either: the search is the same with and without it.
* A move shows at most one new card (the one it uncovers), so "does this
  child show a wanted card" is one table lookup.
* Listing a board's children, a third of the time, has a compiled copy
  (:data:`.boards.COMPILED_CHILDREN`), used where the install could build it,
  and so has scoring a new board (:data:`.boards.COMPILED_SCORE`).
* The moves out of a board are a function of the board alone (its cards fix
  the foundations and so the wanted cards), so a :class:`FreecellProgress`
  remembers them across its searches (:attr:`FreecellProgress.edges`):
  consecutive positions of a game share most of their reachable boards, and
  a later search walks the remembered edges. So it remembers the boards of
  every line it found, each with the rest of its line
  (:attr:`FreecellProgress.progress`).

What is remembered changes the work, never the verdict: "stuck" is said only
of an R(P) seen whole, in which no remembered line can start.
"""

from __future__ import annotations

from shared.position import Position
from shared.variants.base import Proof, Rules
from shared.variants.freecell.boards import (
    COMPILED_CHILDREN,
    COMPILED_SCORE,
    BoardMoves,
    Children,
    Piles,
    Score,
    State,
    score,
    shows_wanted,
    state_of_piles,
    wanted_cards_of_piles,
    wanted_table,
)
from shared.variants.freecell.witness import Witness, dig, move_between, replay, uncovering_move

#: scores run from -16 (every free cell and column empty, no wanted card shallower than
#: a top) to 99 + 4 (no wanted card in a column, every free cell full)
SCORE_OFFSET = 16
SCORES = SCORE_OFFSET + 104

#: what an edges entry holds before its board is expanded (no board is this)
_UNKNOWN: tuple[State, ...] = (b"unknown",)


class FreecellProgress:
    """Freecell's stuck proof (a :class:`shared.variants.base.ProgressSearch`) and what its
    searches remember: ``boards`` bounds each of its tables (the edges of that many
    boards, about 1 kB each; the lines through as many; two and a half times as many
    columns), ``native`` lets it list children and score boards with the compiled copy
    where built."""

    def __init__(self, *, boards: int = 20_000, native: bool = True) -> None:
        self.size = boards
        #: board -> the boards one move away (no card going home), or None when some move
        #: shows a card its foundation wants; emptied at ``size`` entries
        self.edges: dict[State, tuple[State, ...] | None] = {}
        #: board -> a line from it that uncovers a wanted card: the boards of every line a
        #: search found (a later search that meets one of them is done)
        self.progress: dict[State, Witness] = {}
        self.moves = BoardMoves(boards * 5 // 2)
        #: the children() and score() the searches use: the compiled ones where built and
        #: allowed
        self.children: Children = (
            COMPILED_CHILDREN if native and COMPILED_CHILDREN is not None else self.moves.children
        )
        self.score: Score = COMPILED_SCORE if native and COMPILED_SCORE is not None else score

    @property
    def compiled(self) -> bool:
        """Whether the searches list children with the compiled copy."""
        return self.children is COMPILED_CHILDREN

    # -- the ProgressSearch protocol -----------------------------------------------

    def cheap_proof(self, rules: Rules, pos: Position, hint: Proof | None) -> Proof | None:
        """The greedy :func:`.witness.dig`, else ``hint``'s line replayed (checking every
        move), which the player's moves since it was found may have left playable."""
        witness = dig(pos)
        if witness is None and isinstance(hint, tuple) and hint:
            witness = replay(pos, hint)
        return witness

    def search(self, rules: Rules, pos: Position, budget: int) -> tuple[bool | None, Proof | None]:
        found, witness = self.search_piles(pos.piles, budget)
        return found, witness if found else None

    # -- the search --------------------------------------------------------------------

    def progress_possible(self, pos: Position, budget: int) -> bool | None:
        """True when some line puts a card home, False when none can, None when ``budget``
        positions were not enough to tell (see :meth:`search_piles`)."""
        return self.search_piles(pos.piles, budget)[0]

    def search_piles(self, piles: Piles, budget: int) -> tuple[bool | None, Witness]:
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
        start = state_of_piles(piles)
        wanted_cards = wanted_cards_of_piles(piles)
        wanted = wanted_table(wanted_cards)
        if shows_wanted(start, wanted):
            return True, ()
        known_line = self.progress.get
        known = known_line(start)
        if known is not None:
            return True, known
        cards = bytes(sorted(wanted_cards))
        edges = self.edges
        children = self.children
        score_of = self.score
        size = self.size
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
                if len(edges) >= size:
                    edges.clear()
                edges[state] = nexts
            if nexts is None:
                return True, self._witness(parents, state, (uncovering_move(state, wanted),))
            for child in nexts:
                if child not in parents:
                    known = known_line(child)
                    if known is not None:
                        parents[child] = state
                        return True, self._witness(parents, child, known)
                    if counter >= budget:
                        return None, ()
                    parents[child] = state
                    counter += 1
                    # Lower is better: the shallowest wanted card, less the room (the
                    # full free cells count one each, the empty columns minus two).
                    rank = SCORE_OFFSET + score_of(child, cards)
                    buckets[rank].append(child)
                    if rank < best:
                        best = rank

    def _witness(self, parents: dict[State, State | None], end: State, rest: Witness) -> Witness:
        """The line from the search's start to ``end``, then ``rest`` (a line from ``end``
        that uncovers a wanted card). Every position on it leads to progress, so each is
        remembered with the rest of the line from it (:attr:`progress`)."""
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
        progress = self.progress
        if len(progress) + len(path) > self.size:
            progress.clear()
        for k, state in enumerate(path):
            progress[state] = line[k:]
        return line
