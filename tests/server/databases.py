"""The databases tests run on: SQLite files, and PostgreSQL databases made for one test each.

PostgreSQL is found at ``PATIENCE_TEST_POSTGRES`` (default
``postgresql://postgres@127.0.0.1:5432/postgres``, trust authentication): that
URL is only where databases are created and dropped; every test gets a
database of its own, named after this process so that test runs side by
side (other checkouts on one machine, xdist workers) never share one. When
the server is absent its tests skip with one line; with ``CI=true`` they fail.

A database is not made afresh for every test: ``CREATE DATABASE ... TEMPLATE``
takes 0.1 s here, but ``DROP DATABASE`` forces a checkpoint, 1 to 2 s on
this machine. Each test process migrates one database once, and every test
starts from it emptied (:func:`empty`: a few milliseconds), which is the
state a copy of the migrated template would be in.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Mapping, Sequence
from typing import Any

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from server.storage.engine import create_sync_engine

ADMIN_URL = os.environ.get(
    "PATIENCE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres"
)

_names = itertools.count(1)


def _admin_dsn() -> str:
    url = make_url(ADMIN_URL).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def unreachable() -> str | None:
    """Why PostgreSQL cannot be used, or None when it answers."""
    try:
        with psycopg.connect(_admin_dsn(), connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0]}"
    return None


def require() -> None:
    """Skip the test when PostgreSQL is absent (fail under ``CI=true``, where it must be)."""
    why = unreachable()
    if why is None:
        return
    line = f"PostgreSQL is not reachable at {make_url(ADMIN_URL).render_as_string()}: {why}"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{line} (CI=true: the PostgreSQL tests must run)")
    pytest.skip(line)


def new_name(kind: str) -> str:
    """A database name no other process uses: ``pc_<kind>_<pid>_<n>``."""
    return f"pc_{kind}_{os.getpid()}_{next(_names)}"


def async_url(name: str) -> str:
    """The server's URL of database ``name`` (asyncpg)."""
    url = make_url(ADMIN_URL).set(drivername="postgresql+asyncpg", database=name)
    return url.render_as_string(hide_password=False)


def create(name: str, *, template: str | None = None) -> str:
    """Create database ``name`` (a copy of ``template`` when given); its async URL."""
    copy = "" if template is None else f' TEMPLATE "{template}" STRATEGY FILE_COPY'
    with psycopg.connect(_admin_dsn(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"{copy}'.encode())
    return async_url(name)


def drop(name: str) -> None:
    """Drop database ``name``, closing whatever is still connected to it."""
    with psycopg.connect(_admin_dsn(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())


def empty(url: str) -> None:
    """Delete every row but the schema's revision and restart the id sequences."""
    from server.storage.models import Base

    engine = create_sync_engine(url)
    try:
        with engine.begin() as conn:
            for table in reversed(Base.metadata.sorted_tables):
                conn.execute(table.delete())
            sequences = conn.exec_driver_sql(
                "SELECT schemaname, sequencename FROM pg_sequences "
                "WHERE schemaname = current_schema()"
            )
            for schema, sequence in list(sequences):
                conn.exec_driver_sql(f'ALTER SEQUENCE "{schema}"."{sequence}" RESTART')
    finally:
        engine.dispose()


def backend(url: str) -> str:
    """``sqlite`` or ``postgresql``: which database a server URL names."""
    return make_url(url).get_backend_name()


def run_sql(
    url: str, statement: str, params: Mapping[str, Any] | None = None
) -> Sequence[tuple[Any, ...]]:
    """Run one statement (``:name`` parameters) on the database of a server URL, committed;
    its rows (empty for a statement that returns none), as an operator's tool would see them."""
    engine = create_sync_engine(url)
    try:
        with engine.begin() as conn:
            result = conn.execute(text(statement), dict(params or {}))
            return [tuple(row) for row in result] if result.returns_rows else []
    finally:
        engine.dispose()
