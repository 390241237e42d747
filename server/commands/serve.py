"""``patience-club serve``: run the server until SIGTERM or SIGINT."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
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
    if app.metrics_port is not None:
        print(f"metrics at http://{config.metrics_host}:{app.metrics_port}/metrics", flush=True)
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
    from server.net.listening import ListenError

    try:
        asyncio.run(serve(config))
    except (ClusterError, ListenError) as exc:
        print(f"patience-club serve: {exc}", flush=True)
        return 2
    return 0
