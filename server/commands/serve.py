"""``patience-club serve``: run the server until SIGTERM or SIGINT."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
from types import MappingProxyType
from typing import Any

from server.config import Config, ConfigError, load

#: flag -> Config field; each flag overrides its ``PATIENCE_*`` variable and the file
FLAGS: MappingProxyType[str, tuple[str, type, str]] = MappingProxyType(
    {
        "--host": ("host", str, "address to listen on (default 127.0.0.1)"),
        "--port": ("port", int, "port for WebSocket /ws and HTTP /healthz (default 8765)"),
        "--db": ("db", str, "SQLAlchemy URL (default sqlite+aiosqlite:///data/patience.db)"),
        "--name": ("name", str, "server name shown to players"),
        "--rate-limit": ("rate_limit", float, "messages per second per connection (default 50)"),
        "--rate-burst": ("rate_burst", int, "burst above the rate (default 100)"),
        "--max-connections": ("max_connections", int, "connections in all (default 4096)"),
        "--max-connections-per-ip": ("max_connections_per_ip", int, "per address (default 64)"),
        "--max-message-bytes": ("max_message_bytes", int, "largest inbound frame (default 16384)"),
        "--send-queue": ("send_queue", int, "messages queued for a slow reader (default 256)"),
        "--commit-delay-ms": ("commit_delay_ms", float, "wait to group commits (default 0)"),
        "--hint-budget": ("hint_budget", float, "seconds of solver per hint (default 1)"),
        "--hint-concurrency": ("hint_concurrency", int, "hints computed at once (default 2)"),
        "--registration-limit": (
            "registration_limit",
            int,
            "registrations per address per hour; 0 for no limit (default 20)",
        ),
        "--max-actions": ("max_actions", int, "actions one game may hold (default 5000)"),
        "--race-abandon-s": (
            "race_abandon_s",
            int,
            "seconds a racer may be gone during a race before being resigned (default 120)",
        ),
        "--review-min-actions": (
            "review_min_actions",
            int,
            "ranked results with fewer actions are never held for review (default 20)",
        ),
        "--review-median-ms": (
            "review_median_ms",
            int,
            "ranked results whose median gap is below this are held for review (default 200)",
        ),
        "--stuck-workers": (
            "stuck_workers",
            int,
            "processes for stuck searches; 0 searches in the server process (default 2)",
        ),
        "--log-level": ("log_level", str, "DEBUG, INFO, WARNING or ERROR (default INFO)"),
        "--redis": ("redis", str, "Redis URL joining several nodes on one database (default none)"),
        "--node-id": ("node_id", str, "this node's unique name (default host name:port)"),
        "--redis-prefix": ("redis_prefix", str, "prefix of Redis keys and channels (default pc:)"),
    }
)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the server",
        description="Run the Patience Club server. Settings: defaults < --config TOML file < "
        "PATIENCE_* environment variables < flags.",
    )
    parser.add_argument("--config", help="TOML file of settings (also PATIENCE_CONFIG)")
    for flag, (dest, kind, text) in FLAGS.items():
        parser.add_argument(flag, dest=dest, type=kind, default=None, help=text)


def configure(args: argparse.Namespace) -> Config:
    overrides = {dest: getattr(args, dest, None) for dest, _, _ in FLAGS.values()}
    return load(args.config, overrides=overrides)


def setup_logging(level: str) -> None:
    logging.basicConfig(
        level=level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # websockets logs every failed handshake at INFO with a traceback; ours say enough
    logging.getLogger("websockets").setLevel(logging.WARNING)
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)


async def serve(config: Config) -> None:
    from server.app import App
    from server.observe import runtime

    app = App(config)
    await app.start()  # raises ClusterError when it cannot join the other nodes
    tracer = _stall_tracer(app)
    thawing = asyncio.create_task(runtime.thaw_every(runtime.tune()), name="gc-thaw")
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    print(f"listening on ws://{config.host}:{app.port}/ws", flush=True)
    print(f"the game is at http://{config.host}:{app.port}/", flush=True)
    await stop.wait()
    logging.getLogger("server").info("signal received")
    thawing.cancel()
    await app.stop()
    if tracer is not None:
        tracer.write()


def _stall_tracer(app: Any) -> Any:
    """The stall tracer when ``PATIENCE_STALL_TRACE`` names its file (server/observe/stalls.py)."""
    path = os.environ.get("PATIENCE_STALL_TRACE")
    if not path:
        return None
    from server.observe.stalls import StallTracer

    tracer = StallTracer(path)
    tracer.install(asyncio.get_running_loop())
    tracer.trace_writer(app.writer)
    return tracer


def run(args: argparse.Namespace) -> int:
    try:
        config = configure(args)
    except ConfigError as exc:
        print(f"patience-club serve: {exc}")
        return 2
    setup_logging(config.log_level)
    from server.cluster.node import ClusterError

    try:
        asyncio.run(serve(config))
    except ClusterError as exc:
        print(f"patience-club serve: {exc}", flush=True)
        return 2
    return 0
