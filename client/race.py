"""What the client knows of its race room, updated from the server's pushes.

Pure bookkeeping: the room view, each racer's last ``progress``, the
countdown and the final standings, so that screens can draw them and tests
can check them without a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from client.clock import Clock

RACE_PUSHES = frozenset({"room", "race_countdown", "race_started", "progress", "race_over"})


@dataclass
class RaceState:
    """The room we are in, if any, and the latest news of it."""

    clock: Clock
    room: dict[str, Any] | None = None
    progress: dict[int, dict[str, Any]] = field(default_factory=dict)
    standings: list[dict[str, Any]] | None = None
    countdown_end: float | None = None
    game: dict[str, Any] | None = None

    @property
    def code(self) -> str | None:
        return None if self.room is None else str(self.room["code"])

    def names(self) -> dict[int, str]:
        if self.room is None:
            return {}
        return {int(p["id"]): str(p["name"]) for p in self.room.get("players", [])}

    def apply(self, message: dict[str, Any]) -> bool:
        """Take in one push or reply; True when it concerned this room."""
        kind = message.get("type")
        if kind == "room" and isinstance(message.get("room"), dict):
            room = message["room"]
            if self.room is None or room.get("code") != self.room.get("code"):
                self.progress.clear()
                self.standings = None
            self.room = room
            if room.get("state") in ("waiting",):
                self.countdown_end = None
            return True
        if message.get("code") != self.code or self.code is None:
            return False
        if kind == "race_countdown":
            self.countdown_end = self.clock() + int(message.get("start_in_ms", 0)) / 1000
            self.standings = None
            self.progress.clear()
            if self.room is not None:
                self.room["state"] = "countdown"
        elif kind == "race_started":
            self.countdown_end = None
            self.game = message.get("game")
            if self.room is not None:
                self.room["state"] = "racing"
        elif kind == "progress":
            self.progress[int(message["player"])] = message
        elif kind == "race_over":
            self.standings = list(message.get("standings", []))
            if self.room is not None:
                self.room["state"] = "over"
        else:
            return False
        return True

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
