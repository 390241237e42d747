"""What every admin action shares: its declaration, refusals, the checked database, players."""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.storage.models import Player


class AdminError(Exception):
    """A request this command refuses; the message says why."""


@dataclass(frozen=True, slots=True)
class Action:
    """One ``patience-club admin`` action: its help, its arguments, and what it does (in one
    session of the database; it commits what it changes) and prints."""

    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[AsyncSession, argparse.Namespace], Awaitable[list[str]]]


@asynccontextmanager
async def checked_database(url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """Sessions of the database at ``url``, refused unless it is at the code's revision."""
    from alembic.script import ScriptDirectory

    from server.storage.engine import create_engine, sessionmaker
    from server.storage.migrate import alembic_config, current

    engine = create_engine(url)
    try:
        head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
        at = await current(engine)
        if at != head:
            raise AdminError(
                f"the database is at revision {at or 'none'}, not {head}: "
                "run 'patience-club db upgrade' first (or start the server)"
            )
        yield sessionmaker(engine)
    finally:
        await engine.dispose()


async def find_player(db: AsyncSession, who: str) -> Player:
    """The player ``who`` names: an id or a name (without regard to case)."""
    query = select(Player).where(
        Player.id == int(who) if who.isdigit() else Player.name_key == who.lower()
    )
    player = (await db.execute(query)).scalar_one_or_none()
    if player is None:
        raise AdminError(f"no player {who!r}")
    return player
