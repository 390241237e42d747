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

from shared.game import Game
from shared.protocol import SOLO

Clock = Callable[[], int]
"""Milliseconds since the Unix epoch; injected so that tests control time."""


def new_game_id() -> str:
    """Eight URL-safe characters: 48 random bits, short enough to read, hard to guess."""
    return secrets.token_urlsafe(6)


@dataclass(frozen=True, slots=True)
class DealSecret:
    """A keyed deal as the server keeps it: its key and commitment, 64 lower-case hex each."""

    key: str
    commitment: str


def deal_view(
    seed: int | None, secret: DealSecret | None, *, revealed: bool
) -> dict[str, int | str]:
    """The ``deal`` of protocol.md: the seed, or the commitment and, once revealed, the key."""
    if secret is None:
        assert seed is not None, "a game's deal is numbered or keyed"
        return {"seed": seed}
    if revealed:
        return {"commitment": secret.commitment, "key": secret.key}
    return {"commitment": secret.commitment}


def is_revealed(key_open: bool, reveal_ms: int | None, now_ms: int) -> bool:
    """Whether a keyed deal's key shows now: opened, or past the moment it shows from."""
    return key_open or (reveal_ms is not None and now_ms >= reveal_ms)


@dataclass(eq=False)
class LiveGame:
    id: str
    owner: int
    game: Game
    started_ms: int
    #: solo, daily (the ranked attempt), practice, race (protocol's GAME_KINDS)
    kind: str = SOLO
    #: the key of a keyed deal (None: a numbered deal, ``game.seed``)
    secret: DealSecret | None = None
    #: the key shows (see the module's docstring); ``reveal_ms``: the key shows from then on
    key_open: bool = False
    reveal_ms: int | None = None
    ended_ms: int | None = None
    #: a state the engine does not know (``timeout``), set by the server
    forced_state: str | None = None
    #: counted for the view, lists and ranks
    undos: int = 0
    hints: int = 0
    #: the last action's stuck search and write; views and the next action wait for it, so
    #: that views show only stored plies and a game's actions are taken one at a time
    pending: asyncio.Future[None] | None = None

    @property
    def state(self) -> str:
        return self.forced_state or self.game.state

    @property
    def seed(self) -> int | None:
        """The number of a numbered deal; None for a keyed one."""
        return None if self.secret is not None else self.game.seed

    def elapsed_ms(self, now_ms: int) -> int:
        end = self.ended_ms if self.ended_ms is not None else now_ms
        return max(0, end - self.started_ms)

    def deal(self, now_ms: int) -> dict[str, int | str]:
        revealed = is_revealed(self.key_open, self.reveal_ms, now_ms)
        return deal_view(self.seed, self.secret, revealed=revealed)

    def view(self, now_ms: int, *, reveal: bool = False) -> dict[str, Any]:
        """The GameView of protocol.md (``reveal``: face-down cards too, for tests only)."""
        view = self.game.view(reveal=reveal)
        view.pop("seed", None)  # the deal says what may be said of it
        view["id"] = self.id
        view["deal"] = self.deal(now_ms)
        view["undos"] = self.undos
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
