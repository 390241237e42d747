"""Solo games: start, move, undo, resign, get, hint. The rules are the engine's."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING

from server.games.live import LiveGame
from server.net.routing import handles
from shared import protocol as p
from shared.errors import ProtocolError
from shared.notation import parse_action

if TYPE_CHECKING:
    from server.net.connection import Connection


async def _acted(
    connection: Connection, message: p.Request, live: LiveGame, act: Awaitable[LiveGame]
) -> p.Reply:
    """The game after an action, or ``stale_ply`` with the game as it is."""
    games = connection.app.games
    try:
        await act
    except ProtocolError as exc:
        if exc.code != p.STALE_PLY:
            raise
        view = p.GameView.of(games.view(live))
        return p.Error(code=exc.code, message=exc.message, game=view, re=message.id)
    return p.GameReply(game=p.GameView.of(games.view(live)), re=message.id)


@handles(p.StartGame)
async def start_game(connection: Connection, message: p.StartGame) -> p.Reply:
    games = connection.app.games
    player = connection.welcomed_player
    live = await games.start(player.id, message.variant, message.seed, message.options)
    return p.GameReply(game=p.GameView.of(games.view(live)), re=message.id)


@handles(p.MoveRequest)
async def move(connection: Connection, message: p.MoveRequest) -> p.Reply:
    games = connection.app.games
    live = await games.owned(connection.welcomed_player.id, message.game)
    return await _acted(connection, message, live, games.move(live, message.ply, message.move))


@handles(p.Undo)
async def undo(connection: Connection, message: p.Undo) -> p.Reply:
    games = connection.app.games
    live = await games.owned(connection.welcomed_player.id, message.game)
    return await _acted(connection, message, live, games.undo(live, message.ply))


@handles(p.Resign)
async def resign(connection: Connection, message: p.Resign) -> p.Reply:
    games = connection.app.games
    live = await games.owned(connection.welcomed_player.id, message.game)
    return await _acted(connection, message, live, games.resign(live, message.ply))


@handles(p.GetGame)
async def get_game(connection: Connection, message: p.GetGame) -> p.Reply:
    games = connection.app.games
    live = await games.owned(connection.welcomed_player.id, message.game)
    await live.settled()
    return p.GameReply(game=p.GameView.of(games.view(live)), re=message.id)


@handles(p.HintRequest)
async def hint(connection: Connection, message: p.HintRequest) -> p.Reply:
    games = connection.app.games
    live = await games.owned(connection.welcomed_player.id, message.game)
    hint = await games.hint(live)
    return p.HintReply(move=None if hint is None else parse_action(hint), re=message.id)


ROUTES = (start_game, move, undo, resign, get_game, hint)
