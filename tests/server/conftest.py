"""The real server on 127.0.0.1, port 0, on a real database, and real clients.

``server`` starts an :class:`App` in the test's event loop; ``connect``
opens WebSocket clients that speak msgpack through :class:`Client`.

The database is ``db_url``: an SQLite file in tmp_path, copied from one
migrated once per session; for the tests of :data:`BOTH_DATABASES` also a
PostgreSQL database (tests/server/databases.py), so that each of those runs
twice, ``[sqlite]`` and ``[postgresql]``.
"""

from __future__ import annotations

import asyncio
import itertools
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect

from server.app import App
from server.config import Config
from server.storage.engine import create_engine
from server.storage.migrate import upgrade
from tests.server import databases

#: the folders of tests/server whose tests run on PostgreSQL as well as on SQLite: storage,
#: and the features whose queries and writes use the database. Their PostgreSQL runs cost
#: about 100 s of test time (50 s of the suite's wall time on 2 cores); the other folders
#: (commands, net, observe) pass on PostgreSQL too but would add 52 runs, about 30 s of wall
#: time, for code that reads and writes through the same queries, and the suite must stay
#: under 8 minutes.
BOTH_DATABASES = frozenset(
    {"storage", "games", "daily", "races", "review", "players", "challenges", "arenas"}
    | {"seasons", "profiles"}
)


class FakeClock:
    """Milliseconds that move only when a test says so."""

    def __init__(self, start: int = 1_800_000_000_000) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


class Client:
    """A protocol client over a real WebSocket: ``request`` sends and waits for the reply."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self._ids = itertools.count(1)
        self.received: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(msgpack.packb(message))

    async def recv(self) -> dict[str, Any]:
        data = await self.ws.recv()
        assert isinstance(data, bytes), "the server sends binary frames only"
        message = msgpack.unpackb(data)
        self.received.append(message)
        return message  # type: ignore[no-any-return]

    async def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        rid = next(self._ids)
        await self.send({"type": kind, "id": rid, **fields})
        while True:
            reply = await self.recv()
            if reply.get("re") == rid:
                return reply

    async def hello(self, name: str) -> dict[str, Any]:
        reply = await self.request("hello", protocol=2, client="tests/1", name=name)
        assert reply["type"] == "welcome", reply
        return reply

    async def start(
        self, variant: str = "freecell", seed: int = 617, **options: Any
    ) -> dict[str, Any]:
        reply = await self.request("start_game", variant=variant, seed=seed, options=options)
        assert reply["type"] == "game", reply
        return reply["game"]  # type: ignore[no-any-return]

    async def move(self, game: dict[str, Any], move: str) -> dict[str, Any]:
        return await self.request("move", game=game["id"], ply=game["ply"], move=move)


Connect = Callable[..., Awaitable[Client]]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="session")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One database migrated by the real migrations; each test starts from a copy of it."""
    path = tmp_path_factory.mktemp("template") / "migrated.db"

    asyncio.run(upgrade_and_dispose(create_engine(f"sqlite+aiosqlite:///{path}")))
    return path


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sqlite_only: a test of what SQLite alone does (runs on SQLite only)"
    )


#: the fixtures that name a database, each run on both for the tests of BOTH_DATABASES
DATABASE_FIXTURES = ("db_url", "empty_db_url")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run the tests of :data:`BOTH_DATABASES` that use a database on both databases."""
    if metafunc.definition.get_closest_marker("sqlite_only"):
        return
    parts = metafunc.definition.path.relative_to(Path(__file__).parent).parts
    if len(parts) < 2 or parts[0] not in BOTH_DATABASES:
        return
    for name in DATABASE_FIXTURES:
        if name in metafunc.fixturenames:
            metafunc.parametrize(name, ["sqlite", "postgresql"], indirect=True)
            return


@pytest.fixture(scope="session")
def postgres_db() -> Iterator[str]:
    """One PostgreSQL database of this test process, migrated once (its async URL)."""
    databases.require()
    name = databases.new_name("test")
    url = databases.create(name)
    engine = create_engine(url)
    try:
        asyncio.run(upgrade_and_dispose(engine))
        yield url
    finally:
        databases.drop(name)


async def upgrade_and_dispose(engine: AsyncEngine) -> None:
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a migrated database holding nothing, this test's alone: an SQLite file
    (``sqlite``, the default) or the process's PostgreSQL database emptied (``postgresql``)."""
    if getattr(request, "param", "sqlite") == "postgresql":
        url: str = request.getfixturevalue("postgres_db")
        databases.empty(url)
        return url
    shutil.copy(request.getfixturevalue("migrated"), tmp_path / "test.db")
    return f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"


@pytest.fixture
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a database with nothing in it, not even a schema, this test's alone: a new
    SQLite file, or a new PostgreSQL database (dropped after the test: that costs a second)."""
    if getattr(request, "param", "sqlite") != "postgresql":
        yield f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
    else:
        yield from new_postgres_database()


@pytest.fixture
def empty_postgres_url() -> Iterator[str]:
    """A new PostgreSQL database with nothing in it, dropped after the test."""
    yield from new_postgres_database()


def new_postgres_database() -> Iterator[str]:
    databases.require()
    name = databases.new_name("empty")
    try:
        yield databases.create(name)
    finally:
        databases.drop(name)


@pytest.fixture
def config(db_url: str) -> Config:
    return Config(
        host="127.0.0.1",
        port=0,
        db=db_url,
        hint_budget=0.05,
        daily_ahead=False,  # no daily deals solved in the background of every test
        # searches in the server's process: starting worker processes for every test would cost
        # more than the tests; test_searches.py runs them (and the kill -9 test, the defaults)
        stuck_workers=0,
        deal_pool_workers=0,  # no pools filled in the background (tests/server/deals fill them)
        metrics_port=0,  # /metrics on a free port of its own: tests run side by side
    )


@pytest.fixture
async def server(config: Config, clock: FakeClock) -> AsyncIterator[App]:
    app = App(config, clock=clock)
    await app.start()
    try:
        yield app
    finally:
        await app.stop()


ServeWith = Callable[..., Awaitable[App]]


@pytest.fixture
async def serve_with(config: Config, clock: FakeClock) -> AsyncIterator[ServeWith]:
    """Start a server with some settings changed (``await serve_with(rate_limit=5)``)."""
    apps: list[App] = []

    async def start(**changes: Any) -> App:
        app = App(config.replace(**changes), clock=clock)
        await app.start()
        apps.append(app)
        return app

    yield start
    for app in apps:
        await app.stop()


#: a test client that left pushes unread closes without waiting long for the server's answer
CLOSE_TIMEOUT_S = 1


async def open_client(app: App, **kwargs: Any) -> Client:
    kwargs.setdefault("close_timeout", CLOSE_TIMEOUT_S)
    ws = await ws_connect(f"ws://127.0.0.1:{app.port}/ws", max_size=None, **kwargs)
    return Client(ws)


@pytest.fixture
async def connect(server: App) -> AsyncIterator[Connect]:
    opened: list[ClientConnection] = []

    async def open_client(**kwargs: Any) -> Client:
        kwargs.setdefault("close_timeout", CLOSE_TIMEOUT_S)
        ws = await ws_connect(f"ws://127.0.0.1:{server.port}/ws", max_size=None, **kwargs)
        opened.append(ws)
        return Client(ws)

    yield open_client
    for ws in opened:
        await ws.close()


@pytest.fixture
async def player(connect: Connect) -> Client:
    client = await connect()
    await client.hello("alice")
    return client
