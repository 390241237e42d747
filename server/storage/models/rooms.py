"""Rooms and their members: the races' tables."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    ForeignKey,
    Integer,
    String,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from server.storage.models.base import Base


class Room(Base):
    __tablename__ = "rooms"

    code: Mapped[str] = mapped_column(String(8), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    host_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    #: waiting, countdown, racing, over
    state: Mapped[str] = mapped_column(String(16))
    max_players: Mapped[int] = mapped_column(Integer)
    time_limit_s: Mapped[int] = mapped_column(Integer)
    #: the seed named at creation (every race deals it unless start_race names another)
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: hints allowed in the room's races
    hints: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: its races are rated (keyed server-drawn deals, human racers only)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: what watchers see of the racers' boards during a race: live, delayed, hidden
    boards: Mapped[str] = mapped_column(String(16), default="live", server_default="live")
    #: its races deal winnable deals of this difficulty (easy, medium, hard); null: any deal
    difficulty: Mapped[str | None] = mapped_column(String(8), nullable=True)
    #: the current race: its number, its deal (a seed, or a key in hex), the moment its
    #: games start, racer id -> game id
    race: Mapped[int] = mapped_column(Integer, default=0)
    race_seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    race_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    race_start_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    racers: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    updated_ms: Mapped[int] = mapped_column(BigInteger)
    #: the fencing token of the last node that took the room's lease: a save carries its
    #: node's token and changes the row only while no later node has taken the room
    fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")


class RoomMember(Base):
    __tablename__ = "room_members"

    room_code: Mapped[str] = mapped_column(
        ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    #: members are listed, and the host handed over, in the order they joined
    joined_ms: Mapped[int] = mapped_column(BigInteger)
    seq: Mapped[int] = mapped_column(Integer)
    #: racer or spectator, fixed until the member leaves
    role: Mapped[str] = mapped_column(String(16), default="racer", server_default="racer")
    #: whether the member has a connection to the server now (kept by the server as players
    #: come and go, all false at its start), for ``patience-club admin rooms``
    connected: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
