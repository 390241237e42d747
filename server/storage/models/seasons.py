"""Seasons: the points each daily attempt earned, the boards' totals and counts, and the
days closed.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from server.storage.models.base import Base


class SeasonDay(Base):
    """The season points one daily attempt earned (server/seasons/points.py), and its final
    place once its day has closed (None before): what the season boards were given for it,
    so that a change (the day's close adding place points) is applied as a difference."""

    __tablename__ = "season_days"
    __table_args__ = (Index("ix_season_days_player", "player_id", "date"),)

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    date: Mapped[str] = mapped_column(String(10), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    points: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)


class SeasonPoints(Base):
    """A player's points on one board: ``scope`` a variant, or ``*`` for every variant;
    ``period`` a week (``w2026-49``), a month (``m2026-12``) or ``all``. Kept as attempts
    finish and days close. The board reads the index on (scope, period, points), which holds
    every column a place shows, so that the top is read from the index alone."""

    __tablename__ = "season_points"
    __table_args__ = (
        Index(
            "ix_season_points_board", "scope", "period", "points", "player_id", "dailies", "wins"
        ),
    )

    scope: Mapped[str] = mapped_column(String(32), primary_key=True)
    period: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    points: Mapped[int] = mapped_column(Integer)
    dailies: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)


class SeasonCount(Base):
    """How many players of a board hold each number of points: a true rank is one sum over
    the few point values above a player's, not a count over every player above (read from
    ``ix_season_counts_rank`` alone)."""

    __tablename__ = "season_counts"
    __table_args__ = (Index("ix_season_counts_rank", "scope", "period", "points", "players"),)

    scope: Mapped[str] = mapped_column(String(32), primary_key=True)
    period: Mapped[str] = mapped_column(String(16), primary_key=True)
    points: Mapped[int] = mapped_column(Integer, primary_key=True)
    players: Mapped[int] = mapped_column(Integer)


class SeasonClosed(Base):
    """A daily whose places were given their points: written once, in the transaction that
    gives them, so that two nodes closing the same day cannot count it twice."""

    __tablename__ = "season_closed"

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    date: Mapped[str] = mapped_column(String(10), primary_key=True)
    closed_ms: Mapped[int] = mapped_column(BigInteger)
