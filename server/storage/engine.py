"""The database engine: one place that knows the URL, the pragmas and the session factory.

The URL chooses the database: SQLite (``sqlite+aiosqlite:///file``, the
default) or PostgreSQL (``postgresql+asyncpg://user@host/db``); the models
and migrations are the same for both.

SQLite gets WAL (readers never wait for the writer), enforced foreign keys,
``synchronous=FULL`` (a committed move survives a crash of the machine, not
only of the process; group commit keeps the fsyncs few) and a busy timeout.
PostgreSQL needs nothing set: its defaults (``synchronous_commit=on``) make
a commit durable when it returns. The threads that work on a synchronous
engine (the writer, the leaderboard reader) open the same database through
the synchronous driver of the async one (:data:`SYNC_DRIVERS`: psycopg for
asyncpg).
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from types import MappingProxyType
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

log = logging.getLogger(__name__)

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
SYNC_DRIVERS = MappingProxyType(
    {"aiosqlite": "pysqlite", "asyncpg": "psycopg", "aiomysql": "pymysql"}
)


def create_sync_engine(url: str, *, autocheckpoint: bool = True) -> Engine:
    """A synchronous engine on the same database, for work done in one thread.

    The group-commit writer runs each transaction as one call in its own
    thread: one thread hop per commit instead of one per statement. It passes
    ``autocheckpoint=False``: on SQLite, the commit that fills the WAL would
    otherwise copy it into the database file (and fsync that) before it
    returns, holding every move of its group for tens to hundreds of
    milliseconds; a :class:`Checkpointer` does that work beside it instead.
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
        if not autocheckpoint:
            event.listen(engine, "connect", _no_autocheckpoint)
    return engine


def _no_autocheckpoint(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()


class Checkpointer:
    """Copies SQLite's write-ahead log into the database file, in a thread of its own.

    Every ``interval_s`` it runs a PASSIVE checkpoint on its own connection:
    it copies what no reader still needs and waits for nobody, and commits go
    on meanwhile (they append to the log). So the writer, whose connection
    does not checkpoint (``create_sync_engine(autocheckpoint=False)``), never
    waits for one, and the log stays short. Other databases need none of
    this: :meth:`start` does nothing for them.
    """

    def __init__(self, url: str, *, interval_s: float = 1.0) -> None:
        self.url = url
        self.interval_s = interval_s
        self.checkpoints = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if make_url(self.url).get_backend_name() != "sqlite":
            return
        self._thread = threading.Thread(target=self._run, name="checkpointer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        engine = create_sync_engine(self.url)
        try:
            while not self._stop.wait(self.interval_s):
                try:
                    with engine.connect() as conn:
                        conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
                except Exception:
                    log.exception("WAL checkpoint failed; trying again in %g s", self.interval_s)
                else:
                    self.checkpoints += 1
        finally:
            engine.dispose()


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
