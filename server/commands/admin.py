"""``patience-club admin``: look after a community server's players from the command line.

``list-players``, ``rename``, ``ban``, ``unban`` and ``reset-token`` work on
the database directly (the server may be running: SQLite in WAL mode lets
both write). They never migrate it: a database behind the code is refused.
A ban takes effect at the player's next ``hello``; a new token is printed
once and never stored in clear.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import secrets
from typing import Any

from server.config import ConfigError, load

ACTIONS = ("list-players", "rename", "ban", "unban", "reset-token")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "admin",
        help="manage players: list, rename, ban, unban, reset a token",
        description="Manage the players of a server's database. PLAYER is an id or a name.",
    )
    parser.add_argument("action", choices=ACTIONS)
    parser.add_argument("player", nargs="?", help="id or name (every action but list-players)")
    parser.add_argument("new_name", nargs="?", help="the new name (rename)")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL (default from config)")
    parser.add_argument("--config", default=None, help="TOML file of settings")


class AdminError(Exception):
    """A request this command refuses; the message says why."""


async def _run(url: str, args: argparse.Namespace) -> list[str]:
    from alembic.script import ScriptDirectory
    from sqlalchemy import func, select

    from server.storage.engine import create_engine, sessionmaker
    from server.storage.migrate import alembic_config, current
    from server.storage.models import Game, Player
    from server.storage.queries import players
    from shared.protocol import NAME_RE

    engine = create_engine(url)
    try:
        head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
        at = await current(engine)
        if at != head:
            raise AdminError(
                f"the database is at revision {at or 'none'}, not {head}: "
                "run 'patience-club db upgrade' first (or start the server)"
            )
        async with sessionmaker(engine)() as db:
            if args.action == "list-players":
                counts = (
                    select(Game.player_id, func.count().label("games"))
                    .group_by(Game.player_id)
                    .subquery()
                )
                rows = await db.execute(
                    select(Player, func.coalesce(counts.c.games, 0))
                    .outerjoin(counts, counts.c.player_id == Player.id)
                    .order_by(Player.id)
                )
                lines = [f"{'id':>6}  {'name':<24}  {'games':>6}  {'since':<10}  banned"]
                for player, games in rows:
                    since = datetime.datetime.fromtimestamp(
                        player.created_ms / 1000, tz=datetime.UTC
                    ).date()
                    banned = "yes" if player.banned else ""
                    lines.append(
                        f"{player.id:>6}  {player.name:<24}  {games:>6}  {since}  {banned}"
                    )
                return lines
            if not args.player:
                raise AdminError(f"{args.action} needs a PLAYER (an id or a name)")
            query = select(Player).where(
                Player.id == int(args.player)
                if args.player.isdigit()
                else Player.name_key == args.player.lower()
            )
            player = (await db.execute(query)).scalar_one_or_none()
            if player is None:
                raise AdminError(f"no player {args.player!r}")
            if args.action == "rename":
                new = args.new_name or ""
                if not NAME_RE.fullmatch(new):
                    raise AdminError(f"name {new!r} is not 1 to 24 ASCII letters, digits, _ or -")
                taken = await db.scalar(
                    select(Player.id).where(Player.name_key == new.lower(), Player.id != player.id)
                )
                if taken is not None:
                    raise AdminError(f"name {new!r} is taken by player {taken}")
                old = player.name
                player.name, player.name_key = new, new.lower()
                message = f"player {player.id} renamed from {old!r} to {new!r}"
            elif args.action in ("ban", "unban"):
                player.banned = args.action == "ban"
                message = f"player {player.id} ({player.name}) {args.action}ned"
            else:
                token = secrets.token_urlsafe(24)
                player.token_hash = players.hash_token(token)
                message = f"player {player.id} ({player.name}) has a new token: {token}"
            await db.commit()
            return [message]
    finally:
        await engine.dispose()


def run(args: argparse.Namespace) -> int:
    try:
        config = load(args.config, overrides={"db": args.db})
    except ConfigError as exc:
        print(f"patience-club admin: {exc}")
        return 2
    try:
        lines = asyncio.run(_run(config.db, args))
    except AdminError as exc:
        print(f"patience-club admin: {exc}")
        return 1
    for line in lines:
        print(line)
    return 0
