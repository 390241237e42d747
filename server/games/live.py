"""A game in play: the engine's Game with the server's id, owner, kind, time, deal and counters.

The server decides what a view shows of the deal (docs/protocol.md, "Games"): a
numbered deal its seed; a keyed deal its commitment, and its key only once
revealed: from the start when the player chose the key, when a solo game
ends (won or resigned), when its race is over, or from the end of its day
for a daily's deal (the ranked attempt and every practice game on it).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from server.errors import IllegalMove
from server.games import clock
from server.games.ply import RESIGN, GameAt
from shared.deals import Deal, KeyedDeal, NumberedDeal
from shared.errors import IllegalMove as Refusal  # the engine's: a reason the player sees
from shared.errors import InvalidNotation
from shared.game import Game
from shared.notation import UNDO, Action
from shared.protocol import SOLO, DealView, GameView
from shared.protocol.frames import PackedPiles
from shared.states import ENDED, STUCK

Clock = Callable[[], int]
"""Milliseconds since the Unix epoch; injected so that tests control time."""


def new_game_id() -> str:
    """Eight URL-safe characters: 48 random bits, short enough to read, hard to guess."""
    return secrets.token_urlsafe(6)


def deal_view(deal: Deal, *, key_open: bool, reveal_ms: int | None, now_ms: int) -> DealView:
    """The ``deal`` of a view now: the seed, or the commitment and, once revealed, the key
    (opened, or past the moment it shows from)."""
    return _shown(deal, key_open or (reveal_ms is not None and now_ms >= reveal_ms))


def _shown(deal: Deal, revealed: bool) -> DealView:
    if isinstance(deal, NumberedDeal):
        return DealView(seed=deal.seed)
    return DealView(commitment=deal.commitment, key=deal.key.hex() if revealed else None)


@dataclass(eq=False)
class LiveGame:
    id: str
    owner: int
    game: Game
    started_ms: int
    #: solo, daily (the ranked attempt), practice, race (protocol's GAME_KINDS)
    kind: str = SOLO
    #: a keyed deal's key shows (see the module's docstring); ``reveal_ms``: it shows from
    #: then on
    key_open: bool = False
    reveal_ms: int | None = None
    ended_ms: int | None = None
    #: a state the engine does not know (``timeout``), set by the server
    forced_state: str | None = None
    #: hints answered with a move (the engine counts undos itself)
    hints: int = 0
    #: the last action as the engine recorded it, typed (the ply rule's retry check);
    #: None before any
    last: Action | None = None
    #: the last action's stuck search and write; views and the next action wait for it, so
    #: that views show only stored plies and a game's actions are taken one at a time
    pending: asyncio.Future[None] | None = None
    #: the clock (server/games/clock.py): time not counted, and when it stops or stopped
    paused_ms: int = 0
    stopped_ms: int | None = None
    #: the last deal view made, and whether it showed the key
    _deal_shown: tuple[bool, DealView] | None = field(default=None, repr=False)
    #: the piles of its last ``game`` frame, packed: the next frame packs only those that
    #: changed (shared/protocol/frames.py); they live and go with the game
    _packed_piles: PackedPiles = field(default_factory=PackedPiles, repr=False)

    @property
    def state(self) -> str:
        return self.forced_state or self.game.state

    @property
    def seed(self) -> int | None:
        """The number of a numbered deal; None for a keyed one."""
        deal = self.game.deal
        return deal.seed if isinstance(deal, NumberedDeal) else None

    @property
    def keyed(self) -> KeyedDeal | None:
        deal = self.game.deal
        return deal if isinstance(deal, KeyedDeal) else None

    @property
    def undos(self) -> int:
        return self.game.undos

    @property
    def ranked(self) -> bool:
        """Whether its clock is ranked: it never pauses (server/games/clock.py)."""
        return self.kind in clock.RANKED_KINDS

    def elapsed_ms(self, now_ms: int) -> int:
        return clock.elapsed(
            now_ms,
            started_ms=self.started_ms,
            paused_ms=self.paused_ms,
            stopped_ms=self.stopped_ms,
            ended_ms=self.ended_ms,
        )

    def settle_clock(self, now_ms: int) -> None:
        """An action settled at ``now_ms``: the clock stops when the game became stuck, and
        goes on when an undo took it out of stuck (a ranked clock counting the time stuck)."""
        if self.state == STUCK:
            if self.stopped_ms is None or self.stopped_ms > now_ms:
                self.stopped_ms = now_ms
        elif self.state not in ENDED and self.stopped_ms is not None:
            if not self.ranked:
                self.paused_ms = clock.resumed(self.paused_ms, self.stopped_ms, now_ms)
            self.stopped_ms = None

    def left(self, now_ms: int, grace_ms: int) -> bool:
        """Every connection left this unranked game: its clock stops once ``grace_ms`` has
        passed (whether it changed)."""
        if self.ranked or self.state in ENDED or self.stopped_ms is not None:
            return False
        self.stopped_ms = now_ms + grace_ms
        return True

    def opened(self, now_ms: int) -> None:
        """A connection opened this unranked game: a clock stopped by leaving goes on."""
        if self.ranked or self.state in ENDED or self.state == STUCK:
            return
        if self.stopped_ms is not None:
            self.paused_ms = clock.resumed(self.paused_ms, self.stopped_ms, now_ms)
            self.stopped_ms = None

    def view(self, now_ms: int) -> GameView:
        """The GameView of docs/protocol.md: the engine's board, and what the server adds
        (a state the engine does not know takes no action: no legal move)."""
        board = self.game.board()
        if self.forced_state is not None:
            board = board._replace(state=self.forced_state, legal=())
        return GameView(
            self.id,
            board,
            self.deal_view(now_ms),
            self.hints,
            self.elapsed_ms(now_ms),
            self._packed_piles,
        )

    def deal_view(self, now_ms: int) -> DealView:
        """The deal as a view shows it now (:func:`deal_view`), made again only when that
        changes (its key shown)."""
        revealed = self.key_open or (self.reveal_ms is not None and now_ms >= self.reveal_ms)
        shown = self._deal_shown
        if shown is None or shown[0] != revealed:
            shown = self._deal_shown = (revealed, _shown(self.game.deal, revealed))
        return shown[1]

    def at(self) -> GameAt:
        """What the ply rule reads of the game."""
        return GameAt(self.id, self.game.ply, self.state, self.last)

    def take(self, action: Action) -> str:
        """Hand ``action`` to the engine (the ply rule has let it through); the text of its
        moves row: the canonical name the engine recorded (``w>f`` as ``w>f2``), written
        once, by the engine. The action as recorded, typed, becomes ``last``."""
        game = self.game
        if action == RESIGN:
            game.resign()
            return RESIGN
        try:
            if action == UNDO:
                game.undo()
                self.last = UNDO
            else:
                self.last = game.play(action)
        except (Refusal, InvalidNotation) as exc:
            # Every refusal the engine gives is a function of what the player sees.
            raise IllegalMove(str(exc)) from None
        return game.actions[-1]

    async def settled(self) -> None:
        """Wait until every action taken so far is stored."""
        pending = self.pending
        if pending is not None and not pending.done():
            await asyncio.shield(pending)
