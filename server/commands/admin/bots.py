"""Bot accounts: ``remove-bots [PLAYER ...] [--dry-run]``.

Removes bot accounts (registered as bots: ``players.bot``) and what only
they own: their games and actions, daily attempts, held results and room
memberships (a room with nobody but bots in it goes too; one a bot hosted
hands on to the next member). A person's account and data are never
touched: naming a player who is not a bot is refused. ``--dry-run`` prints
what would go and changes nothing. On a running server the server does it
(it closes the bots' connections and takes them out of its rooms first);
with the server stopped, ``--offline``.
"""

from __future__ import annotations

import argparse
from types import MappingProxyType

from sqlalchemy.ext.asyncio import AsyncSession

from server.commands.admin.asking import ask, waiting_arguments
from server.commands.admin.common import Action, AdminError, find_player
from server.storage.queries import bots as store
from server.storage.queries import requests

#: players one command may name (the request carries their ids)
MAX_NAMED = 50


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "players", nargs="*", metavar="PLAYER", help="only these bots (ids or names); default all"
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="print what would be removed, change nothing"
    )
    waiting_arguments(parser, offline=True)


async def remove_bots(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    ids: list[int] | None = None
    if args.players:
        if len(args.players) > MAX_NAMED:
            raise AdminError(f"name at most {MAX_NAMED} players at once (or none: every bot)")
        ids = []
        for who in args.players:
            player = await find_player(db, who)
            if not player.bot:
                raise AdminError(
                    f"player {player.id} ({player.name}) is not a bot: "
                    "remove-bots never removes a person's account"
                )
            ids.append(player.id)
    found = await store.count(db, ids)
    if args.dry_run:
        return ["would remove:", *found.lines(), "dry run: nothing changed"]
    if not found.bots:
        return ["no bot accounts: nothing to remove"]

    async def offline(db: AsyncSession) -> tuple[bool, str]:
        removal = await store.remove(db, ids)
        return True, "\n".join(["removed (the server is stopped):", *removal.lines()])

    target = None if ids is None else ",".join(map(str, ids))
    return await ask(db, args, requests.REMOVE_BOTS, target, offline)


ACTIONS = MappingProxyType({
    "remove-bots": Action("remove bot accounts and what only they own (games, attempts, room "
                          "memberships); never a person's data; --dry-run to see first",
                          _arguments, remove_bots),
})  # fmt: skip
