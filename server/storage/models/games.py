"""Games and their actions (a position is replayed from these, never stored), and the pool of
winnable deals waiting to be dealt.
"""

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
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from server.storage.models.base import Base


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (Index("ix_games_player_started", "player_id", "started_ms"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: the deal: a numbered one (``seed``), or a keyed one (``deal_key`` and its
    #: ``commitment``, 64 lower-case hex digits each); exactly one of the two
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    deal_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    commitment: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: solo, daily (the ranked attempt), practice (on a daily's deal), race
    kind: Mapped[str] = mapped_column(String(16), default="solo", server_default="solo")
    #: the key may be shown (the player chose it, or the deal was revealed); ``reveal_ms``:
    #: the key shows from then on (a daily's deal: the end of its day), else None
    key_open: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: the key showed from the deal on (the player named it): its player could know the deal
    #: before playing, so a challenge made of the game is not ranked
    key_chosen: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    reveal_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: playing, won, stuck, resigned, timeout: as last stored, for queries (replay is the truth)
    state: Mapped[str] = mapped_column(String(16))
    score: Mapped[int] = mapped_column(Integer, default=0)
    ply: Mapped[int] = mapped_column(Integer, default=0)
    #: counted for lists and ranks (undos can also be counted from the actions)
    undos: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    hints: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    started_ms: Mapped[int] = mapped_column(BigInteger)
    ended_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    updated_ms: Mapped[int] = mapped_column(BigInteger)
    #: the game's clock: the time not counted in its elapsed time (an unranked game nobody
    #: had open, a stuck unranked game undone), and the moment it stops or stopped (stuck; an
    #: unranked game left by every connection), None while it runs (server/games/clock.py)
    paused_ms: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    stopped_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class GameAction(Base):
    """One action of a game: a move, ``deal``, ``auto`` or ``undo``, as the engine recorded it.

    (The table is ``moves``; the class is not notation's :class:`shared.notation.Move`.)
    """

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    #: the game's ply before this action: 0 for the first
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[str] = mapped_column(String(16))
    #: when the server received the action (before its turn and any stuck search): the
    #: times result review reads
    played_ms: Mapped[int] = mapped_column(BigInteger)


class PooledDeal(Base):
    """A keyed deal the solver has won, waiting to be dealt to a player who asks for a
    winnable deal (server/deals/pool.py). Its key is as secret as any keyed deal's: it
    leaves this table when it is dealt (the row is deleted as the game is made, so no
    pooled deal is dealt twice) and shows only when its game reveals it."""

    __tablename__ = "pooled_deals"
    __table_args__ = (Index("ix_pooled_deals_pool", "variant", "options", "difficulty"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    variant: Mapped[str] = mapped_column(String(32))
    #: the variant's full options as canonical JSON (sorted keys): one pool per option set
    options: Mapped[str] = mapped_column(String(256))
    #: easy, medium or hard (server/deals/difficulty.py)
    difficulty: Mapped[str] = mapped_column(String(8))
    deal_key: Mapped[str] = mapped_column(String(64), unique=True)
    #: what the solver spent and found: positions searched, moves in its winning line
    positions: Mapped[int] = mapped_column(Integer)
    line: Mapped[int] = mapped_column(Integer)
    created_ms: Mapped[int] = mapped_column(BigInteger)
