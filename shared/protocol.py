"""The wire protocol's messages (protocol.md), sans I/O: bytes in, typed messages out.

One class per message. ``decode`` turns a frame into a request (client to
server) and ``decode_reply`` a frame into a reply or push (server to client);
both validate every field and raise :class:`ProtocolError` with the
protocol's code and a message naming the field. ``encode`` does the reverse.
Nothing here touches a socket, a clock or a database, so the server, the
client and the tests share it. This is the one ``shared`` module that may
import msgpack: the wire format is its whole purpose.

Other modules extend the protocol with :func:`request` and :func:`reply`
(class decorators that register a message type).
"""

from __future__ import annotations

import functools
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

import msgpack

from shared.errors import InvalidNotation, ProtocolError
from shared.notation import AUTO, DEAL, UNDO, Move

PROTOCOL_VERSION = 1

# Error codes of protocol.md (session, games, limits) plus ``internal``.
BAD_MESSAGE = "bad_message"
UNKNOWN_TYPE = "unknown_type"
INVALID_FIELD = "invalid_field"
HELLO_FIRST = "hello_first"
PROTOCOL_MISMATCH = "protocol_mismatch"
BAD_TOKEN = "bad_token"
BANNED = "banned"
NAME_TAKEN = "name_taken"
INVALID_NAME = "invalid_name"
ALREADY_WELCOMED = "already_welcomed"
STALE_PLY = "stale_ply"
ILLEGAL_MOVE = "illegal_move"
FORBIDDEN = "forbidden"
NOT_FOUND = "not_found"
GAME_OVER = "game_over"
DAILY_LOCKED = "daily_locked"
RATE_LIMITED = "rate_limited"
INTERNAL = "internal"

#: codes that are the client's own mistake: they count towards the close with 1008
CLIENT_FAULTS = frozenset({BAD_MESSAGE, UNKNOWN_TYPE, INVALID_FIELD, HELLO_FIRST})

NAME_RE = re.compile(r"[A-Za-z0-9_-]{1,24}")
MAX_SEED = 2**31 - 1
#: far more actions than any game has; keeps integers small enough for any database
MAX_PLY = 1_000_000
MAX_ID_LENGTH = 32
MAX_TOKEN_LENGTH = 256
MAX_CLIENT_LENGTH = 64
MAX_MOVE_LENGTH = 16
MAX_OPTIONS = 16
MAX_OPTION_NAME = 32
_INT64 = 2**63


# -- field checks ----------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def parse_move(text: str) -> Move:
    """``Move.parse``, remembered: a server sees the same few hundred moves again and again.

    A refused text raises :class:`InvalidNotation` every time (not cached).
    """
    return Move.parse(text)


def _invalid(name: str, why: str) -> ProtocolError:
    return ProtocolError(INVALID_FIELD, f"field {name!r} {why}")


def get_str(m: Mapping[str, Any], name: str, max_len: int, *, required: bool = True) -> str | None:
    """A string field of 1 to ``max_len`` characters (or absent when not ``required``)."""
    value = m.get(name)
    if value is None and not required and name not in m:
        return None
    if not isinstance(value, str):
        raise _invalid(name, f"must be a string, not {_kind(value)}")
    if not 1 <= len(value) <= max_len:
        raise _invalid(name, f"must have 1 to {max_len} characters, not {len(value)}")
    return value


def req_str(m: Mapping[str, Any], name: str, max_len: int) -> str:
    value = get_str(m, name, max_len)
    assert value is not None
    return value


def get_int(
    m: Mapping[str, Any], name: str, lo: int, hi: int, *, required: bool = True
) -> int | None:
    """An integer field from ``lo`` to ``hi`` (booleans are not integers here)."""
    if name not in m and not required:
        return None
    value = m.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _invalid(name, f"must be an integer, not {_kind(value)}")
    if not lo <= value <= hi:
        raise _invalid(name, f"must be from {lo} to {hi}, not {value}")
    return value


def req_int(m: Mapping[str, Any], name: str, lo: int, hi: int) -> int:
    value = get_int(m, name, lo, hi)
    assert value is not None
    return value


