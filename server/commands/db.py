"""``patience-club db upgrade|current``: apply or show the schema migrations."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from server.config import ConfigError, load


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("db", help="database schema (migrations)")
    parser.add_argument("action", choices=["upgrade", "current"])
    parser.add_argument("--revision", default="head", help="target of upgrade (default head)")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL (default from config)")
    parser.add_argument("--config", default=None, help="TOML file of settings")


async def _run(url: str, action: str, revision: str) -> str | None:
    from server.storage.engine import create_engine
    from server.storage.migrate import current, upgrade

    engine = create_engine(url)
    try:
        if action == "upgrade":
            await upgrade(engine, revision)
        return await current(engine)
    finally:
        await engine.dispose()


def run(args: argparse.Namespace) -> int:
    try:
        config = load(args.config, overrides={"db": args.db})
    except ConfigError as exc:
        print(f"patience-club db: {exc}")
        return 2
    revision = asyncio.run(_run(config.db, args.action, args.revision))
    print(f"{config.db}: at revision {revision or 'none (empty database)'}")
    return 0
