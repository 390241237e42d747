"""Race rooms: create, join, leave, start a race, watch a racer; the room and race pushes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from shared.protocol.daily import Standing
from shared.protocol.envelope import (
    INT64_MAX,
    MAX_ID_LENGTH,
    MAX_PLY,
    MAX_SEED,
    Part,
    Reply,
    Request,
    invalid,
    nested,
    nested_list,
    nullable,
    opt_int,
    opt_nested,
    option_map,
    present,
    reply_to,
    req_bool,
    req_choice,
    req_count,
    req_int,
    req_str,
    request_id,
)
from shared.protocol.games import DIFFICULTIES
from shared.protocol.ratings import PlayerRating, opt_rating
from shared.protocol.session import MAX_NAME_LENGTH
from shared.protocol.views import GAME_STATES, GameView

#: room codes are read aloud: no 0/O, no 1/I
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 6
CODE_RE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
MAX_PLAYERS = 8
#: spectators a room takes beside its racers
MAX_SPECTATORS = 32
RACER, SPECTATOR = "racer", "spectator"
ROLES = (RACER, SPECTATOR)
#: a race lasts from one minute to one day
MIN_TIME_LIMIT_S = 60
MAX_TIME_LIMIT_S = 86_400
#: rooms one player may be in at once
MAX_ROOMS_PER_PLAYER = 8
WAITING, COUNTDOWN, RACING, OVER = "waiting", "countdown", "racing", "over"
ROOM_STATES = (WAITING, COUNTDOWN, RACING, OVER)
#: what spectators see of a racer's board while a race runs: all of it at once, the board of
#: a while ago (the server's ``board_delay_s``), or none (progress only); once the race is
#: over, every board is shown. A rated room's boards are hidden.
LIVE, DELAYED, HIDDEN = "live", "delayed", "hidden"
BOARD_RULES = (LIVE, DELAYED, HIDDEN)


def room_code(m: Mapping[str, Any], name: str = "code") -> str:
    """A room code, upper-cased: a person may type it in lower case."""
    raw = req_str(m, name, 16)
    code = raw.upper()
    if not CODE_RE.fullmatch(code):
        raise invalid(name, f"must be {CODE_LENGTH} of {CODE_ALPHABET!r}, not {raw[:16]!r}")
    return code


def _player_id(m: Mapping[str, Any], name: str) -> int:
    return req_int(m, name, 1, INT64_MAX)


# -- views ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoomPlayer(Part):
    """A member of a room: a racer or a spectator, a bot or not; ``game`` is a racer's game in
    the current or last race (None when they sat it out, and for spectators)."""

    id: int
    name: str
    connected: bool
    game: str | None
    role: str = RACER
    bot: bool = False
    #: their rating on the room's variant, None when they have none (bots never have one)
    rating: PlayerRating | None = None

    def to_map(self) -> dict[str, Any]:
        m = {
            "id": self.id,
            "name": self.name,
            "connected": self.connected,
            "game": self.game,
            "role": self.role,
            "bot": self.bot,
        }
        return present(m, rating=self.rating)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            id=_player_id(m, "id"),
            name=req_str(m, "name", MAX_NAME_LENGTH),
            connected=req_bool(m, "connected"),
            game=nullable(m, "game", lambda m, name: req_str(m, name, MAX_ID_LENGTH)),
            role=req_choice(m, "role", ROLES),
            bot=req_bool(m, "bot"),
            rating=opt_rating(m),
        )


@dataclass(frozen=True, slots=True)
class RoomView(Part):
    """A room as its members see it; ``race`` counts the races it has started, ``seed`` is the
    numbered deal of the current or last race (or of the next, while the room waits for a
    numbered first race), None when that race is keyed."""

    code: str
    variant: str
    options: Mapping[str, bool | int]
    host: int
    players: tuple[RoomPlayer, ...]
    state: str
    max_players: int
    time_limit_s: int
    race: int
    hints: bool = False
    seed: int | None = None
    #: its races are rated: a deal the server draws, human racers only
    rated: bool = False
    boards: str = LIVE
    #: its races deal winnable deals of this difficulty (None: any deal)
    difficulty: str | None = None

    def to_map(self) -> dict[str, Any]:
        m = {
            "code": self.code,
            "variant": self.variant,
            "options": dict(self.options),
            "host": self.host,
            "players": [player.to_map() for player in self.players],
            "state": self.state,
            "max_players": self.max_players,
            "time_limit_s": self.time_limit_s,
            "race": self.race,
            "hints": self.hints,
            "seed": self.seed,
            "rated": self.rated,
            "boards": self.boards,
        }
        return present(m, difficulty=self.difficulty)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            code=room_code(m),
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            options=option_map(m, required=True),
            host=_player_id(m, "host"),
            players=nested_list(m, "players", RoomPlayer.from_map),
            state=req_choice(m, "state", ROOM_STATES),
            max_players=req_int(m, "max_players", 1, MAX_PLAYERS),
            # the server's default limit is its operator's to choose
            time_limit_s=req_int(m, "time_limit_s", 1, INT64_MAX),
            race=req_count(m, "race"),
            hints=req_bool(m, "hints"),
            seed=nullable(m, "seed", lambda m, name: req_int(m, name, 1, MAX_SEED)),
            rated=req_bool(m, "rated"),
            boards=req_choice(m, "boards", BOARD_RULES),
            difficulty=req_choice(m, "difficulty", DIFFICULTIES) if "difficulty" in m else None,
        )

    def names(self) -> dict[int, str]:
        return {player.id: player.name for player in self.players}


# -- requests --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CreateRoom(Request):
    """A room for racing on one variant; ``time_limit_s`` None is the server's default;
    ``hints`` allows hints in its races; ``rated``: ranked races (a keyed deal the server
    draws, human racers, no hints, boards hidden until the race is over); ``boards``: what
    spectators see of the racers' boards in a friendly room; ``winnable``: its races deal
    secret deals the server's solver has won, of ``difficulty`` (medium unless said)."""

    type: ClassVar[str] = "create_room"
    variant: str
    options: Mapping[str, bool | int] = field(default_factory=dict)
    seed: int | None = None
    max_players: int = MAX_PLAYERS
    time_limit_s: int | None = None
    hints: bool = False
    #: its races are rated (refused with a ``seed``: a rated race's deal is the server's)
    rated: bool = False
    boards: str = LIVE
    winnable: bool = False
    difficulty: str | None = None

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {
            "variant": self.variant,
            "options": dict(self.options),
            "max_players": self.max_players,
            "hints": self.hints,
            "rated": self.rated,
            "boards": self.boards,
        }
        if self.winnable:
            m["winnable"] = True
        return present(
            m, seed=self.seed, time_limit_s=self.time_limit_s, difficulty=self.difficulty
        )

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        players = opt_int(m, "max_players", 1, MAX_PLAYERS)
        winnable = req_bool(m, "winnable") if "winnable" in m else False
        if winnable and "seed" in m:
            raise invalid("winnable", "asks the server for its races' deals: send no seed")
        if "difficulty" in m and not winnable:
            raise invalid("difficulty", "is for winnable deals: send winnable true with it")
        return cls(
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            options=option_map(m),
            seed=opt_int(m, "seed", 1, MAX_SEED),
            max_players=MAX_PLAYERS if players is None else players,
            time_limit_s=opt_int(m, "time_limit_s", MIN_TIME_LIMIT_S, MAX_TIME_LIMIT_S),
            hints=req_bool(m, "hints") if "hints" in m else False,
            rated=req_bool(m, "rated") if "rated" in m else False,
            boards=req_choice(m, "boards", BOARD_RULES) if "boards" in m else LIVE,
            winnable=winnable,
            difficulty=req_choice(m, "difficulty", DIFFICULTIES) if "difficulty" in m else None,
            id=request_id(m),
        )


