"""The real server in the test's event loop on 127.0.0.1, a real SQLite file, real clients.

The server is started as tests/server/conftest.py starts it (``server.app.App``
on a :class:`Config`), but on a port chosen up front, so that a test can stop
it and start a new one on the same address, as a restart would.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from multiprocessing import resource_tracker
from pathlib import Path

import pytest

from client.config import TokenStore
from client.connection import Connection
from client.i18n import set_language
from server.app import App
from server.config import Config


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServerControl:
    """Start, stop and restart the real server on one fixed address and database."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.app: App | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.config.port}/ws"

    async def start(self) -> App:
        self.app = App(self.config)
        await self.app.start()
        return self.app

    async def stop(self) -> None:
        if self.app is not None:
            await self.app.stop()
            self.app = None

    async def restart(self) -> App:
        await self.stop()
        return await self.start()


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[ServerControl]:
    config = Config(
        host="127.0.0.1",
        port=free_port(),
        metrics_port=0,
        db=f"sqlite+aiosqlite:///{tmp_path / 'server.db'}",
        name="Test Club",
        motd="welcome to the test club",
        hint_budget=0.05,
        # the bot asks a hint before every move at machine speed: no rate per player here
        # (the rate is the server's to test: tests/server/games/test_hints.py)
        hint_burst=0,
        race_countdown_ms=300,
        race_tick_ms=100,
        daily_ahead=False,
        daily_budget_s=2.0,
        # stuck searches in the server's own process: no two worker processes spawned (and
        # their interpreters started) for every test; the verdicts are the same
        stuck_workers=0,
    )
    # The server computes dailies in a process pool. Its resource tracker, started lazily,
    # passes stderr's descriptor to the child; under Textual's Pilot stderr is captured and
    # has none, so start the tracker before any app runs (a real server runs apart anyway).
    resource_tracker.ensure_running()
    control = ServerControl(config)
    await control.start()
    try:
        yield control
    finally:
        await control.stop()


@pytest.fixture
def store(tmp_path: Path) -> TokenStore:
    return TokenStore(tmp_path / "config" / "patience-club")


OpenConnection = Callable[..., Awaitable[Connection]]


@pytest.fixture
async def open_connection(server: ServerControl, tmp_path: Path) -> AsyncIterator[OpenConnection]:
    """Connections of distinct players (each with its own token store) to the test server."""
    opened: list[Connection] = []

    async def open_one(name: str, **kwargs: object) -> Connection:
        own = TokenStore(tmp_path / "players" / name)
        conn = Connection(
            server.url, store=own, name=name, backoff_initial=0.05, backoff_max=0.5, **kwargs
        )  # type: ignore[arg-type]
        await conn.open()
        opened.append(conn)
        return conn

    yield open_one
    for conn in opened:
        await conn.close()


@pytest.fixture(autouse=True)
def english_after_each_test() -> Iterator[None]:
    """The language is the app's, kept in client.i18n: a test that speaks French (or builds
    an app that does) leaves the next test in English."""
    yield
    set_language("en")