def get_options(m: Mapping[str, Any], name: str = "options") -> dict[str, bool | int]:
    """A map of option names to booleans or integers; absent means no options."""
    if name not in m:
        return {}
    value = m[name]
    if not isinstance(value, dict):
        raise _invalid(name, f"must be a map, not {_kind(value)}")
    if len(value) > MAX_OPTIONS:
        raise _invalid(name, f"has {len(value)} entries; at most {MAX_OPTIONS}")
    options: dict[str, bool | int] = {}
    for key, item in value.items():
        if not isinstance(key, str) or not 1 <= len(key) <= MAX_OPTION_NAME:
            raise _invalid(name, f"has a key that is not a short string: {key!r:.40}")
        if not isinstance(item, bool | int) or not -_INT64 <= item < _INT64:
            raise _invalid(name, f"option {key!r} must be a boolean or an integer")
        options[key] = item
    return options


def _kind(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "a boolean"
    return {
        int: "an integer",
        float: "a number",
        str: "a string",
        bytes: "binary data",
        list: "a list",
        dict: "a map",
    }.get(type(value), type(value).__name__)


# -- messages ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Message(ABC):
    """A protocol message. ``type`` names it on the wire."""

    type: ClassVar[str]

    @abstractmethod
    def to_map(self) -> dict[str, Any]:
        """The message as the map msgpack carries."""

    @classmethod
    @abstractmethod
    def from_map(cls, m: Mapping[str, Any]) -> Message:
        """The message from a decoded map, every field validated."""


@dataclass(frozen=True, slots=True)
class Request(Message):
    """Client to server; ``id`` comes back as the reply's ``re``."""

    id: int | None = field(default=None, kw_only=True)

    def _envelope(self) -> dict[str, Any]:
        m: dict[str, Any] = {"type": self.type}
        if self.id is not None:
            m["id"] = self.id
        return m


@dataclass(frozen=True, slots=True)
class Reply(Message):
    """Server to client: a reply (``re`` set) or a push (``re`` None)."""

    re: int | None = field(default=None, kw_only=True)

    def _envelope(self) -> dict[str, Any]:
        m: dict[str, Any] = {"type": self.type}
        if self.re is not None:
            m["re"] = self.re
        return m


#: message type -> class, for each direction
REQUESTS: dict[str, type[Request]] = {}
REPLIES: dict[str, type[Reply]] = {}

R = TypeVar("R", bound=type[Request])
P = TypeVar("P", bound=type[Reply])


def request(cls: R) -> R:
    """Register a client-to-server message class under its ``type``."""
    REQUESTS[cls.type] = cls
    return cls


def reply(cls: P) -> P:
    """Register a server-to-client message class under its ``type``."""
    REPLIES[cls.type] = cls
    return cls


# -- requests ----------------------------------------------------------------------


@request
@dataclass(frozen=True, slots=True)
class Hello(Request):
    type: ClassVar[str] = "hello"
    protocol: int
    client: str
    token: str | None = None
    name: str | None = None

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {"protocol": self.protocol, "client": self.client}
        if self.token is not None:
            m["token"] = self.token
        if self.name is not None:
            m["name"] = self.name
        return m

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Hello:
        protocol = req_int(m, "protocol", -_INT64, _INT64 - 1)
        client = req_str(m, "client", MAX_CLIENT_LENGTH)
        has_token, has_name = "token" in m, "name" in m
        if has_token and has_name:
            raise ProtocolError(
                INVALID_FIELD, "field 'token' and field 'name' exclude each other: send one"
            )
        if not has_token and not has_name:
            raise ProtocolError(
                INVALID_FIELD, "field 'name' (new player) or field 'token' (returning) is missing"
            )
        token = get_str(m, "token", MAX_TOKEN_LENGTH, required=False)
        name = m.get("name")
        if has_name and not isinstance(name, str):
            raise _invalid("name", f"must be a string, not {_kind(name)}")
        return cls(protocol=protocol, client=client, token=token, name=name, id=m.get("id"))


@request
@dataclass(frozen=True, slots=True)
class StartGame(Request):
    type: ClassVar[str] = "start_game"
    variant: str
    seed: int | None = None
    options: dict[str, bool | int] = field(default_factory=dict)

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {"variant": self.variant, "options": dict(self.options)}
        if self.seed is not None:
            m["seed"] = self.seed
        return m

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> StartGame:
        return cls(
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            seed=get_int(m, "seed", 1, MAX_SEED, required=False),
            options=get_options(m),
            id=m.get("id"),
        )


@dataclass(frozen=True, slots=True)
class GameRequest(Request):
    """A request about one game, by its id."""

    game: str

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"game": self.game}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> GameRequest:
        return cls(game=req_str(m, "game", MAX_ID_LENGTH), id=m.get("id"))


