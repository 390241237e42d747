"""Frames to messages and back: the one place the client touches msgpack.

Until ``shared/protocol.py`` (the schemas shared with the server) lands, the
client checks only the envelope here; the connection layer and the screens see
plain dicts shaped as protocol.md writes them, so switching to the shared
classes changes this module alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgpack

from shared.errors import ProtocolError

Message = dict[str, Any]

PROTOCOL_VERSION = 1


def encode(message: Mapping[str, Any]) -> bytes:
    """One MessagePack map per binary frame (protocol.md, Transport)."""
    data: bytes = msgpack.packb(dict(message), use_bin_type=True)
    return data


def decode(frame: bytes | str) -> Message:
    """A frame from the server as a message dict; ``bad_message`` when it is not one."""
    if isinstance(frame, str):
        raise ProtocolError("bad_message", "the server sent a text frame, expected binary")
    try:
        message = msgpack.unpackb(frame, raw=False, strict_map_key=True)
    except (ValueError, msgpack.UnpackException) as exc:
        raise ProtocolError(
            "bad_message", f"the server sent a frame that is not msgpack: {exc}"
        ) from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError("bad_message", f"the server sent {message!r}, not a typed map")
    return message


def error_of(message: Message) -> ProtocolError | None:
    """The server's ``error`` reply as the exception a caller can catch, else None."""
    if message.get("type") != "error":
        return None
    code = message.get("code")
    text = message.get("message")
    return ProtocolError(
        code if isinstance(code, str) else "unknown",
        text if isinstance(text, str) else "the server gave no reason",
    )
