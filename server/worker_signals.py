"""What every worker process of the server does first: ignore SIGINT and SIGTERM.

A Ctrl-C in a terminal (``make run``) or a service stop reaches the whole process
group, workers included; a worker that took it would die mid-task and print a
``KeyboardInterrupt`` traceback. The server stops its workers itself, after its
graceful shutdown (closing a pipe, shutting a pool down), and a server that dies
closes their pipes too.
"""

from __future__ import annotations

import signal


def ignore_stop_signals() -> None:
    """Ignore SIGINT and SIGTERM in this process (a worker's first act, or a pool's
    ``initializer``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
