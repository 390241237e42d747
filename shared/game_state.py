"""What a game knows of its current position: the state, the legal moves, the stuck question.

:class:`GameState` is the half of :class:`shared.game.Game` that derives, once
per ply, whatever the position implies: won, stuck or playing, and the legal
moves with their names. The state is cheap to know after almost every action
(proofs tried cheapest first, see :meth:`GameState._derive`); the rest need
the variant's bounded stuck search, which can be handed out as data
(:meth:`GameState.stuck_question`) and its verdict taken back
(:meth:`GameState.answer_stuck`).

The state is shown to the player, so everything that decides it looks only at
what the player sees: the legal moves (face-up cards and counts), whether one
sends a card home, the cheap proofs run on the blind position (each unseen
card blanked, :func:`shared.player_view.blind`), and the search's question is
the player's view (:class:`shared.stuck.StuckQuestion`). Positions that look
the same to the player are shown the same state.
"""

from __future__ import annotations

from shared.player_view import blind
from shared.position import Position
from shared.states import PLAYING, RESIGNED, STUCK, WON
from shared.stuck import Proof, StuckProver, StuckQuestion, question_for
from shared.stuck.unseen import HomeCards, turn_proof
from shared.variants.base import InternalMove, ProgressSearch, Rules

#: a position for undo (piles, down, redeals_used) with its legal moves, and their names
#: when they had been written (None if not)
Snapshot = tuple[list[list[int]], list[int], int, list[InternalMove], list[str] | None]