@dataclass(frozen=True, slots=True)
class PlyRequest(Request):
    """An action on a game, valid only at the ply the client saw (the ply rule)."""

    game: str
    ply: int

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"game": self.game, "ply": self.ply}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> PlyRequest:
        return cls(
            game=req_str(m, "game", MAX_ID_LENGTH),
            ply=req_int(m, "ply", 0, MAX_PLY),
            id=m.get("id"),
        )


@request
@dataclass(frozen=True, slots=True)
class MoveRequest(Request):
    type: ClassVar[str] = "move"
    game: str
    ply: int
    move: str

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"game": self.game, "ply": self.ply, "move": self.move}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> MoveRequest:
        move = req_str(m, "move", MAX_MOVE_LENGTH)
        if move not in (DEAL, AUTO, UNDO):
            try:
                parse_move(move)
            except InvalidNotation as exc:
                raise _invalid("move", f"is not an action of notation.md: {exc}") from None
        return cls(
            game=req_str(m, "game", MAX_ID_LENGTH),
            ply=req_int(m, "ply", 0, MAX_PLY),
            move=move,
            id=m.get("id"),
        )


@request
@dataclass(frozen=True, slots=True)
class Undo(PlyRequest):
    type: ClassVar[str] = "undo"


@request
@dataclass(frozen=True, slots=True)
class Resign(PlyRequest):
    type: ClassVar[str] = "resign"


@request
@dataclass(frozen=True, slots=True)
class GetGame(GameRequest):
    type: ClassVar[str] = "get_game"


@request
@dataclass(frozen=True, slots=True)
class Hint(GameRequest):
    type: ClassVar[str] = "hint"


# -- replies and pushes --------------------------------------------------------------


@reply
@dataclass(frozen=True, slots=True)
class Welcome(Reply):
    type: ClassVar[str] = "welcome"
    protocol: int
    server: dict[str, Any]
    player: dict[str, Any]
    token: str | None = None

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {
            "protocol": self.protocol,
            "server": self.server,
            "player": self.player,
        }
        if self.token is not None:
            m["token"] = self.token
        return m

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Welcome:
        server, player = _map_field(m, "server"), _map_field(m, "player")
        req_int(player, "id", -_INT64, _INT64 - 1)
        req_str(player, "name", 24)
        return cls(
            protocol=req_int(m, "protocol", 0, _INT64 - 1),
            server=server,
            player=player,
            token=get_str(m, "token", MAX_TOKEN_LENGTH, required=False),
            re=_re(m),
        )


@reply
@dataclass(frozen=True, slots=True)
class GameMessage(Reply):
    """``game``: a GameView, as a reply or a push. Extra top-level fields ride in ``extra``."""

    type: ClassVar[str] = "game"
    game: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"game": self.game} | self.extra

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> GameMessage:
        game = _map_field(m, "game")
        req_str(game, "id", MAX_ID_LENGTH)
        req_int(game, "ply", 0, MAX_PLY)
        extra = {k: v for k, v in m.items() if k not in ("type", "re", "game")}
        return cls(game=game, extra=extra, re=_re(m))


@reply
@dataclass(frozen=True, slots=True)
class HintReply(Reply):
    type: ClassVar[str] = "hint"
    move: str | None

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"move": self.move}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> HintReply:
        if "move" not in m:
            raise _invalid("move", "is missing")
        move = m["move"]
        if move is not None:
            move = req_str(m, "move", MAX_MOVE_LENGTH)
        return cls(move=move, re=_re(m))


