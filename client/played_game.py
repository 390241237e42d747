"""The game a player is playing, as the server last described it, and the actions on it.

Every action names the ``ply`` the client last saw: the server applies it only
at that ply, answers a retried action with the current view, and otherwise
replies ``stale_ply`` with the view, which is adopted here so that the screen
always shows what the server holds (docs/protocol.md, Games).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping

from client.connection import Connection
from client.wire import expect
from shared.errors import ProtocolError
from shared.notation import Action
from shared.protocol import (
    DailyInfo,
    DailyIntro,
    DailyRequest,
    Error,
    GameReply,
    GameView,
    GetGame,
    HintReply,
    HintRequest,
    LeaveGame,
    MoveRequest,
    PlyRequest,
    Resign,
    StartGame,
    Undo,
)


class PlayedGame:
    """The game a screen or a bot is playing; ``view`` is the latest GameView."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.view: GameView | None = None
        #: set when the game is the player's daily attempt
        self.daily: DailyInfo | None = None

    @property
    def game_id(self) -> str | None:
        return None if self.view is None else self.view.id

    @property
    def ply(self) -> int:
        return 0 if self.view is None else self.view.ply

    def adopt(self, view: GameView, daily: DailyInfo | None = None) -> None:
        """Follow a game that arrived another way (race start, a pushed view)."""
        self.view = view
        self.daily = daily

    async def start(
        self,
        variant: str,
        seed: int | None = None,
        options: Mapping[str, bool | int] | None = None,
        *,
        difficulty: str | None = None,
        key: str | None = None,
    ) -> GameView:
        """A new game; ``difficulty``: a winnable secret deal of that difficulty; ``key``: the
        keyed deal of that key (a revealed deal dealt again)."""
        request = StartGame(
            variant=variant,
            seed=seed,
            key=key,
            options=dict(options or {}),
            winnable=difficulty is not None,
            difficulty=difficulty,
        )
        reply = await self.conn.request(request, GameReply)
        self.adopt(reply.game)
        return reply.game

    async def look_at_daily(self, variant: str) -> DailyIntro | None:
        """Today's daily of ``variant``: its start step when the player has not started it
        (nothing is dealt and no clock runs before :meth:`start_daily`), else None with the
        attempt, resumed, as the game."""
        request = DailyRequest(variant=variant)
        reply = await self.conn.send(request)
        if isinstance(reply, DailyIntro):
            return reply
        game = expect(request, reply, GameReply)
        self.adopt(game.game, game.daily)
        return None

    async def start_daily(self, variant: str) -> GameView:
        """Start (or resume) today's ranked attempt: its clock runs from now."""
        reply = await self.conn.request(DailyRequest(variant=variant, start=True), GameReply)
        self.adopt(reply.game, reply.daily)
        return reply.game

    async def leave(self) -> None:
        """The board is closed: the server pauses an unranked game's clock (``leave_game``)."""
        if self.view is None:
            return
        # a connection gone has left every game already
        with contextlib.suppress(ConnectionError, ProtocolError):
            await self.conn.send(LeaveGame(game=self.view.id), retry=False)

    async def open(self, game_id: str) -> GameView:
        """Go back to one of the player's own games (``games`` lists them): ``get_game``."""
        reply = await self.conn.request(GetGame(game=game_id), GameReply)
        self.adopt(reply.game)
        return reply.game

    async def resume(self) -> GameView | None:
        """After a reconnect: the game as the server holds it now.

        A reply to an action resent meanwhile may have brought a newer view
        already: plies only grow, so the newer of the two is kept.
        """
        if self.game_id is None:
            return None
        reply = await self.conn.request(GetGame(game=self.game_id), GameReply)
        if self.view is None or reply.game.id != self.view.id or reply.game.ply >= self.view.ply:
            self.view = reply.game
        return self.view

    async def move(self, action: Action) -> GameView:
        """A move, ``deal`` or ``auto``."""
        view = self._open()
        return await self._act(MoveRequest(game=view.id, ply=view.ply, move=action))

    async def undo(self) -> GameView:
        view = self._open()
        return await self._act(Undo(game=view.id, ply=view.ply))

    async def resign(self) -> GameView:
        view = self._open()
        return await self._act(Resign(game=view.id, ply=view.ply))

    async def hint(self) -> Action | None:
        if self.game_id is None:
            return None
        reply = await self.conn.request(HintRequest(game=self.game_id), HintReply)
        return reply.move

    def _open(self) -> GameView:
        if self.view is None:
            raise ProtocolError("not_found", "no game is open")
        return self.view

    async def _act(self, request: MoveRequest | PlyRequest) -> GameView:
        reply = await self.conn.send(request)
        if isinstance(reply, Error) and reply.game is not None:
            # stale_ply carries the server's view: show it, then say why.
            self.view = reply.game
        self.view = expect(request, reply, GameReply).game
        return self.view
