"""``patience-club bot``: a greedy scripted player, solo or in a friend's race."""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
from typing import Any

from client.app import DEFAULT_SERVER
from client.bot import Bot
from client.config import TokenStore, config_dir
from client.connection import Connection, describe
from shared.errors import ProtocolError


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "bot", help="a scripted player", description="A greedy bot that plays the server's hints."
    )
    parser.add_argument("--server", default=DEFAULT_SERVER, help="server URL (%(default)s)")
    parser.add_argument(
        "--variant", default="freecell", help="variant id, as the server lists them (%(default)s)"
    )
    parser.add_argument("--seed", type=int, help="deal to play (default: the server picks)")
    parser.add_argument("--games", type=int, default=1, help="solo games to play in a row")
    parser.add_argument("--race", metavar="CODE", help="join this race room and play its races")
    parser.add_argument("--races", type=int, default=1, help="races to play in the room")
    parser.add_argument("--name", help="bot's player name (default: bot-XXXX)")
    parser.add_argument("--delay", type=float, default=0.2, help="seconds between moves")
    parser.add_argument("--max-actions", type=int, default=400, help="resign after this many")


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_main(args))
    except KeyboardInterrupt:
        return 130


async def _main(args: argparse.Namespace) -> int:
    name = args.name or f"bot-{secrets.token_hex(2)}"
    # Each bot name keeps its own token, so that several bots can run from one account.
    store = TokenStore(config_dir() / "bots" / name)
    conn = Connection(
        args.server, store=store, name=name, bot=True, client="patience-club-bot/0.1"
    )

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
            for _ in range(args.games):
                await bot.play_solo(args.variant, args.seed)
    except (ProtocolError, ConnectionError, TimeoutError) as exc:
        print(f"patience-club bot: {describe(exc)}", file=sys.stderr)
        return 1
    finally:
        await conn.close()
    return 0
