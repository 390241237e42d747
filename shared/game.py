"""A game in progress: a variant's rules, a seed, the actions played, and undo.

The game is a pure function of (variant, options, seed, actions): no clock,
no I/O. It caches what it derives from the position (legal moves, state) per
ply, since the server and the solver ask for them after every action.
"""

from __future__ import annotations

from typing import Any

from shared.cards import NAME
from shared.errors import IllegalMove, InvalidNotation
from shared.notation import AUTO, DEAL, UNDO, Move
from shared.position import Position
from shared.stuck import (
    Proof,
    StuckQuestion,
    cheap_proof,
    question_for,
    remember,
    remembered,
    solve,
)
from shared.variants.base import DEAL as DEAL_MOVE
from shared.variants.base import InternalMove, Rules

PLAYING = "playing"
WON = "won"
STUCK = "stuck"
RESIGNED = "resigned"

#: a position for undo (piles, down, redeals_used) with its legal moves, and their names
#: when they had been written (None if not)
_Snapshot = tuple[list[list[int]], list[int], int, list[InternalMove], list[str] | None]


class Game:
    """One game of one variant. Build it with :func:`shared.games.new_game`."""

    def __init__(self, rules: Rules, seed: int, position: Position | None = None) -> None:
        """``position`` replaces the deal: for hand-built positions in tests and tools."""
        self.rules = rules
        self.seed = seed
        self.position: Position = rules.deal(seed) if position is None else position
        self.actions: list[str] = []
        self.resigned = False
        #: the positions before each action still on the board, for undo. Copy on write:
        #: a snapshot holds the pile lists themselves, and an action first gives the
        #: piles it changes new lists (copies), so that no list a snapshot holds is ever
        #: changed, while the piles an action leaves alone (most of them) are not copied.
        #: (Rules.after_move keeps to this too: it gives a pile a new list, see there.)
        #: Each keeps the position's legal moves (and their names) too: undo brings them
        #: back with it.
        self._history: list[_Snapshot] = []
        #: the ply whose state and legal moves are known
        self._cache_ply = -1
        #: the ply whose cheap derivation is done (see _derive); its open question, if any
        self._derived_ply = -1
        self._question: StuckQuestion | None = None
        self._pending_legal: list[InternalMove] = []
        self._legal: list[InternalMove] = []
        #: the last proof of progress found (see shared.stuck.cheap_proof), tried first next time
        self._proof: Proof | None = None
        self._state = PLAYING
        # What the stuck check may reuse from the last action (see _can_return):
        self._last_move: InternalMove | None = None
        #: automatic moves (Freecell's autoplay) that followed the last move
        self._last_automatic = 0
        #: the names of the legal moves, for the ply they were written for
        self._names: list[str] = []
        self._names_ply = -1
        #: the snapshot of the position now on the board, when play had gone on from this
        #: very position: after an undo, or a move that took back the move before it (see
        #: play). It was playing then, with the moves (and names) the snapshot kept.
        self._known: _Snapshot | None = None

    # -- reading ---------------------------------------------------------------

    @property
    def variant(self) -> str:
        return self.rules.id

    @property
    def options(self) -> dict[str, bool | int]:
        return dict(self.rules.options)

    @property
    def ply(self) -> int:
        """Actions played so far: moves, deals, auto and undos."""
        return len(self.actions)

    @property
    def score(self) -> int:
        return self.rules.score(self.position)

    @property
    def state(self) -> str:
        """``playing``, ``won``, ``stuck`` or ``resigned``."""
        self._refresh()
        return self._state

    @property
    def foundation_cards(self) -> int:
        return self.rules.foundation_count(self.position)

    def legal_moves(self) -> list[str]:
        """Every legal move now, in canonical notation; none once the game has ended or is stuck."""
        if self._cache_ply != len(self.actions):  # (what _derive checks first, inline)
            question = self._derive()  # (_refresh written out: the engine's every step)
            if question is not None:
                self._answer(question)
        if self._names_ply != self._cache_ply:
            self._names = self.rules.move_names(self._legal)
            self._names_ply = self._cache_ply
        return self._names[:]

    def _refresh(self) -> None:
        question = self._derive()
        if question is not None:
            self._answer(question)

    def _answer(self, question: StuckQuestion) -> None:
        """Run the bounded stuck search :meth:`_derive` left open and take its verdict."""
        stuck, proof = solve(question)
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
        legal = rules.legal(pos)
        if not legal:
            self._set(STUCK, [])
            return None
        # Cheapest first: where a move's inverse is known to restore the board
        # (plain piles), seeing that it is legal costs next to nothing.
        plain = rules.plain_piles
        if rules.can_progress_now(pos, legal) or (plain and self._can_return(legal)):
            # (_set written out: most steps end here)
            self._cache_ply = ply
            self._state = PLAYING
            self._legal = legal
            return None
        proof = cheap_proof(rules, pos, self._proof)
        if proof is not None:
            self._proof = proof
            self._set(PLAYING, legal)
            return None
        if not plain and self._can_return(legal):
            self._set(PLAYING, legal)
            return None
        question = question_for(rules, pos)
        self._pending_legal = legal
        verdict = remembered(question)
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
        frozen, picklable :class:`~shared.stuck.StuckQuestion`: run
        :func:`shared.stuck.answer` on it (in a worker process, say) and hand
        the verdict to :meth:`answer_stuck`; until then :meth:`view`,
        :attr:`state`, :meth:`legal_moves` and :meth:`play` would run the
        search themselves. The cheap work done here is kept for them.
        """
        return self._derive()

    def answer_stuck(self, question: StuckQuestion, verdict: bool) -> bool:
        """Take ``verdict`` (from :func:`shared.stuck.answer`; True: stuck) for ``question``.

        Returns True when it settled the state. A question about another
        position (an older ply, another game) or one the game no longer
        waits for is ignored and False returned: the game is unchanged.
        """
        if not isinstance(verdict, bool):
            raise TypeError(f"a stuck verdict is a bool, not {verdict!r}")
        waiting = self._derive()
        if waiting is None or waiting != question:
            return False
        remember(waiting, verdict)
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
        if rules.plain_piles and not self._last_automatic and len(self._history) > 1:
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

    # -- acting ----------------------------------------------------------------

    def play(self, action: str) -> str:
        """Play one action (a move, ``deal``, ``auto`` or ``undo``) and return it as recorded.

        Raises :class:`IllegalMove` (or :class:`InvalidNotation`, also a
        ValueError) with the reason, leaving the game unchanged.
        """
        if action == UNDO:
            self.undo()
            return UNDO
        if self._cache_ply != len(self.actions):  # (what _refresh checks first, inline)
            self._refresh()
        if self._state != PLAYING:
            raise IllegalMove(self._ended_reason())
        rules = self.rules
        pos = self.position
        if action == AUTO:
            # auto_moves changes piles in place: the snapshot keeps the lists, the
            # position gets copies of them all (see the undo history in __init__).
            piles = pos.piles
            names = self._names if self._names_ply == self._cache_ply else None
            snapshot = (piles[:], pos.down[:], pos.redeals_used, self._legal, names)
            piles[:] = map(list.copy, piles)
            if not rules.auto_moves(pos, self._legal):
                piles[:] = snapshot[0]  # nothing moved: the position's own lists back
                raise IllegalMove("auto would move nothing: no card can go to a foundation")
            rules.after_move(pos)
            self._push(snapshot, AUTO)
            self._last_move = None
            return AUTO
        move = rules.known_move(action)
        if move is None:
            move = self._resolve(action)
            name = rules.move_name(move)
        else:
            name = action  # the canonical name the rules wrote for it
        # The listed names stand for the listed moves one to one: when they are written
        # for this ply, finding the name is the cheaper check (the very string, usually).
        named = self._names_ply == self._cache_ply
        if name not in self._names if named else move not in self._legal:
            reason = self._reason(move)
            raise IllegalMove(f"{action!r} is not legal now: {reason}")
        # Every position but the deal came out of an action, so it is settled.
        settled = move if self._history else None
        piles = pos.piles
        # Plain piles have no face-down card, so nothing ever changes ``down``: the
        # snapshot shares the list (one list fewer per move to copy and to collect).
        down = pos.down if rules.plain_piles else pos.down[:]
        names = self._names if named else None
        history = self._history
        history.append((piles[:], down, pos.redeals_used, self._legal, names))
        src, _, dst = move
        if src >= 0:
            # Copy on write (see the undo history in __init__): the move changes two piles.
            piles[src] = piles[src][:]
            piles[dst] = piles[dst][:]
        else:
            # A deal may change any pile (Gypsy's deals onto every column).
            piles[:] = map(list.copy, piles)
        rules.apply(pos, move)
        automatic = rules.after_move(pos, settled)
        # On plain piles (nothing face down, no stock) a move from dst to src of as many
        # cards takes back the move before it exactly, when nothing automatic followed
        # either of them: the position is again the one that move was played from.
        # (Random play does so about one move in ten; see _derive.)
        last = self._last_move
        took_back = (
            rules.plain_piles
            and last is not None
            and src == last[2]
            and dst == last[0]
            and move[1] == last[1]
            and not automatic
            and not self._last_automatic
        )
        self._known = history[-2] if took_back else None
        self._last_automatic = automatic
        self.actions.append(name)
        self._last_move = None if src < 0 else move  # (a deal: none to take back)
        return name

    def undo(self) -> None:
        """Take back the last move or deal still on the board, with its automatic moves."""
        if self.resigned:
            raise IllegalMove(self._ended_reason())
        if not self._history:
            raise IllegalMove("nothing to undo: the board is as dealt")
        if self._refreshed_state() == WON:
            raise IllegalMove(self._ended_reason())
        self._known = known = self._history.pop()
        self.position = Position(known[0], known[1], known[2])
        self.actions.append(UNDO)
        self._last_move = None

    def resign(self) -> None:
        """End the game; it takes no more actions."""
        self._refresh()
        if self._state in (WON, RESIGNED):
            raise IllegalMove(self._ended_reason())
        self.resigned = True
        self._cache_ply = self._derived_ply = self._names_ply = -1

    def _refreshed_state(self) -> str:
        self._refresh()
        return self._state

    def _ended_reason(self) -> str:
        if self._state == STUCK:
            return (
                "the game is stuck: no card can reach a foundation any more; only undo is possible"
            )
        return f"the game is over ({'resigned' if self.resigned else self._state})"

    def _resolve(self, action: str) -> InternalMove:
        known = self.rules.known_move(action)
        if known is not None:
            return known
        if action == DEAL:
            return DEAL_MOVE
        move = Move.parse(action)
        rules = self.rules
        if move.dst != "f":
            return rules.internal(move)
        src = rules.pile(move.src)
        pile = self.position.piles[src]
        if move.count != 1:
            raise IllegalMove(
                f"{action!r} is not legal: only one card at a time goes to a foundation"
            )
        if not pile:
            raise IllegalMove(f"{action!r} is not legal: {move.src} is empty")
        if len(pile) <= self.position.down[src]:
            # Never name a face-down card: the reason goes to the player.
            raise IllegalMove(f"{action!r} is not legal: the top card of {move.src} is face down")
        for f in rules.foundations:
            if (src, 1, f) in self._legal:
                return (src, 1, f)
        raise IllegalMove(f"{action!r} is not legal now: no foundation takes {NAME[pile[-1]]}")

    def _reason(self, move: InternalMove) -> str:
        reason = self.rules.why_illegal(self.position, move)
        # The listed moves are the law; the reasons only explain them.
        return reason or "the rules do not allow it here"

    def _push(self, snapshot: _Snapshot, name: str) -> None:
        self._history.append(snapshot)
        self.actions.append(name)
        self._known = None

    # -- views -----------------------------------------------------------------

    def view(self, reveal: bool = False) -> dict[str, Any]:
        """The GameView of protocol.md, without ``id`` and ``elapsed_ms``.

        Face-down cards are counts unless ``reveal`` (server-side only): then
        each pile's ``down`` lists them bottom to top.
        """
        rules = self.rules
        pos = self.position
        piles = []
        for pid, pile, down in zip(rules.pile_ids, pos.piles, pos.down, strict=True):
            piles.append(
                {
                    "id": pid,
                    "down": [NAME[c] for c in pile[:down]] if reveal else down,
                    "up": [NAME[c] for c in pile[down:]],
                }
            )
        return {
            "variant": rules.id,
            "seed": self.seed,
            "options": dict(rules.options),
            "ply": self.ply,
            "moves": self.ply,
            "score": rules.score(pos),
            "max_score": rules.max_score,
            "state": self.state,
            "redeals_left": rules.redeals_left(pos),
            "piles": piles,
            "legal": self.legal_moves(),
        }

    def record(self) -> dict[str, Any]:
        """Variant, options, seed and the actions played: all that replays the game."""
        return {
            "variant": self.rules.id,
            "options": dict(self.rules.options),
            "seed": self.seed,
            "actions": list(self.actions),
            "resigned": self.resigned,
        }

    def __repr__(self) -> str:
        return f"<Game {self.rules.id} seed={self.seed} ply={self.ply} state={self.state}>"


__all__ = [
    "PLAYING",
    "RESIGNED",
    "STUCK",
    "WON",
    "Game",
    "IllegalMove",
    "InvalidNotation",
    "StuckQuestion",
]
