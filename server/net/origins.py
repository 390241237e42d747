"""Which pages may open a WebSocket to this server: the ``Origin`` rule.

A browser sends ``Origin`` with every WebSocket handshake and lets any page
open one to any server: without this rule, any page a player visits could
use the player's browser (and address) to spend that address's
registrations and connections, or reach a server that listens only on
localhost or a LAN. The rule:

- no ``Origin`` header: not a browser (the terminal client, the bot,
  scripts): welcome;
- an origin whose host and port are the request's ``Host``: the server's
  own pages: welcome;
- an origin in ``allowed_origins`` (exact ``scheme://host[:port]``, as a
  browser writes it; for a site behind a reverse proxy that rewrites
  ``Host``): welcome;
- anything else, ``null`` included: refused with HTTP 403 before the
  handshake.

Pure; docs/operating.md ("Behind a reverse proxy") tells operators.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def parse_origins(text: str) -> frozenset[str]:
    """The origins of a comma-separated setting, normalised (lower case, no trailing slash)."""
    return frozenset(o.strip().rstrip("/").lower() for o in text.split(",") if o.strip())


def _host_port(host: str, scheme: str) -> tuple[str, int | None]:
    host = host.strip().lower()
    if host.startswith("["):  # [v6]:port
        end = host.find("]")
        name, rest = host[1:end], host[end + 1 :]
        port = rest[1:] if rest.startswith(":") else ""
    elif ":" in host:
        name, port = host.rsplit(":", 1)
    else:
        name, port = host, ""
    if port:
        return name, int(port) if port.isdigit() else -1
    return name, _DEFAULT_PORTS.get(scheme)


@dataclass(frozen=True, slots=True)
class OriginPolicy:
    """The origins this server's WebSocket accepts besides its own."""

    allowed: frozenset[str] = frozenset()

    def allows(self, origin: str | None, host: str | None) -> bool:
        """Whether a handshake with ``Origin: origin`` sent to ``Host: host`` may go on."""
        if origin is None:
            return True
        origin = origin.strip().rstrip("/").lower()
        if origin in self.allowed:
            return True
        parts = urllib.parse.urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc or host is None:
            return False  # "null", file://, a browser extension's page
        return _host_port(parts.netloc, parts.scheme) == _host_port(host, parts.scheme)
