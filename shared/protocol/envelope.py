"""What every message shares: the bases, the field checks, the limits and the frames.

A message is a frozen dataclass with a ``type`` on the wire, ``to_map`` (the
map msgpack carries) and ``from_map`` (the message from a decoded map, every
field checked; a refusal is :class:`ProtocolError` with the protocol's code
and a message that names the field). Maps nested in a message (a GameView, a
RoomView...) are :class:`Part` classes with the same two methods. A
:class:`Registry` maps wire types to message classes; it is built once from
an explicit list and never changes. This is the one ``shared`` module that
imports msgpack: the wire format is its whole purpose.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Self, TypeVar

import msgpack

from shared.errors import ProtocolError
from shared.protocol.codes import BAD_MESSAGE, INVALID_FIELD, UNKNOWN_TYPE

PROTOCOL_VERSION = 2

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
MAX_SEED = 2**31 - 1

# One packer, reused: ``msgpack.packb`` makes a new one for every call. Its ``pack`` runs in
# C from start to end without releasing the GIL (no ``default`` hook is given), so two
# threads never interleave in its buffer, and it resets itself after each call, an exception
# included. This module is the one that imports msgpack (tests/shared/test_purity.py):
# shared/protocol/frames.py packs through ``pack``.
_PACKER = msgpack.Packer(use_bin_type=True)
pack: Callable[[Any], bytes] = _PACKER.pack

#: a deal's key and its commitment: 32 bytes, 64 hex digits (docs/rules.md, "Keyed deals")
KEY_LENGTH = 64
#: far more actions than any game has; keeps integers small enough for any database
MAX_PLY = 1_000_000
#: game ids, variant ids
MAX_ID_LENGTH = 32
MAX_OPTIONS = 16
MAX_OPTION_NAME = 32
#: error messages, names, dates and other text the server writes
MAX_TEXT = 4096
#: lists in a reply: piles, legal moves, players, entries...
MAX_ITEMS = 4096

T = TypeVar("T")


# -- field checks ------------------------------------------------------------------------


def invalid(name: str, why: str) -> ProtocolError:
    """``invalid_field`` naming the field: ``field 'ply' must be ...``."""
    return ProtocolError(INVALID_FIELD, f"field {name!r} {why}")


def kind_of(value: object) -> str:
    """How a refusal names what it got: ``a string``, ``nothing``..."""
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


def req_str(m: Mapping[str, Any], name: str, max_len: int) -> str:
    """A string field of 1 to ``max_len`` characters."""
    value = m.get(name)
    if not isinstance(value, str):
        raise invalid(name, f"must be a string, not {kind_of(value)}")
    if not 1 <= len(value) <= max_len:
        raise invalid(name, f"must have 1 to {max_len} characters, not {len(value)}")
    return value


def opt_str(m: Mapping[str, Any], name: str, max_len: int) -> str | None:
    """A string field, or None when absent (a present null is refused)."""
    return req_str(m, name, max_len) if name in m else None


def req_int(m: Mapping[str, Any], name: str, lo: int, hi: int) -> int:
    """An integer field from ``lo`` to ``hi`` (booleans are not integers here)."""
    value = m.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise invalid(name, f"must be an integer, not {kind_of(value)}")
    if not lo <= value <= hi:
        raise invalid(name, f"must be from {lo} to {hi}, not {value}")
    return value


def opt_int(m: Mapping[str, Any], name: str, lo: int, hi: int) -> int | None:
    """An integer field, or None when absent (a present null is refused)."""
    return req_int(m, name, lo, hi) if name in m else None


def req_count(m: Mapping[str, Any], name: str) -> int:
    """A count, a score or a duration: an integer from 0 up."""
    return req_int(m, name, 0, INT64_MAX)


def req_bool(m: Mapping[str, Any], name: str) -> bool:
    value = m.get(name)
    if not isinstance(value, bool):
        raise invalid(name, f"must be a boolean, not {kind_of(value)}")
    return value


def req_map(m: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = m.get(name)
    if not isinstance(value, dict):
        raise invalid(name, f"must be a map, not {kind_of(value)}")
    return value


def req_list(m: Mapping[str, Any], name: str, max_len: int = MAX_ITEMS) -> list[Any]:
    value = m.get(name)
    if not isinstance(value, list):
        raise invalid(name, f"must be a list, not {kind_of(value)}")
    if len(value) > max_len:
        raise invalid(name, f"has {len(value)} items; at most {max_len}")
    return value


def req_strs(m: Mapping[str, Any], name: str, max_len: int) -> tuple[str, ...]:
    """A list of strings of 1 to ``max_len`` characters each."""
    items = req_list(m, name)
    for item in items:
        if not isinstance(item, str) or not 1 <= len(item) <= max_len:
            raise invalid(name, f"must hold strings of 1 to {max_len} characters, not {item!r:.40}")
    return tuple(items)


def hex_digest(m: Mapping[str, Any], name: str, *, either_case: bool = False) -> str:
    """64 hex digits (a deal's key or commitment) in lower case, as the server writes them;
    ``either_case`` for what a person may type (given back in lower case)."""
    value = req_str(m, name, KEY_LENGTH)
    digits = value.lower() if either_case else value
    if len(value) != KEY_LENGTH or digits.strip("0123456789abcdef"):
        case = "" if either_case else " lower-case"
        raise invalid(name, f"must be {KEY_LENGTH}{case} hex digits, not {value[:16]!r}...")
    return digits


def req_choice(m: Mapping[str, Any], name: str, choices: Iterable[str]) -> str:
    """A string field that is one of ``choices``."""
    value = m.get(name)
    allowed = tuple(choices)
    if value not in allowed:
        raise invalid(name, f"must be one of {', '.join(allowed)}, not {value!r:.40}")
    assert isinstance(value, str)
    return value


def nullable(
    m: Mapping[str, Any], name: str, read: Callable[[Mapping[str, Any], str], T]
) -> T | None:
    """A field that must be present and may be null; ``read`` checks a value that is not."""
    if name not in m:
        raise invalid(name, "is missing")
    return None if m[name] is None else read(m, name)


def option_map(
    m: Mapping[str, Any], name: str = "options", *, required: bool = False
) -> dict[str, bool | int]:
    """A map of option names to booleans or integers; absent means no options, or is refused."""
    if name not in m:
        if required:
            raise invalid(name, "is missing")
        return {}
    value = m[name]
    if not isinstance(value, dict):
        raise invalid(name, f"must be a map, not {kind_of(value)}")
    if len(value) > MAX_OPTIONS:
        raise invalid(name, f"has {len(value)} entries; at most {MAX_OPTIONS}")
    options: dict[str, bool | int] = {}
    for key, item in value.items():
        if not isinstance(key, str) or not 1 <= len(key) <= MAX_OPTION_NAME:
            raise invalid(name, f"has a key that is not a short string: {key!r:.40}")
        if not isinstance(item, bool | int) or not INT64_MIN <= item <= INT64_MAX:
            raise invalid(name, f"option {key!r} must be a boolean or an integer")
        options[key] = item
    return options


def nested(m: Mapping[str, Any], name: str, read: Callable[[Mapping[str, Any]], T]) -> T:
    """A map field read by ``read`` (a Part's ``from_map``); a refusal says where it was."""
    value = req_map(m, name)
    try:
        return read(value)
    except ProtocolError as exc:
        raise ProtocolError(exc.code, f"in field {name!r}: {exc.message}") from None


def nested_list(
    m: Mapping[str, Any], name: str, read: Callable[[Mapping[str, Any]], T]
) -> tuple[T, ...]:
    """A list of maps, each read by ``read``; a refusal names the field and the item."""
    result = []
    for index, item in enumerate(req_list(m, name)):
        if not isinstance(item, dict):
            raise invalid(name, f"item {index} must be a map, not {kind_of(item)}")
        try:
            result.append(read(item))
        except ProtocolError as exc:
            raise ProtocolError(
                exc.code, f"in field {name!r} item {index}: {exc.message}"
            ) from None
    return tuple(result)


def opt_nested(m: Mapping[str, Any], name: str, read: Callable[[Mapping[str, Any]], T]) -> T | None:
    """A map field read by ``read``, or None when absent (a present null is refused)."""
    return nested(m, name, read) if name in m else None


def present(m: dict[str, Any], **fields: object) -> dict[str, Any]:
    """``m`` with the ``fields`` that are not None, in order: a map's optional fields."""
    for name, value in fields.items():
        if value is not None:
            m[name] = value.to_map() if isinstance(value, Part) else value
    return m


# -- bases ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Part(ABC):
    """A map inside a message (a GameView, a RoomView...): typed fields, checked when read."""

    def to_map(self) -> dict[str, Any]:
        """The part as the map msgpack carries: each field under its own name, in order.

        That fits a part of plain values (a standing, a player); a part that
        holds other parts or leaves out a field says how it is written.
        """
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    @abstractmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        """The part from a decoded map, every field checked."""


@dataclass(frozen=True, slots=True)
class Message(Part):
    """A protocol message. ``type`` names it on the wire."""

    type: ClassVar[str]

    @abstractmethod
    def to_map(self) -> dict[str, Any]:
        """The message as the map msgpack carries, ``type`` first."""

    def frame(self) -> bytes:
        """The message as one MessagePack frame: its map packed (a message sent on every
        move writes its bytes without the map: ``game``, shared/protocol/frames.py)."""
        return pack(self.to_map())


@dataclass(frozen=True, slots=True)
class Request(Message):
    """Client to server; ``id`` comes back as the reply's ``re``."""

    id: int | None = field(default=None, kw_only=True)

    def _envelope(self) -> dict[str, Any]:
        return present({"type": self.type}, id=self.id)


@dataclass(frozen=True, slots=True)
class Reply(Message):
    """Server to client: a reply (``re`` set) or a push (``re`` None)."""

    re: int | None = field(default=None, kw_only=True)

    def _envelope(self) -> dict[str, Any]:
        # Written out: every reply the server sends passes here.
        if self.re is None:
            return {"type": self.type}
        return {"type": self.type, "re": self.re}


def request_id(m: Mapping[str, Any]) -> int | None:
    """A request's ``id``: absent, or an integer of 64 bits."""
    found = envelope_id(m)
    if found is None and "id" in m:
        value = m["id"]
        if isinstance(value, int) and not isinstance(value, bool):  # out of 64 bits
            raise invalid("id", f"must be from -2**63 to 2**63-1, not {value}")
        raise invalid("id", f"must be an integer, not {kind_of(value)}")
    return found


def reply_to(m: Mapping[str, Any]) -> int | None:
    """A reply's ``re``: absent (a push), or an integer of 64 bits."""
    return opt_int(m, "re", INT64_MIN, INT64_MAX)


def envelope_id(m: Mapping[str, Any]) -> int | None:
    """The message's ``id`` when it is a usable integer: the ``re`` of the reply."""
    value = m.get("id")
    if isinstance(value, int) and not isinstance(value, bool) and INT64_MIN <= value <= INT64_MAX:
        return value
    return None


def message_type(m: Mapping[str, Any]) -> str:
    """The ``type`` of a map, its ``id`` checked too (``invalid_field`` for either)."""
    kind = m.get("type")
    if not isinstance(kind, str):
        raise invalid("type", f"must be a string, not {kind_of(kind)}")
    request_id(m)
    return kind


def unknown_type(kind: str) -> ProtocolError:
    return ProtocolError(UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}")


M = TypeVar("M", bound=Message)


class Registry(Mapping[str, type[M]], Generic[M]):
    """Message classes by wire type: built once from an explicit list, read-only after."""

    __slots__ = ("_classes",)

    def __init__(self, classes: Iterable[type[M]]) -> None:
        by_type: dict[str, type[M]] = {}
        for cls in classes:
            if cls.type in by_type:
                raise ValueError(f"two message classes for type {cls.type!r}")
            by_type[cls.type] = cls
        self._classes = MappingProxyType(by_type)

    def __getitem__(self, kind: str) -> type[M]:
        return self._classes[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self._classes)

    def __len__(self) -> int:
        return len(self._classes)

    def __repr__(self) -> str:
        return f"Registry({', '.join(self._classes)})"

    def decode_map(self, m: Mapping[str, Any]) -> M:
        """The message a map holds: ``type`` and ``id`` checked, then the type, then its fields."""
        kind = message_type(m)
        cls = self._classes.get(kind)
        if cls is None:
            raise unknown_type(kind)
        return cls.from_map(m)

    def decode(self, data: bytes | str) -> M:
        """A frame as one of these messages; raises :class:`ProtocolError`."""
        return self.decode_map(unpack(data))


# -- frames --------------------------------------------------------------------------------


_STR_ONLY = frozenset((str,))


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
    # (the keys' types found in C: msgpack makes only exact str or bytes keys here)
    if not isinstance(value, dict) or not _STR_ONLY.issuperset(map(type, value)):
        raise ProtocolError(
            BAD_MESSAGE, f"a message is a map with string keys, not {kind_of(value)}"
        )
    return value


def encode(message: Message) -> bytes:
    """A message as one MessagePack frame."""
    return message.frame()


#: what the package exports; the field checks are for the message modules
# fmt: off
__all__ = [
    "INT64_MAX", "INT64_MIN", "KEY_LENGTH", "MAX_ID_LENGTH", "MAX_OPTIONS", "MAX_OPTION_NAME",
    "MAX_PLY", "MAX_SEED", "MAX_TEXT", "PROTOCOL_VERSION", "Message", "Part", "Registry",
    "Reply", "Request", "encode", "envelope_id", "hex_digest", "message_type", "reply_to",
    "unknown_type", "unpack",
]
# fmt: on
