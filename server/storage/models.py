"""The tables: players, games and the ordered actions of each game.

Times are integer milliseconds since the Unix epoch (UTC): portable across
databases, and exactly what ``elapsed_ms`` is computed from. A game's
position is never stored: it is replayed from variant, options, seed and
moves, the record of notation.md.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, ForeignKey, Integer, String, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from server.storage.engine import metadata


class Base(DeclarativeBase):
    metadata = metadata


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    #: the name folded to lower case: names are unique without regard to case
    name_key: Mapped[str] = mapped_column(String(24), unique=True)
    #: SHA-256 of the token, hex; the token itself is never stored
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    banned: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_ms: Mapped[int] = mapped_column(BigInteger)


class Game(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    #: playing, won, stuck, resigned, timeout: as last stored, for queries (replay is the truth)
    state: Mapped[str] = mapped_column(String(16))
    score: Mapped[int] = mapped_column(Integer, default=0)
    ply: Mapped[int] = mapped_column(Integer, default=0)
    started_ms: Mapped[int] = mapped_column(BigInteger)
    ended_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    updated_ms: Mapped[int] = mapped_column(BigInteger)


class Move(Base):
    """One action of a game: a move, ``deal``, ``auto`` or ``undo``, as the engine recorded it."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    #: the game's ply before this action: 0 for the first
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[str] = mapped_column(String(16))
    played_ms: Mapped[int] = mapped_column(BigInteger)


# Issue 5's tables (rooms, dailies, settings) share this metadata; imported last on purpose.
import server.storage.models_club  # noqa: E402, F401
