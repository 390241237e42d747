"""The database engine: one place that knows the URL, the pragmas and the session factory.

SQLite gets WAL (readers never wait for the writer), enforced foreign keys,
``synchronous=FULL`` (a committed move survives a crash of the machine, not
only of the process; group commit keeps the fsyncs few) and a busy timeout.
Other databases get nothing special: the SQL is portable.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, MetaData, event, text
from sqlalchemy import create_engine as sa_create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

#: constraint names that are the same on every database, so migrations can name them
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)

DEFAULT_URL = "sqlite+aiosqlite:///data/patience.db"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def ensure_directory(url: str) -> None:
    """Create the directory of an SQLite file, so that a default install just works."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database or "").expanduser().parent.mkdir(parents=True, exist_ok=True)


def create_engine(url: str) -> AsyncEngine:
    ensure_directory(url)
    engine = create_async_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


#: async driver -> the synchronous driver of the same database, for the writer thread
SYNC_DRIVERS = {"aiosqlite": "pysqlite", "asyncpg": "psycopg", "aiomysql": "pymysql"}


def create_sync_engine(url: str) -> Engine:
    """A synchronous engine on the same database, for work done in one thread.

    The group-commit writer runs each transaction as one call in its own
    thread: one thread hop per commit instead of one per statement.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:"):
        # Each engine would get its own empty in-memory database.
        raise ValueError(f"an in-memory SQLite database cannot be shared: use a file ({url!r})")
    driver = SYNC_DRIVERS.get(parsed.get_driver_name())
    if driver is not None:
        parsed = parsed.set(drivername=f"{parsed.get_backend_name()}+{driver}")
    engine = sa_create_engine(parsed, pool_size=1, max_overflow=0)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


async def ping(engine: AsyncEngine) -> bool:
    """True when the database answers a trivial query."""
    try:
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    except Exception:
        return False
    return True
