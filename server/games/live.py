"""A game in play: the engine's Game with the server's id, owner and time, and its pending write."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shared.game import Game

Clock = Callable[[], int]
"""Milliseconds since the Unix epoch; injected so that tests control time."""


def new_game_id() -> str:
    """Eight URL-safe characters: 48 random bits, short enough to read, hard to guess."""
    return secrets.token_urlsafe(6)


@dataclass(eq=False)
class LiveGame:
    id: str
    owner: int
    game: Game
    started_ms: int
    ended_ms: int | None = None
    #: a state the engine does not know (``timeout``), set by the server
    forced_state: str | None = None
    #: the last action's stuck search and write; views and the next action wait for it, so
    #: that views show only stored plies and a game's actions are taken one at a time
    pending: asyncio.Future[None] | None = None

    @property
    def state(self) -> str:
        return self.forced_state or self.game.state

    def elapsed_ms(self, now_ms: int) -> int:
        end = self.ended_ms if self.ended_ms is not None else now_ms
        return max(0, end - self.started_ms)

    def view(self, now_ms: int, *, reveal: bool = False) -> dict[str, Any]:
        """The GameView of protocol.md."""
        view = self.game.view(reveal=reveal)
        view["id"] = self.id
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
