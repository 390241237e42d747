"""The databases a benchmark runs the server on: ``sqlite``, ``postgresql`` or a URL.

``sqlite`` is a file in the benchmark's temporary directory; ``postgresql``
a database created for the run on the server at ``PATIENCE_BENCH_POSTGRES``
(default ``postgresql://postgres@127.0.0.1:5432/postgres``, trust
authentication) and dropped at the end; anything else is an SQLAlchemy URL
used as it is (its database must be empty or migrated by this version).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from sqlalchemy.engine import make_url

ADMIN_URL = os.environ.get(
    "PATIENCE_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres"
)
KINDS = ("sqlite", "postgresql")


def label(spec: str) -> str:
    """What a database is called in the benchmark's output: its kind (a URL's backend)."""
    return spec if spec in KINDS else make_url(spec).get_backend_name()


@contextlib.contextmanager
def temporary(spec: str, directory: str, name: str) -> Iterator[str]:
    """The server URL of database ``spec`` for this run (``name`` tells runs apart)."""
    if spec == "sqlite":
        yield f"sqlite+aiosqlite:///{directory}/{name}.db"
        return
    if spec != "postgresql":
        yield spec
        return
    import psycopg

    admin = make_url(ADMIN_URL).set(drivername="postgresql")
    database = f"pc_bench_{os.getpid()}_{name}"
    dsn = admin.render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{database}"'.encode())
    try:
        url = admin.set(drivername="postgresql+asyncpg", database=database)
        yield url.render_as_string(hide_password=False)
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'.encode())
