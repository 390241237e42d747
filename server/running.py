"""Running one server in the foreground until SIGTERM or SIGINT (``patience-club serve``).

What a served process adds to an app: the interpreter's tuning and its thaws
(server/observe/runtime.py), the lines that say where to connect, the stall
tracer when ``PATIENCE_STALL_TRACE`` names its file, and a stop on a signal.
The app is built by :func:`server.app.serve_until_signalled`, and known here
only by what is used of it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from typing import Protocol

from server.config import Config
from server.observe.stalls import StallTracer
from server.storage.writer import Writer

log = logging.getLogger("server")


class Running(Protocol):
    """What running an app uses of it."""

    writer: Writer

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    @property
    def port(self) -> int: ...

    @property
    def metrics_port(self) -> int | None: ...


async def run_until_signalled(app: Running, config: Config) -> None:
    """Start ``app``, serve until SIGTERM or SIGINT, then stop it."""
    from server.observe import runtime

    await app.start()  # raises ClusterError when it cannot join the other nodes
    tracer = _stall_tracer(app.writer)
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
    log.info("signal received")
    thawing.cancel()
    await app.stop()
    if tracer is not None:
        tracer.write()


def _stall_tracer(writer: Writer) -> StallTracer | None:
    """The stall tracer when ``PATIENCE_STALL_TRACE`` names its file (server/observe/stalls.py)."""
    path = os.environ.get("PATIENCE_STALL_TRACE")
    if not path:
        return None
    tracer = StallTracer(path)
    tracer.install(asyncio.get_running_loop())
    tracer.trace_writer(writer)
    return tracer
