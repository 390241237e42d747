"""The declarative base of every table, on the one metadata
(:data:`server.storage.engine.metadata`) that the migrations and the autogenerate check read.
"""

from __future__ import annotations

from sqlalchemy.orm import DeclarativeBase

from server.storage.engine import metadata


class Base(DeclarativeBase):
    metadata = metadata
