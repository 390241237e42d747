"""The guards the game service asks of races: a racer's deal locked, a race game's hints."""

from __future__ import annotations

from server.errors import HintsOff, RaceLocked
from server.games.live import LiveGame
from server.races.race import RaceRunner
from server.races.rooms import RoomTable
from server.races.state import COUNTDOWN, RACING, RoomState
from shared import protocol as p


class RoomGuards:
    """What :class:`~server.races.service.RoomService` answers the game service before a game
    starts (``race_locked``) and before a hint (``hints_off``)."""

    table: RoomTable
    race: RaceRunner
    rooms: dict[str, RoomState]

    async def race_lock(
        self, player: int, variant: str, seed: int | None, _options: dict[str, bool | int]
    ) -> None:
        """``race_locked``: a racer does not play their race's numbered deal on the side."""
        if seed is None:
            return
        for room in await self.table.all_rooms_of(player):
            if (room.variant, room.race_seed) != (variant, seed):
                continue
            if room.state == COUNTDOWN:
                racing = any(m.id == player and m.racer for m in room.members)
            else:
                racing = room.state == RACING and not await self.race.done_racing(room, player)
            if racing:
                raise RaceLocked(
                    f"you are racing on {variant} deal {seed} in room {room.code}: "
                    "play it once your race game has ended",
                )

    def hint_lock(self, live: LiveGame) -> None:
        """``hints_off``: a race game's hints are the room's to allow."""
        if live.kind != p.RACE:
            return
        code = self.race.by_game.get(live.id)
        room = self.rooms.get(code) if code is not None else None
        hints = room.hints if room is not None else self.race.hinted.get(live.id, False)
        if not hints:
            raise HintsOff("hints are off in this race")
