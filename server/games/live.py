"""A game in play: the engine's Game with the server's id, owner, kind, time, deal and counters.

The server decides what a view shows of the deal (protocol.md, "Games"): a
numbered deal its seed; a keyed deal its commitment, and its key only once
revealed: from the start when the player chose the key, when a solo game
ends (won or resigned), when its race is over, or from the end of its day
for a daily's deal (the ranked attempt and every practice game on it).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shared.deals import Deal, KeyedDeal, NumberedDeal
from shared.game import Game
from shared.notation import Action
from shared.protocol import SOLO

Clock = Callable[[], int]
"""Milliseconds since the Unix epoch; injected so that tests control time."""


def new_game_id() -> str:
    """Eight URL-safe characters: 48 random bits, short enough to read, hard to guess."""
    return secrets.token_urlsafe(6)


def deal_view(deal: Deal, *, key_open: bool, reveal_ms: int | None, now_ms: int) -> dict[str, Any]:
    """The ``deal`` of a view now: the seed, or the commitment and, once revealed, the key
    (opened, or past the moment it shows from)."""
    revealed = key_open or (reveal_ms is not None and now_ms >= reveal_ms)
    return deal.view(reveal_key=revealed)


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

    def elapsed_ms(self, now_ms: int) -> int:
        end = self.ended_ms if self.ended_ms is not None else now_ms
        return max(0, end - self.started_ms)

    def view(self, now_ms: int, *, reveal: bool = False) -> dict[str, Any]:
        """The GameView of protocol.md (``reveal``: face-down cards too, for tests only)."""
        view = self.game.view(reveal=reveal)
        view["deal"] = deal_view(
            self.game.deal, key_open=self.key_open, reveal_ms=self.reveal_ms, now_ms=now_ms
        )
        view["id"] = self.id
        view["hints"] = self.hints
        view["elapsed_ms"] = self.elapsed_ms(now_ms)
        if self.forced_state is not None:
            view["state"] = self.forced_state
            view["legal"] = []
        return view

    async def settled(self) -> None:
        """Wait until every action taken so far is stored."""
        pending = self.pending
        if pending is not None and not pending.done():
            await asyncio.shield(pending)
