"""``patience-club admin ACTION``: look after a community server from the command line.

Each area of the operator's work is a module of this package that declares
its actions (:data:`Action`): players (list, rename, ban, unban, a new
token), results held for review (list, clear, confirm), rooms (list, end a
race, close one), bot accounts (remove), arenas (list, create, cancel).
Every action works on the database directly, while the server runs or not
(SQLite in WAL mode lets both write); it never migrates it: a database behind
the code is refused. What
an action changes, a running server acts on within a second or two (it
reads the changes every second: ``server/players/changes.py``); what only
the server can do (end a race, close a room, remove bots) is a request it
takes on the same poll (``asking.py``).
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from server.commands.admin import arenas, bots, players, review, rooms
from server.commands.admin.common import Action, AdminError, checked_database
from server.config import ConfigError, load

#: every action, by its name on the command line
ACTIONS: Mapping[str, Action] = MappingProxyType(
    {**players.ACTIONS, **review.ACTIONS, **rooms.ACTIONS, **bots.ACTIONS, **arenas.ACTIONS}
)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "admin",
        help="manage players, held results, rooms and bots: list, ban, review, end-race...",
        description="Look after a server's players, results held for review, rooms and bots. "
        "Works on the database; a running server acts on changes within two seconds.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, action in ACTIONS.items():
        sub = actions.add_parser(name, help=action.help, description=action.help)
        action.arguments(sub)
        sub.add_argument("--db", default=None, help="SQLAlchemy URL (default from config)")
        sub.add_argument("--config", default=None, help="TOML file of settings")


async def _run(url: str, args: argparse.Namespace) -> list[str]:
    async with checked_database(url) as sessions, sessions() as db:
        return await ACTIONS[args.action].run(db, args)


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
