"""What the operators keep in the database: server-wide settings and requests for the
running server.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from server.storage.models.base import Base


class Setting(Base):
    """Server-wide values created once, such as the daily secret."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))


class OperatorRequest(Base):
    """An operator's request for the running server (end a race, close a room, remove the
    bots), stored by ``patience-club admin`` and taken by the server within about a second.

    ``taken_ms`` is set once, by whoever takes it (the server, or the command itself when no
    server took it in time): a request is carried out at most once. ``outcome`` says what
    was done, or why not (``ok`` false).
    """

    __tablename__ = "operator_requests"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: end_race, close_room, remove_bots
    action: Mapped[str] = mapped_column(String(16))
    #: a room's code, the players named (ids, comma-separated), or null
    target: Mapped[str | None] = mapped_column(String(1000), nullable=True)
    requested_ms: Mapped[int] = mapped_column(BigInteger)
    #: server or command
    taken_by: Mapped[str | None] = mapped_column(String(16), nullable=True)
    taken_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    done_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    ok: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    outcome: Mapped[str | None] = mapped_column(String(1000), nullable=True)
