"""What every protocol test module asks of its messages: round trips and field refusals."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import msgpack
import pytest

from shared import protocol as p
from shared.errors import ProtocolError

#: for each kind of valid value, one of another kind that its field must refuse
WRONG_KIND: dict[type, object] = {
    str: 7,
    int: "7",
    bool: "yes",
    list: "not a list",
    dict: ["not", "a", "map"],
    type(None): [1],
}
ENVELOPE = ("type", "id", "re")

Read = Callable[[Mapping[str, Any]], object]


def pack(m: object) -> bytes:
    data: bytes = msgpack.packb(m)
    return data


def round_trips(message: p.Message) -> None:
    """Encoded and decoded again through its registry, the message is unchanged."""
    registry = p.REQUESTS if isinstance(message, p.Request) else p.REPLIES
    assert registry.decode(p.encode(message)) == message
    assert type(message).from_map(message.to_map()) == message


def refused(read: Read, m: Mapping[str, Any], named: str | None = None) -> ProtocolError:
    """``read(m)`` refuses with ``invalid_field``, naming ``named`` when given."""
    with pytest.raises(ProtocolError) as caught:
        read(m)
    assert caught.value.code == p.INVALID_FIELD, caught.value.message
    if named is not None:
        assert f"{named!r}" in caught.value.message, caught.value.message
    return caught.value


def refused_frame(registry: p.Registry[Any], m: object, code: str = p.INVALID_FIELD) -> str:
    """The registry refuses the frame holding ``m`` with ``code``; the refusal's message."""
    with pytest.raises(ProtocolError) as caught:
        registry.decode(pack(m))
    assert caught.value.code == code, caught.value.message
    return caught.value.message


def every_field_is_checked(read: Read, m: Mapping[str, Any], optional: Iterable[str] = ()) -> None:
    """Each field of ``m`` is refused when missing (unless ``optional``) or of another kind.

    ``read`` (a ``from_map``) must take ``m`` itself, and each refusal must
    name the field, so that a person can tell which one was wrong.
    """
    read(m)
    optional = set(optional)
    fields = [name for name in m if name not in ENVELOPE]
    assert fields, "a message with no fields of its own checks nothing here"
    for name in fields:
        without = {k: v for k, v in m.items() if k != name}
        if name in optional:
            read(without)
        else:
            refused(read, without, name)
        refused(read, {**m, name: WRONG_KIND[type(m[name])]}, name)


def out_of_range(read: Read, m: Mapping[str, Any], name: str, values: Iterable[object]) -> None:
    """Each of ``values`` in field ``name`` is refused, naming the field."""
    for value in values:
        refused(read, {**m, name: value}, name)
