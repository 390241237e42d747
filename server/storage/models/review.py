"""Results held for review, and what review found of each ranked result."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    ForeignKey,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from server.storage.models.base import Base


class Review(Base):
    """A ranked result played faster than the review rule allows, held for an operator."""

    __tablename__ = "reviews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    #: what the result is, for people: 'daily freecell 2026-12-01', 'race K7QF2M'
    what: Mapped[str] = mapped_column(String(64))
    actions: Mapped[int] = mapped_column(Integer)
    median_gap_ms: Mapped[int] = mapped_column(Integer)
    #: why it is held, for the operator: each limit crossed with its figure ("; " between)
    reasons: Mapped[str] = mapped_column(String(1000), default="", server_default="")
    #: pending, cleared, confirmed
    state: Mapped[str] = mapped_column(String(16), index=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    decided_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)


class Assessment(Base):
    """What review found of a ranked result long enough to judge, held or not: the evidence
    ``patience-club admin efficient`` reads across a player's results."""

    __tablename__ = "assessments"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    #: what the result is, for people: 'daily freecell 2026-12-01', 'race K7QF2M'
    what: Mapped[str] = mapped_column(String(64))
    won: Mapped[bool] = mapped_column(Boolean)
    actions: Mapped[int] = mapped_column(Integer)
    undos: Mapped[int] = mapped_column(Integer)
    #: the solver's line for the deal, its moves; None when it was not asked (not a win
    #: without undo) or found none in its budget
    solver_moves: Mapped[int | None] = mapped_column(Integer, nullable=True)
    revisits: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: a win on a solver's line (the rule's ``efficient``), however slowly played
    efficient: Mapped[bool] = mapped_column(Boolean)
    median_ms: Mapped[int] = mapped_column(Integer)
    p10_ms: Mapped[int] = mapped_column(Integer)
    elapsed_ms: Mapped[int] = mapped_column(BigInteger)
    floor_ms: Mapped[int] = mapped_column(Integer)
    pauses: Mapped[int] = mapped_column(Integer)
    held: Mapped[bool] = mapped_column(Boolean)
    created_ms: Mapped[int] = mapped_column(BigInteger)
