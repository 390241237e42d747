"""Two (or more) real nodes on loopback sharing one database and one Redis key prefix.

``nodes`` starts :class:`App` instances in the test's event loop, each with
its own node id, on one PostgreSQL database (the database several nodes
share; tests/server/databases.py makes it) and Redis at 127.0.0.1:6379
under a prefix of the test's own, whose keys are deleted at the end.
``own_redis`` starts a redis-server of the test's own on a free port, for
the tests that stop and restart it. Without Redis (or redis-server, or
PostgreSQL) these tests skip with one line; under CI=true they fail instead.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest
import redis

from server.app import App
from server.config import Config
from tests.server.races.conftest import races_config

REDIS_URL = "redis://127.0.0.1:6379/0"


def absent(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{why} (required under CI=true)")
    pytest.skip(why)


@pytest.fixture(scope="session")
def redis_url() -> str:
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError:
        absent(f"Redis is not running at {REDIS_URL}: the tests of several nodes are skipped")
    return REDIS_URL


@pytest.fixture
def prefix(redis_url: str) -> Iterator[str]:
    """A key prefix of the test's own; its keys are deleted at the end."""
    name = f"pctest-{uuid.uuid4().hex[:10]}:"
    yield name
    delete_keys(redis_url, name)


def delete_keys(url: str, name: str) -> None:
    with redis.Redis.from_url(url, socket_connect_timeout=1) as client:
        try:
            keys = list(client.scan_iter(match=f"{name}*"))
            if keys:
                client.delete(*keys)
        except redis.RedisError:
            pass


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Several nodes share a PostgreSQL database: these tests run on it."""
    if "db_url" in metafunc.fixturenames:
        metafunc.parametrize("db_url", ["postgresql"], indirect=True)


@pytest.fixture
def config(db_url: str, redis_url: str, prefix: str) -> Config:
    return races_config(db_url).replace(redis=redis_url, redis_prefix=prefix)


StartNode = Callable[..., Awaitable[App]]


@pytest.fixture
async def nodes(config: Config) -> AsyncIterator[StartNode]:
    """``await nodes("a")``: a node named ``a`` started on the test's database and prefix."""
    apps: list[App] = []

    async def start(node_id: str, **changes: Any) -> App:
        app = App(config.replace(node_id=node_id, **changes))
        await app.start()
        apps.append(app)
        return app

    yield start
    for app in reversed(apps):
        if app._server is not None:  # not stopped by the test itself
            await app.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class OwnRedis:
    """A redis-server of the test's own, without persistence: a restart loses every key."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        server = shutil.which("redis-server")
        assert server is not None
        self.process = subprocess.Popen(
            [
                server,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.2)
        for _ in range(100):
            try:
                client.ping()
                return
            except redis.RedisError:
                import time

                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None:
        absent("redis-server is not installed: the Redis restart test is skipped")
    own = OwnRedis(free_port())
    own.start()
    try:
        yield own
    finally:
        own.stop()


async def wait_for(check: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        assert asyncio.get_running_loop().time() < deadline, f"not within {seconds:g} s"
        await asyncio.sleep(0.05)