@dataclass(frozen=True, slots=True)
class RoomRequest(Request):
    """A request about one room, by its code."""

    code: str

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"code": self.code}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(code=room_code(m), id=request_id(m))


@dataclass(frozen=True, slots=True)
class JoinRoom(Request):
    """Join a room as a racer (the default) or a spectator."""

    type: ClassVar[str] = "join_room"
    code: str
    role: str = RACER

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"code": self.code, "role": self.role}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        role = req_choice(m, "role", ROLES) if "role" in m else RACER
        return cls(code=room_code(m), role=role, id=request_id(m))


@dataclass(frozen=True, slots=True)
class LeaveRoom(RoomRequest):
    type: ClassVar[str] = "leave_room"


@dataclass(frozen=True, slots=True)
class StartRace(Request):
    """The host starts a race (or a rematch), on ``seed`` or a deal the server draws."""

    type: ClassVar[str] = "start_race"
    code: str
    seed: int | None = None

    def to_map(self) -> dict[str, Any]:
        return present(self._envelope() | {"code": self.code}, seed=self.seed)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(code=room_code(m), seed=opt_int(m, "seed", 1, MAX_SEED), id=request_id(m))


@dataclass(frozen=True, slots=True)
class Watch(Request):
    """Follow another member's board: its ``game`` now, then a ``game`` push per action."""

    type: ClassVar[str] = "watch"
    code: str
    player: int

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"code": self.code, "player": self.player}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(code=room_code(m), player=_player_id(m, "player"), id=request_id(m))


