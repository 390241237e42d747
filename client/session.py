"""One player's current game as the server last described it, and the actions on it.

Every action names the ``ply`` the client last saw: the server applies it only
at that ply, answers a retried action with the current view, and otherwise
replies ``stale_ply`` with the view, which is adopted here so that the screen
always shows what the server holds (protocol.md, Games).
"""

from __future__ import annotations

from typing import Any

from client.connection import Connection
from client.wire import Message, error_of
from shared.errors import ProtocolError

GameView = dict[str, Any]


class GameSession:
    """The game a screen or a bot is playing; ``view`` is the latest GameView."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.view: GameView | None = None
        self.daily: dict[str, Any] | None = None

    @property
    def game_id(self) -> str | None:
        return None if self.view is None else str(self.view["id"])

    @property
    def ply(self) -> int:
        return 0 if self.view is None else int(self.view["ply"])

    def adopt(self, view: GameView, daily: dict[str, Any] | None = None) -> None:
        """Follow a game that arrived another way (race start, a pushed view)."""
        self.view = view
        self.daily = daily

    async def start(
        self, variant: str, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> GameView:
        fields: dict[str, Any] = {"variant": variant, "options": options or {}}
        if seed is not None:
            fields["seed"] = seed
        reply = await self.conn.request("start_game", **fields)
        self.adopt(reply["game"])
        return reply["game"]  # type: ignore[no-any-return]

    async def start_daily(self, variant: str) -> GameView:
        reply = await self.conn.request("daily", variant=variant)
        daily = reply.get("daily")
        self.adopt(reply["game"], daily if isinstance(daily, dict) else {})
        return reply["game"]  # type: ignore[no-any-return]

    async def resume(self) -> GameView | None:
        """After a reconnect: the game as the server holds it now."""
        if self.game_id is None:
            return None
        reply = await self.conn.request("get_game", game=self.game_id)
        self.view = reply["game"]
        return self.view

    async def move(self, move: str) -> GameView:
        """A move in notation, ``deal`` or ``auto``."""
        return await self._act("move", move=move)

    async def undo(self) -> GameView:
        return await self._act("undo")

    async def resign(self) -> GameView:
        return await self._act("resign")

    async def hint(self) -> str | None:
        if self.game_id is None:
            return None
        reply = await self.conn.request("hint", game=self.game_id)
        move = reply.get("move")
        return move if isinstance(move, str) else None

    async def _act(self, type_: str, **fields: Any) -> GameView:
        if self.view is None:
            raise ProtocolError("not_found", "no game is open")
        reply: Message = await self.conn.send(
            type_, game=self.view["id"], ply=self.view["ply"], **fields
        )
        error = error_of(reply)
        if error is not None:
            # stale_ply carries the server's view: show it, then say why.
            if isinstance(reply.get("game"), dict):
                self.view = reply["game"]
            raise error
        self.view = reply["game"]
        return self.view
