"""Daily deals and the players' ranked attempts at them.

The leaderboard is read through one index whose column order is the
ranking of docs/protocol.md: ``rank_group`` (0 won, 1 not), then ``rank_a`` and
``rank_b`` (time and moves for winners, minus the score and time for the
others), so a page is an index range scan and a player's rank is a count
over the same index.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from server.storage.models.base import Base


class Daily(Base):
    """The deal of one variant on one UTC day, proven winnable before it was offered."""

    __tablename__ = "dailies"

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    date: Mapped[str] = mapped_column(String(10), primary_key=True)
    #: the deal: a key (hex) derived from the server's secret; old rows hold a seed instead
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    deal_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: positions the solver searched to prove the deal winnable, for the record
    positions: Mapped[int] = mapped_column(Integer)
    computed_ms: Mapped[int] = mapped_column(BigInteger)


class DailyAttempt(Base):
    """A player's one ranked attempt at a daily deal."""

    __tablename__ = "daily_attempts"
    __table_args__ = (
        Index(
            "ix_daily_attempts_board",
            "variant",
            "date",
            "finished",
            "rank_group",
            "rank_a",
            "rank_b",
        ),
        Index("ix_daily_attempts_player", "player_id", "date"),
    )

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    date: Mapped[str] = mapped_column(String(10), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(32))
    #: listed on the leaderboard: the game ended, or its day did
    finished: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    state: Mapped[str] = mapped_column(String(16))
    elapsed_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    moves: Mapped[int] = mapped_column(Integer, default=0)
    score: Mapped[int] = mapped_column(Integer, default=0)
    undos: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: cards home when it ended, what ranks an attempt that was not won
    foundation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    rank_group: Mapped[int] = mapped_column(Integer, default=0)
    rank_a: Mapped[int] = mapped_column(BigInteger, default=0)
    rank_b: Mapped[int] = mapped_column(BigInteger, default=0)
    #: '' (not held), 'pending' (held for review), 'cleared', 'confirmed': listed unless
    #: pending or confirmed
    review: Mapped[str] = mapped_column(String(16), default="", server_default="")
