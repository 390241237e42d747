"""Players and what moves their accounts to another device."""

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


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (
        Index("ix_players_registered", "registered_ip", "created_ms"),
        Index("ix_players_name_skeleton", "name_skeleton", unique=True),
        #: the few banned players, read to count them out of a season board's true rank
        Index("ix_players_banned", "banned"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    #: the name folded to lower case: names are unique without regard to case
    name_key: Mapped[str] = mapped_column(String(24), unique=True)
    #: the name's confusable skeleton (shared.names): no two players' names look alike. None
    #: only for a name that already looked like an older player's when the column came
    #: (migration 0006): both keep their names, and the older one holds the skeleton
    name_skeleton: Mapped[str | None] = mapped_column(String(96), nullable=True)
    #: SHA-256 of the token, hex; the token itself is never stored
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    banned: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: registered as a bot account: shown as one, never ranked
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: the address it registered from (registrations per address per hour are limited)
    registered_ip: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    #: bumped by every change a running server must act on (ban, unban, rename, new token);
    #: the server reads the rows changed since it last looked, every second
    updated_ms: Mapped[int] = mapped_column(BigInteger, index=True)
    #: the player hides their profile from everyone else (``profile`` answers only its name)
    profile_hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class TransferCode(Base):
    """A short code that moves an account to another device, for minutes (``transfer_code``).

    The code itself is not kept: its SHA-256 finds the row. The account's token is kept
    sealed with a key made from the code (SHAKE-256 of the row's salt and the code): the row
    alone opens nothing. One row per player at most; a row is gone once used or replaced, and
    an expired one is never opened (and deleted by the next code made).
    """

    __tablename__ = "transfer_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), unique=True)
    salt: Mapped[str] = mapped_column(String(32))
    sealed: Mapped[str] = mapped_column(String(256))
    expires_ms: Mapped[int] = mapped_column(BigInteger, index=True)
