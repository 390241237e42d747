"""A game in progress: a variant's rules, a deal, the actions played, and undo.

The game is a pure function of (variant, options, deal, actions): no clock,
no I/O. It caches what it derives from the position (legal moves, state) per
ply, since the server and the solver ask for them after every action.
"""

from __future__ import annotations

from itertools import compress
from operator import is_not, ne
from types import MappingProxyType
from typing import Any, overload

from shared import refusals
from shared.board_view import BoardView, PileView
from shared.cards import NAME
from shared.deals import Deal, KeyedDeal, NumberedDeal
from shared.errors import IllegalMove, InvalidNotation, InvalidOptions
from shared.game_state import GameState, Snapshot
from shared.notation import AUTO, UNDO, Action, Move
from shared.position import Position
from shared.states import PLAYING, RESIGNED, STUCK, WON
from shared.stuck import StuckProver, StuckQuestion
from shared.variants.base import Rules


class Game(GameState):
    """One game of one variant. Build it with :func:`shared.games.new_game`."""

    def __init__(
        self,
        rules: Rules,
        deal: Deal | int,
        position: Position | None = None,
        prover: StuckProver | None = None,
    ) -> None:
        """``deal`` is a :class:`~shared.deals.Deal` or the seed of a numbered one.
        ``position`` replaces the deal's position: for hand-built positions in tests and
        tools. ``prover`` runs the stuck searches and remembers their verdicts (a server
        shares one among its games); without one, the game makes a small one of its own."""
        if isinstance(deal, int):
            deal = NumberedDeal(deal)
        elif isinstance(deal, KeyedDeal) and deal.variant != rules.id:
            raise InvalidOptions(f"a keyed deal of {deal.variant} cannot deal {rules.id}")
        self.rules = rules
        self.prover = prover if prover is not None else StuckProver.small()
        #: the variant's stuck proof, as this game's prover runs it
        self._progress = self.prover.search_for(rules)
        #: what the game was dealt from: a numbered deal (seed) or a keyed one (key)
        self.deal: Deal = deal
        self.position: Position = rules.deal(deal) if position is None else position
        self.actions: list[str] = []
        #: undo actions among them (GameView's ``undos``)
        self.undos = 0
        self.resigned = False
        #: the positions before each action still on the board, for undo. Copy on write:
        #: a snapshot holds the pile lists themselves, and an action first gives the
        #: piles it changes new lists (copies), so that no list a snapshot holds is ever
        #: changed, while the piles an action leaves alone (most of them) are not copied.
        #: (Rules.after_move keeps to this too: it gives a pile a new list, see there.)
        #: Each keeps the position's legal moves (and their names) too: undo brings them
        #: back with it.
        self._history: list[Snapshot] = []
        #: the piles' lists and face-down counts last shown (copies of the position's
        #: lists of them), and their views: a pile whose list is the same object shows the
        #: same (copy on write, above: an action gives every pile it changes a new list),
        #: so a board after a move makes new views of the piles it changed only
        self._shown: tuple[list[list[int]], list[int], tuple[PileView, ...]] | None = None
        #: the options as the board shows them: read-only, made once
        self._options = MappingProxyType(rules.options)
        self._start_deriving()

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
    def foundation_cards(self) -> int:
        return self.rules.foundation_count(self.position)

    # -- acting ----------------------------------------------------------------

    @overload
    def play(self, action: str) -> str: ...

    @overload
    def play(self, action: Move) -> Move: ...

    def play(self, action: Action) -> Action:
        """Play one action and return it as recorded: a :class:`~shared.notation.Move`, one
        of the words ``deal``, ``auto`` and ``undo``, or the text of either (parsed here,
        once). A move comes back as it was given, a text as text; the shorthand ``X>f``
        comes back with the foundation it went to.

        Raises :class:`IllegalMove` (or :class:`InvalidNotation`, also a
        ValueError) with the reason, leaving the game unchanged. A reason says
        only what the player can see: it never names a face-down card.
        """
        if action == UNDO:
            self.undo()
            return UNDO
        if self._cache_ply != len(self.actions):  # (what _refresh checks first, inline)
            self._refresh()
        if self._state != PLAYING:
            raise refusals.ended(self._state, self.resigned)
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
        # The text of a move a game can list is in the rules' table (the engine's every
        # step, and every record replayed); anything else is parsed or resolved once.
        recorded: Move | None = None
        if isinstance(action, str) and (move := rules.known_move(action)) is not None:
            name = action  # the canonical name the rules wrote for it
        else:
            move, recorded = refusals.resolve(rules, pos, self._legal, action)
            name = rules.move_name(move)
        # The listed names stand for the listed moves one to one: when they are written
        # for this ply, finding the name is the cheaper check (the very string, usually).
        named = self._names_ply == self._cache_ply
        if name not in self._names if named else move not in self._legal:
            raise refusals.refusal(rules, pos, action, move)
        # Every position but the deal came out of an action, so it is settled.
        settled = move if self._history else None
        piles = pos.piles
        # Plain piles have no face-down card, so nothing ever changes ``down``: the
        # snapshot shares the list (one list fewer per move to copy and to collect).
        down = pos.down if rules.plain else pos.down[:]
        names = self._names if named else None
        history = self._history
        src, _, dst = move
        if src >= 0:
            history.append((piles[:], down, pos.redeals_used, self._legal, names))
            # Copy on write (see the undo history in __init__): the move changes two piles.
            piles[src] = piles[src][:]
            piles[dst] = piles[dst][:]
        else:
            # The snapshot keeps the position's list of piles itself, the position gets a
            # new one, with copies of the piles a deal may change (Rules.deal_piles).
            history.append((piles, down, pos.redeals_used, self._legal, names))
            piles = pos.piles = piles[:]
            for i in rules.deal_piles:
                piles[i] = piles[i][:]
        rules.apply(pos, move)
        automatic = rules.after_move(pos, settled)
        # On plain piles (nothing face down, no stock) a move from dst to src of as many
        # cards takes back the move before it exactly, when nothing automatic followed
        # either of them: the position is again the one that move was played from.
        # (Random play does so about one move in ten; see _derive.)
        last = self._last_move
        took_back = (
            rules.plain
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
        return name if recorded is None else recorded

    def undo(self) -> None:
        """Take back the last move or deal still on the board, with its automatic moves."""
        if self.resigned:
            raise refusals.ended(self._state, self.resigned)
        if not self._history:
            raise IllegalMove("nothing to undo: the board is as dealt")
        if self._refreshed_state() == WON:
            raise refusals.ended(self._state, self.resigned)
        self._known = known = self._history.pop()
        self.position = Position(known[0], known[1], known[2])
        self.actions.append(UNDO)
        self.undos += 1
        self._last_move = None

    def resign(self) -> None:
        """End the game; it takes no more actions."""
        self._refresh()
        if self._state in (WON, RESIGNED):
            raise refusals.ended(self._state, self.resigned)
        self.resigned = True
        self._cache_ply = self._derived_ply = self._names_ply = -1

    def _refreshed_state(self) -> str:
        self._refresh()
        return self._state

    def _push(self, snapshot: Snapshot, name: str) -> None:
        self._history.append(snapshot)
        self.actions.append(name)
        self._known = None

    # -- views -----------------------------------------------------------------

    def board(self) -> BoardView:
        """What the player sees now, typed: the GameView of docs/protocol.md without what
        the server adds (``id``, ``deal``, ``hints``, ``elapsed_ms``). Face-down cards are
        counts. The server's every reply carries one; the protocol encodes it."""
        rules = self.rules
        pos = self.position
        piles, downs = pos.piles, pos.down
        ids = rules.pile_ids
        shown = self._shown
        if shown is None:
            views = tuple(
                PileView(pid, down, tuple([NAME[c] for c in pile[down:]]))
                for pid, pile, down in zip(ids, piles, downs, strict=True)
            )
        else:
            # The piles whose list or face-down count is not the one last shown, found by
            # loops in C (a move changes two piles of up to twenty).
            lists, shown_downs, views = shown
            every = range(len(ids))
            changed = set(compress(every, map(is_not, piles, lists)))
            changed.update(compress(every, map(ne, downs, shown_downs)))
            if changed:
                made = list(views)
                for i in changed:
                    down = downs[i]
                    made[i] = PileView(ids[i], down, tuple([NAME[c] for c in piles[i][down:]]))
                views = tuple(made)
        self._shown = (piles[:], downs[:], views)
        ply = len(self.actions)
        return BoardView(
            rules.id,
            self._options,
            ply,
            ply,
            self.undos,
            rules.score(pos),
            rules.max_score,
            self.state,
            rules.redeals_left(pos),
            views,
            tuple(self._legal_names()),
        )

    def view(self, reveal: bool = False, *, reveal_key: bool = False) -> dict[str, Any]:
        """Everything :meth:`board` shows and the deal, as one plain map (for tests and
        tools, which compare and print it), without ``id``, ``elapsed_ms`` and ``hints``
        (the server counts the hints it answers; the engine never sees them).

        Face-down cards are counts unless ``reveal`` (server-side only): then
        each pile's ``down`` lists them bottom to top. A keyed deal shows its
        commitment, and its key only with ``reveal_key``: when the deal is
        revealed is the server's decision, never the engine's.
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
            "deal": self.deal.view(reveal_key),
            "options": dict(rules.options),
            "ply": self.ply,
            "moves": self.ply,
            "undos": self.undos,
            "score": rules.score(pos),
            "max_score": rules.max_score,
            "state": self.state,
            "redeals_left": rules.redeals_left(pos),
            "piles": piles,
            "legal": self.legal_moves(),
        }

    def record(self, *, reveal_key: bool = False) -> dict[str, Any]:
        """Variant, options, deal and the actions played: all that replays the game.

        The deal is its ``seed``, or for a keyed deal its ``commitment``: such a
        record replays only once it holds the ``key`` instead (``reveal_key``).
        """
        return {
            "variant": self.rules.id,
            "options": dict(self.rules.options),
            **self.deal.record_fields(reveal_key),
            "actions": list(self.actions),
            "resigned": self.resigned,
        }

    def __repr__(self) -> str:
        deal = self.deal
        named = (
            f"seed={deal.seed}"
            if isinstance(deal, NumberedDeal)
            else f"commitment={deal.commitment[:16]}..."  # (never the key)
        )
        return f"<Game {self.rules.id} {named} ply={self.ply} state={self.state}>"


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
