"""The ``patience-club`` console script: one subcommand per module of :mod:`server.commands`.

A subcommand module is imported only when it is used, so that ``patience-club
solve`` does not load the server's database stack and ``play`` loads the client
without the server.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from types import MappingProxyType

#: subcommand -> module that implements it (``add_parser`` and ``run``)
COMMANDS = MappingProxyType(
    {
        "serve": "server.commands.serve",
        "db": "server.commands.db",
        "solve": "server.commands.solve",
        "verify": "server.commands.verify",
        "admin": "server.commands.admin",
        "play": "client.commands.play",
        "bot": "client.commands.bot",
    }
)


def build_parser(available: dict[str, str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="patience-club", description="Patience Club: multiplayer solitaire."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module_name in available.values():
        module = importlib.import_module(module_name)
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    available: dict[str, str] = {}
    for name, module_name in COMMANDS.items():
        if importlib.util.find_spec(module_name) is not None:
            available[name] = module_name
    # Only the chosen subcommand's module is imported when one is named.
    chosen = next((a for a in args_list if not a.startswith("-")), None)
    if chosen in available:
        parser = build_parser({chosen: available[chosen]})
    else:
        parser = build_parser(available)
    args = parser.parse_args(args_list)
    module = importlib.import_module(available[args.command])
    result: int = module.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
