"""``patience-club play``: the terminal app."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from client.app import DEFAULT_SERVER
from client.config import read_settings
from client.i18n import LANGUAGES, choose_language


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "play", help="play in the terminal", description="Play Patience Club in the terminal."
    )
    parser.add_argument("--server", default=DEFAULT_SERVER, help="server URL (%(default)s)")
    parser.add_argument("--name", help="player name to register on first use of this server")
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="the language the client speaks (else PATIENCE_LANG, the config file's lang,"
        " the locale, English)",
    )


def run(args: argparse.Namespace) -> int:
    from client.app import PatienceApp

    settings, problem = read_settings()
    lang, ignored = choose_language(args.lang, os.environ, settings.get("lang"))
    for said in [problem, *ignored]:
        if said:
            print(f"patience-club play: ignored {said}", file=sys.stderr)
    result = PatienceApp(args.server, name=args.name, lang=lang).run()
    return int(result or 0)
