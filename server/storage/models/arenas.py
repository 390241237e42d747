"""Arenas: their deals, their players and the games they were dealt."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from server.storage.models.base import Base


class Arena(Base):
    """A timed tournament on one variant (server/arenas/): created by an operator (a command,
    or the schedule of the settings) or by a player (a private arena). Every node reads the
    arenas from here (``updated_ms`` says which changed), so that whichever node a player
    is connected to knows them."""

    __tablename__ = "arenas"
    __table_args__ = (
        Index("ix_arenas_ends_ms", "ends_ms"),
        Index("ix_arenas_updated_ms", "updated_ms"),
    )

    code: Mapped[str] = mapped_column(String(8), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    variant: Mapped[str] = mapped_column(String(32))
    #: the variant's full options as canonical JSON
    options: Mapped[str] = mapped_column(String(256))
    starts_ms: Mapped[int] = mapped_column(BigInteger)
    ends_ms: Mapped[int] = mapped_column(BigInteger)
    #: the player who created a private arena; None: the operators
    host_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    #: the entry of the schedule that made it, None for the others
    schedule: Mapped[str | None] = mapped_column(String(64), nullable=True)
    cancelled_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    updated_ms: Mapped[int] = mapped_column(BigInteger)


class ArenaDeal(Base):
    """One deal of an arena's sequence, the same for every player: its key stays secret until
    the arena is over (its commitment is shown from the moment it is drawn)."""

    __tablename__ = "arena_deals"

    arena: Mapped[str] = mapped_column(
        ForeignKey("arenas.code", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal_key: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    #: the deal's par time (server/arenas/par.py) and the solver's line it was made from
    par_ms: Mapped[int] = mapped_column(BigInteger)
    line: Mapped[int] = mapped_column(Integer)


class ArenaPlayer(Base):
    """A player who joined an arena, with their totals as their finished deals give them (the
    sum of their ``arena_games`` points, written in the same transaction as each deal's)."""

    __tablename__ = "arena_players"
    __table_args__ = (Index("ix_arena_players_arena", "arena", "points"),)

    arena: Mapped[str] = mapped_column(
        ForeignKey("arenas.code", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    joined_ms: Mapped[int] = mapped_column(BigInteger)
    points: Mapped[int] = mapped_column(Integer, default=0)
    played: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    #: the next win is doubled (two wins in a row)
    fire: Mapped[bool] = mapped_column(Boolean, default=False)


class ArenaGame(Base):
    """One deal a player was dealt in an arena: its game, its allowance, and once it ended, its
    result and points. One row per (arena, player, seq): no deal is dealt twice to a player,
    whichever node deals it."""

    __tablename__ = "arena_games"
    __table_args__ = (
        UniqueConstraint("arena", "player_id", "seq", name="uq_arena_games_arena"),
        Index("ix_arena_games_deadline_ms", "deadline_ms"),
    )

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    arena: Mapped[str] = mapped_column(ForeignKey("arenas.code", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    seq: Mapped[int] = mapped_column(Integer)
    berserk: Mapped[bool] = mapped_column(Boolean, default=False)
    allowance_ms: Mapped[int] = mapped_column(BigInteger)
    #: when the deal is out of time: its start and allowance, or the arena's end if sooner
    deadline_ms: Mapped[int] = mapped_column(BigInteger)
    #: how it ended (None while it is played), its time, points, whether on a streak, and
    #: whether review held it (a held win scores nothing)
    state: Mapped[str | None] = mapped_column(String(16), nullable=True)
    time_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)
    on_streak: Mapped[bool] = mapped_column(Boolean, default=False)
    held: Mapped[bool] = mapped_column(Boolean, default=False)
