"""What the server says of itself in ``welcome``: its name, version, variants and message of
the day (``server_info`` of docs/protocol.md)."""

from __future__ import annotations

import importlib.metadata

from server.config import Config
from shared import protocol as p
from shared.variants import Variants


def server_version() -> str:
    """The installed package's version ("0" when run from a tree that is not installed)."""
    try:
        return importlib.metadata.version("patience-club")
    except importlib.metadata.PackageNotFoundError:
        return "0"


def server_info(config: Config, variants: Variants) -> p.ServerInfo:
    return p.ServerInfo(
        name=config.name,
        version=server_version(),
        variants=tuple(p.VariantInfo.from_map(info) for info in variants.info()),
        motd=config.motd or None,  # the message of the day
    )
