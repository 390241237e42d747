"""Games: start, move, undo, resign, get, hint, and the list of the player's own games.

The rules of play are the engine's; who may act, when, and what a view shows
are the game service's.
"""

from __future__ import annotations

import datetime
import logging

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.deals.pool import DealPool
from server.errors import Internal, Refused
from server.games.clock import elapsed
from server.games.live import Clock, deal_view
from server.games.opened import OpenGames
from server.games.service import GameService
from server.games.store import GameStore
from server.net.connection import Connection
from server.net.routing import Later, Route
from server.storage.queries import games as store
from server.storage.queries import rooms as room_store
from shared import protocol as p
from shared.notation import parse_action

log = logging.getLogger(__name__)


def utc_iso(ms: int) -> str:
    """A moment as ISO 8601 UTC, to the millisecond: ``2026-11-29T13:57:31.123Z``."""
    moment = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class GameHandlers:
    """The messages on games, answered by the game service."""

    def __init__(
        self,
        games: GameService,
        store: GameStore,
        pool: DealPool,
        db_sessions: async_sessionmaker[AsyncSession],
        clock: Clock,
        opened: OpenGames,
    ) -> None:
        self.games = games
        self.store = store
        #: the winnable deals, for a start_game that asks for one
        self.pool = pool
        #: the game each connection has open (an unranked clock pauses when nobody has)
        self.opened = opened
        self.db_sessions = db_sessions
        self.clock = clock

    def routes(self) -> tuple[Route, ...]:
        return (
            Route(p.StartGame, self.start_game),
            Route(p.MoveRequest, self.move),
            Route(p.Undo, self.undo),
            Route(p.Resign, self.resign),
            Route(p.GetGame, self.get_game),
            Route(p.LeaveGame, self.leave_game),
            Route(p.HintRequest, self.hint),
            Route(p.GamesRequest, self.list_games),
        )

    # An action refused for its ply is StalePly, raised by the game service with the game as
    # it is; the Router sends it. The game acted on may be another copy than the one found
    # first (reloaded: another node had played it), hence the view of the one the service
    # returns.

    async def start_game(self, connection: Connection, message: p.StartGame) -> p.Reply:
        games = self.games
        player = connection.welcomed_player
        key = None if message.key is None else bytes.fromhex(message.key)
        # A key the player names is theirs to know: it shows from the start. A winnable deal's
        # is the server's secret, as any key it draws.
        key_open = key is not None
        if message.winnable:
            difficulty = message.difficulty or p.MEDIUM
            key = await self.pool.draw(message.variant, message.options, difficulty)
        live = await games.start(
            player.id,
            message.variant,
            message.options,
            seed=message.seed,
            key=key,
            key_open=key_open,
        )
        self.opened.open(connection.number, live)
        return p.GameReply(game=games.view(live), re=message.id)

    async def move(self, connection: Connection, message: p.MoveRequest) -> p.Reply:
        games = self.games
        player = connection.welcomed_player.id
        live = self.store.owned_in_memory(player, message.game)  # (a game in play: no await)
        if live is None:
            live = await self.store.owned(player, message.game)
        self.opened.open(connection.number, live)
        live = await games.move(live, message.ply, message.move)
        return p.GameReply(game=games.view(live), re=message.id)

    async def undo(self, connection: Connection, message: p.Undo) -> p.Reply:
        games = self.games
        player = connection.welcomed_player.id
        live = self.store.owned_in_memory(player, message.game)  # (a game in play: no await)
        if live is None:
            live = await self.store.owned(player, message.game)
        self.opened.open(connection.number, live)
        live = await games.undo(live, message.ply)
        return p.GameReply(game=games.view(live), re=message.id)

    async def resign(self, connection: Connection, message: p.Resign) -> p.Reply:
        games = self.games
        player = connection.welcomed_player.id
        live = self.store.owned_in_memory(player, message.game)  # (a game in play: no await)
        if live is None:
            live = await self.store.owned(player, message.game)
        self.opened.open(connection.number, live)
        live = await games.resign(live, message.ply)
        return p.GameReply(game=games.view(live), re=message.id)

    async def get_game(self, connection: Connection, message: p.GetGame) -> p.Reply:
        games = self.games
        live = await self.store.owned(connection.welcomed_player.id, message.game)
        live = await self.store.current(live.id)  # another node may have played it since
        await live.settled()
        self.opened.open(connection.number, live)
        return p.GameReply(game=games.view(live), re=message.id)

    async def leave_game(self, connection: Connection, message: p.LeaveGame) -> p.Reply:
        """The client no longer shows the game: its clock pauses if nobody else has it open."""
        self.opened.leave(connection.number, message.game)
        return p.Ok(re=message.id)

    async def hint(self, connection: Connection, message: p.HintRequest) -> Later:
        """Answered when the hint is ready; meanwhile the connection goes on (a refusal is now)."""
        games = self.games
        live = await self.store.owned(connection.welcomed_player.id, message.game)
        self.opened.open(connection.number, live)
        found = games.hint(live, connection)

        async def answer() -> p.Reply:
            try:
                move = await found
            except Refused:
                raise  # busy while waiting its turn: the router says so
            except Exception as exc:
                log.exception("game %s: the hint failed", live.id)
                raise Internal("the hint failed; try again") from exc
            return p.HintReply(move=None if move is None else parse_action(move), re=message.id)

        return Later(answer())

    async def list_games(self, connection: Connection, message: p.GamesRequest) -> p.Reply:
        async with self.db_sessions() as db:
            rows = await store.listed(
                db,
                player_id=connection.welcomed_player.id,
                state=message.state,
                limit=message.limit,
            )
            rooms = await room_store.race_games_of(db, player_id=connection.welcomed_player.id)
        now = self.clock()
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
                    elapsed_ms=elapsed(
                        now,
                        started_ms=row.started_ms,
                        paused_ms=row.paused_ms,
                        stopped_ms=row.stopped_ms,
                        ended_ms=row.ended_ms,
                    ),
                    started_at=utc_iso(row.started_ms),
                    room=rooms.get(row.id),
                )
            )
        return p.GamesReply(games=tuple(entries), re=message.id)
