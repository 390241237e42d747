"""Ratings, their history, and the counts a true rank on a rating board is summed from."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from server.storage.models.base import Base


class PlayerRating(Base):
    """A player's Glicko-2 rating on one variant (server/ratings/glicko2.py); a player who
    never finished a rated race on it has no row (and counts as a new player's 1500/350/0.06).

    The board reads the index on (variant, rating); ``games`` counts the rated races.
    """

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_board", "variant", "rating"),)

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_ms: Mapped[int] = mapped_column(BigInteger)


class RatingChange(Base):
    """One rated race's change of one racer's rating: before and after.

    Keyed by the racer's game in that race: a race is rated once, whichever node
    ends it and however often its end is run again (a restart, a node taking the
    room over): the rows of its games are there, or its rating is written with
    them in one transaction.
    """

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_player", "player_id", "variant", "at_ms"),)

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    variant: Mapped[str] = mapped_column(String(32))
    #: the race, for people: 'K7QF2M/3' (room code / race number)
    race: Mapped[str] = mapped_column(String(32))
    rating_before: Mapped[float] = mapped_column(Float)
    deviation_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)
    deviation_after: Mapped[float] = mapped_column(Float)
    volatility_after: Mapped[float] = mapped_column(Float)
    at_ms: Mapped[int] = mapped_column(BigInteger)


class RatingCount(Base):
    """How many players of a variant hold a rating in each whole point (``floor``): a true
    rank on the rating board is a sum over these, plus the few in the player's own point."""

    __tablename__ = "rating_counts"

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    floor: Mapped[int] = mapped_column(Integer, primary_key=True)
    players: Mapped[int] = mapped_column(Integer)
