"""Typed messages to frames and back, for the client (``shared.protocol``).

A request is checked against its own class before it leaves (so a bad one
fails here, with the field named, and never costs a strike at the server); a
frame from the server becomes a typed reply or push, every field checked, or
a :class:`ProtocolError` before any screen reads it.
"""

from __future__ import annotations

from typing import TypeVar

from shared import protocol
from shared.errors import ProtocolError
from shared.protocol import Error, Reply, Request

PROTOCOL_VERSION = protocol.PROTOCOL_VERSION

R = TypeVar("R", bound=Reply)


def encode(request: Request) -> bytes:
    """One MessagePack map per binary frame (docs/protocol.md, Transport)."""
    type(request).from_map(request.to_map())
    return protocol.encode(request)


def decode(frame: bytes | str) -> Reply:
    """A frame from the server as a typed reply or push; raises :class:`ProtocolError`."""
    return protocol.decode_reply(frame)


def reply_to(frame: bytes | str) -> int | None:
    """The ``re`` of a frame that did not decode, when it names one: whose request failed."""
    try:
        return protocol.reply_to(protocol.unpack(frame))
    except ProtocolError:
        return None


def error_of(reply: Reply) -> ProtocolError | None:
    """The server's ``error`` reply as the exception a caller can catch, else None."""
    if isinstance(reply, Error):
        return ProtocolError(reply.code, reply.message)
    return None


def expect(request: Request, reply: Reply, cls: type[R]) -> R:
    """``reply`` as the ``cls`` that answers ``request``; an ``error`` reply raises."""
    error = error_of(reply)
    if error is not None:
        raise error
    if not isinstance(reply, cls):
        raise ProtocolError(
            protocol.BAD_MESSAGE,
            f"the server answered {request.type!r} with {reply.type!r}, not {cls.type!r}",
        )
    return reply
