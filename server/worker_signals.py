"""What every worker process of the server does first: ignore SIGINT and SIGTERM, and
end itself when the server is gone.

A Ctrl-C in a terminal (``make run``) or a service stop reaches the whole process
group, workers included; a worker that took it would die mid-task and print a
``KeyboardInterrupt`` traceback. The server stops its workers itself, after its
graceful shutdown (closing a pipe, shutting a pool down).

A server killed outright (``kill -9``, the OOM killer) stops nothing: a pool's
worker holds its own ends of the pool's queues, so it would wait for work for
ever, and keep the server's standard output open. So each worker watches its
parent and ends itself within :data:`WATCH_S` of the parent's death.
"""

from __future__ import annotations

import os
import signal
import threading
import time

#: how often a worker looks whether its server is still there
WATCH_S = 0.5


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_S)
    os._exit(0)  # the server is gone: nobody will ever ask this worker anything


def ignore_stop_signals() -> None:
    """Ignore SIGINT and SIGTERM in this process and end it when its parent ends (a
    worker's first act, or a pool's ``initializer``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    threading.Thread(
        target=_watch_parent, args=(os.getppid(),), name="parent-watch", daemon=True
    ).start()
