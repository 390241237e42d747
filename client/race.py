"""What the client knows of its race room, updated from the server's pushes.

Pure bookkeeping: the room view, each racer's last ``progress``, the
countdown and the final standings, so that screens can draw them and tests
can check them without a terminal.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from client.clock import Clock
from shared.protocol import (
    COUNTDOWN,
    OVER,
    RACING,
    SPECTATOR,
    WAITING,
    GameView,
    MatchView,
    Progress,
    RaceCountdown,
    RaceOver,
    RaceStarted,
    Reply,
    RoomPlayer,
    RoomReply,
    RoomView,
    Standing,
)

#: news of a race, for the room its ``code`` names
RACE_NEWS = (RaceCountdown, RaceStarted, Progress, RaceOver)
#: the messages that concern the race room (as replies or pushes)
RACE_PUSHES = (RoomReply, *RACE_NEWS)


@dataclass
class RaceState:
    """The room we are in, if any, and the latest news of it."""

    clock: Clock
    room: RoomView | None = None
    progress: dict[int, Progress] = field(default_factory=dict)
    standings: tuple[Standing, ...] | None = None
    countdown_end: float | None = None
    game: GameView | None = None
    #: the live match between the room's two racers, as the server last told it
    match: MatchView | None = None

    @property
    def code(self) -> str | None:
        return None if self.room is None else self.room.code

    def room_match(self) -> MatchView | None:
        """The latest match of this room, played or over (a match's id begins with its
        room's code and a dash); None for another room's."""
        match, code = self.match, self.code
        if match is None or code is None or not match.id.startswith(f"{code}-"):
            return None
        return match

    def names(self) -> dict[int, str]:
        return {} if self.room is None else self.room.names()

    def member(self, player: int | None) -> RoomPlayer | None:
        if self.room is None:
            return None
        return next((p for p in self.room.players if p.id == player), None)

    def game_of(self, player: int | None) -> str | None:
        """The player's game in the room's current or last race (None: sat it out)."""
        member = self.member(player)
        return None if member is None else member.game

    def spectating(self, player: int | None) -> bool:
        member = self.member(player)
        return member is not None and member.role == SPECTATOR

    def racers(self) -> list[RoomPlayer]:
        return [] if self.room is None else [p for p in self.room.players if p.role != SPECTATOR]

    def apply(self, message: Reply) -> bool:
        """Take in one push or reply; True when it concerned this room."""
        if isinstance(message, RoomReply):
            room = message.room
            if self.room is None or room.code != self.room.code:
                self.progress.clear()
                self.standings = None
            self.room = room
            if room.state == WAITING:
                self.countdown_end = None
            return True
        if not isinstance(message, RACE_NEWS) or self.code is None or message.code != self.code:
            return False
        if isinstance(message, RaceCountdown):
            self.countdown_end = self.clock() + message.start_in_ms / 1000
            self.standings = None
            self.progress.clear()
            self._room_state(COUNTDOWN)
        elif isinstance(message, RaceStarted):
            self.countdown_end = None
            self.game = message.game
            self._room_state(RACING)
        elif isinstance(message, Progress):
            self.progress[message.player] = message
        else:
            self.standings = message.standings
            self._room_state(OVER)
        return True

    def _room_state(self, state: str) -> None:
        if self.room is not None:
            self.room = dataclasses.replace(self.room, state=state)

    def leave(self) -> None:
        self.room = None
        self.progress.clear()
        self.standings = None
        self.countdown_end = None
        self.game = None

    def countdown_left(self) -> float | None:
        if self.countdown_end is None:
            return None
        return max(0.0, self.countdown_end - self.clock())
