"""Solo games: start, move, undo, resign, get, hint. The rules are the engine's."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING

from server.handlers import handles
from server.live import LiveGame
from shared import protocol as p
from shared.errors import ProtocolError
from shared.notation import parse_action

if TYPE_CHECKING:
    from server.session import Session


def _player(session: Session) -> int:
    assert session.player is not None  # the dispatcher lets only welcomed sessions here
    return session.player.id


async def _acted(
    session: Session, message: p.Request, live: LiveGame, act: Awaitable[LiveGame]
) -> p.Reply:
    """The game after an action, or ``stale_ply`` with the game as it is."""
    games = session.app.games
    try:
        await act
    except ProtocolError as exc:
        if exc.code != p.STALE_PLY:
            raise
        view = p.GameView.of(games.view(live))
        return p.Error(code=exc.code, message=exc.message, game=view, re=message.id)
    return p.GameReply(game=p.GameView.of(games.view(live)), re=message.id)


@handles(p.StartGame)
async def start_game(session: Session, message: p.StartGame) -> p.Reply:
    games = session.app.games
    live = await games.start(_player(session), message.variant, message.seed, message.options)
    return p.GameReply(game=p.GameView.of(games.view(live)), re=message.id)


@handles(p.MoveRequest)
async def move(session: Session, message: p.MoveRequest) -> p.Reply:
    games = session.app.games
    live = await games.owned(_player(session), message.game)
    return await _acted(session, message, live, games.move(live, message.ply, message.move))


@handles(p.Undo)
async def undo(session: Session, message: p.Undo) -> p.Reply:
    games = session.app.games
    live = await games.owned(_player(session), message.game)
    return await _acted(session, message, live, games.undo(live, message.ply))


@handles(p.Resign)
async def resign(session: Session, message: p.Resign) -> p.Reply:
    games = session.app.games
    live = await games.owned(_player(session), message.game)
    return await _acted(session, message, live, games.resign(live, message.ply))


@handles(p.GetGame)
async def get_game(session: Session, message: p.GetGame) -> p.Reply:
    games = session.app.games
    live = await games.owned(_player(session), message.game)
    await live.settled()
    return p.GameReply(game=p.GameView.of(games.view(live)), re=message.id)


@handles(p.HintRequest)
async def hint(session: Session, message: p.HintRequest) -> p.Reply:
    games = session.app.games
    live = await games.owned(_player(session), message.game)
    hint = await games.hint(live)
    return p.HintReply(move=None if hint is None else parse_action(hint), re=message.id)
