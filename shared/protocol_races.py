"""Messages of races, daily challenges, leaderboards and statistics (protocol.md, issue 5).

Same rules as :mod:`shared.protocol`: one class per message, every field
checked in ``from_map``, each registered with :func:`shared.protocol.request`
or :func:`shared.protocol.reply` so that clients check what they send and
decode what they get; the server's handlers register them again (the same
classes) through ``@handles``.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from shared import protocol as p
from shared.errors import ProtocolError

# Error codes of protocol.md, "Races".
ROOM_FULL = "room_full"
NOT_HOST = "not_host"
RACE_IN_PROGRESS = "race_in_progress"
NOT_IN_ROOM = "not_in_room"
#: an addition to protocol.md: a player is in too many rooms to create or join another
TOO_MANY_ROOMS = "too_many_rooms"
#: rooms one player may be in at once
MAX_ROOMS_PER_PLAYER = 8

#: room codes are read aloud: no 0/O, no 1/I
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 6
CODE_RE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
MAX_PLAYERS = 8
#: a race lasts from one minute to one day
MIN_TIME_LIMIT_S = 60
MAX_TIME_LIMIT_S = 86_400
MAX_LEADERBOARD = 100
_INT64 = 2**63


def room_code(m: Mapping[str, Any], name: str = "code") -> str:
    """A room code, upper-cased: a person may type it in lower case."""
    raw = p.req_str(m, name, 16)
    code = raw.upper()
    if not CODE_RE.fullmatch(code):
        raise ProtocolError(
            p.INVALID_FIELD,
            f"field {name!r} must be {CODE_LENGTH} of {CODE_ALPHABET!r}, not {raw[:16]!r}",
        )
    return code


def day(m: Mapping[str, Any], name: str = "date") -> str | None:
    """A UTC date as ``YYYY-MM-DD``, or None when absent."""
    if name not in m:
        return None
    raw = p.req_str(m, name, 10)
    try:
        return datetime.date.fromisoformat(raw).isoformat() if len(raw) == 10 else _bad_date(raw)
    except ValueError:
        return _bad_date(raw)


def _bad_date(raw: str) -> str:
    raise ProtocolError(
        p.INVALID_FIELD, f"field 'date' must be a date like 2026-11-29, not {raw!r}"
    )


# -- requests ------------------------------------------------------------------------


@p.request
@dataclass(frozen=True, slots=True)
class CreateRoom(p.Request):
    type: ClassVar[str] = "create_room"
    variant: str
    options: dict[str, bool | int] = field(default_factory=dict)
    seed: int | None = None
    max_players: int = MAX_PLAYERS
    time_limit_s: int | None = None

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {
            "variant": self.variant,
            "options": dict(self.options),
            "max_players": self.max_players,
        }
        if self.seed is not None:
            m["seed"] = self.seed
        if self.time_limit_s is not None:
            m["time_limit_s"] = self.time_limit_s
        return m

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> CreateRoom:
        players = p.get_int(m, "max_players", 1, MAX_PLAYERS, required=False)
        return cls(
            variant=p.req_str(m, "variant", p.MAX_ID_LENGTH),
            options=p.get_options(m),
            seed=p.get_int(m, "seed", 1, p.MAX_SEED, required=False),
            max_players=MAX_PLAYERS if players is None else players,
            time_limit_s=p.get_int(
                m, "time_limit_s", MIN_TIME_LIMIT_S, MAX_TIME_LIMIT_S, required=False
            ),
            id=m.get("id"),
        )


@dataclass(frozen=True, slots=True)
class RoomRequest(p.Request):
    """A request about one room, by its code."""

    code: str

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"code": self.code}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> RoomRequest:
        return cls(code=room_code(m), id=m.get("id"))


@p.request
@dataclass(frozen=True, slots=True)
class JoinRoom(RoomRequest):
    type: ClassVar[str] = "join_room"


@p.request
@dataclass(frozen=True, slots=True)
class LeaveRoom(RoomRequest):
    type: ClassVar[str] = "leave_room"


@p.request
@dataclass(frozen=True, slots=True)
class StartRace(p.Request):
    type: ClassVar[str] = "start_race"
    code: str
    seed: int | None = None

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {"code": self.code}
        if self.seed is not None:
            m["seed"] = self.seed
        return m

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> StartRace:
        return cls(
            code=room_code(m),
            seed=p.get_int(m, "seed", 1, p.MAX_SEED, required=False),
            id=m.get("id"),
        )


@p.request
@dataclass(frozen=True, slots=True)
class Watch(p.Request):
    type: ClassVar[str] = "watch"
    code: str
    player: int

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"code": self.code, "player": self.player}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Watch:
        return cls(code=room_code(m), player=p.req_int(m, "player", 1, _INT64 - 1), id=m.get("id"))


@p.request
@dataclass(frozen=True, slots=True)
class DailyRequest(p.Request):
    type: ClassVar[str] = "daily"
    variant: str

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"variant": self.variant}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> DailyRequest:
        return cls(variant=p.req_str(m, "variant", p.MAX_ID_LENGTH), id=m.get("id"))


@p.request
@dataclass(frozen=True, slots=True)
class LeaderboardRequest(p.Request):
    type: ClassVar[str] = "leaderboard"
    variant: str
    date: str | None = None
    limit: int = 50

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {"variant": self.variant, "limit": self.limit}
        if self.date is not None:
            m["date"] = self.date
        return m

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> LeaderboardRequest:
        limit = p.get_int(m, "limit", 1, _INT64 - 1, required=False)
        return cls(
            variant=p.req_str(m, "variant", p.MAX_ID_LENGTH),
            date=day(m),
            limit=50 if limit is None else min(limit, MAX_LEADERBOARD),
            id=m.get("id"),
        )


@p.request
@dataclass(frozen=True, slots=True)
class StatsRequest(p.Request):
    """``stats``: a player's statistics; the asking player's own when ``player`` is absent."""

    type: ClassVar[str] = "stats"
    player: int | None = None

    def to_map(self) -> dict[str, Any]:
        m = self._envelope()
        if self.player is not None:
            m["player"] = self.player
        return m

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> StatsRequest:
        return cls(player=p.get_int(m, "player", 1, _INT64 - 1, required=False), id=m.get("id"))


# -- replies and pushes -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MapReply(p.Reply):
    """A reply or push whose body is a few named maps and values, checked for presence."""

    fields: dict[str, Any] = field(default_factory=dict)
    required: ClassVar[tuple[str, ...]] = ()

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | self.fields

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> MapReply:
        for name in cls.required:
            if name not in m:
                raise ProtocolError(p.INVALID_FIELD, f"field {name!r} is missing")
        body = {k: v for k, v in m.items() if k not in ("type", "re")}
        return cls(fields=body, re=p.get_int(m, "re", -_INT64, _INT64 - 1, required=False))


@p.reply
@dataclass(frozen=True, slots=True)
class RoomMessage(MapReply):
    type: ClassVar[str] = "room"
    required: ClassVar[tuple[str, ...]] = ("room",)


@p.reply
@dataclass(frozen=True, slots=True)
class RaceCountdown(MapReply):
    type: ClassVar[str] = "race_countdown"
    required: ClassVar[tuple[str, ...]] = ("code", "start_in_ms")


@p.reply
@dataclass(frozen=True, slots=True)
class RaceStarted(MapReply):
    type: ClassVar[str] = "race_started"
    required: ClassVar[tuple[str, ...]] = ("code", "game")


@p.reply
@dataclass(frozen=True, slots=True)
class Progress(MapReply):
    type: ClassVar[str] = "progress"
    required: ClassVar[tuple[str, ...]] = ("code", "player", "ply", "foundation", "score", "state")


@p.reply
@dataclass(frozen=True, slots=True)
class RaceOver(MapReply):
    type: ClassVar[str] = "race_over"
    required: ClassVar[tuple[str, ...]] = ("code", "standings")


@p.reply
@dataclass(frozen=True, slots=True)
class Leaderboard(MapReply):
    type: ClassVar[str] = "leaderboard"
    required: ClassVar[tuple[str, ...]] = ("variant", "date", "entries", "me")


@p.reply
@dataclass(frozen=True, slots=True)
class Stats(MapReply):
    type: ClassVar[str] = "stats"
    required: ClassVar[tuple[str, ...]] = ("player", "variants", "daily_streak")


__all__ = [
    "CODE_ALPHABET",
    "NOT_HOST",
    "NOT_IN_ROOM",
    "RACE_IN_PROGRESS",
    "ROOM_FULL",
    "TOO_MANY_ROOMS",
    "CreateRoom",
    "DailyRequest",
    "JoinRoom",
    "Leaderboard",
    "LeaderboardRequest",
    "LeaveRoom",
    "Progress",
    "RaceCountdown",
    "RaceOver",
    "RaceStarted",
    "RoomMessage",
    "StartRace",
    "Stats",
    "StatsRequest",
    "Watch",
]