# -- replies and pushes ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoomReply(Reply):
    """``room``: the answer to create and join, and the push after every change of a room."""

    type: ClassVar[str] = "room"
    room: RoomView

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"room": self.room.to_map()}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(room=nested(m, "room", RoomView.from_map), re=reply_to(m))


@dataclass(frozen=True, slots=True)
class RaceCountdown(Reply):
    type: ClassVar[str] = "race_countdown"
    code: str
    start_in_ms: int

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"code": self.code, "start_in_ms": self.start_in_ms}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            code=room_code(m),
            start_in_ms=req_count(m, "start_in_ms"),
            re=reply_to(m),
        )


@dataclass(frozen=True, slots=True)
class RaceStarted(Reply):
    """Each racer's own game of the race, all on one deal; spectators get it without one."""

    type: ClassVar[str] = "race_started"
    code: str
    game: GameView | None = None

    def to_map(self) -> dict[str, Any]:
        return present(self._envelope() | {"code": self.code}, game=self.game)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        game = opt_nested(m, "game", GameView.from_map)
        return cls(code=room_code(m), game=game, re=reply_to(m))


@dataclass(frozen=True, slots=True)
class Progress(Reply):
    """Another racer's action: their ply, cards on the foundations, score and state."""

    type: ClassVar[str] = "progress"
    code: str
    player: int
    ply: int
    foundation: int
    score: int
    state: str

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "code": self.code,
            "player": self.player,
            "ply": self.ply,
            "foundation": self.foundation,
            "score": self.score,
            "state": self.state,
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            code=room_code(m),
            player=_player_id(m, "player"),
            ply=req_int(m, "ply", 0, MAX_PLY),
            foundation=req_count(m, "foundation"),
            score=req_count(m, "score"),
            state=req_choice(m, "state", GAME_STATES),
            re=reply_to(m),
        )


@dataclass(frozen=True, slots=True)
class RaceOver(Reply):
    type: ClassVar[str] = "race_over"
    code: str
    standings: tuple[Standing, ...]

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "code": self.code,
            "standings": [standing.to_map() for standing in self.standings],
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            code=room_code(m),
            standings=nested_list(m, "standings", Standing.from_map),
            re=reply_to(m),
        )


# fmt: off
__all__ = [
    "BOARD_RULES", "CODE_ALPHABET", "CODE_LENGTH", "COUNTDOWN", "DELAYED", "HIDDEN", "LIVE",
    "MAX_PLAYERS", "MAX_ROOMS_PER_PLAYER",
    "MAX_SPECTATORS", "OVER", "RACER", "RACING", "ROLES", "ROOM_STATES", "SPECTATOR", "WAITING",
    "CreateRoom", "JoinRoom", "LeaveRoom", "Progress", "RaceCountdown", "RaceOver",
    "RaceStarted", "RoomPlayer", "RoomReply", "RoomRequest", "RoomView", "StartRace", "Watch",
    "room_code",
]
# fmt: on
