"""Frames to messages and back, through the schemas the server uses (``shared.protocol``).

The screens and the connection layer work with plain maps shaped as
protocol.md writes them; this module checks each one against its message
class on the way out (so a bad request fails here, with the field named, and
never costs a strike at the server) and on the way in (so a malformed reply
is refused before a screen reads it). Messages the shared schemas do not know
yet (rooms and races, added by the server of issue 5) pass with the envelope
checked only.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from typing import Any

from shared import protocol
from shared.errors import ProtocolError

# Rooms, races, dailies and stats register their schemas from their own module.
if importlib.util.find_spec("shared.protocol_races") is not None:
    importlib.import_module("shared.protocol_races")

Message = dict[str, Any]

PROTOCOL_VERSION = protocol.PROTOCOL_VERSION


def encode(message: Mapping[str, Any]) -> bytes:
    """One MessagePack map per binary frame (protocol.md, Transport)."""
    cls = protocol.REQUESTS.get(str(message.get("type")))
    if cls is not None:
        cls.from_map(message)
    return protocol.encode(dict(message))


def decode(frame: bytes | str) -> Message:
    """A frame from the server as a message map; ``bad_message``/``invalid_field`` if not one."""
    message = protocol.unpack(frame)
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(protocol.INVALID_FIELD, "the server sent a message without a type")
    if kind in protocol.REPLIES:
        protocol.decode_map(message, protocol.REPLIES)
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
