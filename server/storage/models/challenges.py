"""Matches of challenges and their rounds."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
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


class Match(Base):
    """A match of challenges between two players (server/challenges/): best of 1, 3 or 5,
    the running score of its ranked rounds, its winner once over."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    best_of: Mapped[int] = mapped_column(Integer)
    #: who sent its first challenge, and who answered it (None until someone has)
    first_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    second_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    first_wins: Mapped[int] = mapped_column(Integer, default=0)
    second_wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    #: rounds done (ranked or not)
    rounds: Mapped[int] = mapped_column(Integer, default=0)
    #: playing, over
    state: Mapped[str] = mapped_column(String(16))
    winner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    updated_ms: Mapped[int] = mapped_column(BigInteger)


class Challenge(Base):
    """One round of a match: the challenger's game, sent to be played on the same deal by
    the opponent (whoever answers first; named for the rounds after the first).

    The challenger's result and the ghost (``ghost``: ``[elapsed_ms, moves, home]`` after
    each action, the clock's pauses taken out) are stored when it opens, the opponent's
    and the outcome when their game ends, in the transaction that scores the match.
    """

    __tablename__ = "challenges"
    __table_args__ = (
        Index("ix_challenges_challenger", "challenger_id", "created_ms"),
        Index("ix_challenges_opponent", "opponent_id", "created_ms"),
        #: one challenge per round: of two rematches asked at once, one is stored
        UniqueConstraint("match_id", "round"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    #: setting (a rematch's challenger playing), open, playing, done
    state: Mapped[str] = mapped_column(String(16))
    challenger_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    challenger_game: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    opponent_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    opponent_game: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), nullable=True, unique=True
    )
    ghost: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    #: each side's end as ChallengeSide's fields (state, elapsed_ms, moves, home, hints,
    #: undos) and whether review holds it
    challenger_result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    opponent_result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: challenger, opponent, draw; whether it counts in the match, and why not
    result: Mapped[str | None] = mapped_column(String(16), nullable=True)
    ranked: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    unranked: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    accepted_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    ended_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
