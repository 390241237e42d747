"""``patience-club bot``: a greedy scripted player, solo or in a friend's race."""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
from pathlib import Path
from typing import Any

from client.app import DEFAULT_SERVER
from client.bot import HUMAN_DELAY, Bot
from client.catalog import Catalog
from client.config import TokenStore, config_dir
from client.connection import Connection, describe
from shared.errors import ProtocolError

#: where the account of a bot run without ``--name`` is kept
DEFAULT_BOT = "default"


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "bot", help="a scripted player", description="A greedy bot that plays the server's hints."
    )
    parser.add_argument("--server", default=DEFAULT_SERVER, help="server URL (%(default)s)")
    parser.add_argument(
        "--variant",
        help="variant id, as the server lists them (default: the one the server offers first "
        "for races)",
    )
    parser.add_argument("--seed", type=int, help="deal to play (default: the server picks)")
    parser.add_argument("--games", type=int, default=1, help="solo games to play in a row")
    parser.add_argument("--race", metavar="CODE", help="join this race room and play its races")
    parser.add_argument("--races", type=int, default=1, help="races to play in the room")
    parser.add_argument(
        "--name",
        help="bot's player name (default: the bot account this machine registered on that "
        "server before, else a new bot-XXXX)",
    )
    parser.add_argument(
        "--delay",
        type=float,
        default=HUMAN_DELAY,
        help="seconds between moves: a person's pace by default (%(default)s)",
    )
    parser.add_argument("--max-actions", type=int, default=400, help="resign after this many")


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_main(args))
    except KeyboardInterrupt:
        return 130


def bot_account(server: str, name: str | None, root: Path | None = None) -> tuple[str, TokenStore]:
    """The name the bot plays as on ``server`` and the store that keeps its token.

    A named bot keeps its token under ``bots/NAME/``; without a name the bot
    reuses the account it registered on that server the first time (kept under
    ``bots/default/``), so that running it again never makes a new player.
    """
    bots = (config_dir() if root is None else root) / "bots"
    if name:
        return name, TokenStore(bots / name)
    store = TokenStore(bots / DEFAULT_BOT)
    account = store.get(server)
    return (account.name if account else f"bot-{secrets.token_hex(2)}"), store


async def _main(args: argparse.Namespace) -> int:
    name, store = bot_account(args.server, args.name)
    conn = Connection(args.server, store=store, name=name, bot=True, client="patience-club-bot/0.1")

    def log(line: str) -> None:
        print(f"[{name}] {line}", flush=True)

    try:
        await conn.open()
    except (ProtocolError, OSError, ConnectionError, TimeoutError) as exc:
        print(f"patience-club bot: {describe(exc)}", file=sys.stderr)
        return 1
    bot = Bot(conn, seed=args.seed or 1, delay=args.delay, max_actions=args.max_actions, log=log)
    try:
        if args.race:
            await bot.play_race(args.race.upper(), args.races)
        else:
            variant = args.variant or Catalog(lambda: conn.server_info).race_default()
            if variant is None:
                print("patience-club bot: the server deals no variant", file=sys.stderr)
                return 1
            for _ in range(args.games):
                await bot.play_solo(variant, args.seed)
    except (ProtocolError, ConnectionError, TimeoutError) as exc:
        print(f"patience-club bot: {describe(exc)}", file=sys.stderr)
        return 1
    finally:
        await conn.close()
    return 0
