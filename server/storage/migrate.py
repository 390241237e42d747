"""Apply Alembic migrations from code: at server start and for ``patience-club db upgrade``.

The migrations directory is found next to the installed ``migrations``
package, never relative to the working directory, so an installed server
migrates from anywhere.

Several server processes may start together on one PostgreSQL database (the
nodes of one club): each migrates at start, and one at a time. The step
runs in a transaction that first takes a transaction-level advisory lock
(``pg_advisory_xact_lock``, :data:`MIGRATION_LOCK`): the others wait for it,
then read the revision the first one committed and find nothing left to do.
The lock is released with the transaction, even when its process dies.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

import migrations

#: the key of the advisory lock migrations hold on PostgreSQL: a fixed signed 64-bit number,
#: the first eight bytes of SHA-256("patience-club migrations"), so that no other program's
#: lock on the same database is likely to share it
MIGRATION_LOCK = int.from_bytes(
    hashlib.sha256(b"patience-club migrations").digest()[:8], "big", signed=True
)


def migrations_directory() -> Path:
    """Where the ``migrations`` package lives (``__path__`` also works for a namespace package)."""
    return Path(next(iter(migrations.__path__)))


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(migrations_directory()))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Bring the database up to ``revision`` through the engine's own connection."""
    await _run(engine, command.upgrade, revision)


async def downgrade(engine: AsyncEngine, revision: str) -> None:
    """Take the database back to ``revision`` (``base``: empty)."""
    await _run(engine, command.downgrade, revision)


async def _run(engine: AsyncEngine, step: Callable[[Config, str], None], revision: str) -> None:
    """Run a migration step in one transaction.

    On SQLite a column change rebuilds its table (Alembic's batch mode: copy,
    drop, rename); with foreign keys enforced, dropping a table that others
    refer to would fail, or cascade its deletes into them (the moves of every
    game). So foreign keys are off while the step runs, as SQLite's own
    documentation prescribes, and checked once it is done, before the commit.
    """

    def run(connection: Connection) -> None:
        if connection.dialect.name == "postgresql":
            # one migrating process at a time; held until this transaction ends
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        config = alembic_config(engine.url.render_as_string(hide_password=False))
        config.attributes["connection"] = connection
        step(config, revision)
        if connection.dialect.name == "sqlite":
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")

    async with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:  # (only outside a transaction does SQLite take it)
            await conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            await conn.commit()
        try:
            async with conn.begin():
                await conn.run_sync(run)
        finally:
            if sqlite:
                await conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                await conn.commit()


async def current(engine: AsyncEngine) -> str | None:
    """The revision the database is at, or None for an empty database."""
    from alembic.runtime.migration import MigrationContext

    def read(connection: Connection) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    async with engine.connect() as conn:
        return await conn.run_sync(read)
