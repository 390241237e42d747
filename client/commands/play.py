"""``patience-club play``: the terminal app."""

from __future__ import annotations

import argparse
from typing import Any

from client.app import DEFAULT_SERVER


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "play", help="play in the terminal", description="Play Patience Club in the terminal."
    )
    parser.add_argument("--server", default=DEFAULT_SERVER, help="server URL (%(default)s)")
    parser.add_argument("--name", help="player name to register on first use of this server")


def run(args: argparse.Namespace) -> int:
    from client.app import PatienceApp

    result = PatienceApp(args.server, name=args.name).run()
    return int(result or 0)