@reply
@dataclass(frozen=True, slots=True)
class Ok(Reply):
    type: ClassVar[str] = "ok"

    def to_map(self) -> dict[str, Any]:
        return self._envelope()

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Ok:
        return cls(re=_re(m))


@reply
@dataclass(frozen=True, slots=True)
class Error(Reply):
    """A refusal. ``game`` carries the current GameView with ``stale_ply``."""

    type: ClassVar[str] = "error"
    code: str
    message: str
    game: dict[str, Any] | None = None

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {"code": self.code, "message": self.message}
        if self.game is not None:
            m["game"] = self.game
        return m

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Error:
        game = _map_field(m, "game") if "game" in m else None
        return cls(
            code=req_str(m, "code", 64),
            message=req_str(m, "message", 4096),
            game=game,
            re=_re(m),
        )


def _map_field(m: Mapping[str, Any], name: str) -> dict[str, Any]:
    value = m.get(name)
    if not isinstance(value, dict):
        raise _invalid(name, f"must be a map, not {_kind(value)}")
    return value


def _re(m: Mapping[str, Any]) -> int | None:
    return get_int(m, "re", -_INT64, _INT64 - 1, required=False)


# -- frames ----------------------------------------------------------------------------


def unpack(data: bytes | str) -> dict[str, Any]:
    """A frame as a map with string keys; anything else is ``bad_message``."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise ProtocolError(BAD_MESSAGE, "messages are MessagePack maps in binary frames")
    try:
        value = msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True)
    except Exception as exc:  # msgpack raises many types for malformed input
        raise ProtocolError(
            BAD_MESSAGE, f"the frame is not valid MessagePack: {type(exc).__name__}"
        ) from None
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise ProtocolError(BAD_MESSAGE, f"a message is a map with string keys, not {_kind(value)}")
    return value


def envelope_id(m: Mapping[str, Any]) -> int | None:
    """The message's ``id`` when it is a usable integer: the ``re`` of the reply."""
    value = m.get("id")
    if isinstance(value, int) and not isinstance(value, bool) and -_INT64 <= value < _INT64:
        return value
    return None


def decode_map(m: Mapping[str, Any], registry: Mapping[str, type[Message]] | None = None) -> Any:
    """The request (by default) a map holds, every field checked."""
    kind = m.get("type")
    if not isinstance(kind, str):
        raise _invalid("type", f"must be a string, not {_kind(kind)}")
    if "id" in m and envelope_id(m) is None:
        raise _invalid("id", f"must be an integer, not {_kind(m['id'])}")
    cls = (REQUESTS if registry is None else registry).get(kind)
    if cls is None:
        raise ProtocolError(UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}")
    return cls.from_map(m)


def decode(data: bytes) -> Request:
    """A client frame as a request; raises :class:`ProtocolError`."""
    result: Request = decode_map(unpack(data))
    return result


def decode_reply(data: bytes) -> Reply:
    """A server frame as a reply or push; raises :class:`ProtocolError`."""
    result: Reply = decode_map(unpack(data), REPLIES)
    return result


def encode(message: Message | Mapping[str, Any]) -> bytes:
    """A message (or a raw map) as one MessagePack frame."""
    m = message.to_map() if isinstance(message, Message) else message
    data: bytes = msgpack.packb(m, use_bin_type=True)
    return data


__all__ = [
    "CLIENT_FAULTS",
    "PROTOCOL_VERSION",
    "REPLIES",
    "REQUESTS",
    "Error",
    "GameMessage",
    "GetGame",
    "Hello",
    "Hint",
    "HintReply",
    "Message",
    "MoveRequest",
    "Ok",
    "Reply",
    "Request",
    "Resign",
    "StartGame",
    "Undo",
    "Welcome",
    "decode",
    "decode_map",
    "decode_reply",
    "encode",
    "envelope_id",
    "parse_move",
    "reply",
    "request",
    "unpack",
]
