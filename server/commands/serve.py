"""``patience-club serve``: run the server until SIGTERM or SIGINT."""

from __future__ import annotations

import argparse
import asyncio
import logging
from typing import Any

from server.commands.flags import add_setting_flags, overrides
from server.config import Config, ConfigError, load


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the server",
        description="Run the Patience Club server. Settings: defaults < --config TOML file < "
        "PATIENCE_* environment variables < flags; every setting has its flag.",
    )
    parser.add_argument("--config", help="TOML file of settings (also PATIENCE_CONFIG)")
    add_setting_flags(parser)  # one per Config field (server/commands/flags.py)


def configure(args: argparse.Namespace) -> Config:
    return load(args.config, overrides=overrides(args))


def setup_logging(level: str) -> None:
    logging.basicConfig(
        level=level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # websockets logs every failed handshake at INFO with a traceback; ours say enough
    logging.getLogger("websockets").setLevel(logging.WARNING)
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)


def run(args: argparse.Namespace) -> int:
    try:
        config = configure(args)
    except ConfigError as exc:
        print(f"patience-club serve: {exc}")
        return 2
    setup_logging(config.log_level)
    from server.app import serve_until_signalled
    from server.cluster.node import ClusterError
    from server.net.listening import ListenError

    try:
        asyncio.run(serve_until_signalled(config))
    except (ClusterError, ListenError) as exc:
        print(f"patience-club serve: {exc}", flush=True)
        return 2
    return 0