class GameState:
    """The state half of :class:`shared.game.Game` (see the module docstring)."""

    rules: Rules
    position: Position
    actions: list[str]
    resigned: bool
    prover: StuckProver
    _progress: ProgressSearch
    _history: list[Snapshot]

    def _start_deriving(self) -> None:
        #: the ply whose state and legal moves are known
        self._cache_ply = -1
        #: the ply whose cheap derivation is done (see _derive); its open question, if any
        self._derived_ply = -1
        self._question: StuckQuestion | None = None
        self._pending_legal: list[InternalMove] = []
        self._legal: list[InternalMove] = []
        #: which cards the foundations take, per foundation state (turn_proof's)
        self._home: HomeCards | None = None
        #: the last proof of progress found (see StuckProver.cheap_proof), tried first next time
        self._proof: Proof | None = None
        self._state = PLAYING
        # What the stuck check may reuse from the last action (see _can_return):
        self._last_move: InternalMove | None = None
        #: automatic moves (Freecell's autoplay) that followed the last move
        self._last_automatic = 0
        #: the names of the legal moves, for the ply they were written for
        self._names: list[str] = []
        self._names_ply = -1
        #: what the variant's move generator remembers for this game (legal_and_progress)
        self._legal_memo: dict[object, object] = {}
        #: the snapshot of the position now on the board, when play had gone on from this
        #: very position: after an undo, or a move that took back the move before it (see
        #: play). It was playing then, with the moves (and names) the snapshot kept.
        self._known: Snapshot | None = None

    @property
    def state(self) -> str:
        """``playing``, ``won``, ``stuck`` or ``resigned``."""
        self._refresh()
        return self._state

    def legal_moves(self) -> list[str]:
        """Every legal move now, in canonical notation; none once the game has ended or is stuck."""
        return self._legal_names()[:]

    def _legal_names(self) -> list[str]:
        """:meth:`legal_moves`, the cached list itself (not to be changed)."""
        if self._cache_ply != len(self.actions):  # (what _derive checks first, inline)
            question = self._derive()  # (_refresh written out: the engine's every step)
            if question is not None:
                self._answer(question)
        if self._names_ply != self._cache_ply:
            self._names = self.rules.move_names(self._legal)
            self._names_ply = self._cache_ply
        return self._names

    def _refresh(self) -> None:
        question = self._derive()
        if question is not None:
            self._answer(question)

    def _answer(self, question: StuckQuestion) -> None:
        """Run the bounded stuck search :meth:`_derive` left open and take its verdict."""
        stuck, proof = self.prover.solve(question, self.rules)
        if proof is not None:
            self._proof = proof
        self._settle(stuck)

    def _derive(self) -> StuckQuestion | None:
        """Derive the state and legal moves, all but the bounded stuck search.

        Returns None when the state is known (cheap proofs, or a remembered
        verdict), else the question the search must answer; either way the
        work is cached for this ply, so asking again costs nothing.
        """
        ply = len(self.actions)
        if self._cache_ply == ply:
            return None
        if self._derived_ply == ply:
            return self._question
        self._derived_ply = ply
        self._question = None
        rules = self.rules
        pos = self.position
        if self.resigned:
            self._set(RESIGNED, [])
            return None
        known = self._known
        if known is not None:
            # Undo, or a move taking back the one before it, brought back a position that
            # play went on from: it was playing then, with the legal moves its snapshot
            # kept (and their names, if written), and the state is a function of it.
            self._set(PLAYING, known[3])
            names = known[4]
            if names is not None:
                self._names = names
                self._names_ply = ply
            return None
        # Won means every card on the foundations, so a move that sent no card there, with
        # nothing automatic after it, has not won: it was played from a position that was
        # playing, and the foundations gained no card. (After a deal, auto, or at the
        # start, _last_move is None: those are looked at.)
        move = self._last_move
        may_be_won = move is None or self._last_automatic or rules.is_foundation[move[2]]
        if may_be_won and rules.is_won(pos):
            self._set(WON, [])
            return None
        legal, homeward = rules.legal_and_progress(pos, self._legal_memo)
        if not legal:
            self._set(STUCK, [])
            return None
        # Cheapest first: where a move's inverse is known to restore the board
        # (plain piles), seeing that it is legal costs next to nothing.
        plain = rules.plain
        if homeward or (plain and self._can_return(legal)):
            # (_set written out: most steps end here)
            self._cache_ply = ply
            self._state = PLAYING
            self._legal = legal
            return None
        # The cheap proof looks only at what the player sees (the unseen cards blanked):
        # a proof that read a face-down card would make the state tell of it.
        seen = pos if plain else blind(rules, pos)
        if seen is not pos:
            if self._home is None:
                self._home = HomeCards(rules)
            if turn_proof(rules, seen, legal, self._home):
                self._set(PLAYING, legal)
                return None
        proof = self._progress.cheap_proof(rules, seen, self._proof)
        if proof is not None:
            self._proof = proof
            self._set(PLAYING, legal)
            return None
        if not plain and self._can_return(legal):
            self._set(PLAYING, legal)
            return None
        question = question_for(rules, pos)
        self._pending_legal = legal
        verdict = self.prover.remembered(question)
        if verdict is not None:
            self._settle(verdict)
            return None
        self._question = question
        return question

    def _settle(self, stuck: bool) -> None:
        """Take the search's verdict for the position :meth:`_derive` left open."""
        legal = self._pending_legal
        self._pending_legal = []
        self._question = None
        if stuck:
            self._set(STUCK, [])
        else:
            self._set(PLAYING, legal)

    # -- the stuck search, handed out ----------------------------------------

    def stuck_question(self) -> StuckQuestion | None:
        """The bounded stuck search the current state still needs, or None.

        None when the state is known without it: a cheap proof answered, the
        game has ended, or the verdict is remembered. Otherwise a small,
        frozen, picklable :class:`~shared.stuck.StuckQuestion`: answer it with
        a :class:`~shared.stuck.StuckProver` (in a worker process, say) and hand
        the verdict to :meth:`answer_stuck`; until then :meth:`view`,
        :attr:`state`, :meth:`legal_moves` and :meth:`play` would run the
        search themselves. The cheap work done here is kept for them.
        """
        return self._derive()

    def answer_stuck(self, question: StuckQuestion, verdict: bool) -> bool:
        """Take ``verdict`` (from :meth:`StuckProver.answer`; True: stuck) for ``question``.

        Returns True when it settled the state. A question about another
        position (an older ply, another game) or one the game no longer
        waits for is ignored and False returned: the game is unchanged.
        """
        if not isinstance(verdict, bool):
            raise TypeError(f"a stuck verdict is a bool, not {verdict!r}")
        waiting = self._derive()
        if waiting is None or waiting != question:
            return False
        self.prover.remember(waiting, verdict)
        self._settle(verdict)
        return True

    def _can_return(self, legal: list[InternalMove]) -> bool:
        """The last move can be taken back by a legal move, so this position is not stuck.

        The previous position P was playing (a move was made from it) and is
        reachable from here, so everything reachable from P is reachable from
        here: if P could make progress, so can this position; if P's bounded
        search ran out of budget, a search from here would too. Either way a
        fresh search would not say "stuck", so skipping it keeps the state a
        pure function of the position.
        """
        move = self._last_move
        if move is None or not self._history:
            return False
        src, count, dst = move
        inverse = (dst, count, src)
        if inverse not in legal:
            return False
        rules = self.rules
        if rules.is_foundation[dst] and not rules.is_foundation[src]:
            # The move sent a card home: P's progress only reached this count, which a
            # line from here must pass (Gypsy takes foundation cards back into play).
            return False
        if rules.plain and not self._last_automatic and len(self._history) > 1:
            # The inverse puts back exactly the cards the move took (no face-down card
            # was turned, nothing automatic followed), and the previous position came
            # out of an action, so it was settled: nothing automatic follows the
            # inverse either. No need to play it to see that it leads back.
            return True
        back = self.position.copy()
        rules.apply(back, inverse)
        rules.after_move(back)
        piles, down, redeals, _, _ = self._history[-1]
        return back.piles == piles and back.down == down and back.redeals_used == redeals

    def _set(self, state: str, legal: list[InternalMove]) -> None:
        self._cache_ply = len(self.actions)
        self._state = state
        self._legal = legal
