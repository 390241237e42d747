"""Race rooms over the wire: create, join, leave, start, watch. The rules are the room service's,
which runs each request on the node that owns the room."""

from __future__ import annotations

from server.games.service import GameService
from server.net.connection import Connection
from server.net.routing import Route
from server.races.owners import Owners
from server.races.rooms import RoomTable
from server.races.service import RoomService
from shared import protocol as p
from shared.states import PLAYING


class RoomHandlers:
    """The messages on rooms: created here, the others run on the room's node (the owners)."""

    def __init__(
        self, rooms: RoomService, table: RoomTable, owners: Owners, games: GameService
    ) -> None:
        self.rooms = rooms
        self.table = table
        self.owners = owners
        self.games = games

    def routes(self) -> tuple[Route, ...]:
        return (
            Route(p.CreateRoom, self.create_room),
            Route(p.JoinRoom, self.join_room),
            Route(p.LeaveRoom, self.leave_room),
            Route(p.StartRace, self.start_race),
            Route(p.Watch, self.watch),
        )

    async def create_room(self, connection: Connection, message: p.CreateRoom) -> p.Reply:
        room = await self.rooms.create(connection.welcomed_player, message)
        return p.RoomReply(room=self.table.view(room), re=message.id)

    async def join_room(self, connection: Connection, message: p.JoinRoom) -> None:
        """The room, then during a race each racer's progress as it stands: the pushes
        before the join went to the members then, and one who joins mid-race (a spectator,
        a racer back) would see "no move yet" for racers who have moved."""
        view = await self.owners.join(connection.welcomed_player, message.code, message.role)
        connection.send(p.RoomReply(room=view, re=message.id))
        if view.state != p.RACING:
            return
        for player in view.players:
            if player.role == p.SPECTATOR or player.game is None:
                continue
            live = await self.owners.race.game(player.game)
            game = live.game
            if game.ply == 0 and live.state == PLAYING:
                continue  # no move yet: what a client shows without progress
            progress = p.Progress(
                code=view.code,
                player=player.id,
                ply=game.ply,
                foundation=game.foundation_cards,
                score=game.score,
                state=live.state,
            )
            connection.send(progress)

    async def leave_room(self, connection: Connection, message: p.LeaveRoom) -> p.Reply:
        await self.owners.leave(connection.welcomed_player.id, message.code)
        return p.Ok(re=message.id)

    async def start_race(self, connection: Connection, message: p.StartRace) -> p.Reply:
        player = connection.welcomed_player
        await self.owners.start(player.id, message.code, message.seed)
        return p.Ok(re=message.id)

    async def watch(self, connection: Connection, message: p.Watch) -> p.Reply:
        player = connection.welcomed_player
        shown = await self.owners.watch(connection, player.id, message.code, message.player)
        view = shown if isinstance(shown, p.GameView) else self.games.view(shown)
        return p.GameReply(game=view, code=message.code, player=message.player, re=message.id)
