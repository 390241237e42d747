"""Games: start, move, undo, resign, get, hint, and the list of the player's own games.

The rules of play are the engine's; who may act, when, and what a view shows
are the game service's.
"""

from __future__ import annotations

import datetime
import logging
from typing import TYPE_CHECKING

from server.errors import Internal
from server.games.live import deal_view
from server.net.routing import Later, handles
from server.storage.queries import games as store
from shared import protocol as p
from shared.notation import parse_action

if TYPE_CHECKING:
    from server.net.connection import Connection

log = logging.getLogger(__name__)


@handles(p.StartGame)
async def start_game(connection: Connection, message: p.StartGame) -> p.Reply:
    games = connection.app.games
    player = connection.welcomed_player
    key = None if message.key is None else bytes.fromhex(message.key)
    # A key the player names is theirs to know: it shows from the start.
    live = await games.start(
        player.id,
        message.variant,
        message.options,
        seed=message.seed,
        key=key,
        key_open=key is not None,
    )
    return p.GameReply(game=games.view(live), re=message.id)


# An action refused for its ply is StalePly, raised by the game service with the game as it
# is; the Router sends it. The game acted on may be another copy than the one found first
# (reloaded: another node had played it), hence the view of the one the service returns.


@handles(p.MoveRequest)
async def move(connection: Connection, message: p.MoveRequest) -> p.Reply:
    games = connection.app.games
    live = await games.owned(connection.welcomed_player.id, message.game)
    live = await games.move(live, message.ply, message.move)
    return p.GameReply(game=games.view(live), re=message.id)


@handles(p.Undo)
async def undo(connection: Connection, message: p.Undo) -> p.Reply:
    games = connection.app.games
    live = await games.owned(connection.welcomed_player.id, message.game)
    live = await games.undo(live, message.ply)
    return p.GameReply(game=games.view(live), re=message.id)


@handles(p.Resign)
async def resign(connection: Connection, message: p.Resign) -> p.Reply:
    games = connection.app.games
    live = await games.owned(connection.welcomed_player.id, message.game)
    live = await games.resign(live, message.ply)
    return p.GameReply(game=games.view(live), re=message.id)


@handles(p.GetGame)
async def get_game(connection: Connection, message: p.GetGame) -> p.Reply:
    games = connection.app.games
    live = await games.owned(connection.welcomed_player.id, message.game)
    live = await games.current(live.id)  # another node may have played it since
    await live.settled()
    return p.GameReply(game=games.view(live), re=message.id)


@handles(p.HintRequest)
async def hint(connection: Connection, message: p.HintRequest) -> Later:
    """Answered when the hint is ready; meanwhile the connection goes on (a refusal is now)."""
    games = connection.app.games
    live = await games.owned(connection.welcomed_player.id, message.game)
    found = games.hint(live, connection)

    async def answer() -> p.Reply:
        try:
            move = await found
        except Exception as exc:
            log.exception("game %s: the hint failed", live.id)
            raise Internal("the hint failed; try again") from exc
        return p.HintReply(move=None if move is None else parse_action(move), re=message.id)

    return Later(answer())


def utc_iso(ms: int) -> str:
    """A moment as ISO 8601 UTC, to the millisecond: ``2026-11-29T13:57:31.123Z``."""
    moment = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


@handles(p.GamesRequest)
async def games(connection: Connection, message: p.GamesRequest) -> p.Reply:
    app = connection.app
    async with app.db_sessions() as db:
        rows = await store.listed(
            db, player_id=connection.welcomed_player.id, state=message.state, limit=message.limit
        )
    now = app.clock()
    entries = []
    for row in rows:
        deal = deal_view(
            store.deal_of_row(row), key_open=row.key_open, reveal_ms=row.reveal_ms, now_ms=now
        )
        entries.append(
            p.GameEntry(
                id=row.id,
                variant=row.variant,
                options=row.options,
                deal=deal,
                kind=row.kind,
                state=row.state,
                ply=row.ply,
                score=row.score,
                elapsed_ms=max(0, (row.ended_ms or now) - row.started_ms),
                started_at=utc_iso(row.started_ms),
            )
        )
    return p.GamesReply(games=tuple(entries), re=message.id)


ROUTES = (start_game, move, undo, resign, get_game, hint, games)
