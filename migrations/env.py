"""Alembic environment: async engines, batch mode for SQLite, and a caller's connection.

When the server migrates at start it passes its own connection in
``config.attributes["connection"]`` (it runs inside an event loop already);
the ``alembic`` command line builds an async engine from the URL instead.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from server.storage.engine import create_engine
from server.storage.models import Base

config = context.config
target_metadata = Base.metadata


def run_with(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_async() -> None:
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    try:
        async with engine.begin() as conn:
            await conn.run_sync(run_with)
    finally:
        await engine.dispose()


if context.is_offline_mode():
    run_offline()
elif (given := config.attributes.get("connection")) is not None:
    run_with(given)
else:
    asyncio.run(run_async())
